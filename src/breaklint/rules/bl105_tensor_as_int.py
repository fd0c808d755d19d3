"""BL105: a tensor used where Python needs an int: a slice bound, `range()`, or a size argument.

Python asks the tensor for its value (`__index__`), which is `.item()` under another name. Measured
on torch 2.13 CPU: a slice bound breaks with GB0124 and makes Dynamo skip the whole frame;
`range(t)` breaks with GB0059; a computed tensor passed as a size to `torch.arange`, `torch.zeros`,
`x.new_zeros`, `x.expand`, `x.repeat`... breaks with GB0033 "Data dependent operator". A tensor that
is itself an input of the compiled function and goes straight into a size did not break there
(Dynamo reads it as a constant), so a bare parameter in a size is left alone. An index that is the
0-d result of `argmax()` / `argmin()` without a dim (`x[x.argmax()]`) is read the same way and breaks
with GB0033, loaded or stored; `x[i.unsqueeze(0)]` (a one-element index tensor) and
`x.argmax(dim=1)` do not (measured on 2.13).
"""
from __future__ import annotations

import ast
from typing import Iterable, Optional

from .base import Example, Rule, held_values

# torch functions whose positional arguments (or the sequence among them) are sizes.
# (linspace/logspace are left out: their start and end may be tensors; only `steps` is a size.)
SIZE_FUNCTIONS = {"arange", "zeros", "ones", "empty", "rand", "randn", "eye"}
# Tensor methods whose arguments are sizes.
SIZE_METHODS = {"new_zeros", "new_ones", "new_empty", "expand", "repeat", "unflatten"}
# Measured in stop 29 (GB0033): a count computed in the graph as narrow's length, topk's k, tensor_split's
# indices or F.pad's amounts; the argument's position among a method's (function's) arguments. Only a
# size surely computed from a tensor is flagged: a name unpacked from a parameter (`left, right = pads`)
# is a Python int as often as not (the review of stop 29). view / reshape break too, but were left out:
# they gave 2 false positives on held-out code and found nothing more.
COUNT_METHODS = {"narrow": 2, "topk": 0, "tensor_split": 0}
COUNT_FUNCTIONS = {"torch.narrow": 3, "torch.topk": 1, "torch.tensor_split": 1, "torch.nn.functional.pad": 1}


