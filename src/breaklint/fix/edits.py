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
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
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


def lines_keepends(source: str) -> list[str]:
    """Like str.splitlines(keepends=True) but only at real line breaks, as Python counts rows
    (a form feed inside a line stays in it)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", source)


def ensure_imports(source: str, modules: set[str]) -> str:
    """Add `import X` once for each module a fix used and the file does not import by that name."""
    if not modules:
        return source
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source  # a fix broke the code: the caller's parse check reports it, nothing to add to
    bound = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            bound.update((a.asname or a.name.split(".")[0]) if a.asname else a.name.split(".")[0] for a in node.names)
    missing = sorted(m for m in modules if m not in bound)
    if not missing:
        return source
    insert_after = 0  # line number after which to insert (0 = top of file)
    for node in tree.body:
        is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str) and node is tree.body[0]
        if is_docstring or isinstance(node, (ast.Import, ast.ImportFrom)):
            insert_after = node.end_lineno
        else:
            break
    newline = "\r\n" if "\r\n" in source else "\n"
    lines = lines_keepends(source)
    if insert_after == 0:
        # Keep a shebang, an encoding declaration and leading comments first: PEP 263 wants the
        # coding line on line 1 or 2.
        while insert_after < len(lines) and lines[insert_after].lstrip().startswith("#"):
            insert_after += 1
    if insert_after and insert_after <= len(lines) and not lines[insert_after - 1].endswith(("\n", "\r")):
        lines[insert_after - 1] += newline
    new = "".join(f"import {m}{newline}" for m in missing)
    lines.insert(insert_after, new)
    return "".join(lines)


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
