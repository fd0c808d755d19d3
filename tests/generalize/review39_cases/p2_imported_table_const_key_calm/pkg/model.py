import torch
from .solvers import SOLVERS


class Net(torch.nn.Module):
    def forward(self, x):
        y = SOLVERS["calm"](1.0).step(x)
        return y + 1
