"""BL101: Python control flow on a tensor's value (if / while / ternary / and / or / not)."""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.compiling import operands_evaluated_when_compiling
from ..model import Fix, Transform
from ..fix.branch import as_bool, known_bool, ternary_fix, where_fix, _convert
from ..fix.branch import comments_in
from ..fix.rewrite import replace_fix, replace_statement, statement_lines
from ..fix.message import constant_message, device_message, literal
from ..fix.trap import evaluates_safely, trap_fix
from ..fix.cond import cond_fix
from ..analysis.tensors import annotation_kind
from ..analysis.narrowing import narrowed_non_tensors
from .base import Example, Rule


def _compares_none(node: ast.Compare) -> bool:
    # `t == None` is plain False in Dynamo and eager: no branch on data (measured on 2.13).
    return any(isinstance(n, ast.Constant) and n.value is None for n in [node.left, *node.comparators])


def _compares_text(node: ast.Compare) -> bool:
    # `query == ""` tests a string: a tensor compared with a str raises, so this is never a tensor.
    return any(isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes))
               for n in [node.left, *node.comparators])


def _weak_parameter(name: str, ctx) -> bool:
    """An unannotated parameter tested for truth (`if cache:`) is as often a list, dict or flag as
    a tensor; only its use as a tensor (`cache.sum()`) proves it. Stay silent on the bare name."""
    func = ctx.scope.func if ctx.scope else None
    if func is None:
        return False
    args = func.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs:
        if arg.arg == name:
            return annotation_kind(arg.annotation) is not True
    return False


def branches_on_tensor(test: ast.AST, ctx) -> bool:
    """Would Python take the truth value of a tensor to evaluate this condition?"""
    if isinstance(test, ast.BoolOp):
        # `not torch.compiler.is_compiling() and <check>`: under compile the check never runs.
        return any(branches_on_tensor(v, ctx) for v in operands_evaluated_when_compiling(test, ctx.qualify))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return branches_on_tensor(test.operand, ctx)
    if isinstance(test, ast.NamedExpr):
        return branches_on_tensor(test.value, ctx)
    if isinstance(test, ast.Compare) and (_compares_none(test) or _compares_text(test)):
        return False
    if isinstance(test, ast.Name) and _weak_parameter(test.id, ctx):
        return False
    return ctx.is_tensor(test)


