"""BL110: a draw of Python's `random` module used as a Python value in traced code.

Measured on torch 2.13 and 2.14 (CPU): Dynamo traces random.uniform(), randint() and randrange() (and,
from 2.14, random.random()) by making the drawn number a graph input. Multiplying, adding or dividing
a tensor by it stays in the graph, and so do max() and torch arguments such as clamp(max=) and
torch.full(). What needs it as a Python number breaks:
- arithmetic with a number (`1 - random.uniform(0, 1)`, `randint(0, 2) * 2`): GB0213;
- int() and round() (GB0178), range() and indexing a tensor with it (GB0033, GB4841);
- an `if`, `while`, ternary or comprehension `if` decided by it: GB0170. An `assert` did not break.
- passing it to a torch function or tensor method (`torch.randn(k)`, `x.narrow(1, 0, k)`, `F.dropout(x, p=d)`,
  `x.new_zeros((k, 2))`, `x.add(y, alpha=d)`, `x.new_full(s, d)`), and slicing with it (`x[:, k:]`), measured
  in stop 29. Calls that take it as a value stay in the graph: `torch.tensor(d)`, `torch.full(s, d)`,
  clamp / clip, add / sub / mul / div / pow, masked_fill / fill_ / where / lerp, `torch.linspace(0, d, n)`.
On 2.13 random.random() itself is skipped (BL502), and what it returns is then a plain float.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..versions import before
from ..analysis.guards import breaks_when
from .base import Example, Rule, local_names, root_name

# Draws Dynamo turns into graph inputs; random.random() only from 2.14 (on 2.13 BL502 reports it).
DRAWS = {"random.uniform", "random.randint", "random.randrange"}
RANDOM_TRACED_FROM = "2.14"
# Builtins that need the draw as a Python number (measured: int, round and range break).
_BUILTINS = {"int", "round", "range"}
# What a draw may go through on its way to deciding a test.
_TESTED_THROUGH = (ast.Compare, ast.BoolOp)


def _draw(node: ast.AST, ctx) -> Optional[str]:
    """The draw this call makes (`random.uniform`), or None (also for a local named `random`)."""
    if not isinstance(node, ast.Call):
        return None
    qual = ctx.qualify(node.func) or ""
    if qual in DRAWS or (qual == "random.random" and not before(ctx.torch_version, RANDOM_TRACED_FROM)):
        return None if root_name(node.func) in local_names(ctx) else qual
    return None


def _python_number(node: ast.AST, ctx) -> bool:
    """Surely a Python number: a numeric constant, a size (`x.shape[-1]`, `x.size(0)`, `len(...)`), `int()` /
    `float()`, another draw, or arithmetic on those. An operand of unknown type (`feats[0]`) may be a tensor,
    and a tensor times a draw stays in the graph."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _python_number(node.operand, ctx)
    if isinstance(node, ast.BinOp):
        return _python_number(node.left, ctx) and _python_number(node.right, ctx)
    if _draw(node, ctx) is not None:
        return True
    if isinstance(node, ast.Name):
        drawn = _drawn_locals(ctx).get(node.id)
        if drawn is not None:
            return not drawn[1]
        value = ctx.reaching_value(node)
        return value is not None and not isinstance(value, ast.Name) and _python_number(value, ctx)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("len", "int", "float", "round") \
                and not ctx.file.imports.is_bound(func.id):
            return True
        if isinstance(func, ast.Attribute) and (func.attr == "size" and node.args or func.attr in ("dim", "numel")):
            return True
    return False


def _number_local(target: ast.AST, ctx) -> bool:
    """An augmented assignment's target that every plain binding in the function makes a number
    (`s = 1.0`, then `s *= random.uniform(0.9, 1.1)`)."""
    if not isinstance(target, ast.Name):
        return False
    values = ctx.file.scopes.local_values_of(ctx.scope.func).get(target.id) or []
    return bool(values) and all(_python_number(v, ctx) for v in values)


