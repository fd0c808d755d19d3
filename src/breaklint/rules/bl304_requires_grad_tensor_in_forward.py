"""BL304: a torch function called with requires_grad=True in traced code.

Found through the dev split (issue #11): PyG's EquilibriumAggregation starts its inner optimisation
from `torch.zeros(..., requires_grad=True)` in forward, and nothing flagged it. Measured on torch 2.13
(CPU, backend="eager"): `torch.zeros / randn / tensor / zeros_like(..., requires_grad=True)` each break
(GB0225 "Attempted to use tensor creation function with requires_grad=True"), also under
`torch.no_grad()`; `requires_grad=False` does not, and neither does the method form
`x.new_zeros(..., requires_grad=True)` (not flagged). `torch.zeros(...).requires_grad_()` breaks too,
so it is no fix.

The same rule covers assigning the flag of an existing tensor, measured the same way:
`t.requires_grad = ...` breaks whatever the value (GB0206 "setattr() on Tensor.requires_grad"), while
`t.requires_grad_(False)` on a tensor that does not require grad is traced with no break (on one that
does, it breaks as the assignment does). So `t.requires_grad = False` becomes `t.requires_grad_(False)`:
the same flag, the same error on a non-leaf tensor, and no break in the common case (monai's warp grid,
a dev miss). Safe.

`t.requires_grad_()` / `requires_grad_(True)` breaks (GB8985, "requires_grad_() intermediate leaked as output")
whenever `t` does not already require grad and is used afterwards, returned or not and under `no_grad`
too (a tensor never used again is dropped with its call, no break); on a tensor that already does (made
from a parameter) it is traced (measured on 2.13). (`torch.as_tensor(t)` is `t` itself: not fresh.) So it is flagged only on a tensor
made fresh in the traced code, spelled there or held by a name whose one reaching assignment is one: a
torch creation function's result, a `.detach()`, or `x.new_zeros(...)` and its kin, filled in place or not
(stop 31's gradient battery: GB8985 on each).
"""
from __future__ import annotations

import ast

from ..analysis.names import normalize_torch
from ..analysis.torch_api import TENSOR_METHODS, TENSOR_PROPERTIES
from ..analysis.torch_api import (FILL_METHODS, FRESH_TENSOR_FUNCS, FRESH_TENSOR_METHODS, GRAD_KEEPING_METHODS,
                                  TENSOR_JOINS)
from ..fix.rewrite import replace_fix
from .base import Example, Rule


