"""BL108: a tensor's method used as a truth value without being called: `if x.is_floating_point:`.

A bound method is always true, so the test never changes, and Dynamo cannot take its truth value
(GB4841 "Unsupported python_type() call"): measured on torch 2.13 CPU in an `if`, a ternary and an
`and`, it skips the whole frame, which then runs eagerly. Properties (`x.is_cuda`, `x.requires_grad`)
are values and are fine; the generated TENSOR_PROPERTIES tells them apart.
"""
from __future__ import annotations

import ast

from ..analysis.torch_api import TENSOR_METHODS, TENSOR_PROPERTIES
from .base import Example, Rule

BOUND_METHODS = TENSOR_METHODS - TENSOR_PROPERTIES


def truth_tested(ctx, node: ast.AST) -> bool:
    """Does Python take the truth value of `node` itself (a test, `not`, a non-last `and`/`or` operand)?"""
    child = node
    for parent in reversed(ctx.parents):
        if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            return child is parent.test
        if isinstance(parent, ast.comprehension):
            return child in parent.ifs
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            return True
        if isinstance(parent, ast.BoolOp):
            if child is not parent.values[-1]:
                return True
            child = parent  # the last operand is tested only where the whole and/or is
            continue
        return False
    return False


class TensorMethodAsBool(Rule):
    code = "BL108"
    name = "tensor-method-as-bool"
    summary = "a tensor method used as a condition without `()` (`if x.is_floating_point:`) skips the frame"
    gb_ids = ("GB4841",)
    fix_availability = "never"
    node_types = (ast.Attribute,)
    # 2.13: measured on CPU (if, ternary, `and`; is_floating_point and is_contiguous): the frame is skipped.
    verdicts = {"2.13": True}

    def check(self, node: ast.Attribute, ctx) -> None:
        if node.attr not in BOUND_METHODS or not isinstance(node.ctx, ast.Load) or not truth_tested(ctx, node):
            return
        if not ctx.is_tensor(node.value):
            return
        spelled = ctx.segment(node) or node.attr
        ctx.report(node, f"`{spelled}` is a bound method, always true, and Dynamo cannot take its truth value: "
                         f"it skips the whole frame (GB4841), which then runs eagerly; call it: `{spelled}()`")

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        if x.is_floating_point():          # called: a Python bool Dynamo knows
            x = x * 2
        if x.is_cuda or x.requires_grad:   # properties are values
            x = x + 1
        return x


def factory():
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x.view(-1)
        y = y if y.is_floating_point else y.float()
        return y * 2


def factory():
    return Net(), (torch.randn(4),)
""", at=((9, 18),)),
        Example("""
import torch


@torch.compile
def step(x):
    h = x + 1
    if h.is_contiguous and h.ndim > 0:
        h = h * 2
    return h


def factory():
    return step, (torch.randn(4),)
""", at=((8, 8),)),
    ]
