"""Apply fixes to a text: non-overlapping edits, needed imports, parse checks, diffs, atomic writes.
The loop that re-lints until the fixes converge is lint/fixloop.py."""
from __future__ import annotations

import ast
import bisect
import difflib
import re
import os
import stat as stat_module
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


def _line_starts(lines: list[str]) -> list[int]:
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line)
    return starts


def _offset(starts: list[int], source: str, row: int, column: int) -> int:
    if row - 1 >= len(starts):
        return len(source)
    return min(starts[row - 1] + column - 1, len(source))


def line_ending(line: str, default: str = "\n") -> str:
    """The ending a line carries ("\r\n", "\r" or "\n"), else `default`."""
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith(("\r", "\n")):
        return line[-1]
    return default


def first_line_ending(source: str) -> str:
    match = re.search(r"\r\n|\r|\n", source)
    return match.group(0) if match else "\n"


def apply_edits(source: str, fixes: list[Fix]) -> tuple[str, list[Fix]]:
    """Apply whole fixes whose edits overlap nothing applied before; return the text and those applied.
    Rows count every line break Python counts (\n, \r\n, a lone \r); the new lines an edit writes
    (always "\n" in its content) take the ending of the line the edit starts on, so that one CRLF
    line does not turn the file CRLF and a CR-only file stays CR-only."""
    lines = lines_keepends(source)
    starts = _line_starts(lines)
    fallback = first_line_ending(source)
    taken = _Taken()
    chosen: list[tuple[int, int, str]] = []
    applied: list[Fix] = []
    for fix in sorted((f for f in fixes if f.edits), key=lambda f: min(e.start for e in f.edits)):
        spans = []
        for e in fix.edits:
            ending = line_ending(lines[e.start.row - 1], fallback) if 0 < e.start.row <= len(lines) else fallback
            content = e.content.replace("\n", ending) if ending != "\n" else e.content
            spans.append((_offset(starts, source, e.start.row, e.start.column),
                          _offset(starts, source, e.end.row, e.end.column), content))
        if any(taken.clashes(s, e) for s, e, _ in spans):
            continue  # overlaps an earlier fix: the next round re-lints and retries it
        for s, e, _ in spans:
            taken.add(s, e)
        chosen.extend(spans)
        applied.append(fix)
    # One pass over the text, left to right: slicing the whole text once per edit was quadratic.
    pieces, position = [], 0
    for start, end, content in sorted(chosen, key=lambda c: (c[0], c[1])):
        pieces.append(source[position:start])
        pieces.append(content)
        position = max(position, end)
    pieces.append(source[position:])
    return "".join(pieces), applied


class _Taken:
    """Spans already edited, sorted by start, for an overlap test in log time."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def clashes(self, start: int, end: int) -> bool:
        """Overlaps a taken span, or starts where one starts (two inserts at one point)."""
        i = bisect.bisect_left(self.starts, start)
        if i < len(self.starts) and (self.starts[i] == start or self.starts[i] < end):
            return True
        return i > 0 and self.ends[i - 1] > start

    def add(self, start: int, end: int) -> None:
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


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


def parse_error(source: str, libcst_too: bool = True) -> Optional[str]:
    """None when Python (and, unless libcst_too is False, LibCST) accept the code, else a one-line
    reason. The fix loop checks each round with Python only and the final text with LibCST
    (libcst_error): LibCST parses at about a fifth of ast's speed, and a check per round made big
    files slow."""
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    return libcst_error(source) if libcst_too else None


def libcst_error(source: str) -> Optional[str]:
    try:
        import libcst

        libcst.parse_module(source)
    except Exception as exc:  # LibCST raises its own ParserSyntaxError
        return str(exc).splitlines()[0]
    return None


NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(path: str, before: str, after: str) -> str:
    """A patch that `git apply` and `patch -p1` accept, with the marker that a last line lacks its
    newline (without it the next file's header is glued to that line). A file outside the current
    folder is named by its absolute path, as ruff does (`a/../../x.py` applies nowhere)."""
    name = os.path.relpath(path).replace(os.sep, "/")
    if name == ".." or name.startswith("../"):
        fromfile = tofile = os.path.abspath(path).replace(os.sep, "/")
    else:
        fromfile, tofile = f"a/{name}", f"b/{name}"
    out = []
    for line in difflib.unified_diff(lines_keepends(before), lines_keepends(after),
                                     fromfile=fromfile, tofile=tofile):
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n" + NO_NEWLINE)
    return "".join(out)


def unified_diff_bytes(path: str, before: str, after: str, encoding: str = "utf-8") -> bytes:
    """unified_diff in the file's own encoding: a latin-1 file's patch is latin-1 bytes, or it does
    not apply."""
    codec = "utf-8" if encoding == "utf-8-sig" else encoding  # the BOM stays in the file, not mid-patch
    return unified_diff(path, before, after).encode(codec)


class ReadOnlyFile(OSError):
    """The user made the file read-only: breaklint never writes it."""


def write_fixed(path: str, text: str, encoding: str = "utf-8") -> str:
    """Write a fixed file back and return the path written. A symlink's target is fixed (the link
    stays a link); a read-only file is refused (ReadOnlyFile); inode, owner, group and mode are kept.
    A file of ours with one link is replaced atomically (a kill mid-write leaves the old file whole);
    a hard-linked file, or one whose owner or group a new file would not get, is written in place as
    ruff does."""
    target = os.path.realpath(path)
    info = os.stat(target)
    if not stat_module.S_ISREG(info.st_mode):
        raise OSError(f"not a regular file: {target}")
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise ReadOnlyFile(f"{os.path.relpath(target)} is read-only")
    data = text.encode(encoding)
    if info.st_nlink > 1 or info.st_uid != os.geteuid():
        _write_in_place(target, data)
        return target
    directory = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(prefix=".breaklint-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if os.fstat(handle.fileno()).st_gid != info.st_gid:
                try:
                    os.fchown(handle.fileno(), -1, info.st_gid)
                except OSError:
                    raise _KeepInPlace() from None
            os.fchmod(handle.fileno(), info.st_mode & 0o7777)
        os.replace(tmp, target)
    except _KeepInPlace:
        os.unlink(tmp)
        _write_in_place(target, data)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


class _KeepInPlace(Exception):
    pass


def _write_in_place(path: str, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.write(data)
        handle.truncate()


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """write_fixed for a file that exists; a new file is written through a temporary file and a
    rename, with the default permissions."""
    if os.path.lexists(path):
        write_fixed(path, text, encoding)
        return
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".breaklint-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode(encoding))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
