import torch
from .ctl import Ctl


def run(fn, x):
    msg = {"fn": fn, "post": torch.relu}
    return msg["post"](x)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ctl = Ctl()

    def forward(self, x):
        return run(self.ctl, x) + 1
