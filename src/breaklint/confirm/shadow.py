"""A shadow copy of the user's code with breaklint's fixes applied; the originals stay untouched.

The copy mirrors each import root the target's modules were loaded through (only the top-level
packages or modules it needs), and the fixed run puts the copies first on sys.path, so the fixed
text is the one imported however the target names itself. The fixes are exactly those of
`check --fix`: the settings `check` loaded and the same `fix_paths`, whose sink writes here.
"""
from __future__ import annotations

import dataclasses
import difflib
import os
import shutil
from dataclasses import dataclass, field

from .target import shadowed

SKIP_DIRS = {".git", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache", ".pytest_cache", ".breaklint_cache"}
MAX_COPY_BYTES = 200 * 1024 * 1024


@dataclass
class FixedFile:
    path: str  # the user's file
    shadow: str  # its fixed copy
    applied: int
    diff: str
    original: str
    new_source: str
    encoding: str = "utf-8"

    def original_line(self, fixed_line: int) -> int:
        """The line of the user's file that a line of the fixed text comes from (or replaces)."""
        matcher = difflib.SequenceMatcher(None, self.original.splitlines(), self.new_source.splitlines(),
                                          autojunk=False)
        index = fixed_line - 1
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if j1 <= index < j2:
                if tag == "equal":
                    return i1 + (index - j1) + 1
                # A rewritten line stands for the first line it replaces; an inserted one for the
                # line before it.
                return i1 + 1 if i2 > i1 else max(i1, 1)
        return fixed_line


@dataclass
class Shadow:
    root: str
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (original import root, its copy)
    files: list[FixedFile] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # fixes that could not be applied, and why

    @property
    def applied(self) -> int:
        return sum(f.applied for f in self.files)

    def fixed(self, path: str) -> FixedFile | None:
        real = os.path.realpath(path)
        return next((f for f in self.files if os.path.realpath(f.path) == real), None)

    def original(self, path: str) -> str:
        """The user's file a path inside the copy stands for."""
        real = os.path.realpath(path)
        for original, copy in self.pairs:
            prefix = os.path.realpath(copy) + os.sep
            if real.startswith(prefix):
                return os.path.join(original, real[len(prefix):])
        return path


def copy_tree(src_root: str, dst_root: str) -> None:
    """Copy the Python sources (and small data files) under src_root; skip caches and VCS dirs."""
    total = 0
    for dirpath, dirnames, filenames in os.walk(src_root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        rel = os.path.relpath(dirpath, src_root)
        os.makedirs(os.path.join(dst_root, rel), exist_ok=True)
        for name in filenames:
            src = os.path.join(dirpath, name)
            try:
                size = os.path.getsize(src)
            except OSError:
                continue
            if not name.endswith(".py") and size > 1024 * 1024:
                continue  # weights and datasets stay where they are
            total += size
            if total > MAX_COPY_BYTES:
                raise RuntimeError(f"shadow copy of {src_root} would exceed {MAX_COPY_BYTES >> 20} MiB")
            shutil.copy2(src, os.path.join(dst_root, rel, name))


def copy_top(root: str, top: str, copy: str) -> None:
    """Copy one top-level package (a directory) or module (a .py file) of an import root."""
    src = os.path.join(root, top)
    if os.path.isdir(src):
        copy_tree(src, os.path.join(copy, top))
    elif os.path.isfile(src):
        os.makedirs(copy, exist_ok=True)
        shutil.copy2(src, os.path.join(copy, top))


def roots_to_copy(modules: list[dict], files: list[str]) -> dict[str, set[str]]:
    """import root -> the top-level names under it that hold one of `files`."""
    by_file = {os.path.realpath(m["file"]): m for m in modules}
    wanted: dict[str, set[str]] = {}
    for path in files:
        m = by_file.get(os.path.realpath(path))
        if m is not None:
            wanted.setdefault(m["root"], set()).add(m["top"])
    return wanted


def make_shadow(shadow_root: str, modules: list[dict], cover: list[str], result, settings, unsafe: bool) -> Shadow:
    """Copy what holds `cover` (and the files with fixes) to shadow_root, then fix there with
    check's own pipeline. `result` is check's CheckResult for the user's files; it is not changed."""
    from ..fix.edits import unified_diff, write_atomic
    from ..lint.runner import fix_paths
    from ..sources import read_source_with_encoding

    fixable = sorted({f.path for f in result.findings if f.fix is not None})
    shadow = Shadow(root=shadow_root)
    for i, (root, tops) in enumerate(sorted(roots_to_copy(modules, list(cover) + fixable).items())):
        copy = os.path.join(shadow_root, f"root{i}")
        for top in sorted(tops):
            copy_top(root, top, copy)
        shadow.pairs.append((root, copy))

    def sink(path: str, text: str, encoding: str) -> None:
        target = shadowed(path, shadow.pairs)
        if target == path:
            raise OSError("not imported from a root the shadow copy mirrors, so not fixed")
        original, _ = read_source_with_encoding(path)
        write_atomic(target, text, encoding)
        shadow.files.append(FixedFile(path=path, shadow=target, applied=0, diff=unified_diff(path, original, text),
                                      original=original, new_source=text, encoding=encoding))

    mine = dataclasses.replace(result, findings=list(result.findings), errors=[])
    report = fix_paths(mine, settings, unsafe, write=False, sink=sink)
    for f in shadow.files:
        f.applied = len(report.fixed.get(f.path, []))
    shadow.errors = [f"{e.path}: {e.message}" for e in mine.errors]
    return shadow


def write_back(shadow: Shadow) -> list[str]:
    """--write: put the verified fixed texts over the user's files (atomically, same encoding and mode)."""
    from ..fix.edits import write_atomic

    written = []
    for f in shadow.files:
        if f.applied:
            write_atomic(f.path, f.new_source, f.encoding)
            written.append(f.path)
    return written
