"""BL106: `torch.equal(a, b)` / `a.equal(b)` / `torch.allclose(a, b)` / `a.allclose(b)` in traced code (and
NumPy's `allclose`, `array_equal`, `array_equiv`, which Dynamo runs on arrays traced as tensors): a Python bool
read from tensor data; and `==` between lists or tuples of tensors (a display, or `tuple(t)` of a tensor).

Measured on torch 2.13 CPU: in an `if`, in an `assert` and as a plain value it breaks the graph with
GB0033 ("Data dependent operator": `aten.equal` has a non-Tensor output that depends on the data).
"""
from __future__ import annotations

import ast

from .base import Example, Rule


_DISPLAYS = (ast.List, ast.Tuple)
# Calls that give a Python bool of the data (measured on 2.13 in traced code: torch.equal / allclose GB0033;
# NumPy's on arrays traced through torch._numpy, even of constants: "torch.* op returned non-Tensor").
BOOL_OF_DATA = {"torch.equal", "torch.allclose", "numpy.allclose", "numpy.array_equal", "numpy.array_equiv"}


def _display(node: ast.AST, ctx) -> ast.AST:
    """A list or tuple display, spelled here or the one reaching value of a local (`key = (n, x.sum())`)."""
    if isinstance(node, ast.Name):
        value = ctx.reaching_value(node)
        if isinstance(value, _DISPLAYS):
            return value
    return node


def _orders_sequences_of_tensors(left: ast.AST, right: ast.AST, ctx) -> bool:
    """`(a, 1) < (b, 2)`: Python tests the pairs for equality in order until two differ, so a tensor pair
    reached before two unequal constants is read as a bool (GB6622, measured on 2.13; `(1, a) < (2, b)` and
    `(a, 1) <= (a, 2)` are decided without it and do not break)."""
    for a, b in zip(left.elts, right.elts):
        if _tensor_pair(a, b, ctx) or _tensor_pair(b, a, ctx):
            return True
        if isinstance(a, ast.Constant) and isinstance(b, ast.Constant) and a.value != b.value:
            return False
    return False


def _compares_sequences_of_tensors(node: ast.Compare, ctx) -> bool:
    """`[a, b] == [c, d]` / `(h, w) != size`: a list or tuple display that holds a tensor, compared
    with == / != to something that is not a tensor (Python then compares element by element);
    `(a, 1) < (b, 2)` likewise, see _orders_sequences_of_tensors."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
        return False
    left, right = node.left, node.comparators[0]
    left, right = _display(left, ctx), _display(right, ctx)  # a name of a display: its value (`a = [x.sum()]; a == b`)
    displays = _DISPLAYS
    if isinstance(node.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
        return isinstance(left, displays) and isinstance(right, displays) \
            and _orders_sequences_of_tensors(left, right, ctx)
    if isinstance(left, displays) and isinstance(right, displays):
        # Python compares lengths first, then pair by pair: a tensor against None, or a name against
        # itself, gives a constant (measured: `(mask, bias) == (None, None)` does not break)
        if len(left.elts) != len(right.elts):
            return False
        return any(_tensor_pair(a, b, ctx) or _tensor_pair(b, a, ctx) for a, b in zip(left.elts, right.elts))
    for display, other in ((left, right), (right, left)):
        if isinstance(display, displays) and any(ctx.is_tensor(e) for e in display.elts) \
                and not (isinstance(other, ast.Constant) or ctx.is_tensor(other)):
            return True
        if _unbound_tensor(display, ctx) and (isinstance(other, displays) and other.elts
                                              and not (isinstance(other.elts[0], ast.Constant) and other.elts[0].value is None)
                                              or _unbound_tensor(other, ctx)):
            # `tuple(lengths) == (3, 2)`: each element a 0-d tensor (GB6622, measured on 2.13); against
            # `(None, ...)` the first pair is a constant and decides it
            return True
    return False


def _unbound_tensor(node: ast.AST, ctx) -> bool:
    """`tuple(t)` / `list(t)` of a tensor: a sequence of its 0-d slices (not `tuple(t.shape)`, of ints)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tuple", "list") \
        and len(node.args) == 1 and not node.keywords and ctx.is_tensor(node.args[0])