def _any_all_of_tensors(node: ast.Call, ctx) -> bool:
    """`any([a > 0, b > 0])`, `all(t > 0 for t in x)`: the builtin takes each element's truth value
    (measured on 2.13: GB0170 for a list and for a generator)."""
    func = node.func
    if not (isinstance(func, ast.Name) and func.id in ("any", "all") and len(node.args) == 1 and not node.keywords
            and not ctx.file.imports.is_bound(func.id)):
        return False
    arg = node.args[0]
    if isinstance(arg, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        # `isinstance(ts, list) and all(0 <= t for t in ts)`: what the loop runs over is no tensor there
        narrowed = narrowed_non_tensors(ctx.parents, node, ctx.scope.func, ctx.qualify)
        if any(isinstance(n, ast.Name) and n.id in narrowed for gen in arg.generators for n in ast.walk(gen.iter)):
            return False
        return ctx.is_tensor(arg.elt)
    if isinstance(arg, (ast.List, ast.Tuple, ast.Set)):
        return any(ctx.is_tensor(e) for e in arg.elts)
    # `any(mask)`: iterating a tensor gives its elements, each tested (measured on 2.13: GB0170). A name is
    # judged by the value it was given here: a parameter may as well be a list of bools (`any(skip_flags)`)
    if isinstance(arg, ast.Name):
        value = ctx.reaching_value(arg)
        return value is not None and not isinstance(value, ast.Name) and ctx.is_tensor(value)
    return ctx.is_tensor(arg)


def _torch_assert_on_tensor(node: ast.Call, ctx) -> bool:
    """`torch._assert(x.abs().sum() >= 0, "msg")`: unlike the `assert` statement, it takes the condition's
    truth value (measured on 2.13: GB0033); `torch._assert(x.dim() == 2, ...)` on Python values is traced."""
    return bool(node.args) and isinstance(node.func, ast.Attribute) and node.func.attr == "_assert" \
        and (ctx.qualify(node.func) or "") == "torch._assert" and branches_on_tensor(node.args[0], ctx)


def in_condition(ctx, node: ast.AST) -> Optional[ast.AST]:
    """The if / while / ternary / assert / comprehension-if whose test holds `node`, else None."""
    child = node
    for parent in reversed(ctx.parents):
        if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and child is parent.test:
            return parent
        if isinstance(parent, ast.Assert) and child is parent.test:
            return parent
        if isinstance(parent, ast.comprehension) and child in parent.ifs:
            return parent
        if isinstance(parent, ast.stmt):
            return None
        child = parent
    return None


def _inside_reported_boolean(ctx, node: ast.AST) -> bool:
    """An `and`/`or`/`not` nested in another one is reported once, at the outermost."""
    parent = ctx.parent
    if isinstance(parent, ast.BoolOp):
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


class TensorBranch(Rule):
    code = "BL101"
    name = "tensor-branch"
    summary = "if / while / ternary / and / or / not on a tensor value breaks the graph"
    gb_ids = ("GB0170", "GB0033")
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.If, ast.While, ast.IfExp, ast.BoolOp, ast.UnaryOp, ast.Assert, ast.Call, ast.comprehension)
    # 2.13: measured here (tests/test_rule_verdicts + the probes in rules/BL101.md).
    # 2.11 and 2.15: taken from the team catalogue (GB0170 on both; outside this repository), not re-measured.
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.AST, ctx) -> None:
        if isinstance(node, ast.Call):
            if _any_all_of_tensors(node, ctx):
                ctx.report(node, f"{node.func.id}() over tensors takes the truth value of each one: Dynamo splits "
                                 "the graph here (GB0170); use torch.stack(...).any() / .all()")
            elif _torch_assert_on_tensor(node, ctx):
                ctx.report(node, "torch._assert() on a tensor condition reads its value: Dynamo breaks the graph "
                                 "here (GB0033); use a plain `assert <tensor>`, which is traced")
            return
        if isinstance(node, ast.If):
            if branches_on_tensor(node.test, ctx):
                fix = where_fix(ctx, node) or cond_fix(ctx, node) or trap_fix(ctx, node)
                ctx.report(node.test, "`if` on a tensor value is data-dependent control flow: Dynamo splits "
                                      "the graph here (GB0170); use torch.where or torch.cond", fix,
                           start_node=_statement_start(node))
        elif isinstance(node, ast.While):
            if branches_on_tensor(node.test, ctx):
                ctx.report(node.test, "`while` on a tensor value is data-dependent control flow: Dynamo "
                                      "splits the graph at every test (GB0170); use a fixed trip count "
                                      "or torch.while_loop", None)
        elif isinstance(node, ast.IfExp):
            if branches_on_tensor(node.test, ctx):
                ctx.report(node.test, "conditional expression on a tensor value: Dynamo splits the graph "
                                      "here (GB0170); use torch.where", ternary_fix(ctx, node))
        elif isinstance(node, ast.comprehension):
            # `[r for r in rows if r.sum() > 0]`: each element's test is a branch (measured on 2.13: GB0170
            # in list, dict and generator comprehensions)
            for test in node.ifs:
                if branches_on_tensor(test, ctx):
                    ctx.report(test, "comprehension `if` on a tensor value is data-dependent control flow: Dynamo "
                                     "splits the graph here (GB0170); keep the rows with a mask (boolean indexing "
                                     "outside compiled code, or torch.where)")
        elif isinstance(node, ast.Assert):
            self._check_assert(node, ctx)
        elif isinstance(node, ast.BoolOp):
            self._check_boolean(node, ctx, node.values[:-1])
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self._check_boolean(node, ctx, [node.operand])

    def _check_assert(self, node: ast.Assert, ctx) -> None:
        # Measured on 2.13: `assert t.all()` and `assert t.all(), "text"` trace (Dynamo turns them into
        # an async assert). `and` / `or` / `not` on a tensor inside the test read its truth value, and
        # a message that must be computed (`.format(...)`, an f-string, `%`) makes Dynamo branch on the
        # tensor: both split the graph (GB0170).
        test = node.test
        boolean = isinstance(test, ast.BoolOp) and any(branches_on_tensor(v, ctx) for v in test.values[:-1]) \
            or isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and branches_on_tensor(test.operand, ctx)
        if boolean:
            word = "not" if isinstance(test, ast.UnaryOp) else "and" if isinstance(test.op, ast.And) else "or"
            symbol = {"not": "~", "and": "&", "or": "|"}[word]
            fix = _boolean_fix(test, ctx, True) or (_split_assert_fix(node, ctx) if word == "and" else None)
            ctx.report(test, f"`{word}` on a tensor in an assert reads its truth value: Dynamo splits the graph "
                             f"here (GB0170); use `{symbol}` on bool tensors, or one assert per operand", fix)
        if node.msg is not None and not isinstance(node.msg, ast.Constant) and branches_on_tensor(test, ctx):
            # Reported on the whole statement, so that `# noqa` on the assert's first line holds.
            ctx.report(node, "`assert` on a tensor with a computed message is data-dependent control flow: "
                                 "Dynamo splits the graph here (GB0170); use a constant message",
                       _constant_message_fix(node.msg, ctx))

    def _check_boolean(self, node, ctx, tested) -> None:
        # In a condition the owning if/while/ternary reports; `assert` on tensors does not break.
        if in_condition(ctx, node) is not None or _inside_reported_boolean(ctx, node):
            return
        # `a or b` as a value tests every operand but the last for truth.
        if not any(branches_on_tensor(v, ctx) for v in tested):
            return
        if isinstance(node, ast.UnaryOp):
            ctx.report(node, "`not` on a tensor reads its value: Dynamo breaks the graph and cannot "
                             "resume after it (GB0033); use `~` on a bool tensor", _boolean_fix(node, ctx))
        else:
            word, symbol = ("and", "&") if isinstance(node.op, ast.And) else ("or", "|")
            ctx.report(node, f"`{word}` on tensors takes their truth value: Dynamo splits the graph here "
                             f"(GB0170); use `{symbol}` on bool tensors", _boolean_fix(node, ctx))

    VALID = [
        Example("""
from typing import List, Optional, Union

import torch
from torch import Tensor, nn


def check(thresholds: Optional[Union[int, List[float], Tensor]], x: Tensor) -> Tensor:
    # a list of floats here: all() runs over Python numbers
    if isinstance(thresholds, list) and not all(isinstance(t, float) and 0 <= t <= 1 for t in thresholds):
        raise ValueError("thresholds must be in [0, 1]")
    return x


class Net(nn.Module):
    def forward(self, x):
        return check([0.5], x)


def factory():
    return Net(), (torch.randn(4),)
"""),
        Example("""
import torch
from torch import nn


class Checked(nn.Module):
    def forward(self, t):
        assert (t > -10).all(), "values out of range"   # a constant message: traced, no break
        assert torch.isfinite(t).all()
        return t * 2


def factory():
    return Checked(), (torch.arange(5.0),)
"""),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, mask=None):
        if x.shape[0] > 2 and x.dim() == 1:  # shapes are Python ints
            x = x * 2
        if self.training:
            x = x + 1
        if mask is not None:
            x = x.masked_fill(mask, 0.0)
        assert (x > -1e9).all(), "assert on a tensor does not break"
        y = torch.where(x.sum() > 0, x, -x)
        return y if x.dim() == 1 else y.t()


