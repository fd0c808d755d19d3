# BL502 false positive: a scripted / traced *function* kept on self is called as a "TorchScript module".
# Dynamo 2.13: no graph break in C1 or C2 (C3, a scripted module, does break: correct).
import torch
from torch import nn


def f(t):
    return t * 2


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = torch.jit.script(f)

    def forward(self, x):
        return self.fn(x)          # BL502 GB4695


class C2(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = torch.jit.trace(f, torch.randn(4, 4))

    def forward(self, x):
        return self.fn(x)          # BL502 GB4695


class C3(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.jit.script(nn.Linear(4, 4))

    def forward(self, x):
        return self.enc(x)         # BL502: correct (Dynamo: 'torch.jit.script/freeze modules unsupported')