def _drawn_locals(ctx) -> dict[str, tuple[str, bool]]:
    """Locals of the traced function bound once, by a plain assignment, to a draw
    (`k = random.randint(0, 3)`) or to a comparison of one: name -> (the draw, a comparison)."""
    func = ctx.scope.func

    def collect() -> dict[str, str]:
        if not any(_draw(call, ctx) for call in ctx.file.scopes.calls.get(ctx.scope.qualname, ())):
            return {}  # no draw among the function's calls (at hand already): no walk
        bindings: dict[str, int] = {}
        drawn: dict[str, tuple[str, bool]] = {}
        for node in ast.walk(func):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bindings[node.id] = bindings.get(node.id, 0) + 1
            elif isinstance(node, ast.arg):
                bindings[node.arg] = bindings.get(node.arg, 0) + 1
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                    and isinstance(node.value, ast.Tuple) and len(node.targets[0].elts) == len(node.value.elts):
                # `a, b = random.randint(0, 3), random.randint(0, 3)`: each name its own draw
                for target, value in zip(node.targets[0].elts, node.value.elts):
                    found = _draw(value, ctx) if isinstance(target, ast.Name) else None
                    if found:
                        drawn[target.id] = (found, False)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                found = _draw(node.value, ctx)
                if found:
                    drawn[node.targets[0].id] = (found, False)
                elif isinstance(node.value, ast.Compare):
                    # `flip = random.uniform(0, 1) < p`: a traced bool, which breaks where it decides a test
                    found = next(filter(None, (_draw(n, ctx) for n in [node.value.left, *node.value.comparators])), None)
                    if found:
                        drawn[node.targets[0].id] = (found, True)
        return {name: drawn_as for name, drawn_as in drawn.items() if bindings.get(name) == 1}
    return ctx.file.memo(("BL110", "drawn locals", id(func)), collect)


def _python_use(ctx, node: ast.AST, parents: list, tested_only: bool = False) -> Optional[str]:
    """How the draw `node` (whose ancestors are `parents`, nearest last) is used in Python, when that use
    breaks (each measured): arithmetic with a number, int() / round() / range(), a tensor index, or
    deciding a test through comparisons and `and` / `or` / `not`; None otherwise (arithmetic with a
    tensor, a torch argument, ...)."""
    parent = parents[-1] if parents else None
    if tested_only:
        pass
    elif isinstance(parent, ast.BinOp):
        other = parent.right if parent.left is node else parent.left
        if _python_number(other, ctx):
            return "Python arithmetic on it"
    elif isinstance(parent, ast.AugAssign) and parent.value is node and _number_local(parent.target, ctx):
        return "Python arithmetic on it"
    elif isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not):
        return "Python arithmetic on it"
    elif isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _BUILTINS \
            and node in parent.args and not ctx.file.imports.is_bound(parent.func.id):
        return f"{parent.func.id}() of it"
    elif isinstance(parent, ast.Subscript) and parent.slice is node:
        return "indexing with it"  # a tensor (GB0033) or a Python list (GB0178) alike
    elif isinstance(parent, ast.Slice):
        return "slicing with it"  # `x[:, k:]`: the bound is read as a Python int (GB4841)
    elif isinstance(parent, (ast.Tuple, ast.List)) and len(parents) > 1 and _torch_argument(ctx, parents[-2], parent) \
            and not _takes_values(ctx, parents[-2]):
        return "a size made of it"  # `x.new_zeros((k, 2))`, `F.pad(x, (k, k))`
    elif isinstance(parent, ast.keyword) and len(parents) > 1 and _torch_argument(ctx, parents[-2], parent) \
            and not (_takes_values(ctx, parents[-2]) and parent.arg in _VALUE_KEYWORDS):
        return f"passing it as {parent.arg}="  # `F.dropout(x, p=d)`, `x.add(y, alpha=d)`
    elif isinstance(parent, ast.Call) and _torch_argument(ctx, parent, node) and _takes_sizes(parent):
        return "passing it to a torch call"  # `torch.randn(k)`, `x.narrow(1, 0, k)`, `F.leaky_relu(x, d)`
    child = node
    for ancestor in reversed(parents):
        if isinstance(ancestor, (ast.If, ast.While, ast.IfExp)):
            return "a branch on it" if child is ancestor.test else None
        if isinstance(ancestor, ast.comprehension):
            return "a branch on it" if child in ancestor.ifs else None
        if not isinstance(ancestor, _TESTED_THROUGH) and not (
                isinstance(ancestor, ast.UnaryOp) and isinstance(ancestor.op, ast.Not)):
            return None
        child = ancestor
    return None


