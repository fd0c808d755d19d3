"""Small fixes that swap one node for another, as a LibCST transform.

A rule decides on `ast` what to write (BL401's `index_put_`, BL502's `isinstance`, BL601's buffer,
BL701's out-of-place call) and sends the text edits it would make: their ranges and new text. The
transform replaces the expression or the simple statement that spans exactly that range with the
new text parsed by LibCST, so the statement's own line keeps its indentation, its trailing comment,
the blank lines and comments above it and a `;` after it; nothing else of the file is touched. A range
that matches no node (a parenthesised expression, code LibCST sees differently) is not applied: the
fix then waits, and the finding stays.
"""
from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst
from libcst.metadata import PositionProvider



class ReplaceNodes(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, specs: Sequence[tuple]):
        super().__init__()
        self.specs = list(specs)
        self.wanted: dict[tuple, str] = {}
        for spec in self.specs:
            for part in spec[1:]:
                self.wanted[tuple(part[:4])] = part[4]
        self.replaced: set[tuple] = set()
        self.indents: list[str] = []  # the blocks' indentation, outermost first
        self.default_indent = "    "

    def visit_Module(self, node: cst.Module) -> None:
        self.default_indent = node.default_indent
        self.lines = node.code.split("\n")  # only where a node's parentheses must be told apart

    def _inner_key(self, original: cst.CSTNode, where) -> Optional[tuple]:
        """The range of a parenthesised expression without its parentheses, as `ast` gives it: the
        wanted range whose outside, within the node's range, is only parentheses and whitespace."""
        for key in self.wanted:
            if (key[0], key[1]) >= (where.start.line, where.start.column) and \
                    (key[2], key[3]) <= (where.end.line, where.end.column) and \
                    _only_parens(self._text((where.start.line, where.start.column), key[:2])) and \
                    _only_parens(self._text(key[2:4], (where.end.line, where.end.column))):
                return key
        return None

    def _text(self, start: tuple, end: tuple) -> str:
        if start[0] == end[0]:
            return self.lines[start[0] - 1][start[1]:end[1]]
        middle = self.lines[start[0]:end[0] - 1]
        return "\n".join([self.lines[start[0] - 1][start[1]:], *middle, self.lines[end[0] - 1][:end[1]]])

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.indents.append(node.indent if node.indent is not None else self.default_indent)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        self.indents.pop()
        return updated

    @property
    def done_specs(self) -> set[tuple]:
        """Specs all of whose parts were replaced (half a BL601 fix would leave an int and a buffer)."""
        return {spec for spec in self.specs if all(tuple(p[:4]) in self.replaced for p in spec[1:])}

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        if isinstance(original, (cst.BaseExpression, cst.BaseSmallStatement)):
            where = self.get_metadata(PositionProvider, original, None)
            if where is not None:
                key = (where.start.line, where.start.column, where.end.line, where.end.column)
                if key not in self.wanted and isinstance(original, cst.BaseExpression) and original.lpar:
                    key = self._inner_key(original, where) or key
                text = self.wanted.get(key)
                if text is not None and key not in self.replaced:
                    new = _parsed(original, text, "".join(self.indents))
                    if new is not None:
                        self.replaced.add(key)
                        if isinstance(original, cst.BaseExpression) and original.lpar:
                            new = new.with_changes(lpar=original.lpar, rpar=original.rpar)
                        return new
        return super().on_leave(original, updated)


def _only_parens(text: str) -> bool:
    return text.replace("(", "").replace(")", "").replace("\\", "").strip() == ""


def _parsed(original: cst.CSTNode, text: str, indent: str) -> Optional[cst.CSTNode]:
    """The new text as a node. Its continuation lines carry the statement's indentation, as a text
    edit needs; LibCST adds the enclosing blocks' indentation itself, so it is taken off first. A
    multi-line string could not be told from layout: such a text is not applied."""
    lines = text.split("\n")
    if len(lines) > 1:
        if '"""' in text or "'''" in text:
            return None
        lines = lines[:1] + [line[len(indent):] if line.startswith(indent) else line for line in lines[1:]]
        text = "\n".join(lines)
    try:
        if isinstance(original, cst.BaseSmallStatement):
            line = cst.parse_statement(text + "\n")
            if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
                return None
            return line.body[0].with_changes(semicolon=original.semicolon)
        return cst.parse_expression(text)
    except cst.ParserSyntaxError:
        return None
