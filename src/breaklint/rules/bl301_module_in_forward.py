"""BL301: constructing a parameterised nn.Module (nn.Linear, nn.LayerNorm, ...) inside traced code.

Measured on torch 2.13: what breaks is the nn.Parameter the constructor creates (GB0264). Layers
without parameters (nn.ReLU(), nn.Dropout(), nn.LayerNorm(..., elementwise_affine=False)) trace
fine, so they are not flagged.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.astwalk import walk
from ..model import Edit, Fix, Location, Transform
from ..analysis.names import normalize_torch
from ..fix.rewrite import hoist_transformer, replace_statement, statement_lines
from ..analysis.scope import self_parameter
from .base import Example, Rule

# torch.nn classes whose constructor always creates an nn.Parameter.
ALWAYS_PARAMETERISED = {
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "Embedding", "EmbeddingBag", "PReLU",
    "MultiheadAttention", "Transformer", "TransformerEncoderLayer", "TransformerDecoderLayer", "RNN", "LSTM",
    "GRU", "RNNCell", "LSTMCell", "GRUCell",
}
# Classes whose parameters a flag turns off: class -> (keyword, positional index, default).
AFFINE_FLAG = {
    "LayerNorm": ("elementwise_affine", 2, True),
    "RMSNorm": ("elementwise_affine", 2, True),
    "GroupNorm": ("affine", 3, True),
    "BatchNorm1d": ("affine", 3, True),
    "BatchNorm2d": ("affine", 3, True),
    "BatchNorm3d": ("affine", 3, True),
    "SyncBatchNorm": ("affine", 3, True),
    "InstanceNorm1d": ("affine", 3, False),
    "InstanceNorm2d": ("affine", 3, False),
    "InstanceNorm3d": ("affine", 3, False),
}


def parameterised_layer(node: ast.Call, ctx) -> Optional[str]:
    """The torch.nn class name when this call surely builds a module with parameters, else None."""
    qual = normalize_torch(ctx.qualify(node.func)) or ""
    if not qual.startswith("torch.nn.") or qual.count(".") != 2:
        return None
    name = qual.rsplit(".", 1)[-1]
    if name in ALWAYS_PARAMETERISED:
        return name
    if name in AFFINE_FLAG:
        keyword, index, default = AFFINE_FLAG[name]
        value: Optional[ast.AST] = None
        for kw in node.keywords:
            if kw.arg == keyword:
                value = kw.value
            elif kw.arg is None:
                return None  # **kwargs may carry the flag
        if value is None and len(node.args) > index:
            value = node.args[index]
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if value is None:
            return name if default else None
        if isinstance(value, ast.Constant) and isinstance(value.value, bool):
            return name if value.value else None
        return None  # a flag we cannot read: stay silent
    return None


class ModuleInForward(Rule):
    code = "BL301"
    name = "module-in-forward"
    summary = "building a layer with parameters (nn.Linear(...)) inside traced code breaks the graph"
    gb_ids = ("GB0264",)
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        layer = parameterised_layer(node, ctx)
        if layer is None:
            return
        built = ctx.built_class
        advice = (f"this __init__ runs in traced code, which builds a {built}: build it once outside traced code "
                  f"and reuse it" if built else "create it once in __init__ and reuse it")
        ctx.report(node, f"nn.{layer}(...) creates nn.Parameters on every call, which breaks the graph; {advice}",
                   _hoist_fix(node, ctx))

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        act = nn.ReLU()  # no parameters: Dynamo traces this
        norm = nn.LayerNorm(4, elementwise_affine=False)
        return norm(act(self.proj(x)))


def build():
    return nn.Linear(4, 4)  # outside traced code


def factory():
    return Net(), (torch.randn(2, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        norm = nn.LayerNorm(self.dim)
        return norm(x) * 2


def factory():
    return Net(), (torch.randn(2, 4),)
""", fixed="""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.dim = dim
        self._norm = nn.LayerNorm(self.dim)

    def forward(self, x):
        norm = self._norm
        return norm(x) * 2


def factory():
    return Net(), (torch.randn(2, 4),)
""", at=((12, 16),)),
        # Not fixable: the size comes from the input.
        Example("""
import torch
import torch.nn as nn


class Head(nn.Module):
    def forward(self, x):
        return nn.Linear(x.shape[-1], 2)(x)


def factory():
    return Head(), (torch.randn(3, 4),)
""", at=((8, 16),)),
    ]