# Torch calls that take a drawn number as a value and stay in the graph (measured on 2.13): elementwise
# arithmetic, clamping, filling and selecting, and making a tensor of it; positionally, or by these keywords.
_VALUE_FUNCTIONS = {"torch.tensor", "torch.as_tensor", "torch.full", "torch.clamp", "torch.clip", "torch.where",
                    "torch.lerp", "torch.linspace", "torch.add", "torch.sub", "torch.mul", "torch.div", "torch.pow",
                    "torch.maximum", "torch.minimum", "torch.fmod", "torch.remainder"}
_VALUE_METHODS = {"clamp", "clamp_", "clip", "clip_", "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_",
                  "pow", "pow_", "masked_fill", "masked_fill_", "fill_", "lerp", "lerp_", "where", "fmod", "remainder"}
_VALUE_KEYWORDS = {"min", "max", "fill_value", "value", "weight", "other", "exponent"}


# Torch calls measured (2.13) or known to need a positional argument as a Python number: sizes, counts, dims,
# probabilities and slopes. Elementwise arithmetic and comparisons (`torch.lt(x, d)`, `x.mul(d)`) stay in the graph.
_SIZE_TAKERS = frozenset({
    "normal", "new_full", "leaky_relu", "narrow", "expand", "randn", "rand", "randint", "zeros", "ones", "empty",
    "arange", "split", "chunk", "repeat_interleave", "avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d",
    "full_like", "dropout", "interpolate", "roll", "topk", "repeat", "view", "reshape", "new_zeros", "new_ones",
    "new_empty", "unflatten", "tensor_split", "kthvalue", "randperm", "pad", "unfold", "tril", "triu", "eye",
    "rot90", "movedim"})


