"""BL103: a Python scalar pulled out of a tensor (`.item()`, `float(t)`, `int(t)`, `bool(t)`)
outside a branch condition. Inside an if/while/ternary test the same call is BL102's."""
from __future__ import annotations

import ast
from typing import Optional

from ..fix.branch import tensor_condition
from ..fix.scalar import scalar_operand_fix
from ..fix.rewrite import replace_fix
from ..fix.safety import numpy_free
from ..fix.trap import evaluates_safely
from ..model import Fix
from .base import Example, Rule

SCALAR_BUILTINS = ("float", "int", "bool")
# Receivers whose `.item()` is not a tensor's: numpy scalars and arrays.
NON_TORCH_ROOTS = ("numpy.", "np.", "math.")


def in_branch_condition(node: ast.AST, parents: list[ast.AST]) -> bool:
    """True when `node` sits in the test of an if/while statement or of a ternary (BL102's ground).

    Only the innermost statement counts: a call in an `if` body is not in its condition.
    """
    path = parents + [node]
    for i in range(len(path) - 2, -1, -1):
        ancestor, child = path[i], path[i + 1]
        if isinstance(ancestor, ast.IfExp) and child is ancestor.test:
            return True
        if isinstance(ancestor, (ast.If, ast.While)):
            return child is ancestor.test
        if isinstance(ancestor, ast.stmt):
            return False
    return False


def assert_owner(node: ast.AST, parents: list[ast.AST]) -> Optional[ast.Assert]:
    """The assert whose test holds `node` (not its message), else None."""
    path = parents + [node]
    for i in range(len(path) - 2, -1, -1):
        ancestor, child = path[i], path[i + 1]
        if isinstance(ancestor, ast.Assert):
            return ancestor if child is ancestor.test else None
        if isinstance(ancestor, (ast.stmt, ast.Lambda, ast.comprehension)):
            return None
    return None


def assert_fix(owner: ast.Assert, ctx) -> Optional[Fix]:
    """`assert t.item() > 0, "msg"` -> `assert t > 0, "msg"`: the test stays a tensor, which Dynamo
    traces as an assert inside the graph (measured on 2.13: no break, and a failing assert still
    raises, as RuntimeError when compiled). Only when the test is a tensor on every path once the
    extraction is dropped, and `and` / `or` operands run safely as `&` / `|`."""
    test = owner.test
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(test)) or not evaluates_safely(test, ctx) \
            or not numpy_free(test, ctx):
        return None
    cond = tensor_condition(ctx, test, drop_scalars=True)
    if cond is None:
        return None
    if "\n" in cond:
        cond = f"({cond})"
    return replace_fix("Compare the tensor itself in the assert (compiled, a failing assert raises RuntimeError "
                       "instead of AssertionError; the comparison runs in the tensor's dtype)",
                       "unsafe", (ctx.replace(test, cond),))


def scalar_extraction(node: ast.Call, ctx) -> Optional[str]:
    """The spelling of a tensor -> Python scalar conversion, or None when `node` is not one."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "item" and not node.args and not node.keywords:
        receiver = func.value
        if ctx.is_known_non_tensor(receiver) and not ctx.sized_by_name(receiver) \
                or isinstance(receiver, (ast.Constant, ast.JoinedStr)):
            return None  # (a parameter taken for a size by its name only: `.item()` says it is no int)
        if (ctx.qualify(receiver) or "").startswith(NON_TORCH_ROOTS):
            return None
        return ".item()"
    if isinstance(func, ast.Name) and func.id in SCALAR_BUILTINS and len(node.args) == 1 \
            and not node.keywords and not ctx.file.imports.is_bound(func.id):
        if ctx.is_tensor(node.args[0]):
            return f"{func.id}(tensor)"
        if ctx.is_traced_numpy(node.args[0]):  # `int(np.prod(x.shape))`: a tensor to Dynamo (measured)
            return f"{func.id}() of a numpy value over a shape"
    return None


def _in_assert_message(node: ast.AST, parents: list[ast.AST]) -> bool:
    """The message of an assert is built only when the assert fails: never in a traced run."""
    path = parents + [node]
    for i in range(len(path) - 2, -1, -1):
        if isinstance(path[i], ast.Assert):
            return path[i + 1] is path[i].msg
        if isinstance(path[i], ast.stmt):
            return False
    return False


def value_read_elsewhere(node: ast.AST, ctx) -> Optional[str]:
    """Other ways Python reads a tensor's value, each measured on 2.13 (GB0033 "Data dependent
    operator", `complex` GB0059): a `math` function of a tensor (`math.exp(t.mean())`: math calls
    `__float__`), `complex(t)`, and %-formatting of a tensor (`"%.3f" % t`)."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str) \
                and not _in_assert_message(node, ctx.parents):
            values = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            if any(ctx.is_tensor(v) for v in values):
                return "%-formatting a tensor (GB0033 for numbers, GB0208 for %s)"
        return None
    func = node.func
    qual = ctx.qualify(func) or ""
    if qual.startswith("math.") and qual.count(".") == 1 and any(ctx.is_tensor(a) for a in node.args):
        return f"{qual}() of a tensor (GB0033)"
    if isinstance(func, ast.Name) and func.id == "complex" and not ctx.file.imports.is_bound("complex") \
            and any(ctx.is_tensor(a) for a in node.args):
        return "complex(tensor) (GB0059)"
    return None