class RequiresGradTensorInForward(Rule):
    code = "BL304"
    name = "requires-grad-tensor-in-forward"
    summary = "a tensor created with, or switched to, requires_grad inside traced code"
    gb_ids = ("GB0225", "GB0206", "GB8985")
    fix_availability = "sometimes"
    fix_applicability = "safe"
    node_types = (ast.Call, ast.Assign)
    verdicts = {"2.13": True}

    def check(self, node, ctx) -> None:
        if isinstance(node, ast.Assign):
            self._assigned_flag(node, ctx)
            return
        if isinstance(node.func, ast.Attribute) and node.func.attr == "requires_grad_":
            flag = _flag(node)
            if flag is False:
                return
            # a flag that is a variable (`requires_grad_(self.training)`) breaks when it is true
            when = [] if flag is True else [ctx.segment(flag)]
            if _never_used_after(node, ctx):
                return  # the tensor is dropped with its call: no break (measured on 2.13)
            origin = _origin(node.func.value, ctx, 0)
            if origin is FRESH or isinstance(origin, str) and node.func.value is not None \
                    and not (isinstance(node.func.value, ast.Name) and node.func.value.id == origin):
                if isinstance(origin, str):  # computed from an input: breaks unless that input requires grad
                    when.append(f"not {origin}.requires_grad")
                ctx.report(node, "requires_grad_() on a tensor made in traced code breaks the graph (GB8985, \"requires_grad_() "
                                 "intermediate leaked as output\"); create it outside the compiled region and pass "
                                 "it in", guard=" and ".join(when) or None)
            elif _input(node.func.value, ctx):  # a variable flag too (`requires_grad_(flag)`: the review of stop 37)
                owner = ctx.segment(node.func.value)
                ctx.report(node, "requires_grad_() on an input of traced code that does not require grad breaks the graph "
                                 "(\"Unsupported Tensor.requires_grad_() call\"); set the flag before the compiled "
                                 "region, or pass a tensor that already requires grad",
                           guard=" and ".join(when + [f"not {owner}.requires_grad"]))
            return
        flags = [k.value for k in node.keywords if k.arg == "requires_grad"]
        if not flags or isinstance(flags[0], ast.Constant) and flags[0].value is not True:
            return
        # a flag that is a variable (`requires_grad=self.training`) breaks when it is true (measured on 2.13)
        when = None if isinstance(flags[0], ast.Constant) else ctx.segment(flags[0])
        qual = normalize_torch(ctx.qualify(node.func)) or ""
        short = qual.rsplit(".", 1)[-1]
        # torch functions only (torch.nn.Parameter is BL302's; a class is no tensor factory).
        if not qual.startswith("torch.") or qual.startswith("torch.nn.") or not short[:1].islower():
            return
        spelled = "True" if when is None else when
        ctx.report(node, f"{qual}(..., requires_grad={spelled}) in traced code breaks the graph (GB0225); create "
                         f"the tensor outside the compiled region and pass it in, or drop requires_grad", guard=when)

    def _assigned_flag(self, node: ast.Assign, ctx) -> None:
        target = node.targets[0] if len(node.targets) == 1 else None
        if not (isinstance(target, ast.Attribute) and target.attr == "requires_grad" and ctx.is_tensor(target.value)):
            return
        fix = None
        owner = ctx.segment(target.value)
        if isinstance(node.value, ast.Constant) and node.value.value is False and "\n" not in owner \
                and isinstance(target.value, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            fix = replace_fix("Switch the flag with requires_grad_(False), which Dynamo traces", "safe",
                              (ctx.replace(node, f"{owner}.requires_grad_(False)"),))
        ctx.report(node, "setting .requires_grad on a tensor in traced code breaks the graph (GB0206); "
                         "requires_grad_(False) is traced on a tensor that does not require grad, else set "
                         "the flag before the compiled region", fix)

    VALID = [
        Example("""
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))

    def forward(self, x):
        y = self.w * x
        y.requires_grad_()  # already requires grad (made from a parameter): traced
        z = torch.as_tensor(self.w * x)  # as_tensor of a tensor is that tensor: not fresh
        z.requires_grad_()
        return y + z


def factory():
    return Scale(), (torch.randn(2, 4),)
"""),
        Example("""
import torch
from torch import nn


class Shift(nn.Module):
    def forward(self, x):
        offset = torch.zeros(x.shape[-1], requires_grad=False)
        start = x.new_zeros(x.shape[-1], requires_grad=True)  # the method form is traced
        offset.requires_grad_(False)  # traced: the tensor does not require grad
        return x + offset + start


def factory():
    return Shift(), (torch.randn(2, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Probe(nn.Module):
    def forward(self, x):
        noise = torch.zeros(x.shape[-1]).requires_grad_()
        anchor = x.detach()
        anchor.requires_grad_(True)
        return x + noise + anchor


def factory():
    return Probe(), (torch.randn(2, 4),)
""", at=((8, 17), (10, 9))),
        Example("""
import torch
from torch import nn


class Equilibrium(nn.Module):
    def forward(self, x):
        y = torch.zeros(x.shape[0], 4, requires_grad=True)
        return x.sum(-1, keepdim=True) + y


def factory():
    return Equilibrium(), (torch.randn(2, 4),)
""", at=((8, 13),)),
        Example("""
import torch
from torch import nn


class Warp(nn.Module):
    def reference_grid(self, ddf):
        grid = torch.stack(torch.meshgrid(torch.arange(4.0), torch.arange(4.0), indexing="ij"))
        grid = grid.to(ddf)
        self.ref_grid = grid
        self.ref_grid.requires_grad = False  # a reference grid, never learned
        return self.ref_grid

    def forward(self, image, ddf):
        return image + self.reference_grid(ddf).sum() * ddf


def factory():
    return Warp(), (torch.randn(1, 2, 4, 4), torch.randn(1, 2, 4, 4))
""", at=((11, 9),), fixed="""
import torch
from torch import nn


class Warp(nn.Module):
    def reference_grid(self, ddf):
        grid = torch.stack(torch.meshgrid(torch.arange(4.0), torch.arange(4.0), indexing="ij"))
        grid = grid.to(ddf)
        self.ref_grid = grid
        self.ref_grid.requires_grad_(False)  # a reference grid, never learned
        return self.ref_grid

    def forward(self, image, ddf):
        return image + self.reference_grid(ddf).sum() * ddf


def factory():
    return Warp(), (torch.randn(1, 2, 4, 4), torch.randn(1, 2, 4, 4))
"""),
    ]


def _flag(call: ast.Call):
    """requires_grad_() or requires_grad_(True): True; a constant False (or anything else constant): False;
    a variable flag: its expression."""
    values = list(call.args) + [k.value for k in call.keywords if k.arg == "requires_grad"]
    if not values:
        return True
    if len(values) != 1:
        return False
    if isinstance(values[0], ast.Constant):
        return values[0].value is True
    return values[0]


# What a tensor is made from, as far as requires_grad goes: surely not requiring grad (made by a creation
# function, or detached), or computed from an input only (named by the input's name), through these.
FRESH = object()


def _origin(node: ast.AST, ctx, depth: int):
    """FRESH, an input's name, or None (it may require grad: a parameter took part, or it is not known).
    Measured on 2.13: requires_grad_() breaks (GB8985) on a clone, a slice, a cast, a cat or arithmetic
    of an input that does not require grad, and on anything detached or newly made."""
    if depth > 6:
        return None
    if isinstance(node, ast.Name):
        if _input(node, ctx):
            return node.id
        value = ctx.reaching_value(node)
        return _origin(value, ctx, depth + 1) if value is not None else None
    if isinstance(node, ast.Subscript):
        return _origin(node.value, ctx, depth + 1)
    if isinstance(node, ast.Constant):
        return FRESH if isinstance(node.value, (int, float)) else None
    if isinstance(node, ast.UnaryOp):
        return _origin(node.operand, ctx, depth + 1)
    if isinstance(node, ast.BinOp):
        return _joined([_origin(node.left, ctx, depth + 1), _origin(node.right, ctx, depth + 1)])
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "detach" and not node.args:
        return FRESH if ctx.is_tensor(func.value) else None
    qual = normalize_torch(ctx.qualify(func)) or ""
    if qual in FRESH_TENSOR_FUNCS and not any(k.arg == "requires_grad" for k in node.keywords):
        return FRESH
    if qual in TENSOR_JOINS and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
        return _joined([_origin(e, ctx, depth + 1) for e in node.args[0].elts])
    if isinstance(func, ast.Attribute) and func.attr in GRAD_KEEPING_METHODS and not qual.startswith("torch.") \
            and all(_constant(a) or _is_dtype_or_device(a, ctx) for a in node.args):
        return _origin(func.value, ctx, depth + 1)
    if isinstance(func, ast.Attribute) and not qual.startswith("torch.") and not ctx.is_known_non_tensor(func.value):
        if func.attr in FRESH_TENSOR_METHODS and not any(k.arg == "requires_grad" for k in node.keywords):
            return FRESH
        if func.attr in FILL_METHODS:
            return _origin(func.value, ctx, depth + 1)
    return None


def _never_used_after(node: ast.Call, ctx) -> bool:
    """`z.requires_grad_()` as a statement of its own, outside any loop, and `z` read nowhere after it in the
    function: Dynamo drops the call with the tensor, and nothing breaks."""
    receiver = node.func.value
    if not isinstance(receiver, ast.Name) or ctx.scope is None or not ctx.parents \
            or not isinstance(ctx.parents[-1], ast.Expr):
        return False
    if any(isinstance(parent, (ast.For, ast.While, ast.AsyncFor)) for parent in ctx.parents):
        return False
    end = (node.end_lineno, node.end_col_offset)
    return not any(isinstance(n, ast.Name) and n.id == receiver.id and (n.lineno, n.col_offset) > end
                   for n in ast.walk(ctx.scope.func))


def _joined(origins: list):
    """The origin of a tensor computed from several: FRESH if all are, an input's name if the others are
    FRESH, else None."""
    if any(o is None for o in origins):
        return None
    inputs = [o for o in origins if o is not FRESH]
    return inputs[0] if inputs else FRESH


def _constant(node: ast.AST) -> bool:
    """A constant, or a negated one (`x.view(-1)`)."""
    return isinstance(node, ast.Constant) or isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)


