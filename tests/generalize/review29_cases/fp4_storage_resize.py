# BL502 false positive: resize_() of a storage (untyped_storage().resize_(0), the memory-freeing idiom of
# torch_geometric's rev_gnn.py and FSDP-style code) taken for Tensor.resize_. Dynamo 2.13: no graph break.
import torch
from torch import nn


class C1(nn.Module):
    def forward(self, x):
        y = x.clone()
        y.untyped_storage().resize_(0)     # BL502 Tensor.resize_() (GB0126)
        return x * 2