def factory():
    return Net(), (torch.randn(8),)
"""),
        Example("""
import torch
from torch import nn


class Cache(nn.Module):
    def forward(self, x, cache):
        if cache:  # an unannotated parameter used only for truth: maybe a list, stay silent
            x = x + cache[0]
        return x


def factory():
    return Cache(), (torch.randn(4), [])
"""),
        Example("""
import torch


def eager_helper(x):
    if x.sum() > 0:  # not compiled: never traced
        return x
    return -x


@torch.compile
def step(x, n: int):
    while n > 0:
        x = x * 2
        n -= 1
    return x == None


def factory():
    return step, (torch.randn(4), 3)
"""),
        Example("""
import torch
from torch import nn


class SparseTensor:
    \"\"\"A stand-in for torch_sparse.SparseTensor: a Python object, not a torch.Tensor.\"\"\"

    def __init__(self, value=None):
        self.value = value

    def has_value(self):
        return self.value is not None


class Propagate(nn.Module):
    def forward(self, x, adj):
        # past the isinstance operand, adj.has_value() is a Python bool
        if isinstance(adj, SparseTensor) and not adj.has_value():
            return x * 2
        return x + 1


def factory():
    return Propagate(), (torch.randn(4), SparseTensor())
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Gate(nn.Module):
    def forward(self, x, y):
        h = x * 2
        if any([h.sum() > 0, y.sum() > 0]):
            h = h + 1
        ok = all(t > 0 for t in h)
        return h, ok


