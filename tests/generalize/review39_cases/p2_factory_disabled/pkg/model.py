import torch
from .dists import Gauss


@torch.compiler.disable
def make(x):
    return Gauss(x)


class Net(torch.nn.Module):
    def forward(self, x):
        d = make(x)
        y = d.rsample(x)
        return y + 1
