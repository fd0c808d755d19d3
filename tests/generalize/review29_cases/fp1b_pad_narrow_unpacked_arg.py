# BL105 false positive, still present at 1a4e294: sizes unpacked from tuple arguments, passed to F.pad / narrow
# (f3866b6 SIZE_AFTER_TENSOR / SIZE_METHODS). Dynamo 2.13: no graph break.
import torch
import torch.nn.functional as F
from torch import nn


class Inner(nn.Module):
    def forward(self, x, pads, window):
        left, right = pads
        start, length = window
        y = F.pad(x, (left, right))
        z = x.narrow(1, start, length)
        return y.sum() + z.sum()


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x, (1, 2), (0, 2))
