"""Apply fixes to a text: non-overlapping edits, needed imports, parse checks, diffs, atomic writes.
The loop that re-lints until the fixes converge is lint/fixloop.py."""
from __future__ import annotations

import ast
import difflib
import re
import os
import tempfile
from dataclasses import dataclass, field
from typing import Optional

from ..model import Finding, Fix

@dataclass
class FixOutcome:
    source: str
    applied: int = 0
    error: Optional[str] = None
    # Findings left after fixing (with noqa applied), so the caller reports only what remains.
    remaining: list[Finding] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.applied > 0


def wanted(fix: Optional[Fix], unsafe: bool) -> bool:
    return fix is not None and (fix.applicability == "safe" or unsafe)


def _line_offsets(source: str) -> list[int]:
    offsets = [0]
    for i, ch in enumerate(source):
        if ch == "\n":
            offsets.append(i + 1)
    return offsets


def _offset(offsets: list[int], source: str, row: int, column: int) -> int:
    if row - 1 >= len(offsets):
        return len(source)
    return min(offsets[row - 1] + column - 1, len(source))


def apply_edits(source: str, fixes: list[Fix]) -> tuple[str, list[Fix]]:
    """Apply whole fixes whose edits overlap nothing applied before; return the text and those applied."""
    # Positions were computed on "\n"-split lines; work on a "\n" copy and restore endings after.
    newline = "\r\n" if "\r\n" in source else "\n"
    text = source.replace("\r\n", "\n") if newline == "\r\n" else source
    offsets = _line_offsets(text)
    taken: list[tuple[int, int]] = []
    chosen: list[tuple[int, int, str]] = []
    applied: list[Fix] = []
    for fix in sorted((f for f in fixes if f.edits), key=lambda f: min(e.start for e in f.edits)):
        spans = [(_offset(offsets, text, e.start.row, e.start.column),
                  _offset(offsets, text, e.end.row, e.end.column), e.content) for e in fix.edits]
        if any((s < te and ts < e) or s == ts for s, e, _ in spans for ts, te in taken):
            continue  # overlaps an earlier fix: the next round re-lints and retries it
        taken.extend((s, e) for s, e, _ in spans)
        chosen.extend(spans)
        applied.append(fix)
    for start, end, content in sorted(chosen, key=lambda c: (c[0], c[1]), reverse=True):
        text = text[:start] + content + text[end:]
    if newline == "\r\n":
        text = text.replace("\n", "\r\n")
    return text, applied


def apply_fixes(source: str, fixes: list[Fix]) -> tuple[str, list[Fix]]:
    """One round: the LibCST transforms if any fix has one (fix/cst.py), else the text edits. The
    two never mix in a round, since each moves the other's positions; the fix loop re-lints between
    rounds, so what waits is found again at its new place."""
    transforms = [f for f in fixes if f.transform is not None]
    if transforms:
        from .cst import apply_transforms

        new, applied = apply_transforms(source, transforms)
        if applied:
            return new, applied
    return apply_edits(source, [f for f in fixes if f.transform is None])


def lines_keepends(source: str) -> list[str]:
    """Like str.splitlines(keepends=True) but only at real line breaks, as Python counts rows
    (a form feed inside a line stays in it)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", source)


def ensure_imports(source: str, modules: set[str]) -> str:
    """Add `import X` once for each module a fix used and the file does not import by that name,
    where isort and ruff expect it (LibCST's AddImportsVisitor: after the docstring, `__future__`
    imports and the leading import block)."""
    if not modules:
        return source
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source  # a fix broke the code: the caller's parse check reports it, nothing to add to
    bound = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            bound.update(a.asname or a.name.split(".")[0] for a in node.names)
    missing = sorted(m for m in modules if m not in bound)
    if not missing:
        return source
    from .cst import add_imports

    return add_imports(source, missing)


def parse_error(source: str) -> Optional[str]:
    """None when both Python and LibCST accept the code, else a one-line reason."""
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    try:
        import libcst

        libcst.parse_module(source)
    except Exception as exc:  # LibCST raises its own ParserSyntaxError
        return str(exc).splitlines()[0]
    return None


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(
        lines_keepends(before), lines_keepends(after),
        fromfile=f"a/{os.path.relpath(path)}", tofile=f"b/{os.path.relpath(path)}"))


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """Write through a temporary file in the same folder and rename, keeping the file's mode."""
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else None
    fd, tmp = tempfile.mkstemp(prefix=".breaklint-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
