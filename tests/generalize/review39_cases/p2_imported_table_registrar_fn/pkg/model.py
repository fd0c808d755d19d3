import torch
from .solvers import SOLVERS


class Net(torch.nn.Module):
    def __init__(self, method="shared"):
        super().__init__()
        self.method = method

    def forward(self, x):
        y = SOLVERS[self.method](1.0).step(x)
        return y + 1