class ItemCall(Rule):
    code = "BL103"
    name = "item-call"
    summary = (".item() / float(t) / int(t) / bool(t), a math function or %-formatting of a tensor turns it into "
               "a Python scalar and breaks the graph")
    gb_ids = ("GB0124", "GB0033", "GB0059")
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.Call, ast.BinOp, ast.Compare)
    # 2.13: measured on CPU (y.sum().item(), float/int/bool of a tensor: GB0124 each).
    # 2.11 and 2.15: from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node, ctx) -> None:
        if isinstance(node, ast.Compare):
            # `0.5 in x`: Tensor.__contains__ reads the result with .item() (GB0124 on 2.13, stop 29's sweep)
            for op, right in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)) and ctx.is_tensor(right):
                    ctx.report(node, "`in` on a tensor (Tensor.__contains__) reads the answer with .item(), which "
                                     "breaks the graph (GB0124); keep it a tensor: `(x == v).any()`")
                    break
            return
        elsewhere = value_read_elsewhere(node, ctx)
        if elsewhere is not None:
            ctx.report(node, f"{elsewhere} reads its value into Python and breaks the graph; keep it "
                             "a tensor (torch.exp, torch.sqrt, torch.isnan... instead of math), or format it "
                             "outside compiled code")
            return
        if isinstance(node, ast.BinOp):
            return
        what = scalar_extraction(node, ctx)
        if what is None or in_branch_condition(node, ctx.parents):
            return
        owner = assert_owner(node, ctx.parents)
        ctx.report(node, f"{what} copies a tensor value into Python and breaks the graph; keep it a "
                         "tensor, or set torch._dynamo.config.capture_scalar_outputs = True (torch._check "
                         "alone does not remove the break; under that flag it states the range that "
                         "size code needs)",
                   assert_fix(owner, ctx) if owner is not None else scalar_operand_fix(ctx, node))

    VALID = [
        Example("""
import torch
from torch import nn


class Check(nn.Module):
    def forward(self, x):
        y = x * 2
        assert y.dim() == 1, "bad %s" % y    # the message is built only when the assert fails
        return y


def factory():
    return Check(), (torch.randn(4),)
"""),
        Example("""
import torch
from torch import nn


class Scale(nn.Module):
    def forward(self, x):
        n = int(x.shape[0])          # a size, not a tensor
        s = float(x.size(-1)) ** 0.5
        return x * x.sum() / (n * s)  # the sum stays a tensor


def report(model, x):
    return model(x).sum().item()     # outside traced code: fine


def factory():
    return Scale(), (torch.randn(4, 3),)
"""),
            # In a condition it is BL102's finding, not this rule's (it does break: not runnable here).
        Example("""
import torch
from torch import nn


class Clip(nn.Module):
    def forward(self, x):
        if x.abs().max().item() > 10:
            x = x / 10
        y = x * 2 if float(x.sum()) > 0 else x
        return y


def factory():
    return Clip(), (torch.randn(4),)
""", runnable=False),
    ]
    INVALID = [
        Example("""
import math

import torch
from torch import nn


class Temper(nn.Module):
    def forward(self, x):
        y = x * 2
        scale = math.exp(y.mean())
        label = "%.3f" % y.sum()
        return y * scale, label


def factory():
    return Temper(), (torch.randn(4),)
""", at=((11, 17), (12, 17))),
        Example("""
import torch
from torch import nn


class Normalize(nn.Module):
    def forward(self, x):
        y = x + 1
        scale = y.abs().max().item()
        return y / scale


def factory():
    return Normalize(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Normalize(nn.Module):
    def forward(self, x):
        y = x + 1
        scale = y.abs().max().detach()
        return y / scale


def factory():
    return Normalize(), (torch.randn(8),)
""", at=((9, 17),)),
        Example("""
import torch


@torch.compile
def pad_to_longest(x, lengths):
    width = int(lengths.max())
    return x[:, :width] * 2


def factory():
    return pad_to_longest, (torch.randn(2, 6), torch.tensor([3, 5]))
""", at=((7, 13),)),
        Example("""
import torch
from torch import nn


class Bounded(nn.Module):
    def forward(self, x):
        h = x.tanh() * 3
        assert h.abs().max().item() <= 3.0, "tanh escaped its range"
        return h + 1


def factory():
    return Bounded(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Bounded(nn.Module):
    def forward(self, x):
        h = x.tanh() * 3
        assert h.abs().max() <= 3.0, "tanh escaped its range"
        return h + 1


def factory():
    return Bounded(), (torch.randn(8),)
""", at=((9, 16),)),
        Example("""
import torch
from torch import nn


class Gate(nn.Module):
    def forward(self, x):
        y = torch.sigmoid(x)
        self.last_open = bool(y.mean() > 0.5)
        return y * x


def factory():
    return Gate(), (torch.randn(4),)
""", at=((9, 26),)),
    ]
