# BL101 false positive (2d3b7b0): any() over an unannotated argument that is a list of bools. The argument is
# inferred to be a tensor. Dynamo 2.13: no graph break.
import torch
from torch import nn


class Inner(nn.Module):
    def forward(self, x, skip_flags):
        if any(skip_flags):          # BL101 reported here
            x = x * 2
        return x


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x, [False, True])
