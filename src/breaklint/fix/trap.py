"""Checks that raise on a tensor condition (`if <tensor test>: raise ...`): keep the check under
torch.compile instead of branching on the tensor's value."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ..model import Fix
from .rewrite import MAX_LINE, indent_unit, statement_lines, torch_name

if TYPE_CHECKING:
    from ..rules.base import NodeContext


def validation_guard_fix(ctx: "NodeContext", node: ast.If) -> Optional[Fix]:
    """`if <tensor test>: raise E(...)` -> `if not torch.compiler.is_compiling() and (<test>):`.
    Eager runs keep the check; compiled code skips it, so Dynamo never reads the tensor. Only for
    a branch whose every path raises and which has no `else`: nothing else changes when it is
    skipped. Unsafe: under torch.compile, bad input is no longer caught."""
    if node.orelse or not node.body or not isinstance(node.body[-1], ast.Raise):
        return None
    for stmt in node.body[:-1]:
        # Computing the message into a local is fine; anything else could be a side effect.
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
            if isinstance(stmt, ast.AnnAssign) else None
        if targets is None and not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            return None
        if targets is not None and not all(isinstance(t, ast.Name) for t in targets):
            return None
    if not _tensor_test(node.test, ctx):
        return None  # `if query is None or query == "":` is a check on Python values: nothing to skip
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node.test)):
        return None  # `if (n := m.sum()) == 0:` binds n, which the short-circuit would leave unbound
    # A raise caught nearby is control flow, not a check: skipping it would change what runs.
    child = node
    for parent in reversed(ctx.parents):
        if isinstance(parent, ast.ExceptHandler):
            return None
        if isinstance(parent, ast.Try) and parent.handlers and any(child is s for s in parent.body):
            return None
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            break
        child = parent
    torch, _ = torch_name(ctx)
    if torch is None:
        return None
    test = ctx.segment(node.test)
    guard = f"not {torch.name}.compiler.is_compiling() and"
    atomic = isinstance(node.test, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Compare, ast.UnaryOp))
    new = f"{guard} {test}" if atomic else f"{guard} ({test})"
    line = ctx.file.lines[node.lineno - 1]
    found = statement_lines(ctx, node)
    if node.test.lineno == node.test.end_lineno and found is not None \
            and len(line) - len(test) + len(new) > MAX_LINE:
        # Too long for one line: the test goes on a line of its own, in parentheses (black's style).
        indent = found[0]
        new = f"{guard} (\n{indent}{indent_unit(indent)}{test}\n{indent})"
    return Fix(message="Skip this check while compiling", applicability="unsafe",
               edits=(ctx.replace(node.test, new),), imports=("torch",) if torch.add_import else ())


def _tensor_test(test: ast.AST, ctx: "NodeContext") -> bool:
    """Some operand of the test is surely a tensor (safety.surely_tensor: a torch call, a tensor
    method, a name bound only to those), or a scalar read from one (`t.item() > 100`); none compares
    with a string (`q == ""`). `(stride[0] > size[0]) | ...` on a tuple of ints is not: skipping it
    while compiling would only drop a check that never broke the graph."""
    from .safety import is_scalar_extraction, surely_tensor

    if isinstance(test, ast.BoolOp):
        return any(_tensor_test(v, ctx) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, (ast.Not, ast.Invert)):
        return _tensor_test(test.operand, ctx)
    if isinstance(test, ast.Compare):
        if any(isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) for n in [test.left, *test.comparators]):
            return False
        return any(_tensor_test(o, ctx) for o in [test.left, *test.comparators])
    if isinstance(test, ast.BinOp):
        return _tensor_test(test.left, ctx) or _tensor_test(test.right, ctx)
    inner = is_scalar_extraction(test, ctx)
    if inner is not None:
        return _tensor_test(inner, ctx)
    return surely_tensor(test, ctx)