def factory():
    return Gate(), (torch.randn(4), torch.randn(4))
""", at=((9, 12), (11, 14))),
        Example("""
import torch
from torch import nn


class Checked(nn.Module):
    def forward(self, t):
        assert (t[1:] > t[:-1]).all(), "{} must be increasing".format(t.shape)
        return t * 2


def factory():
    return Checked(), (torch.arange(5.0),)
""", fixed="""
import torch
from torch import nn


class Checked(nn.Module):
    def forward(self, t):
        assert (t[1:] > t[:-1]).all(), "t.shape must be increasing"
        return t * 2


def factory():
    return Checked(), (torch.arange(5.0),)
""", at=((8, 9),)),
        Example("""
import torch


@torch.compile
def interpolate(t0, t, t1, y0, y1):
    assert t0 <= t and t <= t1, f"t={t} outside [{t0}, {t1}]"
    return y0 + (t - t0) / (t1 - t0) * (y1 - y0)


def factory():
    return interpolate, (torch.tensor(0.0), torch.tensor(0.5), torch.tensor(1.0), torch.zeros(3), torch.ones(3))
""", fixed="""
import torch


@torch.compile
def interpolate(t0, t, t1, y0, y1):
    assert (t0 <= t) & (t <= t1), "t=t outside [t0, t1]"
    return y0 + (t - t0) / (t1 - t0) * (y1 - y0)


def factory():
    return interpolate, (torch.tensor(0.0), torch.tensor(0.5), torch.tensor(1.0), torch.zeros(3), torch.ones(3))
""", at=((7, 5), (7, 12))),
        Example("""
import torch
from torch import nn


class SortedSegments(nn.Module):
    def forward(self, x, index):
        if not torch.all(index[:-1] <= index[1:]):
            raise ValueError("index must be sorted")
        return x.cumsum(0) * 2


def factory():
    return SortedSegments(), (torch.randn(6), torch.tensor([0, 0, 1, 1, 2, 3]))
""", fixed="""
import torch
from torch import nn


class SortedSegments(nn.Module):
    def forward(self, x, index):
        if torch.compiler.is_compiling():
            torch._assert_async(
                torch.all(index[:-1] <= index[1:]), "ValueError: index must be sorted"
            )
        elif not torch.all(index[:-1] <= index[1:]):
            raise ValueError("index must be sorted")
        return x.cumsum(0) * 2


def factory():
    return SortedSegments(), (torch.randn(6), torch.tensor([0, 0, 1, 1, 2, 3]))
""", at=((8, 12),)),
        Example("""
import torch
from torch import nn


class NoNaN(nn.Module):
    def forward(self, x):
        assert not torch.isnan(x).any()
        return x * 2


def factory():
    return NoNaN(), (torch.randn(4),)
""", at=((8, 16),)),
        Example("""
import torch
from torch import nn


class Rescale(nn.Module):
    def forward(self, x):
        y = x * 2
        if y.abs().amax() > 4.0:
            y = y / y.abs().amax()
        else:
            y = y + 0.5
        return y


