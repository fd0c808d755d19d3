"""The Python-level conditions in front of a hazard: `if x.dtype == torch.float16 and
torch.isinf(x).any():` breaks only for fp16 inputs, because Dynamo resolves the dtype test first.

The hazard is still reported (fp16 users hit it); the finding names the condition under which it
breaks. A condition is Python-level when it is not itself a tensor (a tensor test is a break of its
own, BL101): dtype and shape tests, `self.training`, config flags, `is None` checks.
"""
from __future__ import annotations

import ast
from typing import Callable, Optional

from .astwalk import walk
from .compiling import compile_test_kind

# A message stays readable: longer conditions are cut.
MAX_GUARD_CHARS = 160


def breaks_when(node: ast.AST, parents: list[ast.AST], is_tensor: Callable[[ast.AST], bool],
                segment: Callable[[ast.AST], str], qualify) -> Optional[str]:
    """The conjunction of the Python-level conditions that must hold for `node` to run, outermost
    first, as source text; None when nothing guards it."""
    path = parents + [node]
    guards: list[str] = []
    for i in range(len(path) - 1):
        ancestor, child = path[i], path[i + 1]
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            guards = []  # conditions outside a nested function do not guard its body
        elif isinstance(ancestor, (ast.If, ast.IfExp)) and child is not ancestor.test:
            test = ancestor.test
            if compile_test_kind(test, qualify) is not None or is_tensor(test):
                continue
            if isinstance(ancestor, ast.If):
                # The child may be the test of a nested `if` whose node is not among the parents.
                in_body = not any(_holds(stmt, child) for stmt in ancestor.orelse)
            else:
                in_body = child is ancestor.body
            text = segment(test)
            guards.append(text if in_body else f"not ({text})")
        elif isinstance(ancestor, ast.BoolOp) and isinstance(ancestor.op, ast.And):
            guards.extend(_leading_python_tests(ancestor, child, is_tensor, segment, qualify))
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        guards.extend(_leading_python_tests(node, None, is_tensor, segment, qualify))
    if not guards:
        return None
    text = " and ".join(guards)
    text = " ".join(text.split())  # one line
    return text if len(text) <= MAX_GUARD_CHARS else text[: MAX_GUARD_CHARS - 3] + "..."


def _leading_python_tests(boolop: ast.BoolOp, child: Optional[ast.AST], is_tensor, segment, qualify) -> list[str]:
    """In `a and b and <hazard>`, the operands before the hazard's that are not tensors."""
    found = []
    for value in boolop.values:
        if value is child:
            break
        if is_tensor(value):
            if child is None:
                break  # the first tensor operand is where the whole test breaks
            continue
        if compile_test_kind(value, qualify) is None:
            found.append(segment(value))
    return found


def _holds(stmt: ast.AST, node: ast.AST) -> bool:
    return any(inner is node for inner in walk(stmt))
