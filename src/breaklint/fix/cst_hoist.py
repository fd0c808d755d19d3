"""BL301's fix as a LibCST transform: a layer built in `forward` is built once in `__init__`.

The rule decides on `ast` what to move (rules/bl301_module_in_forward.py); the spec it sends is
("hoist", forward_row, init_row, self_name, attr): the assignment starting on `forward_row`
(`norm = nn.LayerNorm(self.dim)`) keeps its target and its comment and gets `self._norm` as its value,
and the call itself, the node as written, becomes `self._norm = nn.LayerNorm(self.dim)` after the
last statement of `__init__`, which starts on `init_row`.
"""
from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst
from libcst.metadata import PositionProvider


class HoistToInit(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, rows: frozenset, specs: Sequence[tuple]):
        super().__init__()
        self.by_forward_row = {spec[1]: spec for spec in specs}
        self.by_init_row: dict[int, list[tuple]] = {}
        for spec in sorted(specs):
            self.by_init_row.setdefault(spec[2], []).append(spec)
        self.calls: dict[tuple, cst.BaseExpression] = {}
        self.replaced: set[tuple] = set()
        self.appended: set[tuple] = set()

    @property
    def done_specs(self) -> set[tuple]:
        return self.replaced & self.appended

    def _row(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def visit_Module(self, node: cst.Module) -> None:
        # __init__ usually comes before forward: find the calls to move before the walk reaches it,
        # and take a spec only when both of its places exist (half a move would break the code).
        init_blocks = set()
        for candidate, where in self.metadata[PositionProvider].items():
            spec = self.by_forward_row.get(where.start.line)
            assignment = self._assignment(candidate)
            if spec is not None and assignment is not None:
                self.calls[spec] = assignment.value
            if isinstance(candidate, cst.IndentedBlock) and candidate.body:
                init_blocks.add(self._row(candidate.body[-1]))
        self.calls = {spec: call for spec, call in self.calls.items() if spec[2] in init_blocks}

    @staticmethod
    def _assignment(node: cst.CSTNode) -> Optional[cst.Assign]:
        if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assign) \
                and len(node.body[0].targets) == 1 and isinstance(node.body[0].targets[0].target, cst.Name):
            return node.body[0]
        return None

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        spec = self.by_forward_row.get(self._row(original))
        assignment = self._assignment(updated)
        if spec is None or spec not in self.calls or assignment is None:
            return updated
        self.replaced.add(spec)
        value = cst.Attribute(value=cst.Name(spec[3]), attr=cst.Name(spec[4]))
        return updated.with_changes(body=[assignment.with_changes(value=value)])

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if not original.body:
            return updated
        specs = [s for s in self.by_init_row.get(self._row(original.body[-1]), []) if s in self.calls]
        if not specs:
            return updated
        added = []
        for spec in specs:
            target = cst.Attribute(value=cst.Name(spec[3]), attr=cst.Name(spec[4]))
            added.append(cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(target=target)],
                                                                  value=self.calls[spec])]))
            self.appended.add(spec)
        return updated.with_changes(body=[*updated.body, *added])
