"""Checks that raise on a tensor condition (`if <tensor test>: raise ...`): keep the check inside the
compiled graph with `torch._assert_async` (GraphMend's "trap" transform) instead of branching on it.

    if (x < 0).any():                      if torch.compiler.is_compiling():
        raise ValueError("negative")   ->      torch._assert_async(~(x < 0).any(), "ValueError: negative")
                                           elif (x < 0).any():
                                               raise ValueError("negative")

Measured on torch 2.13 (CPU; eager, aot_eager and inductor backends, tests/rules/test_trap.py):
- the rewritten check traces with no graph break, and a failing check still raises, as a
  RuntimeError carrying the message instead of the original exception type;
- eager code runs the original `if` / `raise` unchanged (the exception type is kept there);
- `torch._assert_async(cond)` WITHOUT a message is dropped by aot_eager and inductor (bad input
  passes silently): the trap always passes a message;
- `torch._check(tensor)` raises TypeError (it wants a Python bool) and `torch._check_tensor_all`
  breaks the graph: neither is offered.
Measured on an H100 (eager, aot_eager, inductor): no break either, but a failing trap is a
device-side assert: the call returns, the next synchronisation raises `AcceleratorError: CUDA error:
device-side assert triggered`, and every later CUDA call in the process fails too. A caller that
catches the original exception and goes on cannot do so on a GPU: the fix is unsafe for that too.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ..model import Fix, Transform
from .branch import is_pure, tensor_condition
from .message import constant_message, device_message, literal
from .rewrite import MAX_LINE, indent_unit, torch_name
from .safety import bindings, numpy_free

if TYPE_CHECKING:
    from ..rules.base import NodeContext

# Reductions that raise on an empty tensor: `mask.any() and x[mask].min() < 0` must not become `&`.
_FAIL_ON_EMPTY = {"min", "max", "amin", "amax", "argmin", "argmax", "median", "nanmedian", "mode",
                  "kthvalue", "item"}


def trap_fix(ctx: "NodeContext", node: ast.If, drop_scalars: bool = False) -> Optional[Fix]:
    """The trap above, for an `if` whose body only raises (after computing its message into locals),
    with no `else`, whose test is a tensor on every path. Unsafe: compiled, a failing check raises
    RuntimeError instead of the original exception."""
    raised = _raised(ctx, node)
    if raised is None or _caught_nearby(ctx, node):
        return None
    test = node.test
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(test)):
        return None  # `if (n := m.sum()) == 0:` binds n for the code after it
    split = _python_prefix(test, ctx)
    if split is None:
        return None
    prefix_test, checked = split
    if not evaluates_safely(checked, ctx):
        return None
    cond = _trap_condition(checked, ctx, drop_scalars) if numpy_free(checked, ctx) else None
    if cond is None:
        return None  # a Python bool on some path (or not a condition we can write as a tensor)
    torch, _ = torch_name(ctx)
    if torch is None:
        return None
    line = ctx.file.lines[node.lineno - 1]
    prefix = line.encode("utf-8")[: node.col_offset].decode("utf-8", errors="ignore")
    head = line.encode("utf-8")[node.col_offset: test.col_offset].decode("utf-8", errors="ignore").strip()
    if prefix.strip() or test.lineno != node.lineno or head not in ("if", "elif"):
        return None  # `if (\n  a and b\n):` or `x = 1; if ...`: no line of its own to rewrite
    unit = indent_unit(prefix)
    indent, inner = prefix, prefix + unit
    call_indent = inner + unit if prefix_test is not None else inner
    exc, text = raised
    message = _message_literal(device_message(f"{exc}: {text}"), len(call_indent + unit))
    call = _call_lines(call_indent, f"{torch.name}._assert_async", [cond, message])
    lines = call if prefix_test is None else [f"{inner}if {prefix_test}:"] + call
    # The text is the preview (--diff, JSON); --fix applies the same change as fix/cst_trap.py.
    new = f"{torch.name}.compiler.is_compiling():\n" + "\n".join(lines) + f"\n{indent}elif {ctx.segment(test)}"
    spec = ("trap", node.lineno, unit, prefix_test, "\n".join(call).lstrip())
    return Fix(message=f"Keep the check in the compiled graph with torch._assert_async (compiled, a failing "
                       f"check raises RuntimeError instead of {exc}, on CUDA a device-side assert that ends "
                       f"the CUDA context; eager code is unchanged)",
               applicability="unsafe", edits=(ctx.replace(test, new),),
               imports=("torch",) if torch.add_import else (),
               transform=Transform(trap_rewriter, (torch.name,), frozenset({node.lineno}), spec))


def trap_rewriter(rows: frozenset, torch_name: str, specs=()):
    """The LibCST transformer of trap_fix, imported only when a fix is applied."""
    from .cst_trap import TrapRewrite

    return TrapRewrite(rows, torch_name, specs)


def _python_prefix(test: ast.AST, ctx: "NodeContext") -> Optional[tuple[Optional[str], ast.AST]]:
    """Split `a is not None and <tensor test>` into the Python operands in front (their text, or None)
    and the tensor test after them: Dynamo decides the Python part while tracing, so the compiled
    branch keeps it as a plain `if` around the trap (PyG's `index is not None and not torch.all(...)`)."""
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)):
        return None, test
    values = list(test.values)
    front = []
    while len(values) > 1 and not ctx.is_tensor(values[0]) and not any(
            isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", "")) in ("item", "float", "int", "bool")
            for n in ast.walk(values[0])):
        front.append(values.pop(0))
    if not front:
        return None, test
    text = " and ".join(f"({ctx.segment(v)})" if isinstance(v, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr))
                        else ctx.segment(v) for v in front)
    if "\n" in text:
        return None
    rest = values[0] if len(values) == 1 else ast.BoolOp(op=ast.And(), values=values)
    return text, rest


