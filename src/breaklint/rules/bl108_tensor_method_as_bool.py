"""BL108: a tensor's method used as a truth value without being called: `if x.is_floating_point:`.

A bound method is always true, so the test never changes, and Dynamo cannot take its truth value
(GB4841 "Unsupported python_type() call") of a tensor the traced code computed: measured on torch 2.13
CPU in an `if`, a ternary and an `and`, it skips the whole frame, which then runs eagerly. On a tensor
held as it came in (a parameter not bound again, `self.weight`) it does not break (measured). Properties (`x.is_cuda`, `x.requires_grad`)
are values and are fine; the generated TENSOR_PROPERTIES tells them apart.
"""
from __future__ import annotations

import ast

from ..analysis.astwalk import own_nodes
from ..analysis.scope import self_parameter
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


def _held_as_it_came(receiver: ast.AST, ctx, depth: int = 0) -> bool:
    """A tensor the function holds as it came in: a parameter it has not bound again before this use (nor
    anywhere in a loop around it), the module's own state (`self.weight`, not assigned here first), an item of
    one (`xs[0]`), or a local name for one of those. Measured on 2.13: Dynamo takes the truth of such a
    tensor's bound method without a break (a graph input, or an argument its caller passed on as one); only a
    tensor the traced code computed breaks (GB4841). A helper's parameter that a caller computes is missed."""
    if ctx.scope is None or depth > 3:
        return False
    func = ctx.scope.func
    if isinstance(func, ast.Lambda):
        return False
    if isinstance(receiver, ast.Subscript):
        return _held_as_it_came(receiver.value, ctx, depth + 1)
    if isinstance(receiver, ast.Attribute):
        self_name = self_parameter(func)
        return isinstance(receiver.value, ast.Name) and receiver.value.id == self_name \
            and not _stored_before(func, receiver, ctx, lambda n: isinstance(n, ast.Attribute) and n.attr == receiver.attr
                                   and isinstance(n.value, ast.Name) and n.value.id == self_name)
    if not isinstance(receiver, ast.Name):
        return False
    if receiver.id in _parameter_names(func):
        return not _stored_before(func, receiver, ctx, lambda n: isinstance(n, ast.Name) and n.id == receiver.id)
    value = ctx.reaching_value(receiver)  # `w = self.weight`, `a = xs[0]`
    return value is not None and isinstance(value, (ast.Name, ast.Attribute, ast.Subscript)) \
        and _held_as_it_came(value, ctx, depth + 1)


def _stored_before(func, use: ast.AST, ctx, same) -> bool:
    """Whether the function stores to what `use` reads before it, or anywhere in a loop that holds it (the
    next pass reads what this one stored)."""
    loops = [p for p in ctx.parents if isinstance(p, (ast.For, ast.AsyncFor, ast.While))]
    spans = [(loop.lineno, loop.end_lineno or loop.lineno) for loop in loops]
    for node in own_nodes(func):
        if isinstance(getattr(node, "ctx", None), ast.Store) and same(node):
            if (node.lineno, node.col_offset) < (use.lineno, use.col_offset) \
                    or any(first <= node.lineno <= last for first, last in spans):
                return True
    return False


def _parameter_names(func) -> set[str]:
    args = func.args
    return {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}


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
        if not ctx.is_tensor(node.value) or _held_as_it_came(node.value, ctx):
            return
        spelled = ctx.segment(node) or node.attr
        ctx.report(node, f"`{spelled}` is a bound method, always true, and Dynamo cannot take its truth value: "
                         f"it skips the whole frame (GB4841), which then runs eagerly; call it: `{spelled}()`",
                   rest_eager=True)

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
