# BL105 false positive: a comprehension variable that shadows an outer loop variable over torch.arange.
# Dynamo 2.13: no graph break.
import torch
from torch import nn


class C1(nn.Module):
    def forward(self, x):
        out = x
        for i in torch.arange(2):
            rows = [x[i] for i in range(4)]    # BL105 on x[i]: this i is an int
            out = out + torch.stack(rows)
        return out
