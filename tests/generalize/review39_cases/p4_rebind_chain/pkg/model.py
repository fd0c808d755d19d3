import torch
from .ops import clip


class Net(torch.nn.Module):
    def forward(self, x):
        return clip(x) + 1