def _is_dtype_or_device(node: ast.AST, ctx) -> bool:
    qual = ctx.qualify(node) or ""
    return qual.startswith("torch.") or isinstance(node, ast.Attribute) and node.attr in ("dtype", "device")


def _untyped_tensor_parameter(node: ast.Name, ctx) -> bool:
    """A parameter nothing types (`log_potentials`, handed a tensor by the caller) is taken for a tensor:
    requires_grad_ exists on tensors and modules only, and a module is called, asked for its parameters or
    read an attribute no tensor has where it is used (measured on 2.13: a module's requires_grad_(True) is
    traced when its parameters already require grad)."""
    if ctx.is_known_non_tensor(node):
        return False
    name = node.id
    for n in ast.walk(ctx.scope.func):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name:
            return False  # called: a module (or a function)
        # `m.parameters()`, `m.weight`, `m.forward(x)`, `w.flag`: an attribute no tensor has (a module's)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name \
                and n.attr not in TENSOR_METHODS and n.attr not in TENSOR_PROPERTIES:
            return False
    return True


def _input(node: ast.AST, ctx) -> bool:
    """A tensor parameter of the traced function (not self), or a loop variable over one: it requires grad
    only if the caller's tensor does (measured on 2.13: `x.requires_grad_(True)` on an input breaks when x
    does not require grad, and is traced when it does; a parameter of the module never breaks)."""
    if not isinstance(node, ast.Name) or ctx.env is None or ctx.scope is None:
        return False
    func = ctx.scope.func
    args = func.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if ctx.scope.cls is not None and params and params[0] == node.id:
        return False  # self
    if node.id in params:
        return ctx.reaching_value(node) is None and (ctx.is_tensor(node) or _untyped_tensor_parameter(node, ctx))
    for parent in reversed(ctx.parents):  # `for t in edge:` over a tensor parameter (not an nn.ModuleList)
        if isinstance(parent, ast.For) and isinstance(parent.target, ast.Name) and parent.target.id == node.id:
            return isinstance(parent.iter, ast.Name) and parent.iter.id in params and ctx.is_tensor(parent.iter)
    return False