def _hoist_fix(node: ast.Call, ctx) -> Optional[Fix]:
    """`name = nn.X(literals or self.attrs)` directly in forward becomes `name = self._name`,
    with `self._name = nn.X(...)` appended to __init__ after super().__init__()."""
    scope = ctx.scope
    if not ctx.in_forward or scope.cls is None or ctx.frame_skip:
        return None
    stmt = ctx.statement
    if not (isinstance(stmt, ast.Assign) and stmt.value is node and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and stmt in scope.func.body):
        return None
    init = scope.cls.methods.get("__init__")
    fwd_self = self_parameter(scope.func)
    if init is None or not fwd_self or self_parameter(init) != fwd_self or not _calls_super_init(init):
        return None
    if not all(_hoistable(arg, fwd_self) for arg in list(node.args) + [kw.value for kw in node.keywords]):
        return None
    attr = "_" + stmt.targets[0].id.lstrip("_")
    if _class_uses_attr(scope.cls.node, attr):
        return None
    last = init.body[-1]
    found = statement_lines(ctx, last)
    first = statement_lines(ctx, init.body[0])
    if found is None or first is None or "\n" in ctx.segment(node) or isinstance(last, ast.Return):
        return None
    indent = first[0]
    end_line = ctx.file.lines[last.end_lineno - 1]
    insert = Edit(Location(last.end_lineno, len(end_line) + 1), Location(last.end_lineno, len(end_line) + 1),
                  f"\n{indent}{fwd_self}.{attr} = {ctx.segment(node)}")
    stmt_indent = statement_lines(ctx, stmt)
    if stmt_indent is None:
        return None
    comment = _trailing_comment(ctx, stmt)
    replace = replace_statement(ctx, stmt, [f"{stmt_indent[0]}{stmt.targets[0].id} = {fwd_self}.{attr}{comment}"])
    if replace is None:
        return None
    # The edits are the preview that reports show; --fix applies the LibCST transform (fix/cst_hoist.py),
    # which moves the call node as written and leaves the rest of both statements untouched.
    spec = ("hoist", stmt.lineno, last.lineno, fwd_self, attr)
    return Fix(message=f"Create it once in __init__ as {fwd_self}.{attr}", applicability="unsafe",
               edits=(insert, replace), transform=Transform(hoist_transformer, (), frozenset({stmt.lineno}), spec))


def _trailing_comment(ctx, stmt: ast.stmt) -> str:
    line = ctx.file.lines[stmt.end_lineno - 1]
    rest = line.encode("utf-8")[stmt.end_col_offset:].decode("utf-8", errors="ignore")
    return ("  " + rest.strip()) if rest.strip().startswith("#") else ""


def _hoistable(expr: ast.AST, self_name: str) -> bool:
    """Literals, and attributes of self (self.dim, self.cfg.hidden), and tuples of those."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_hoistable(e, self_name) for e in expr.elts)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return isinstance(expr.operand, ast.Constant)
    if isinstance(expr, ast.Attribute):
        base = expr.value
        while isinstance(base, ast.Attribute):
            base = base.value
        return isinstance(base, ast.Name) and base.id == self_name
    return False


def _calls_super_init(init) -> bool:
    for stmt in init.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and func.attr == "__init__":
                target = func.value
                if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super":
                    return True
                if isinstance(target, (ast.Name, ast.Attribute)):
                    return True  # nn.Module.__init__(self) / Base.__init__(self)
    return False


def _class_uses_attr(cls: ast.ClassDef, attr: str) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == attr for n in walk(cls))
