"""`s = t.item()` used only as an operand of tensor arithmetic -> `s = t.detach()`: a 0-d tensor in
the graph instead of a Python number read out of it.

Measured on torch 2.13 (CPU; eager, aot_eager and inductor backends, tests/rules/test_more_breaks.py):
`scale = y.abs().max().item(); y / scale * 2 + scale` breaks (GB0124); with `.detach()` it does not,
and outputs and gradients are allclose. `.detach()` is needed: `.item()` cut the gradient, and a
plain 0-d tensor would let it flow through `scale` (measured: gradients differ without it).
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ..analysis.astwalk import function_nodes
from ..analysis.torch_api import TENSOR_EVIDENCE_METHODS, TENSOR_ONLY_METHODS
from ..model import Edit, Fix, Location
from .rewrite import replace_fix
from .safety import bindings, numpy_free, surely_tensor

if TYPE_CHECKING:
    from ..rules.base import NodeContext

ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div)
# No Python number has these methods (`y.abs()`): a name they are called on is no number.
NO_NUMBER_HAS = TENSOR_ONLY_METHODS | TENSOR_EVIDENCE_METHODS


def scalar_operand_fix(ctx: "NodeContext", call: ast.Call) -> Optional[Fix]:
    """For `name = <tensor>.item()` as a whole statement, `name` bound nowhere else in the function,
    and every read of `name` an operand of `+ - * /` whose other operand is surely a tensor: there
    the Python number and the 0-d tensor give one result (the dimensioned operand's dtype wins)."""
    statement = ctx.parent
    if not (isinstance(statement, ast.Assign) and statement.value is call and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        return None
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "item" and not call.args and not call.keywords
            and func.end_lineno == call.end_lineno and surely_tensor(func.value, ctx) and numpy_free(func.value, ctx)):
        return None
    name = statement.targets[0].id
    if bindings(ctx, name) != [call]:
        return None
    scope = ctx.scope.func if ctx.scope else None
    if scope is None or not _only_tensor_operand(scope, name, ctx):
        return None
    # Rename the attribute alone: the receiver's text (parentheses included) stays as it is.
    row = func.end_lineno
    start = Location(row, _column(ctx, row, func.end_col_offset - len("item")))
    end = Location(row, _column(ctx, row, func.end_col_offset))
    return replace_fix("Keep the value a 0-d tensor (.detach() instead of .item()): it is only used in "
                       "tensor arithmetic", "unsafe", (Edit(start, end, "detach"),))


def _column(ctx: "NodeContext", row: int, byte_offset: int) -> int:
    """A 1-based character column from an ast byte offset."""
    line = ctx.file.lines[row - 1]
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore")) + 1


def _only_tensor_operand(func: ast.AST, name: str, ctx: "NodeContext") -> bool:
    parents: dict[int, ast.AST] = {}
    nodes = list(function_nodes(func))
    for node in nodes:
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    reads = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    if not reads:
        return False
    for read in reads:
        parent = parents.get(id(read))
        if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ARITHMETIC)):
            return False
        other = parent.right if parent.left is read else parent.left
        if not _tensor_operand(other, nodes, ctx) or not numpy_free(other, ctx):
            return False
    return True


def _tensor_operand(node: ast.AST, nodes: list, ctx: "NodeContext") -> bool:
    """Surely a tensor (safety.surely_tensor), or a name the function calls a method on that only
    tensors and numpy arrays have (`y.softmax()`: were y a number, the original would fail; numpy
    values are refused by numpy_free), or arithmetic on one of those."""
    if surely_tensor(node, ctx):
        return True
    if isinstance(node, ast.BinOp):
        return _tensor_operand(node.left, nodes, ctx) or _tensor_operand(node.right, nodes, ctx)
    if isinstance(node, ast.Name):
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                   and n.func.value.id == node.id and n.func.attr in NO_NUMBER_HAS and not n.args
                   for n in nodes)
    return False