def factory():
    return Rescale(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Rescale(nn.Module):
    def forward(self, x):
        y = x * 2
        y = torch.where(
            y.abs().amax() > 4.0,
            y / torch.where(y.abs().amax() > 4.0, y.abs().amax(), 1),
            y + 0.5,
        )
        return y


def factory():
    return Rescale(), (torch.randn(8),)
""", at=((9, 12),)),
        Example("""
import torch
from torch import nn


class SoftClip(nn.Module):
    def forward(self, x):
        y = torch.tanh(x) * 3.0
        # rescale only when the peak is large
        if y.amax() > 2.8:  # data-dependent
            y = y * 0.5
        return y + 1


def factory():
    return SoftClip(), (torch.randn(16),)
""", fixed="""
import torch
from torch import nn


class SoftClip(nn.Module):
    def forward(self, x):
        y = torch.tanh(x) * 3.0
        # rescale only when the peak is large
        # data-dependent
        y = torch.where(y.amax() > 2.8, y * 0.5, y)
        return y + 1


def factory():
    return SoftClip(), (torch.randn(16),)
""", at=((10, 12),)),
        Example("""
import torch


def pick(x, y):
    if x.mean() > y.mean():
        return x - y
    return y - x


@torch.compile
def distance(x, y):
    return pick(x * 2, y * 2).abs()


def factory():
    return distance, (torch.randn(8), torch.randn(8))
""", fixed="""
import torch


def pick(x, y):
    return torch.where(x.mean() > y.mean(), x - y, y - x)


@torch.compile
def distance(x, y):
    return pick(x * 2, y * 2).abs()


def factory():
    return distance, (torch.randn(8), torch.randn(8))
""", at=((6, 8),)),
        Example("""
import torch
from torch import nn


class Bucket(nn.Module):
    def forward(self, x):
        s = x.sum()
        if s > 1.0:
            out = x * 2
        elif s < -1.0:
            out = x * -2
        else:
            out = x
        return out + 1


def factory():
    return Bucket(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Bucket(nn.Module):
    def forward(self, x):
        s = x.sum()
        out = torch.where(s > 1.0, x * 2, torch.where(s < -1.0, x * -2, x))
        return out + 1


def factory():
    return Bucket(), (torch.randn(8),)
""", at=((9, 12), (11, 14))),
        Example("""
import torch
from torch import nn


class Sign(nn.Module):
    def forward(self, x):
        h = x.relu()
        z = h if x.sum() > 0 else -h
        return z * 2


def factory():
    return Sign(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Sign(nn.Module):
    def forward(self, x):
        h = x.relu()
        z = torch.where(x.sum() > 0, h, -h)
        return z * 2


def factory():
    return Sign(), (torch.randn(8),)
""", at=((9, 18),)),
        Example("""
import torch
from torch import nn


class Flags(nn.Module):
    def forward(self, x, y):
        h = x + y
        big = (h > 2).any() or (h < -2).any()
        small = not (h.abs() > 3).any()
        return h * 2, big, small


def factory():
    return Flags(), (torch.randn(8), torch.randn(8))
""", fixed="""
import torch
from torch import nn


class Flags(nn.Module):
    def forward(self, x, y):
        h = x + y
        big = (h > 2).any() | (h < -2).any()
        small = ~(h.abs() > 3).any()
        return h * 2, big, small


def factory():
    return Flags(), (torch.randn(8), torch.randn(8))
""", at=((9, 15), (10, 17))),
        Example("""
import torch
from torch import nn


class Norm(nn.Module):
    def forward(self, x):
        h = x * 2
        if h.norm() > 4.0:
            scaled = h / h.norm()
            out = scaled.sigmoid() * 2.0
        else:
            out = h.sigmoid()
        return out - 1


def factory():
    return Norm(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Norm(nn.Module):
    def forward(self, x):
        h = x * 2
        def _true_branch(h):
            scaled = h / h.norm()
            out = scaled.sigmoid() * 2.0
            return out
        def _false_branch(h):
            out = h.sigmoid()
            return out
        out = torch.cond(h.norm() > 4.0, _true_branch, _false_branch, (h,))
        return out - 1


def factory():
    return Norm(), (torch.randn(8),)
""", at=((9, 12),)),
        Example("""
import torch
from torch import nn


class Damp(nn.Module):
    def forward(self, x):
        a = x * 2
        b = x + 1
        if (a - b).mean() > -1:
            a = a.relu() - 1
            b = b * 2
        return a + b


def factory():
    return Damp(), (torch.randn(8),)
""", fixed="""
import torch
from torch import nn


class Damp(nn.Module):
    def forward(self, x):
        a = x * 2
        b = x + 1
        def _true_branch(a, b):
            a = a.relu() - 1
            b = b * 2
            return a, b
        def _false_branch(a, b):
            return a.clone(), b.clone()
        a, b = torch.cond((a - b).mean() > -1, _true_branch, _false_branch, (a, b))
        return a + b


def factory():
    return Damp(), (torch.randn(8),)
""", at=((10, 12),)),
        Example("""
import torch
from torch import nn


class Halve(nn.Module):
    def forward(self, x):
        y = x * 4
        while y.abs().max() > 1:
            y = y / 2
        return y


def factory():
    return Halve(), (torch.randn(8),)
""", at=((9, 15),)),
        Example("""
import torch
from torch import nn


class Checked(nn.Module):
    def forward(self, x):
        h = x * 2
        if torch.isnan(h).any():
            raise ValueError("NaN in activations")
        return h + 1


def factory():
    return Checked(), (torch.randn(8),)
""", at=((9, 12),)),
    ]


# Measured on 2.13 (tests/rules/test_trap.py): an assert on a tensor traces, and compiled a failing
# one raises RuntimeError (Dynamo turns it into torch._assert_async) where eager raises AssertionError.
COMPILED_ASSERT = "compiled, a failing assert raises RuntimeError instead of AssertionError"


def _constant_message_fix(message: ast.AST, ctx) -> Optional[Fix]:
    """`"... {}".format(n)` -> `"... n"`, `f"bad {t}"` -> `"bad t"`, `"%d" % n` -> `"n"`: a constant
    message with each placeholder replaced by the text of its expression (measured on 2.13: a
    computed message breaks even when it shows only shapes). Unsafe: the message loses its values."""
    text = constant_message(message, ctx)
    if text is None or isinstance(message, ast.Constant):
        return None
    return replace_fix(f"Use a constant message ({COMPILED_ASSERT})", "unsafe",
                       (ctx.replace(message, literal(device_message(text))),))


def _and_operands(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [part for value in node.values for part in _and_operands(value)]
    return [node]


def split_assert_rewriter(rows: frozenset):
    """The LibCST transform of the split (fix/cst_assert.py), imported only when a fix is applied."""
    from ..fix.cst_assert import SplitAssert

    return SplitAssert(rows)


def _split_assert_fix(node: ast.Assert, ctx) -> Optional[Fix]:
    """`assert a and b, msg` -> `assert a, msg` / `assert b, msg`: exact in Python (`b` runs only
    when `a` held, the message only on failure), so it needs none of `&`'s proofs; offered where `&`
    is refused (`time_grid[-1]` when `time_grid` is not known to be a tensor). Measured on 2.13: each
    plain assert on a tensor traces (tests/rules/test_assert_split.py). Only for an assert alone on its
    lines with no comment inside, and operands that are not themselves `or` / `not` (those would still
    break)."""
    parts = _and_operands(node.test)
    lines = statement_lines(ctx, node)
    if lines is None or len(parts) < 2 or any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
        return None
    if any(isinstance(p, ast.BoolOp) or isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not) for p in parts):
        return None
    if comments_in(ctx.segment(node)) != []:
        return None

    def standalone(expr: ast.AST) -> str:
        text = ctx.segment(expr)
        return f"({text})" if "\n" in text else text  # its line breaks need parentheses of its own

    message = "" if node.msg is None else ", " + standalone(node.msg)
    indent = lines[0]
    trailing = ctx.file.lines[node.end_lineno - 1].encode("utf-8")[node.end_col_offset:].decode("utf-8", "ignore")
    new = [f"{indent}assert {standalone(p)}{message}" for p in parts]
    new[-1] += trailing
    edit = replace_statement(ctx, node, new)
    if edit is None:
        return None
    return Fix(message=f"Split the assert into one per `and` operand ({COMPILED_ASSERT})", applicability="unsafe",
               edits=(edit,), transform=Transform(split_assert_rewriter, (), frozenset({node.lineno})))


def _boolean_fix(node: ast.AST, ctx, in_assert: bool = False) -> Optional[Fix]:
    """`a or b` -> `a | b` and `not a` -> `~a`, only on operands that are surely bool tensors:
    on other values Python returns an operand, which `|` would not."""
    operands = node.values if isinstance(node, ast.BoolOp) else [node.operand]
    if not all(ctx.is_tensor(v) and known_bool(v, ctx) for v in operands):
        return None
    if not evaluates_safely(node, ctx):
        return None  # `m.any() and x[m].min() > 0`: `&` runs what `and` skipped, and it may raise
    got = _convert(node, ctx, False)
    if got is None:
        return None
    return replace_fix("Use bitwise operators on bool tensors" + (f" ({COMPILED_ASSERT})" if in_assert else ""),
                       "unsafe", (ctx.replace(node, as_bool(got)),))


def _statement_start(node: ast.AST):
    """`if (` with its test on the lines below: Dynamo reports the break on the `if` line (measured on
    2.13), so the finding starts there; a test on the `if` line starts the finding itself. (A `while`
    test is reported on its own line: the loop's test is compiled apart from the `while`.)"""
    return node if node.test.lineno > node.lineno else None