def _takes_sizes(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _SIZE_TAKERS


def _torch_argument(ctx, call: ast.AST, arg: ast.AST) -> bool:
    """Whether `arg` is an argument (positional, keyword, or a tuple of them) of a call of torch: a torch
    function (`torch.randn`, `F.dropout`) or a method of a tensor (`x.narrow`)."""
    if not isinstance(call, ast.Call) or not (arg in call.args or arg in call.keywords):
        return False
    qual = ctx.qualify(call.func) or ""
    if qual.startswith("torch.") and not qual.startswith(("torch.compiler.", "torch._dynamo.")):
        return True
    return isinstance(call.func, ast.Attribute) and ctx.is_tensor(call.func.value)


def _takes_values(ctx, call: ast.Call) -> bool:
    """A torch call measured to keep a drawn number in the graph (`x.clamp(max=d)`, `torch.full(s, d)`)."""
    qual = ctx.qualify(call.func) or ""
    if qual in _VALUE_FUNCTIONS:
        return True
    return isinstance(call.func, ast.Attribute) and not qual.startswith("torch.") and call.func.attr in _VALUE_METHODS


def _local_uses(node: ast.AST, drawn: dict):
    """(name, path from `node` down to it) for each drawn local that `node` uses where a use can break:
    a direct operand or argument, or inside a test through comparisons and `and` / `or` / `not`."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        heads = [node.test]
    elif isinstance(node, ast.comprehension):
        heads = list(node.ifs)
    elif isinstance(node, ast.BinOp):
        heads = [node.left, node.right]
    elif isinstance(node, (ast.UnaryOp,)):
        heads = [node.operand]
    elif isinstance(node, ast.AugAssign):
        heads = [node.value]
    elif isinstance(node, ast.Subscript):
        heads = [node.slice]
    elif isinstance(node, ast.Call):
        heads = list(node.args)
    else:
        return
    stack = [(head, [node]) for head in heads]
    if isinstance(node, ast.Call):  # keywords, and sizes: `F.dropout(x, p=d)`, `x.new_zeros((k, 2))`
        stack += [(keyword.value, [node, keyword]) for keyword in node.keywords]
        stack += [(elt, [node, arg]) for arg in node.args if isinstance(arg, (ast.Tuple, ast.List)) for elt in arg.elts]
    elif isinstance(node, ast.Subscript):  # slice bounds: `x[:, k:]`
        pieces = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        stack += [(bound, [node, piece]) for piece in pieces if isinstance(piece, ast.Slice)
                  for bound in (piece.lower, piece.upper, piece.step) if bound is not None]
    while stack:
        expr, path = stack.pop()
        if isinstance(expr, ast.Name) and expr.id in drawn and isinstance(expr.ctx, ast.Load):
            yield expr, path
        elif isinstance(node, (ast.If, ast.While, ast.IfExp, ast.comprehension)) and (
                isinstance(expr, _TESTED_THROUGH) or isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not)):
            stack.extend((child, path + [expr]) for child in ast.iter_child_nodes(expr))


class RandomDrawInPython(Rule):
    code = "BL110"
    name = "random-draw-in-python"
    summary = ("a value drawn from Python's random module (uniform, randint, randrange; random() from torch 2.14) "
               "used in Python arithmetic, int() / round() / range(), a tensor index or slice, a torch call's size or "
               "parameter, or a branch breaks the graph")
    gb_ids = ("GB0170", "GB0213", "GB0178", "GB0033", "GB4841")
    fix_availability = "never"
    node_types = (ast.Call, ast.If, ast.While, ast.IfExp, ast.comprehension, ast.BinOp, ast.UnaryOp, ast.Subscript,
                  ast.AugAssign)
    # 2.13: measured on CPU (arithmetic, int / round / range, an index, if, while, ternary, comprehension-if;
    # directly and through a local). 2.14 gave the same verdicts, but a release is listed only when every
    # rule was measured on it (`check --target-torch` says which release judges an unlisted one).
    verdicts = {"2.13": True}

    def check(self, node, ctx) -> None:
        # most files never mention the random module: one look at the text spares the rest
        if not ctx.file.memo(("BL110", "mentions random"), lambda: "random" in ctx.file.source):
            return
        if isinstance(node, ast.Call):
            draw = _draw(node, ctx)
            if draw is not None:
                self._report(node, draw, _python_use(ctx, node, ctx.parents), ctx)
        drawn = _drawn_locals(ctx)
        if not drawn:
            return
        for name, path in _local_uses(node, drawn):
            draw, compared = drawn[name.id]
            self._report(name, draw, _python_use(ctx, name, ctx.parents + path, compared), ctx, ctx.parents + path)

    @staticmethod
    def _report(node: ast.AST, draw: str, use: Optional[str], ctx, parents: Optional[list] = None) -> None:
        if use is None:
            return
        # a local's use is found from the node the engine visits: its guard is read off the full path to it
        guard = breaks_when(node, parents, ctx.is_tensor, ctx.segment, ctx.qualify) if parents is not None else None
        ctx.report(node, f"Dynamo makes what {draw}() draws a graph input, and {use} breaks the graph (GB0170, "
                         "GB0213, GB0178, GB0033); draw with torch instead (`torch.rand(())`, `torch.randint`) and keep "
                         "the value a tensor (torch.where for a branch), or draw outside compiled code", guard=guard)

    VALID = [
        Example("""
import random

import torch
from torch import nn


class Jitter(nn.Module):
    def forward(self, x):
        scale = random.uniform(0.9, 1.1)     # a draw used in arithmetic stays in the graph
        keep = torch.rand(()) < 0.5           # torch's RNG: a tensor test, for torch.where
        return torch.where(keep, x * scale, x)


def factory():
    return Jitter(), (torch.randn(4),)
"""),
        Example("""
import random

import torch
from torch import nn


def augment(x):
    if random.uniform(0, 1) < 0.5:            # not reached from traced code
        return x.flip(0)
    return x


class Net(nn.Module):
    def forward(self, x):
        return x * 2


def factory():
    return Net(), (augment(torch.randn(4)),)
"""),
    ]
    INVALID = [
        Example("""
import random

import torch
from torch import nn


class RandomFlip(nn.Module):
    def forward(self, x):
        if random.uniform(0, 1) < 0.5:
            return x.flip(-1)
        return x


def factory():
    return RandomFlip(), (torch.randn(2, 4),)
""", at=((10, 12),)),
        Example("""
import random

import torch
from torch import nn


class RandomShift(nn.Module):
    def forward(self, x):
        k = random.randint(0, 2) * 2
        return x if k == 0 else x + k


def factory():
    return RandomShift(), (torch.randn(4),)
""", at=((10, 13),)),
    ]
