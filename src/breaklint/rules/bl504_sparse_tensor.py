"""BL504: creating a sparse tensor in traced code: `torch.sparse_coo_tensor(...)`, `x.to_sparse()`; and the
first use of one in a traced function (made there, returned by a call, or sparse by contract).

torch.compile does not support sparse tensors. Measured on torch 2.13 CPU: sparse_coo_tensor is a
skipped function (GB0007), sparse_csr_tensor is "Sparse tensor creation not supported" (GB0374),
and `to_sparse()` / `to_sparse_csr()` return a sparse tensor Dynamo cannot wrap (GB0277); every later use of the
sparse value breaks again. Reading `x.is_sparse` and `to_dense()` of a dense tensor do not break.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.scope import self_parameter
from ..analysis.sparse import CONSTRUCTORS, CONVERSIONS, makes_sparse, may_hold_sparse, sparse_values
from .base import Example, Rule, held_values


class SparseTensor(Rule):
    code = "BL504"
    name = "sparse-tensor"
    summary = "creating a sparse tensor (torch.sparse_coo_tensor, x.to_sparse()), or using one the object keeps, breaks the graph"
    # GB0007 for sparse_coo_tensor, GB0374 "Sparse tensor creation not supported" for
    # sparse_csr_tensor, GB0277 "Attempted to wrap sparse Tensor" for to_sparse() (all on 2.13).
    gb_ids = ("GB0007", "GB0374", "GB0277", "GB0015")
    fix_availability = "never"
    node_types = (ast.Call, ast.Attribute)
    verdicts = {"2.13": True}

    def file_node_types(self, file) -> tuple:
        return (ast.Name,) if _may_hold_sparse(file) else ()

    def check(self, node, ctx) -> None:
        if not _may_hold_sparse(ctx.file):
            return
        first = self._first_use(ctx)
        if node is first:
            self._first_used(node, ctx)
        elif isinstance(first, ast.Subscript) and isinstance(node, ast.Call) and _operand_of(node) is first:
            self._first_used(first, ctx)  # `torch.sparse.mm(self.mats[i], x)`: no Subscript node comes here
        if isinstance(node, ast.Name):
            return
        if isinstance(node, ast.Attribute):
            self._held(node, ctx)
            return
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

    @staticmethod
    def _first_use(ctx) -> Optional[ast.AST]:
        """The node where the traced function first uses a sparse tensor (analysis/sparse.py)."""
        return ctx.file.memo(("BL504 first use", id(ctx.scope.func)), lambda: sparse_values(ctx.file).first_use(ctx.scope))

    def _first_used(self, node: ast.AST, ctx) -> None:
        """At the read, or at an earlier break of the frame where Dynamo wraps a sparse local it made."""
        breaks = [f.start.row for f in ctx.scope_findings() if f.gb_ids and not f.breaks_when]
        earlier = sparse_values(ctx.file).wrapped_at(ctx.scope, node, breaks)
        if earlier is None:
            self._used(node, ctx)
            return
        with ctx.elsewhere():
            ctx.report(earlier, f"`{node.id}` holds a sparse tensor the function made, and the graph breaks here: "
                                f"Dynamo then wraps it, which it cannot do (GB0015, before its use on line "
                                f"{node.lineno}), and runs the rest of the function eagerly; keep the sparse work "
                                "outside the compiled region, or use a dense form", rest_eager=True)

    def _used(self, node: ast.AST, ctx) -> None:
        """Measured on 2.13: the first use of a sparse tensor in a frame (made there, passed in, or returned
        by a call) breaks (GB0015 "Attempted to wrap sparse Tensor"), and Dynamo runs the rest of the
        frame eagerly."""
        what = f"`{node.id}`" if isinstance(node, ast.Name) else "this value"
        ctx.report(node, f"{what} is a sparse tensor, which torch.compile cannot wrap: its first use in a compiled "
                         "function breaks the graph (GB0015) and Dynamo runs the rest of the function eagerly; keep "
                         "the sparse work outside the compiled region, or use a dense form", rest_eager=True)

    def _held(self, node: ast.Attribute, ctx) -> None:
        """The first read of `self.<attr>` in a function, where the object keeps a sparse tensor (a buffer
        or an attribute made sparse in __init__): measured on 2.13, its first use breaks (GB0015
        "Attempted to wrap sparse Tensor") and the frame is skipped."""
        scope = ctx.scope
        if not isinstance(node.ctx, ast.Load) or not isinstance(node.value, ast.Name) or scope is None \
                or scope.cls is None or node.value.id != self_parameter(scope.func):
            return
        values = held_values(node, ctx)
        if not values or not all(makes_sparse(v, ctx.qualify) for v in values):
            return
        # every use breaks (the first one may sit in a branch that is not taken)
        ctx.report(node, f"self.{node.attr} holds a sparse tensor, which torch.compile does not support: using it "
                         "breaks the graph (GB0015) and Dynamo skips the frame; keep the sparse work outside "
                         "the compiled region, or hold the dense form (or its indices and values)")

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
""", at=((8, 15), (9, 16))),
        Example("""
import torch


@torch.compile
def to_csr(values):
    adj = torch.sparse_csr_tensor(torch.tensor([0, 1, 2]), torch.tensor([1, 0]), values, (2, 2))
    return adj.to_dense() + 1


def factory():
    return to_csr, (torch.rand(2),)
""", at=((7, 11), (8, 12))),
        Example("""
import torch
from torch import nn


class Sparsify(nn.Module):
    def forward(self, x):
        s = (x * 2).to_sparse()
        return s.to_dense() + 1


def factory():
    return Sparsify(), (torch.randn(3, 3),)
""", at=((8, 13), (9, 16))),
        Example("""
import torch
from torch import nn


def propagate(adj, x):
    if adj.shape[1] != x.shape[0]:
        raise ValueError("shapes")
    return torch.sparse.mm(adj, x)


class Propagate(nn.Module):
    def __init__(self):
        super().__init__()
        self.adj = [torch.eye(3).to_sparse()]

    def forward(self, x):
        for adj in self.adj:
            x = propagate(adj, x)
        return x


def factory():
    return Propagate(), (torch.randn(3, 4),)
""", at=((7, 8),)),
    ]


def _operand_of(call: ast.Call) -> Optional[ast.AST]:
    """What a call takes as its sparse operand, when it has one: its first argument or its receiver."""
    if call.args:
        return call.args[0]
    return call.func.value if isinstance(call.func, ast.Attribute) else None


def _may_hold_sparse(file) -> bool:
    told = bool(file.returns_sparse or file.sparse_parameters)
    return file.memo(("BL504 may hold sparse",), lambda: may_hold_sparse(file.source, told))