class TensorAsInt(Rule):
    code = "BL105"
    name = "tensor-as-int"
    summary = "a tensor used as a slice bound, in range() or as a size reads its value and breaks the graph"
    gb_ids = ("GB0124", "GB0059", "GB0033")
    fix_availability = "never"
    node_types = (ast.Slice, ast.Call, ast.Subscript)
    verdicts = {"2.13": True}

    def check(self, node, ctx) -> None:
        if isinstance(node, ast.Subscript):
            index = _scalar_index(node, ctx)
            if index is not None:
                ctx.report(index, "a 0-d integer tensor (argmax()/argmin(), an element of an index vector, a loop "
                                  "variable over one) as an index is read as a Python int, which "
                                  "breaks the graph (GB0033); index with a one-element tensor "
                                  "(`x[i.unsqueeze(0)].squeeze(0)`), or set "
                                  "torch._dynamo.config.capture_scalar_outputs = True",
                           start_node=ctx.moved_to(node, index))
            return
        if isinstance(node, ast.Slice):
            for bound in (node.lower, node.upper, node.step):
                if bound is not None and ctx.is_tensor(bound):
                    # (measured on 2.13: Dynamo cannot resume inside the subscript, and runs the rest eagerly)
                    ctx.report(bound, "a tensor as a slice bound is read as a Python int (.item()), which breaks "
                                      "the graph (GB0124) and Dynamo runs the rest of the function eagerly; slice "
                                      "with Python ints (sizes from x.shape), or use torch.narrow / index_select "
                                      "with tensor indices, or set torch._dynamo.config.capture_scalar_outputs = True",
                               rest_eager=True)
            return
        what = self._size_call(node, ctx)
        if what is None:
            return
        name, argument = what
        if name == "range":
            ctx.report(argument, "range() over a tensor reads its value (GB0059), which breaks the graph; "
                                 "loop over a Python int (x.size(0)) instead",
                       start_node=ctx.moved_to(node, argument))
        else:
            ctx.report(argument, f"a computed tensor as a size of {name}() is read as a Python int, which "
                                 "breaks the graph (GB0033); pass sizes as Python ints (x.shape), or set "
                                 "torch._dynamo.config.capture_scalar_outputs = True",
                       start_node=ctx.moved_to(node, argument))

    def _size_call(self, node: ast.Call, ctx) -> Optional[tuple[str, ast.AST]]:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "range" and not ctx.file.imports.is_bound("range"):
            for arg in node.args:
                if ctx.is_tensor(arg) or _numpy_value(arg, ctx):
                    return "range", arg
            return None
        qual = ctx.qualify(func) or ""
        if qual.startswith("torch.") and qual.count(".") == 1 and qual[6:] in SIZE_FUNCTIONS:
            name, sizes = qual, node.args
        elif qual == "torch.randint":
            # its bounds are Python ints too (`high=width - distance` with distance a 0-d tensor drawn before:
            # GB0033, measured on 2.13; torchlibrosa's SpecAugment)
            name, sizes = qual, [*node.args, *(kw.value for kw in node.keywords if kw.arg in ("low", "high", "size"))]
        elif qual in COUNT_FUNCTIONS or isinstance(func, ast.Attribute) and func.attr in COUNT_METHODS \
                and not qual.startswith("torch.") and ctx.is_tensor(func.value):
            at = COUNT_FUNCTIONS[qual] if qual in COUNT_FUNCTIONS else COUNT_METHODS[func.attr]
            label = qual if qual in COUNT_FUNCTIONS else f".{func.attr}"
            if len(node.args) > at:
                for size in _flatten([node.args[at]]):
                    if _computed_count(size, ctx):
                        return label, size
            return None
        elif isinstance(func, ast.Attribute) and func.attr in SIZE_METHODS and ctx.is_tensor(func.value):
            name, sizes = f".{func.attr}", node.args
        else:
            return None
        for size in _flatten(sizes):
            if _computed(size, ctx) and ctx.is_tensor(size):
                return name, size
        return None

    VALID = [
        Example("""
import torch
from torch import nn


class Crop(nn.Module):
    def forward(self, x, n):
        k = x.size(0) // 2
        y = x[:k] + torch.arange(x.shape[0])[:k]        # sizes are Python ints
        z = x.new_zeros(x.shape[0]) + torch.zeros(k * 2)
        for i in range(x.dim()):
            y = y * 2
        w = torch.arange(n)                             # a bare input: read as a constant on 2.13
        best = x.argmax()
        v = x[best.unsqueeze(0)].squeeze(0)             # a one-element index tensor is no int
        u = x.view(2, -1)[0, x.view(2, -1).argmax(dim=1)]
        t = x[x.argmax(keepdim=True)]                   # keepdim: a (1,) index tensor
        return y.sum() + z.sum() + w.sum() + v + u.sum() + t.sum()


def factory():
    return Crop(), (torch.randn(8), torch.tensor(3))
"""),
    ]
    INVALID = [
        Example("""
import numpy as np
import torch
from torch import nn


class Accumulate(nn.Module):
    def forward(self, x):
        steps = np.prod(x.shape[1:])   # numpy is traced as tensors: an array, not an int
        total = x.new_zeros(())
        for _ in range(steps):
            total = total + 1
        return x * total


def factory():
    return Accumulate(), (torch.randn(2, 2, 2),)
""", at=((11, 24),)),
        Example("""
import torch
from torch import nn


class Head(nn.Module):
    def forward(self, x):
        k = (x > 0).sum()
        return x[:k] * 2


def factory():
    return Head(), (torch.randn(8),)
""", at=((9, 19),)),
        Example("""
import torch


@torch.compile
def ramps(x):
    counts = (x.abs() * 0 + 3).ceil().long()
    return torch.arange(counts[1], device=x.device).float().sum() + x


def factory():
    return ramps, (torch.randn(4),)
""", at=((8, 25),)),
        Example("""
import torch


@torch.compile
def steps(x):
    n = (x > 0).sum()
    for _ in range(n):
        x = x * 0.5
    return x


def factory():
    return steps, (torch.randn(4),)
""", at=((8, 20),)),
        Example("""
import torch


@torch.compile
def equal_error_rate(fpr, tpr):
    idx = torch.argmin(torch.abs(fpr - (1 - tpr)))
    return (fpr[idx] + (1 - tpr[idx])) / 2


def factory():
    return equal_error_rate, (torch.rand(8), torch.rand(8))
""", at=((8, 17), (8, 33))),
    ]


