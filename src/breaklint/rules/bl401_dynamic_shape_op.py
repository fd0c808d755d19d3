"""BL401: operators whose output shape depends on tensor values (nonzero, x[mask], unique, nms...).

Measured on torch 2.13 (GB0036 "Dynamic shape operator" for every form below): nonzero/argwhere,
one-argument torch.where, unique/unique_consecutive, masked_select, bincount (even with minlength),
repeat_interleave with tensor repeats and no output_size, and indexing with a boolean mask, read or
`+=`. A plain write `x[mask] = v` and indexing with an integer tensor do not break.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from ..analysis.astwalk import function_nodes_of
from ..analysis.flow import bindings_of, function_arguments as _arguments
from ..analysis.torch_api import BOOL_RESULT as MASK_METHODS  # an index made of these is a mask (any dtype in, bool out)
from ..analysis.torch_api import REARRANGE_METHODS, TENSOR_METHODS
from ..model import Fix
from ..fix.masked import masked_reduction_fix
from ..fix.rewrite import replace_fix, torch_imports, torch_name, torch_prefix
from .base import Example, Rule, held_values
from .bl502_untraceable_call import UNSUPPORTED_CALLS

# Non-maximum suppression keeps a data-dependent number of boxes: the torchvision op itself and the
# public wrappers a user calls (measured by bench/realworld.py: torchvision 0.29.1, torch 2.14.1,
# GB0036 at the torch.ops.torchvision.nms call in every detection model).
NMS = {"torch.ops.torchvision.nms", "torch.ops.torchvision.nms.default", "torchvision.ops.nms",
       "torchvision.ops.batched_nms", "torchvision.ops.boxes.nms", "torchvision.ops.boxes.batched_nms"}
ALWAYS_DYNAMIC = {"nonzero", "argwhere", "unique", "unique_consecutive", "masked_select", "bincount"}
# Methods no Python container or scalar has: the receiver is a tensor or a numpy array.
RECEIVER_PROVES_TENSOR = {"nonzero", "argwhere", "masked_select", "unique_consecutive"}
# A tensor named like this and used as an index is a boolean mask (`h[mask]`, `x[:, edge_mask]`),
# unless the name says it holds positions (`mask_idx`, `mask_token_index`, `mask_pos`).
MASK_NAME = re.compile(r"(^|_)masks?($|_)")
POSITION_NAME = re.compile(r"(idx|index|indices|pos|positions?|ids?)$")
STATIC_FORM = {
    "nonzero": "torch.nonzero_static(x, size=...)",
    "argwhere": "torch.nonzero_static(x, size=...)",
    "where": "the three-argument torch.where(cond, a, b)",
    "masked_select": "masked_fill / three-argument torch.where",
    "unique": "a fixed-size form (e.g. scatter into a tensor of known size)",
    "unique_consecutive": "a fixed-size form",
    "bincount": "torch.zeros(n).scatter_add_(...) with a known n",
    "repeat_interleave": "repeat_interleave(..., output_size=N)",
    "mask": "masked_fill / three-argument torch.where",
    "ctc_loss": "the loss outside the compiled region (a torch.compiler.disable'd helper)",
    "nms": "a fixed number of boxes (top-k scores, then a padded NMS), or run NMS after the compiled region",
    "lstsq": "torch.linalg.pinv(A) @ B, or torch.linalg.solve on the normal equations (neither breaks)",
}
MASK_FUNCTIONS = {"torch." + m for m in MASK_METHODS - {"bool"}} | {"torch.isin"}
# NumPy functions of data-dependent size. Dynamo traces NumPy on an array made from a tensor
# (`t.cpu().numpy()`) as torch ops, so these break like their torch twins (measured on 2.13:
# np.unique and np.nonzero give GB0036; np.unique(..., return_index=True) fails on fake tensors).
NUMPY_DYNAMIC = {"numpy.unique": "unique", "numpy.nonzero": "nonzero", "numpy.argwhere": "argwhere",
                 "numpy.flatnonzero": "nonzero"}


def _array_of_tensor(node: ast.AST, ctx) -> bool:
    """Is this a NumPy array made from a tensor: `.numpy()` in the expression, or a local name bound to one?"""
    if isinstance(node, ast.Name):
        value = ctx.reaching_value(node)
        return value is not None and _array_of_tensor(value, ctx)
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy"
               and not n.args for n in ast.walk(node))


class DynamicShapeOp(Rule):
    code = "BL401"
    name = "dynamic-shape-op"
    summary = "an operator whose output shape depends on tensor values (nonzero, x[mask], unique...) breaks the graph"
    gb_ids = ("GB0036",)
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.Call, ast.Subscript)
    verdicts = {"2.13": True}

    def check(self, node, ctx) -> None:
        what = self._call_kind(node, ctx) if isinstance(node, ast.Call) else self._mask_index(node, ctx)
        if what is None:
            return
        fix = (_accumulate_fix(node, ctx) or masked_reduction_fix(ctx, node)) if what == "mask" else None
        what = "mask" if what == "mask?" else what
        label = {"mask": "boolean-mask indexing x[mask]", "nms": "non-maximum suppression (nms)"}.get(what, f"{what}()")
        # (lstsq breaks under that flag too, measured on 2.13: "Dynamic shape operator (no meta kernel)")
        flag = "" if what == "lstsq" else ", or set torch._dynamo.config.capture_dynamic_output_shape_ops = True"
        ctx.report(node, f"{label} has a data-dependent output shape, which breaks the graph; use "
                         f"{STATIC_FORM[what]}{flag}", fix)

    # -- calls --------------------------------------------------------------------------------------
    def _call_kind(self, node: ast.Call, ctx) -> Optional[str]:
        func = node.func
        qual = ctx.qualify(func) or ""
        if qual in NMS:
            return "nms"
        if qual == "torch.nn.functional.ctc_loss" and not _inside_unenterable_with(ctx):
            return "ctc_loss"  # measured on 2.13: GB0036 with tensor lengths and with Python lists alike
        if qual in NUMPY_DYNAMIC and node.args and _array_of_tensor(node.args[0], ctx):
            return NUMPY_DYNAMIC[qual]
        if qual == "torch.linalg.lstsq":
            return "lstsq"  # measured on 2.13 CPU: GB0036 with every driver (its rank and residuals have data sizes)
        if qual.startswith("torch.") and qual.count(".") == 1:
            short = qual[len("torch."):]
            if short in ALWAYS_DYNAMIC:
                return short
            if short == "where" and _only_condition(node):
                return "where"
            if short == "repeat_interleave":
                if len(node.args) == 1 and not node.keywords:
                    return short  # repeat_interleave(repeats): the output size is repeats.sum()
                repeats = _argument(node, 1, "repeats")
                if repeats is not None and ctx.is_tensor(repeats) and not _has_keyword(node, "output_size", ctx):
                    return short
            return None
        if isinstance(func, ast.Attribute) and func.attr in RECEIVER_PROVES_TENSOR \
                and not ctx.is_known_non_tensor(func.value) \
                and not isinstance(func.value, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict)):
            return func.attr  # only tensors (and numpy arrays, tensors to Dynamo) have these methods
        if isinstance(func, ast.Attribute) and ctx.is_tensor(func.value):
            if func.attr in ALWAYS_DYNAMIC:
                return func.attr
            if func.attr == "repeat_interleave":
                repeats = _argument(node, 0, "repeats")
                if repeats is not None and ctx.is_tensor(repeats) and not _has_keyword(node, "output_size", ctx):
                    return func.attr
        return None

    # -- x[mask] --------------------------------------------------------------------------------------
    def _mask_index(self, node: ast.Subscript, ctx) -> Optional[str]:
        if isinstance(node.ctx, ast.Store):
            parent = ctx.parent
            if not (isinstance(parent, ast.AugAssign) and parent.target is node):
                return None  # x[mask] = v is an index_put with a static shape
        elif not isinstance(node.ctx, ast.Load):
            return None
        if ctx.is_known_non_tensor(node.value):
            return None
        # No need to know what is indexed: only a tensor (or a numpy array) takes a mask.
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if all(isinstance(p, (ast.Constant, ast.Slice)) for p in parts):
            return None  # `x[0]`, `x[:, 1:]`, `d["key"]`: most subscripts; no need for the mask facts
        masks = _MaskFacts.of(ctx)
        # `x[:, edge_mask]`: a tuple with a slice is a tensor's index; a mask-named part of it is a mask.
        array_index = len(parts) > 1 and any(
            isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts)
        if any(masks.is_mask(p, ctx) or _named_mask(p, ctx, array_index) for p in parts):
            return "mask"
        # `x[a > b]` with a and b of unknown kind: a tensor indexed by a comparison is masked by it (a
        # Python bool index is no code anyone writes); reported, but no fix is offered on this guess.
        if _indexes_a_tensor(node.value, ctx) and any(masks.is_mask(p, ctx, loose=True) for p in parts):
            return "mask?"
        # `x[x > t]`, `keep = x > t; x[keep]`: an array compared elementwise and indexed by the result
        # (a list or a number compared so could not be indexed so); no fix on this guess either
        if _indexes_a_tensor(node.value, ctx) and any(_compares_itself(p, node.value, masks) for p in parts):
            return "mask?"
        # `x[self.keep]` with a bool buffer, `x[[True, False, True]]`: surely masks (measured on 2.13: GB0036);
        # reported without a fix, which would paste the index where a tensor is needed
        if any(_bool_literal_list(p) or _bool_list_built(p, ctx) or _held_bool_tensor(p, ctx) for p in parts):
            return "mask?"
        return None

    VALID = [
        Example("""
