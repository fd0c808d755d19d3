import torch
from .ctl import Ctl


def run(fn, x):
    with torch.no_grad():
        f = fn
        y = f(x)
    return y
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ctl = Ctl()

    def forward(self, x):
        return run(self.ctl, x) + 1