def _trap_condition(checked: ast.AST, ctx: "NodeContext", drop_scalars: bool) -> Optional[str]:
    """The condition under which the check passes, as a bool tensor expression."""
    negated = checked.operand if isinstance(checked, ast.UnaryOp) and isinstance(checked.op, ast.Not) else None
    cond = tensor_condition(ctx, negated if negated is not None else checked, drop_scalars)
    if cond is None:
        return None
    if negated is None:
        return f"~{_wrapped(cond)}"
    return f"({cond})" if "\n" in cond else cond


def _raised(ctx: "NodeContext", node: ast.If) -> Optional[tuple[str, str]]:
    """(exception name, message text) when the branch only raises, else None."""
    if node.orelse or not node.body or not isinstance(node.body[-1], ast.Raise):
        return None
    locals_ = {}
    for stmt in node.body[:-1]:
        # Computing the message into a local is fine; anything else could be a side effect.
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            locals_[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            locals_[stmt.target.id] = stmt.value
        elif not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            return None
    exc = node.body[-1].exc
    if exc is None:
        return None  # a bare re-raise
    call = exc if isinstance(exc, ast.Call) else None
    kind = call.func if call is not None else exc
    if not isinstance(kind, (ast.Name, ast.Attribute)):
        return None
    name = kind.id if isinstance(kind, ast.Name) else kind.attr
    return name, _message_text(ctx, call, locals_, node)


def _message_text(ctx: "NodeContext", call: Optional[ast.Call], locals_: dict, node: ast.If) -> str:
    """The raised message as constant text (placeholders replaced by their expressions' text), else
    the condition that failed."""
    if call is not None and call.args:
        message = call.args[0]
        if isinstance(message, ast.Name) and message.id in locals_:
            message = locals_[message.id]
        text = constant_message(message, ctx)
        if text is not None:
            return text
    return "check failed: " + " ".join(ctx.segment(node.test).split())


def _caught_nearby(ctx: "NodeContext", node: ast.If) -> bool:
    """A raise caught in the same function is control flow, not a check."""
    child = node
    for parent in reversed(ctx.parents):
        if isinstance(parent, ast.ExceptHandler):
            return True
        if isinstance(parent, ast.Try) and parent.handlers and any(child is s for s in parent.body):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        child = parent
    return False


def evaluates_safely(test: ast.AST, ctx: "NodeContext") -> bool:
    """`and` / `or` become `&` / `|`, which evaluate every operand: an operand Python would have
    skipped must have no effect and never raise (no indexing, no reduction that fails when empty)."""
    for sub in ast.walk(test):
        if not isinstance(sub, ast.BoolOp):
            continue
        reached = _constant_indexes(sub.values[0], ctx)
        for value in sub.values[1:]:
            if not is_pure(value, ctx):
                return False
            for inner in ast.walk(value):
                if isinstance(inner, ast.Subscript) and not _slices_only(inner.slice) \
                        and not _index_reached(inner, reached):
                    return False
                if isinstance(inner, ast.Call) and getattr(inner.func, "attr", getattr(inner.func, "id", "")) \
                        in _FAIL_ON_EMPTY:
                    return False
    return True


def _constant_index(node: ast.Subscript) -> Optional[tuple[str, int]]:
    """(name, how many items `name[k]` needs) for a tensor name indexed by an int constant."""
    index = node.slice
    sign = 1
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index, sign = index.operand, -1
    if not (isinstance(node.value, ast.Name) and isinstance(index, ast.Constant) and type(index.value) is int):
        return None
    k = sign * index.value
    return node.value.id, (k + 1 if k >= 0 else -k)


def _constant_indexes(first: ast.AST, ctx: "NodeContext") -> dict[str, int]:
    """Tensor names that the first operand (always evaluated) indexes by a constant, outside any
    nested `and` / `or` / ternary: when it ran, each has at least this many items along dim 0."""
    reached: dict[str, int] = {}
    stack = [first]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) or \
                isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Subscript):
            got = _constant_index(node)
            if got is not None and ctx.is_tensor(node.value):
                reached[got[0]] = max(reached.get(got[0], 0), got[1])
        stack.extend(ast.iter_child_nodes(node))
    return reached