import torch
import torch.nn.functional as F


@torch.compile
def clean(x, idx):
    keep = x > 0
    x = x.masked_fill(~keep, 0.0)       # static shape
    y = torch.where(keep, x, -x)        # three-argument where
    z = x[idx]                          # integer indexing
    w = x.clone()
    w[keep] = 1.0                       # a masked write does not break
    r = torch.repeat_interleave(x, 2)   # int repeats
    return y + z.sum() + w + r[:4]


def factory():
    return clean, (torch.randn(4), torch.tensor([0, 2]))
"""),
    ]
    INVALID = [
        Example("""
import numpy as np
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, labels):
        y = x * 2
        classes = np.unique(labels.cpu().numpy())
        return y, classes


def factory():
    return Net(), (torch.randn(4), torch.tensor([0, 1, 1, 2]))
""", at=((10, 19),)),
        Example("""
import torch
from torch import nn


class PositiveMass(nn.Module):
    def forward(self, x):
        h = x * 2
        total = h[h > 0].sum()
        average = h[h > 0].mean()
        return total + average


def factory():
    return PositiveMass(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class PositiveMass(nn.Module):
    def forward(self, x):
        h = x * 2
        total = torch.where(h > 0, h, 0).sum()
        average = torch.where(h > 0, h, 0).sum() / (h > 0).sum()
        return total + average


def factory():
    return PositiveMass(), (torch.randn(8),)
""", at=((9, 17), (10, 19))),
        Example("""
import torch
from torch import nn


class Pool(nn.Module):
    def forward(self, x, lengths):
        valid = lengths > 0
        kept = x[valid]
        return kept.mean(0)


def factory():
    return Pool(), (torch.randn(5, 3), torch.tensor([1, 0, 2, 3, 0]))
""", at=((9, 16),)),
        Example("""
import torch


@torch.compile
def route(scores):
    hits = torch.nonzero(scores > 0.5)
    return hits.float().sum() + 1


def factory():
    return route, (torch.rand(8),)
""", at=((7, 12),)),
        Example("""
import torch


@torch.compile
def select(x):
    picked = torch.masked_select(x, x.isnan().logical_not())
    return picked * 2


def factory():
    return select, (torch.randn(6),)
""", at=((7, 14),)),
        Example("""
import torch


@torch.compile
def expand(x, counts):
    return torch.repeat_interleave(x, counts) + 1


def factory():
    return expand, (torch.randn(4), torch.tensor([1, 2, 0, 3]))
""", at=((7, 12),)),
        Example("""
import torch


@torch.compile
def histogram(labels):
    return torch.bincount(labels, minlength=4).float() / labels.numel()


def factory():
    return histogram, (torch.randint(0, 4, (16,)),)
""", at=((7, 12),)),
        Example("""
import torch


@torch.compile
def bump(x):
    x = x.clone()
    x[x > 0] += 1.0
    return x


def factory():
    return bump, (torch.randn(6),)
""", fixed="""
import torch


@torch.compile
def bump(x):
    x = x.clone()
    x.index_put_(
        (x > 0,),
        torch.as_tensor(1.0, dtype=x.dtype, device=x.device),
        accumulate=True,
    )
    return x


def factory():
    return bump, (torch.randn(6),)
""", at=((8, 5),)),
        # Not runnable here: torchvision is not a breaklint dependency (measured in bench/realworld.py).
        Example("""
import torch
from torchvision.ops import batched_nms


@torch.compile
def detect(boxes, scores, labels):
    keep = batched_nms(boxes, scores, labels, 0.5)
    return boxes[keep]
""", runnable=False, at=((8, 12),)),
        # A mask moved and repeated to the input's shape is still a mask (kornia's CutMix).
        Example("""
import torch


@torch.compile
def paste(images, boxes):
    mask = (boxes > 0).all(-1).unsqueeze(1).repeat(1, images.shape[1])
    return images[mask].sum()


def factory():
    return paste, (torch.randn(3, 2), torch.randn(3, 4))
""", at=((8, 12),)),
    ]


def _accumulate_fix(node: ast.Subscript, ctx) -> Optional[Fix]:
    """`x[mask] += v` -> `x.index_put_((mask,), torch.as_tensor(v, dtype=x.dtype, device=x.device),
    accumulate=True)`: the same in-place update (a boolean mask picks each element once), with no
    read of x[mask] (measured on 2.13: no break). Only for a mask proven boolean (an integer index
    may repeat, and accumulate would add twice) on a tensor (not a numpy array). Unsafe: v is cast to
    x's dtype before the add, where `+=` adds first (a float into an int tensor is truncated instead
    of raising)."""
    statement = ctx.parent
    if not (isinstance(statement, ast.AugAssign) and statement.target is node
            and isinstance(statement.op, (ast.Add, ast.Sub)) and not isinstance(node.slice, ast.Tuple)
            and _plain_reference(node.value) and ctx.is_tensor(node.value)
            and _MaskFacts.of(ctx).is_mask(node.slice, ctx)):
        return None
    if torch_name(ctx)[0] is None:
        return None  # no hard torch import of its own to lean on: adding one could break the module
    target, mask, value = ctx.segment(node.value), ctx.segment(node.slice), ctx.segment(statement.value)
    sign = "-" if isinstance(statement.op, ast.Sub) else ""
    arguments = [f"({mask},)", f"{sign}{torch_prefix(ctx)}.as_tensor({value}, dtype={target}.dtype, device={target}.device)",
                 "accumulate=True"]
    text = f"{target}.index_put_({', '.join(arguments)})"
    line = ctx.file.lines[statement.lineno - 1]
    indent = line[:len(line) - len(line.lstrip())]
    if len(indent) + len(text) > 88 and "\n" not in text and statement.lineno == statement.end_lineno \
            and not line[:statement.col_offset].strip():
        # One argument a line, as black and ruff format would: a fix must not add a long line.
        unit = "\t" if "\t" in indent else "    "
        if len(indent + unit + arguments[1]) + 1 > 88:  # the value too: one keyword a line
            inner = indent + unit * 2
            arguments[1] = (f"{sign}{torch_prefix(ctx)}.as_tensor(\n{inner}{value},\n{inner}dtype={target}.dtype,\n"
                            f"{inner}device={target}.device,\n{indent}{unit})")
        text = f"{target}.index_put_(\n" + "".join(f"{indent}{unit}{a},\n" for a in arguments) + f"{indent})"
    return replace_fix("Accumulate with index_put_ instead of reading x[mask]", "unsafe",
                       (ctx.replace(statement, text),), imports=torch_imports(ctx))


def _plain_reference(node: ast.AST) -> bool:
    """`x` or `self.buf.x`: pasted three times into the fix, it must not run anything."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _reduced_pair(node: ast.AST) -> bool:
    """`t.max(dim)` / `t.min(dim=...)` / `torch.max(t, dim)`: a (values, indices) pair."""
    return _reduced(node) is not None


