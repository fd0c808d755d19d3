"""The trap of fix/trap.py as a LibCST transform: `if <tensor test>: raise ...` gains a compiled branch
in front of it,

    if torch.compiler.is_compiling():
        [if <python prefix>:]
            torch._assert_async(<passing condition>, "<message>")
    elif <tensor test>:
        raise ...

The ast analysis decides everything and sends it as a spec per fix,
("trap", row, unit, prefix, call): the `if` (or `elif`) statement starting on `row`, the indentation
unit of its block, the Python test kept in front of the trap (or None), and the `_assert_async` call
as text whose continuation lines carry their absolute indentation. The original `if` node becomes the
`elif` unchanged, so its test, body, comments and layout survive byte for byte.
"""
from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst
from libcst.metadata import PositionProvider

from .cst_branch import expression_node


class TrapRewrite(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, rows: frozenset, torch_name: str, specs: Sequence[tuple] = ()):
        super().__init__()
        self.torch_name = torch_name
        self.specs = {spec[1]: spec for spec in specs}
        self.done_specs: set[tuple] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        # Only the blocks around a trapped `if` are walked: most of a file is untouched.
        if isinstance(node, cst.BaseCompoundStatement):
            where = self.get_metadata(PositionProvider, node)
            if not any(where.start.line <= row <= where.end.line for row in self.specs):
                return False
        return super().on_visit(node)

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        spec = self.specs.get(self.get_metadata(PositionProvider, original).start.line)
        if spec is None or spec in self.done_specs or original.orelse is not None:
            return updated
        trap = self._trap(spec)
        if trap is None:
            return updated
        self.done_specs.add(spec)
        # The comments above the `if` stay above the new first branch.
        return trap.with_changes(leading_lines=updated.leading_lines,
                                 orelse=updated.with_changes(leading_lines=()))

    def _trap(self, spec: tuple) -> Optional[cst.If]:
        _, _, unit, prefix, call_text = spec
        call = expression_node(call_text)
        compiling = expression_node(f"{self.torch_name}.compiler.is_compiling()")
        if call is None or compiling is None:
            return None
        statement: cst.BaseStatement = cst.SimpleStatementLine(body=[cst.Expr(call)])
        if prefix is not None:
            test = expression_node(prefix)
            if test is None:
                return None
            statement = cst.If(test=test, body=cst.IndentedBlock(body=[statement], indent=unit))
        return cst.If(test=compiling, body=cst.IndentedBlock(body=[statement], indent=unit))