def _scalar_index(node: ast.Subscript, ctx) -> Optional[ast.AST]:
    """The part of a subscript's index that is a full argmax()/argmin(), spelled there or held by a
    name whose one reaching assignment is one."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for part in parts:
        value = part
        if isinstance(part, ast.Name):
            value = ctx.reaching_value(part)
            if value is None and _loop_element_of_vector(part, ctx):
                return part  # `for t in self.timesteps: x[t]`
        if value is not None and (_full_arg_reduction(value, ctx) or _zero_d_draw(value, ctx)
                                  or _element_of_vector(value, ctx)):
            return part
    return None


# torch functions that make a 1-d integer tensor from Python numbers.
_VECTOR_FUNCTIONS = {"torch.arange", "torch.randperm"}


def _int_vector(node: ast.AST, ctx, depth: int = 0) -> bool:
    """Surely a 1-d integer tensor: `torch.arange(...)` / `torch.randperm(n)` of ints, `torch.tensor([1, 2])`, a
    name or a buffer of the object (`register_buffer("t", torch.arange(...))`) holding one."""
    if depth > 3:
        return False
    if isinstance(node, ast.Name):
        value = ctx.reaching_value(node)
        return value is not None and _int_vector(value, ctx, depth + 1)
    if isinstance(node, ast.Attribute):  # a buffer or attribute of the object given one
        values = held_values(node, ctx)
        return bool(values) and all(_int_vector(v, ctx, depth + 1) for v in values)
    if not isinstance(node, ast.Call) or any(k.arg == "dtype" for k in node.keywords):
        return False
    qual = ctx.qualify(node.func) or ""
    if qual == "typing.cast" and len(node.args) == 2:  # `cast(torch.LongTensor, self.perm)`: what it holds
        return _int_vector(node.args[1], ctx, depth + 1)
    if qual in _VECTOR_FUNCTIONS:
        return bool(node.args) and all(_int_constant(a) for a in node.args)
    if qual == "torch.tensor" and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple)):
        return bool(node.args[0].elts) and all(_int_constant(e) for e in node.args[0].elts)
    return False


def _int_constant(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _loop_element_of_vector(name: ast.Name, ctx) -> bool:
    """A loop variable over a 1-d integer tensor: each element is a 0-d integer tensor."""
    for parent in reversed(ctx.parents):
        if isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            # a comprehension's own target shadows a loop variable of the same name
            for generator in parent.generators:
                if any(isinstance(t, ast.Name) and t.id == name.id for t in ast.walk(generator.target)):
                    return isinstance(generator.target, ast.Name) and _int_vector(generator.iter, ctx)
        if isinstance(parent, (ast.For, ast.comprehension)) and isinstance(parent.target, ast.Name) \
                and parent.target.id == name.id:
            return _int_vector(parent.iter, ctx)
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            break
    return False


def _element_of_vector(node: ast.AST, ctx) -> bool:
    """`order[0]`, or `self.timesteps[k]` with k a `range()` loop variable, of a 1-d integer tensor: a 0-d integer
    tensor (measured on 2.13: `x * self.alphas[self.timesteps[k]]` breaks with GB0033)."""
    return isinstance(node, ast.Subscript) and (_int_constant(node.slice) or isinstance(node.slice, ast.Name)) \
        and _int_vector(node.value, ctx) and (_int_constant(node.slice) or _range_variable(node.slice, ctx))


def _range_variable(node: ast.AST, ctx) -> bool:
    """A local bound only as the target of `for ... in range(...)` loops: a Python int."""
    if not isinstance(node, ast.Name) or ctx.env is None or ctx.scope is None \
            or node.id in ctx.env.definitions or ctx.file.imports.is_bound("range"):
        return False
    loops = [n for n in ast.walk(ctx.scope.func) if isinstance(n, (ast.For, ast.AsyncFor))
             and any(isinstance(t, ast.Name) and t.id == node.id for t in ast.walk(n.target))]
    return bool(loops) and all(isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call)
                               and isinstance(n.iter.func, ast.Name) and n.iter.func.id == "range" for n in loops)


def _zero_d_draw(node: ast.AST, ctx) -> bool:
    """`torch.randint(lo, hi, ())`: a 0-d integer tensor."""
    return isinstance(node, ast.Call) and (ctx.qualify(node.func) or "") == "torch.randint" and len(node.args) >= 2 \
        and isinstance(node.args[-1], ast.Tuple) and not node.args[-1].elts


def _full_arg_reduction(node: ast.AST, ctx) -> bool:
    """`torch.argmax(x)` / `x.argmin()`: no dim, so a 0-d integer tensor."""
    if not isinstance(node, ast.Call) or any(k.arg in ("dim", None) for k in node.keywords):
        return False
    if any(k.arg == "keepdim" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
           for k in node.keywords):
        return False  # keepdim=True: a (1, ..., 1) tensor, an index tensor, no int (measured: no break)
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("argmax", "argmin") \
            and (ctx.qualify(func) or "") in ("torch.argmax", "torch.argmin"):
        return len(node.args) == 1 and not isinstance(node.args[0], ast.Starred)
    if isinstance(func, ast.Attribute) and func.attr in ("argmax", "argmin"):
        return not node.args and ctx.is_tensor(func.value)
    return False


def _computed_count(node: ast.AST, ctx) -> bool:
    """A tensor surely computed in the traced code (a call or arithmetic, spelled here or the one reaching
    value of a local), not a name whose tensor-ness comes from a parameter."""
    value = ctx.reaching_value(node) if isinstance(node, ast.Name) else node
    return isinstance(value, (ast.Call, ast.BinOp)) and ctx.is_tensor(value)


def _flatten(args: Iterable[ast.AST]):
    """Size arguments, one by one: `zeros(a, b)` and `zeros((a, b))` alike."""
    for arg in args:
        if isinstance(arg, (ast.Tuple, ast.List)):
            yield from arg.elts
        elif not isinstance(arg, ast.Starred):
            yield arg


def _computed(node: ast.AST, ctx) -> bool:
    """Anything but a bare input of the traced function: a parameter, or a module-level tensor
    (`N = torch.tensor(3)`; measured: `torch.zeros(N)` does not break), see the module docstring."""
    return not (isinstance(node, ast.Name) and ctx.env is not None
                and (node.id in ctx.env.parameters or node.id in ctx.env.module_constants))


def _numpy_value(node: ast.AST, ctx) -> bool:
    """A numpy function's result (or a name only ever bound to one): Dynamo traces numpy as tensors,
    so range() over it breaks like range() over a tensor (GB0059, measured on 2.13 with
    `range(np.prod(x.shape))`)."""
    values = [node]
    if isinstance(node, ast.Name):
        values = [value for _, value in ctx.env.definitions.get(node.id, ())] if ctx.env is not None else []
    return bool(values) and all(
        isinstance(v, ast.Call) and (ctx.qualify(v.func) or "").startswith("numpy.")
        and not (ctx.qualify(v.func) or "").startswith("numpy.random.") for v in values)
