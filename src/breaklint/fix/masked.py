"""`x[mask].sum()` -> `torch.where(mask, x, 0).sum()`, `x[mask].mean()` -> the same sum over
`mask.sum()`: a full reduction of a masked selection, computed without the data-dependent shape.

Measured on torch 2.13 (CPU; eager, aot_eager and inductor backends, tests/rules/test_more_breaks.py):
the original breaks (GB0036), the rewrite does not; outputs and gradients are allclose, the empty
selection included (sum 0; mean NaN, as `0 / 0`). torch.where's backward gives the unselected
elements a zero gradient, as indexing does, and the discarded side is the constant 0, so no NaN
can come from it.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ..model import Fix
from .branch import ATOMIC, is_pure, known_bool
from .rewrite import replace_fix, torch_imports, torch_name, torch_prefix
from .safety import numpy_free, same_shape

if TYPE_CHECKING:
    from ..rules.base import NodeContext


def masked_reduction_fix(ctx: "NodeContext", node: ast.Subscript) -> Optional[Fix]:
    """Only for `x[m]` read and reduced at once with no arguments, where `m` is a bool tensor of x's
    own shape (an elementwise test of x, or of what x is elementwise of): a mask of fewer dimensions
    selects rows, and torch.where would broadcast it against the last dimensions instead."""
    if not isinstance(node.ctx, ast.Load) or isinstance(node.slice, (ast.Tuple, ast.Slice)) or len(ctx.parents) < 2:
        return None
    attribute, call = ctx.parents[-1], ctx.parents[-2]
    if not (isinstance(attribute, ast.Attribute) and attribute.value is node and attribute.attr in ("sum", "mean")
            and isinstance(call, ast.Call) and call.func is attribute and not call.args and not call.keywords):
        return None
    values, mask = node.value, node.slice
    # Only a tensor or a numpy array takes a bool-tensor mask, and numpy_free rules out the array.
    if not (ctx.is_tensor(values) and ctx.is_tensor(mask) and known_bool(mask, ctx)
            and numpy_free(node, ctx) and is_pure(node, ctx) and same_shape(ctx, [values, mask])):
        return None
    if torch_name(ctx)[0] is None:
        return None  # adding `import torch` could break a module that imports it optionally
    torch = torch_prefix(ctx)
    m, x = ctx.segment(mask), ctx.segment(values)
    total = f"{torch}.where({m}, {x}, 0).sum()"
    if attribute.attr == "mean":
        count = f"{m}.sum()" if isinstance(mask, ATOMIC) else f"({m}).sum()"
        holder = ctx.parents[-3] if len(ctx.parents) > 2 else None
        alone = isinstance(holder, (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr)) and holder.value is call
        total = f"{total} / {count}" if alone else f"({total} / {count})"
    return replace_fix("Reduce with torch.where(mask, x, 0) instead of selecting x[mask]", "unsafe",
                       (ctx.replace(call, total),), imports=torch_imports(ctx))
