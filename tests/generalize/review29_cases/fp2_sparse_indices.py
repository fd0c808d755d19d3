# BL504 false positive: dense tensors derived from a sparse one in __init__ (.indices(), .values(),
# crow_indices(), .sum()) are taken for sparse tensors. Dynamo 2.13: no graph break in any class.
import torch
from torch import nn


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        adj = (torch.rand(4, 4) > 0.5).float()
        self.register_buffer("edge_index", adj.to_sparse().indices().clone())

    def forward(self, x):
        src, dst = self.edge_index                 # BL504
        return x.index_add(0, dst, x[src])


class C2(nn.Module):
    def __init__(self):
        super().__init__()
        adj = torch.eye(4)
        self.edge_index = adj.to_sparse().coalesce().indices().long()

    def forward(self, x):
        return x[self.edge_index[0]] * 2           # BL504


class C3(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("nnz_rows", torch.eye(4).to_sparse_csr().crow_indices().diff())

    def forward(self, x):
        return x * self.nnz_rows[:, None]          # BL504


class C4(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("w", torch.eye(4).to_sparse().sum())

    def forward(self, x):
        return x * self.w                          # BL504
