"""Tests that tell compiled code from eager code: `torch.compiler.is_compiling()` and friends.

Dynamo folds them to constants while tracing, so the branch they guard out is never traced, and in
`not is_compiling() and <check>` the check is never evaluated under torch.compile.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Optional

# Spellings of "are we being compiled?"; code they guard out is never traced.
COMPILING_CHECK = re.compile(r"(^|\.)(is_compiling|is_dynamo_compiling|is_torchdynamo_compiling)$")
# Dynamo folds torch.jit.is_scripting() / is_tracing() to False.
NOT_TRACED_CHECK = re.compile(r"^torch\.jit\.(is_scripting|is_tracing)$")

Qualify = Callable[[ast.AST], Optional[str]]


def compile_test_kind(test: ast.AST, qualify: Qualify) -> Optional[str]:
    """"compiling" when `test` is True under torch.compile, "not_compiling" when it is False there,
    None when it depends on other things."""
    if isinstance(test, ast.Call):
        name = qualify(test.func) or ""
        if COMPILING_CHECK.search(name):
            return "compiling"
        if NOT_TRACED_CHECK.match(name):
            return "not_compiling"
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = compile_test_kind(test.operand, qualify)
        return {"compiling": "not_compiling", "not_compiling": "compiling"}.get(inner)
    if isinstance(test, ast.BoolOp):
        kinds = [compile_test_kind(v, qualify) for v in test.values]
        # one operand decides an `and` that is False, or an `or` that is True; all of them the other way
        # round (`torch.jit.is_scripting() or torch.jit.is_tracing()` is False under torch.compile)
        decides, other = ("not_compiling", "compiling") if isinstance(test.op, ast.And) else ("compiling", "not_compiling")
        if decides in kinds:
            return decides
        if all(kind == other for kind in kinds):
            return other
    return None


def operands_evaluated_when_compiling(test: ast.BoolOp, qualify: Qualify) -> list[ast.AST]:
    """The operands of `a and b and ...` that run under torch.compile: those before the first one
    that short-circuits there (`not is_compiling()` in an `and`, `is_compiling()` in an `or`)."""
    stop = "not_compiling" if isinstance(test.op, ast.And) else "compiling"
    evaluated = []
    for value in test.values:
        evaluated.append(value)
        if compile_test_kind(value, qualify) == stop:
            break
    return evaluated
