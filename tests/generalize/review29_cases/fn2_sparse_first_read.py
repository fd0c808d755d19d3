# BL504 (new rule): the first read in source order is under `not is_compiling()` and is dropped as dead code,
# and the read that does break is then suppressed as "not first". Dynamo 2.13: breaks at line 16
# ('Attempted to wrap sparse Tensor'); breaklint HEAD reports nothing for this file.
import torch
from torch import nn


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        self.adj = torch.eye(4).to_sparse()

    def forward(self, x):
        if not torch.compiler.is_compiling():
            print(self.adj.shape)
        return torch.sparse.mm(self.adj, x)
