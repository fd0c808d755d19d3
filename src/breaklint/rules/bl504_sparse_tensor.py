"""BL504: creating a sparse tensor in traced code: `torch.sparse_coo_tensor(...)`, `x.to_sparse()`.

torch.compile does not support sparse tensors. Measured on torch 2.13 CPU: sparse_coo_tensor is a
skipped function (GB0007), sparse_csr_tensor is "Sparse tensor creation not supported" (GB0374),
and `to_sparse()` / `to_sparse_csr()` return a sparse tensor Dynamo cannot wrap (GB0277); every later use of the
sparse value breaks again. Reading `x.is_sparse` and `to_dense()` of a dense tensor do not break.
"""
from __future__ import annotations

import ast

from .base import Example, Rule

LAYOUTS = ("coo", "csr", "csc", "bsr", "bsc")
CONSTRUCTORS = {f"torch.sparse_{layout}_tensor" for layout in LAYOUTS} | {"torch.sparse_compressed_tensor"}
CONVERSIONS = {"to_sparse"} | {f"to_sparse_{layout}" for layout in LAYOUTS}


class SparseTensor(Rule):
    code = "BL504"
    name = "sparse-tensor"
    summary = "creating a sparse tensor (torch.sparse_coo_tensor, x.to_sparse()) breaks the graph"
    # GB0007 for sparse_coo_tensor, GB0374 "Sparse tensor creation not supported" for
    # sparse_csr_tensor, GB0277 "Attempted to wrap sparse Tensor" for to_sparse() (all on 2.13).
    gb_ids = ("GB0007", "GB0374", "GB0277")
    fix_availability = "never"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        qual = ctx.qualify(func) or ""
        if qual in CONSTRUCTORS:
            what = f"{qual}()"
        elif isinstance(func, ast.Attribute) and func.attr in CONVERSIONS and not qual.startswith("torch.") \
                and not ctx.is_known_non_tensor(func.value):
            what = f".{func.attr}()"
        else:
            return
        ctx.report(node, f"{what} makes a sparse tensor, which torch.compile does not support: the graph "
                         "breaks here and at each use of it; keep the sparse work outside the compiled "
                         "region, or use a dense form (scatter_add / index_add over the indices)")

    VALID = [
        Example("""
import torch
from torch import nn


class Propagate(nn.Module):
    def forward(self, x, edge_index, weight):
        # the dense form of "sparse adjacency @ x": gather the sources, scatter into the targets
        out = torch.zeros_like(x)
        out.index_add_(0, edge_index[1], x[edge_index[0]] * weight[:, None])
        return out + x.to_dense()


def factory():
    edge_index = torch.tensor([[0, 1, 2], [1, 2, 0]])
    return Propagate(), (torch.randn(3, 4), edge_index, torch.rand(3))
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Propagate(nn.Module):
    def forward(self, x, edge_index, weight):
        adj = torch.sparse_coo_tensor(edge_index, weight, (x.size(0), x.size(0)))
        return adj.to_dense() @ x


def factory():
    edge_index = torch.tensor([[0, 1, 2], [1, 2, 0]])
    return Propagate(), (torch.randn(3, 4), edge_index, torch.rand(3))
""", at=((8, 15),)),
        Example("""
import torch


@torch.compile
def to_csr(values):
    adj = torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([1, 0]), values, (2, 2))
    return adj.to_dense() + 1


def factory():
    return to_csr, (torch.rand(2),)
""", at=((7, 11),)),
        Example("""
import torch
from torch import nn


class Sparsify(nn.Module):
    def forward(self, x):
        s = (x * 2).to_sparse()
        return s.to_dense() + 1


def factory():
    return Sparsify(), (torch.randn(3, 3),)
""", at=((8, 13),)),
    ]