def _index_reached(node: ast.Subscript, reached: dict[str, int]) -> bool:
    """`t[-1]` after `t[0]` ran: a tensor with one item along dim 0 has both (torchdiffeq's
    `assert time_grid[0] == t[0] and time_grid[-1] == t[-1]`), so `&` evaluating it cannot raise."""
    got = _constant_index(node)
    return got is not None and got[1] <= reached.get(got[0], 0)


def _slices_only(index: ast.AST) -> bool:
    """`x[1:]`, `x[:, :-1]`, `x[..., None]`: never raises, whatever the size."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and p.value in (None, Ellipsis)
               for p in parts)


def _wrapped(text: str) -> str:
    """`text` as the operand of `~`: bare when it is a name, attribute, call or subscript."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return f"({text})"
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) and "\n" not in text:
        return text
    return f"({text})"


def _message_literal(text: str, indent: int) -> str:
    """A string literal, split at spaces into adjacent literals on lines of their own (joined by
    "\\n", indented by the caller) when one would run past MAX_LINE."""
    whole = literal(text)
    room = MAX_LINE - indent - 3  # the quotes and the trailing comma
    if indent + len(whole) + 1 <= MAX_LINE or room < 20:
        return whole
    chunks, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and len(literal(candidate + " ")) > room:
            chunks.append(current + " ")
            current = word
        else:
            current = candidate
    chunks.append(current)
    return "\n".join(literal(c) for c in chunks)


def _call_lines(indent: str, func: str, args: list[str]) -> list[str]:
    """`func(a, b)` on one line when it fits, else black's layout: the arguments on a line of their
    own, or one per line with a trailing comma."""
    one = f"{indent}{func}({', '.join(args)})"
    if len(one) <= MAX_LINE and "\n" not in one:
        return [one]
    inner = indent + indent_unit(indent)
    joined = f"{inner}{', '.join(args)}"
    if len(joined) <= MAX_LINE and "\n" not in joined:
        return [f"{indent}{func}(", joined, f"{indent})"]
    # An argument of several lines (a long message split into adjacent literals) keeps them aligned.
    *first, last = args
    return [f"{indent}{func}("] + [f"{inner}{a}," for a in first] \
        + [f"{inner}{last.replace(chr(10), chr(10) + inner)},", f"{indent})"]
