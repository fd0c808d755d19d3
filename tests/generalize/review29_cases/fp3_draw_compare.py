# BL110 false positive: a draw compared with a tensor through torch.lt/gt/ge/eq or the methods, or
# made a tensor by new_tensor(). Dynamo 2.13: no graph break (C1-C3).
import random
import torch
from torch import nn


class C1(nn.Module):
    def forward(self, x):
        d = random.uniform(0.1, 0.5)
        return torch.lt(x, d).float() + torch.gt(x, d).float()     # BL110 x2


class C2(nn.Module):
    def forward(self, x):
        d = random.uniform(0.1, 0.5)
        return torch.rand_like(x).lt(d).float() * x + x.ge(d).float() + x.eq(d).float()   # BL110 x3


class C3(nn.Module):
    def forward(self, x):
        d = random.uniform(0.1, 0.5)
        return x.new_tensor(d) + x                                 # BL110


class C4(nn.Module):
    def forward(self, x):
        d = random.uniform(0.1, 0.5)
        return torch.rsub(x, d) + torch.true_divide(x, d) + torch.multiply(x, d) + torch.subtract(x, d)   # BL110 x4