def _reduced(node: ast.AST) -> Optional[ast.AST]:
    """The tensor a (values, indices) reduction reduces, else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("max", "min")):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    has_dim = any(k.arg == "dim" for k in node.keywords)
    if isinstance(node.func.value, ast.Name) and node.func.value.id == "torch":
        return node.args[0] if node.args and (len(node.args) == 2 or has_dim) else None
    return node.func.value if len(node.args) == 1 or has_dim else None


def _named_mask(index: ast.AST, ctx, array_index: bool) -> bool:
    """`h[mask]` where `mask` is a tensor of unknown dtype: by its name, a boolean mask (an integer
    index tensor is called idx, index, perm or keep, never mask). Beside a slice (`x[:, mask]`) it
    indexes a tensor whatever we know of it, unless it is surely something else."""
    if not (isinstance(index, ast.Name) and MASK_NAME.search(index.id) and not POSITION_NAME.search(index.id)):
        return False
    if _MaskFacts.of(ctx).reaching(index) is not None:
        return False  # the assignment that reaches it decides (`mask = idx.long()` is no mask)
    return ctx.is_tensor(index) or array_index and not ctx.is_known_non_tensor(index)


def _bool_literal_list(index: ast.AST) -> bool:
    """`[True, False, True]`: a list of bools as an index is a boolean mask (no Python container takes it)."""
    return isinstance(index, ast.List) and bool(index.elts) \
        and all(isinstance(e, ast.Constant) and type(e.value) is bool for e in index.elts)


def _bool_list_built(index: ast.AST, ctx) -> bool:
    """A name surely bound to a list comprehension of comparisons (`keep = [t == "linear" for t in tails]`): a
    list of Python bools, a boolean mask as an index, read (measured on 2.13: GB0036)."""
    value = ctx.reaching_value(index) if isinstance(index, ast.Name) else None
    return isinstance(value, ast.ListComp) and isinstance(value.elt, ast.Compare) \
        and all(isinstance(c, ast.Constant) and isinstance(c.value, (str, int, float))
                for c in (value.elt.left, *value.elt.comparators) if not isinstance(c, ast.Name))


def _held_bool_tensor(index: ast.AST, ctx) -> bool:
    """`self.keep` where every value the class gives it is surely a bool tensor: `torch.tensor([True, ...])`,
    a torch factory with `dtype=torch.bool`, `<...>.bool()` (a buffer or a plain attribute), or a comparison
    of a tensor the class holds or computes (`self.nonzero = self.w_sum > 1e-10`)."""
    if not isinstance(index, ast.Attribute):
        return False
    values = held_values(index, ctx)
    return bool(values) and all(_bool_tensor_made(v, ctx) for v in values)


def _bool_tensor_made(value: ast.AST, ctx) -> bool:
    if isinstance(value, ast.Compare):
        # (`in` and `is` give Python bools; a chained comparison is an `and` of tensors, which breaks itself)
        return len(value.ops) == 1 and not isinstance(value.ops[0], (ast.In, ast.NotIn, ast.Is, ast.IsNot)) \
            and any(isinstance(side, (ast.Attribute, ast.Call)) and (ctx.is_tensor(side) or _held_tensor(side, ctx))
                    for side in (value.left, *value.comparators))
    if not isinstance(value, ast.Call):
        return False
    qual = ctx.qualify(value.func) or ""
    if qual in ("torch.tensor", "torch.as_tensor", "torch.BoolTensor") and len(value.args) == 1 \
            and _bool_literal_list(value.args[0]) and not value.keywords:
        return True
    if qual.startswith("torch.") and any(k.arg == "dtype" and (ctx.qualify(k.value) or "") == "torch.bool"
                                         for k in value.keywords):
        return True
    return isinstance(value.func, ast.Attribute) and value.func.attr == "bool" and not value.args \
        and not value.keywords and isinstance(value.func.value, ast.Call)


def _held_tensor(expr: ast.AST, ctx) -> bool:
    """`self.w_sum` where every value the class gives it is a torch call or a tensor method's result
    (`self.w_sum = window_sumsquare(...).flatten()`), wherever the class assigns it."""
    values = held_values(expr, ctx) if isinstance(expr, ast.Attribute) else []
    return bool(values) and all(
        isinstance(v, ast.Call) and ((ctx.qualify(v.func) or "").startswith("torch.")
                                     or isinstance(v.func, ast.Attribute) and v.func.attr in TENSOR_METHODS)
        for v in values)


def _inside_unenterable_with(ctx) -> bool:
    """Under `with torch.backends.cudnn.flags(enabled=False):` (as wav2vec2-style CTC heads write it), or any
    manager Dynamo cannot enter (BL502's list): the `with` line breaks and its body is not traced (measured
    on 2.13: no break reported at a ctc_loss there)."""
    return any(isinstance(p, ast.With) and any(isinstance(i.context_expr, ast.Call)
                                               and (ctx.qualify(i.context_expr.func) or "") in UNSUPPORTED_CALLS
                                               for i in p.items)
               for p in ctx.parents)


def _indexes_a_tensor(value: ast.AST, ctx) -> bool:
    """What a guessed mask indexes must be a tensor: known as one, or a local name (a parameter, a
    result) that nothing says is something else. An attribute (`self.acts[depth > k]`: a list of
    layers; `cfg.modes[...]`) is left alone unless known to be a tensor."""
    if ctx.is_tensor(value):
        return True
    return isinstance(value, ast.Name) and not ctx.is_known_non_tensor(value)


def _compares_itself(part: ast.AST, indexed: ast.AST, masks: "_MaskFacts") -> bool:
    """`x[x > t]`, `x[(x > lo) & (x < hi)]`, or `x[keep]` with `keep = x > t` (and `keep &= x < hi`) before:
    the index compares the indexed name elementwise."""
    if not isinstance(indexed, ast.Name):
        return False
    if isinstance(part, ast.Name):
        value = masks.reaching(part)
        values = [value] if value is not None else masks.assigned.get(part.id, [])
        return bool(values) and all(v is not None and _self_comparison(v, indexed.id) for v in values)
    return _self_comparison(part, indexed.id)


def _self_comparison(expr: ast.AST, name: str, depth: int = 0) -> bool:
    if depth > 6:
        return False
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Invert):
        return _self_comparison(expr.operand, name, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.BitAnd, ast.BitOr)):
        return _self_comparison(expr.left, name, depth + 1) or _self_comparison(expr.right, name, depth + 1)
    if not isinstance(expr, ast.Compare) or any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
        return False
    return any(isinstance(side, ast.Name) and side.id == name for side in (expr.left, *expr.comparators))


def _computed(side: ast.AST, ctx, depth: int = 0) -> bool:
    """A value computed in this function (arithmetic, a subscript, a call's result; or a name surely
    bound to one), as opposed to a parameter or an attribute read: `ap - an > margin` compares data,
    `depth > self.threshold` or `cfg.level > 1` compares settings."""
    if isinstance(side, ast.Name) and depth == 0:
        value = ctx.reaching_value(side)
        return value is not None and _computed(value, ctx, depth + 1)
    if isinstance(side, ast.IfExp):
        return _computed(side.body, ctx, depth + 1) and _computed(side.orelse, ctx, depth + 1)
    return isinstance(side, (ast.BinOp, ast.Subscript, ast.Call)) and not ctx.is_known_non_tensor(side)


def _only_condition(node: ast.Call) -> bool:
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return False
    return len(node.args) + len(node.keywords) == 1


def _argument(node: ast.Call, index: int, keyword: str) -> Optional[ast.AST]:
    if any(isinstance(a, ast.Starred) for a in node.args[: index + 1]):
        return None
    if len(node.args) > index:
        return node.args[index]
    for kw in node.keywords:
        if kw.arg == keyword:
            return kw.value
    return None


def _has_keyword(node: ast.Call, name: str, ctx=None) -> bool:
    """Is the keyword passed? `output_size=output_size` where no caller passes the parameter (its
    default None stays) counts as not passed."""
    for k in node.keywords:
        if k.arg is None:
            return True
        if k.arg == name:
            return not (ctx is not None and ctx.env is not None and ctx.env.is_none(k.value))
    return False


# The nodes _MaskFacts reads: those that bind a name.
_MASK_BINDERS = frozenset({ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor,
                           ast.comprehension, ast.withitem, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda})


class _MaskFacts:
    """Which local names of one traced function surely hold a boolean tensor."""

    def __init__(self, func):
        self.assigned: dict[str, list[Optional[ast.AST]]] = {}
        # name -> (statement, value) of each plain assignment, for the definition that reaches a use
        self.definitions: dict[str, list[tuple[ast.stmt, ast.AST]]] = {}
        self.bindings = bindings_of(func)
        for node in function_nodes_of(func, _MASK_BINDERS):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value, node)
            elif isinstance(node, ast.AugAssign):
                # `m &= cond` keeps a bool `m` bool when `cond` is one; other operators make numbers
                bitwise = isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor))
                self._bind(node.target, node.value if bitwise else None)
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
                self._bind(node.target, node.value)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.withitem)):
                target = node.optional_vars if isinstance(node, ast.withitem) else node.target
                if target is not None:
                    self._bind(target, None)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not func:
                for arg in _arguments(node.args):
                    self.assigned.setdefault(arg.arg, []).append(None)
        for arg in _arguments(func.args):
            self.assigned.setdefault(arg.arg, []).append(None)  # a parameter: dtype unknown
        self._memo: dict = {}

    def _bind(self, target, value, statement: Optional[ast.stmt] = None) -> None:
        if isinstance(target, ast.Name):
            self.assigned.setdefault(target.id, []).append(value)
            if statement is not None and value is not None:
                self.definitions.setdefault(target.id, []).append((statement, value))
        elif isinstance(target, (ast.Tuple, ast.List)):
            pairwise = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
            pair = len(target.elts) == 2 and _reduced_pair(value)
            for i, elt in enumerate(target.elts):
                if isinstance(elt, ast.Starred):
                    self._bind(elt.value, None)
                elif pair:  # `found, index = mask.max(-1)`: the values of a bool reduction
                    self._bind(elt, ast.Subscript(value=value, slice=ast.Constant(value=i), ctx=ast.Load()))
                else:  # `row, col = row[mask], col[mask]` binds element by element
                    self._bind(elt, value.elts[i] if pairwise else None, statement if pairwise else None)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, None)

    def reaching(self, name: ast.Name) -> Optional[ast.AST]:
        """The value of the one assignment that reaches this use in straight-line code (flow.py)."""
        return self.bindings.reaching(name, self.definitions.get(name.id, []))

    @classmethod
    def of(cls, ctx) -> "_MaskFacts":
        func = ctx.scope.func
        return ctx.file.memo(("BL401 masks", id(func)), lambda: cls(func))

    def is_mask(self, expr: ast.AST, ctx, depth: int = 0, loose: bool = False) -> bool:
        """loose: also take a comparison of values of unknown kind for an elementwise one (for a finding
        on `x[a > b]`, never for a fix: a Python bool index would make the rewrite wrong)."""
        if depth > 8:
            return False
        if isinstance(expr, ast.Compare):
            if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
                return False
            sides = (expr.left, *expr.comparators)
            return ctx.is_tensor(expr) or loose and not all(
                ctx.is_known_non_tensor(side) or isinstance(side, ast.Constant) for side in sides) and any(
                _computed(side, ctx) for side in sides)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Invert):
            return self.is_mask(expr.operand, ctx, depth + 1, loose)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self.is_mask(expr.left, ctx, depth + 1, loose) and self.is_mask(expr.right, ctx, depth + 1, loose)
        if isinstance(expr, ast.Subscript):
            if _reduced_pair(expr.value):
                # `mask.max(-1)` is (values, indices): only the values are a mask
                return isinstance(expr.slice, ast.Constant) and expr.slice.value == 0 \
                    and self.is_mask(_reduced(expr.value), ctx, depth + 1, loose)
            return self.is_mask(expr.value, ctx, depth + 1, loose)
        if isinstance(expr, ast.Attribute) and expr.attr == "values" and _reduced_pair(expr.value):
            return self.is_mask(_reduced(expr.value), ctx, depth + 1, loose)
        if isinstance(expr, ast.NamedExpr):
            return self.is_mask(expr.value, ctx, depth + 1, loose)
        if isinstance(expr, ast.IfExp):  # `a < m if inverted else a > m`
            return self.is_mask(expr.body, ctx, depth + 1, loose) and self.is_mask(expr.orelse, ctx, depth + 1, loose)
        if isinstance(expr, ast.Name):
            # each use (`~target` too): the definition that reaches it decides, if one surely does
            value = self.reaching(expr)
            if value is not None:
                key = id(value), expr.id, loose
                if key not in self._memo:
                    self._memo[key] = False
                    self._memo[key] = self.is_mask(value, ctx, depth + 1, loose)
                return self._memo[key]
            return self._name_is_mask(expr.id, ctx, depth, loose)
        if isinstance(expr, ast.Call):
            return self._call_is_mask(expr, ctx, depth, loose)
        return False

    def _name_is_mask(self, name: str, ctx, depth: int, loose: bool = False) -> bool:
        key = name, loose
        if key not in self._memo:
            self._memo[key] = False  # cycle guard
            values = self.assigned.get(name, [])
            self._memo[key] = bool(values) and all(
                v is not None and self.is_mask(v, ctx, depth + 1, loose) for v in values)
        return self._memo[key]

    def _call_is_mask(self, call: ast.Call, ctx, depth: int = 0, loose: bool = False) -> bool:
        func = call.func
        qual = ctx.qualify(func) or ""
        if qual in MASK_FUNCTIONS:
            return True
        if qual.startswith("torch.") and any(
                k.arg == "dtype" and (ctx.qualify(k.value) or "") == "torch.bool" for k in call.keywords):
            return True
        if isinstance(func, ast.Attribute) and func.attr in ("amax", "amin") or (
                isinstance(func, ast.Attribute) and func.attr in ("max", "min") and not call.args and not call.keywords):
            # a reduction of a bool tensor is bool (`.max()` of all elements: a 0-d mask)
            return self.is_mask(func.value, ctx, depth + 1, loose)
        if isinstance(func, ast.Attribute) and func.attr in REARRANGE_METHODS:
            # `mask.unsqueeze(1).repeat(1, c, 1, 1)`: moved and repeated, still a bool mask
            return self.is_mask(func.value, ctx, depth + 1, loose)
        if isinstance(func, ast.Attribute):
            receiver_ok = ctx.is_tensor(func.value) or (
                func.attr == "bool" and not ctx.is_known_non_tensor(func.value))
            if not receiver_ok:
                return False
            if func.attr in MASK_METHODS:
                return True
            if func.attr == "to" and call.args and (ctx.qualify(call.args[0]) or "") == "torch.bool":
                return True
        return False

