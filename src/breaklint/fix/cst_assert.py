"""`assert a and b, msg` split into `assert a, msg` and `assert b, msg`, as a LibCST transform.

The split is exact in Python: `b` runs only when `a` held, and the message only when the assert
fails, in both forms. Compiled, `and` reads the tensor's truth value (a graph break) while a plain
`assert <tensor>` is traced as an in-graph assert (measured on torch 2.13: tests/rules/test_assert_split.py).
Unlike `a & b`, it runs nothing that `and` skipped, so it needs no proof that `b` cannot raise.
The rule decides on `ast` which statements qualify (rules/bl101_tensor_branch.py); the transform
splits the statements starting on `rows` whose only statement is such an assert.
"""
from __future__ import annotations

import libcst as cst
from libcst.metadata import PositionProvider

_EMPTY = cst.Module(body=[])


def and_operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`a and b and c` -> [a, b, c] (parenthesized groups of `and` included: `and` is associative)."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return and_operands(test.left) + and_operands(test.right)
    return [test]


def _standalone(expr: cst.BaseExpression) -> cst.BaseExpression:
    """An operand that spanned lines inside the outer parentheses keeps its line breaks only
    inside parentheses of its own."""
    if "\n" in _EMPTY.code_for_node(expr) and not expr.lpar:
        return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return expr


class SplitAssert(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, rows: frozenset):
        super().__init__()
        self.rows = rows
        self.done: set[int] = set()

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        row = self.get_metadata(PositionProvider, original).start.line
        if row not in self.rows or len(updated.body) != 1 or not isinstance(updated.body[0], cst.Assert):
            return updated
        statement = updated.body[0]
        parts = and_operands(statement.test.with_changes(lpar=[], rpar=[]))
        if len(parts) < 2:
            return updated
        message = _standalone(statement.msg) if statement.msg is not None else None
        lines = [cst.SimpleStatementLine(body=[cst.Assert(test=_standalone(part), msg=message)])
                 for part in parts]
        # The comments above stay above the first, a trailing comment ends the last.
        lines[0] = lines[0].with_changes(leading_lines=updated.leading_lines)
        lines[-1] = lines[-1].with_changes(trailing_whitespace=updated.trailing_whitespace)
        self.done.add(row)
        return cst.FlattenSentinel(lines)
