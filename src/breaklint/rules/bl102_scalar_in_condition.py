"""BL102: `.item()` / float() / int() / bool() of a tensor inside a branch condition."""
from __future__ import annotations

import ast

from ..fix.trap import trap_fix
from ..fix.branch import is_scalar_extraction, ternary_fix, where_fix
from ..fix.cond import cond_fix
from .base import Example, Rule
from .bl101_tensor_branch import in_condition
from .bl103_item_call import scalar_extraction


class ScalarInCondition(Rule):
    code = "BL102"
    name = "scalar-in-condition"
    summary = ".item() / float() / int() / bool() of a tensor in an if / while / ternary condition"
    gb_ids = ("GB0124",)
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.Call,)
    # 2.13: measured here. 2.11 and 2.15: from the team catalogue (GB0124; outside this repository), not re-measured.
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        # `.item()` exists only on tensors and arrays: it is flagged unless its receiver is proven not to be
        # a tensor (BL103's test), as it is outside conditions; int() / float() / bool() need a tensor
        if is_scalar_extraction(node, ctx) is None and not (
                isinstance(node.func, ast.Attribute) and node.func.attr == "item"
                and scalar_extraction(node, ctx) == ".item()"):
            return
        owner = in_condition(ctx, node)
        if not isinstance(owner, (ast.If, ast.While, ast.IfExp)):
            return  # elsewhere (and in asserts) it is BL103's
        what = "`.item()`" if isinstance(node.func, ast.Attribute) else f"`{node.func.id}()` of a tensor"
        fix = None
        if isinstance(owner, ast.If):
            fix = where_fix(ctx, owner, drop_scalars=True) or cond_fix(ctx, owner, drop_scalars=True) \
                or trap_fix(ctx, owner, drop_scalars=True)
        elif isinstance(owner, ast.IfExp):
            fix = ternary_fix(ctx, owner, drop_scalars=True)
        ctx.report(node, f"{what} in a branch condition copies the value to Python: Dynamo breaks the graph "
                         f"(GB0124); compare the tensor itself and use torch.where or torch.cond", fix)

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x):
        if float(self.eps) > 0 and int(x.shape[0]) > 1:  # Python numbers, not tensors
            x = x + self.eps
        return torch.where(x.sum() > 0, x, -x)


def factory():
    return Net(), (torch.randn(8),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Gate(nn.Module):
    def forward(self, x):
        h = x.relu()
        if h.sum().item() > 3.0:
            h = h * 0.5
        return h


def factory():
    return Gate(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Gate(nn.Module):
    def forward(self, x):
        h = x.relu()
        h = torch.where(h.sum() > 3.0, h * 0.5, h)
        return h


def factory():
    return Gate(), (torch.randn(8),)
""", at=((9, 12),)),
        Example("""
import torch
from torch import nn


class Route(nn.Module):
    def forward(self, x):
        score = x.mean()
        if score.item() > 0:
            out = x * 2
        else:
            out = x * 0.5
        scale = 1.0 if float(score) > 0.5 else 2.0
        return out * scale, int(score) > 0


def factory():
    return Route(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Route(nn.Module):
    def forward(self, x):
        score = x.mean()
        out = torch.where(score > 0, x * 2, x * 0.5)
        scale = 1.0 if float(score) > 0.5 else 2.0
        return out * scale, int(score) > 0


def factory():
    return Route(), (torch.randn(8),)
""", at=((9, 12), (13, 24))),
        Example("""
import torch
from torch import nn


class Count(nn.Module):
    def forward(self, x):
        n = (x > 0).sum()
        y = x * 3
        if int(n) >= 4 and bool((x < 2).all()):
            y = y - 1
        return y


def factory():
    return Count(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Count(nn.Module):
    def forward(self, x):
        n = (x > 0).sum()
        y = x * 3
        y = torch.where((n.long() >= 4) & (x < 2).all(), y - 1, y)
        return y


def factory():
    return Count(), (torch.randn(8),)
""", at=((10, 12), (10, 28))),
        Example("""
import torch


@torch.compile
def gate(x):
    h = x.exp()
    if bool(h.mean() > 2):
        g = h.log() * 2
        out = g.tanh()
    else:
        out = h.tanh() + 1
    return out


def factory():
    return gate, (torch.randn(8),)
""", fixed="""
import torch


@torch.compile
def gate(x):
    h = x.exp()
    def _true_branch(h):
        g = h.log() * 2
        out = g.tanh()
        return out
    def _false_branch(h):
        out = h.tanh() + 1
        return out
    out = torch.cond(h.mean() > 2, _true_branch, _false_branch, (h,))
    return out


def factory():
    return gate, (torch.randn(8),)
""", at=((8, 8),)),
        Example("""
import torch
from torch import nn


class Overflow(nn.Module):
    def forward(self, x):
        h = x * 2
        if h.abs().max().item() > 1e4:
            raise ValueError(f"activations overflow: {h.abs().max()}")
        return h + 1


def factory():
    return Overflow(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Overflow(nn.Module):
    def forward(self, x):
        h = x * 2
        if torch.compiler.is_compiling():
            torch._assert_async(
                ~(h.abs().max() > 1e4),
                "ValueError: activations overflow: h.abs().max()",
            )
        elif h.abs().max().item() > 1e4:
            raise ValueError(f"activations overflow: {h.abs().max()}")
        return h + 1


def factory():
    return Overflow(), (torch.randn(8),)
""", at=((9, 12),)),
        Example("""
import torch
from torch import nn


class Shrink(nn.Module):
    def forward(self, x):
        y = x * 4
        while y.abs().max().item() > 1:
            y = y / 2
        return y


def factory():
    return Shrink(), (torch.randn(8),)
""", at=((9, 15),)),
    ]
