"""A shadow copy of the user's code with breaklint's fixes applied; the originals stay untouched."""
from __future__ import annotations

import difflib
import os
import shutil
from dataclasses import dataclass, field

SKIP_DIRS = {".git", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache", ".pytest_cache", ".breaklint_cache"}
MAX_COPY_BYTES = 200 * 1024 * 1024


@dataclass
class FixedFile:
    path: str  # the user's file
    shadow: str  # its fixed copy
    applied: int
    diff: str
    new_source: str
    error: str | None = None


@dataclass
class Shadow:
    root: str  # mirrors the user's root
    files: list[FixedFile] = field(default_factory=list)

    @property
    def applied(self) -> int:
        return sum(f.applied for f in self.files)


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


def copy_top(user_root: str, top: str | None, shadow_root: str) -> None:
    """Copy the target's top-level package (or, for a file target, its directory) into the shadow."""
    if top is None:
        copy_tree(user_root, shadow_root)
    elif os.path.isdir(os.path.join(user_root, top)):
        copy_tree(os.path.join(user_root, top), os.path.join(shadow_root, top))
    else:
        os.makedirs(shadow_root, exist_ok=True)
        shutil.copy2(os.path.join(user_root, top + ".py"), os.path.join(shadow_root, top + ".py"))


def make_shadow(user_root: str, files: list[str], shadow_root: str, unsafe: bool, settings=None,
                top: str | None = None) -> Shadow:
    """Copy the user's code to shadow_root and fix each of `files` there (files outside are left alone)."""
    from ..lint.config import Settings
    from ..lint.fixloop import fix_source
    from ..lint.runner import lint_settings

    copy_top(user_root, top, shadow_root)
    lint = lint_settings(settings or Settings())
    shadow = Shadow(root=shadow_root)
    for path in sorted(set(files)):
        rel = os.path.relpath(path, user_root)
        target = os.path.join(shadow_root, rel)
        if rel.startswith("..") or not os.path.exists(target):
            continue  # outside the copied tree: we never fix it in place
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
        outcome = fix_source(source, path, lint, unsafe)
        if outcome.applied:
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(outcome.source)
        diff = "".join(difflib.unified_diff(source.splitlines(True), outcome.source.splitlines(True),
                                            fromfile=path, tofile=path + " (fixed)"))
        shadow.files.append(FixedFile(path=path, shadow=target, applied=outcome.applied, diff=diff,
                                      new_source=outcome.source, error=getattr(outcome, "error", None)))
    return shadow


def write_back(shadow: Shadow) -> list[str]:
    """--write: put the fixed sources over the user's files (atomically, one file at a time)."""
    written = []
    for f in shadow.files:
        if not f.applied:
            continue
        tmp = f.path + ".breaklint-tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(f.new_source)
        shutil.copymode(f.path, tmp)
        os.replace(tmp, f.path)
        written.append(f.path)
    return written
