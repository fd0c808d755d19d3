# BL105 false positive: narrow()'s *start* may be a 0-d tensor (documented); only the length is a size.
# Dynamo 2.13: no graph break in C1; C2 (tensor length) breaks (GB0033): correct.
import torch
from torch import nn


class C1(nn.Module):
    def forward(self, x):
        start = torch.tensor(1)
        return x.narrow(0, start, 2) + torch.narrow(x, 0, start, 2)   # BL105 x2


class C2(nn.Module):
    def forward(self, x):
        n = torch.tensor([2, 2]).max()
        return x.narrow(0, 0, n)