def _tensor_pair(a: ast.AST, b: ast.AST, ctx) -> bool:
    same = isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id
    return ctx.is_tensor(a) and not same and not (isinstance(b, ast.Constant) and b.value is None)


class TorchEqual(Rule):
    code = "BL106"
    name = "torch-equal"
    summary = ("torch.equal(a, b) / torch.allclose(a, b) (and NumPy's allclose / array_equal in traced code), or == "
               "between lists / tuples holding tensors, reads tensor data into a Python bool and breaks the graph")
    gb_ids = ("GB0033", "GB6622", "GB0208")
    fix_availability = "never"
    node_types = (ast.Call, ast.Compare)
    # 2.13: measured on CPU (in an if, in an assert, as a value; torch.equal and Tensor.equal; stop 41:
    # torch.allclose, Tensor.allclose, np.allclose / array_equal of arrays made from tensors or constants).
    verdicts = {"2.13": True}

    def check(self, node, ctx) -> None:
        if isinstance(node, ast.Compare):
            if _compares_sequences_of_tensors(node, ctx):
                ctx.report(node, "comparing lists or tuples that hold tensors (==, !=, <, ...) needs each element's "
                                 "value as a Python bool, which breaks the graph (GB6622); compare the tensors with "
                                 "torch.stack(a) == torch.stack(b)")
            return
        func = node.func
        qual = ctx.qualify(func) or ""
        if qual in BOOL_OF_DATA and len(node.args) + len(node.keywords) >= 2:
            name = qual
        elif isinstance(func, ast.Attribute) and func.attr in ("equal", "allclose") and node.args \
                and ctx.is_tensor(func.value):
            name = f"Tensor.{func.attr}"
        else:
            return
        ctx.report(node, f"{name}() reads tensor data into a Python bool, which breaks the graph "
                         "(GB0033); keep the test a tensor (`(a == b).all()`, `torch.isclose(a, b).all()` with "
                         "torch.where), or compare before the compiled region")

    VALID = [
        Example("""
from typing import Optional

import torch
from torch import Tensor, nn


class Net(nn.Module):
    def forward(self, x: Tensor, mask: Optional[Tensor] = None, bias: Optional[Tensor] = None):
        if (mask, bias) == (None, None):   # a tensor against None: a constant, no break
            return x * 2
        return x + 1


def factory():
    return Net(), (torch.randn(3), torch.ones(3))
"""),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, y):
        same = (x == y).all()              # a tensor, stays in the graph
        return torch.where(same, x, x - y)


def check(a, b):
    return torch.equal(a, b)               # outside traced code: fine


def factory():
    return Net(), (torch.randn(3), torch.randn(3))
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Symmetric(nn.Module):
    def forward(self, x):
        if torch.allclose(x, x.T):
            return x
        return (x + x.T) / 2


def factory():
    return Symmetric(), (torch.randn(3, 3),)
""", at=((8, 12),)),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, size):
        h = x.sum()
        w = x.mean()
        unchanged = (h, w) == size
        return x * 2, unchanged


def factory():
    return Net(), (torch.randn(3), (2, 3))
""", at=((10, 21),)),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, y):
        z = x * 2
        if torch.equal(z, y):
            return z
        return z - y


def factory():
    return Net(), (torch.randn(3), torch.randn(3))
""", at=((9, 12),)),
        Example("""
import torch


@torch.compile
def step(x, y):
    h = x + 1
    unchanged = h.equal(y)
    return h, unchanged


def factory():
    return step, (torch.randn(3), torch.randn(3))
""", at=((8, 17),)),
    ]
