"""Which files to lint: walk the given paths, skip the usual non-source folders and excludes, and
match per-file ignores."""
from __future__ import annotations

import fnmatch
import os
from typing import Iterable

DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs", "build", "dist",
    "site-packages", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules",
    ".breaklint_cache", "*.egg-info", "__pypackages__", ".ipynb_checkpoints",
)
SOURCE_SUFFIXES = (".py", ".pyi")


def _excluded(rel_path: str, patterns: Iterable[str]) -> bool:
    parts = rel_path.replace(os.sep, "/").split("/")
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if "/" in pattern:
            if fnmatch.fnmatch(rel_path.replace(os.sep, "/"), pattern) or \
                    fnmatch.fnmatch(rel_path.replace(os.sep, "/"), pattern + "/*"):
                return True
        elif any(fnmatch.fnmatch(part, pattern) for part in parts):
            return True
    return False


def discover(paths: Iterable[str], exclude: Iterable[str] = (), root: str = ".") -> tuple[list[str], list[str]]:
    """(files, missing paths). A file named explicitly skips the default excludes (like ruff) but not
    the user's `exclude` patterns: pre-commit passes every staged file by name, and a configured
    exclude must still hold there (ruff needs --force-exclude for that)."""
    files: list[str] = []
    missing: list[str] = []
    seen: set[str] = set()
    root = os.path.abspath(root)

    def add(path: str) -> None:
        real = os.path.abspath(path)
        if real not in seen:
            seen.add(real)
            files.append(real)

    for given in paths:
        if os.path.isfile(given):
            rel = os.path.normpath(os.path.relpath(os.path.abspath(given), root))
            if not _excluded(rel, tuple(exclude)):
                add(given)
            continue
        if not os.path.isdir(given):
            missing.append(given)
            continue
        for directory, subdirs, names in os.walk(given):
            rel_dir = os.path.relpath(directory, root)
            # Default excludes name folders met below the given path, never the folders above it:
            # `breaklint check .venv/lib/.../site-packages/torch` lints torch, as ruff would.
            subdirs[:] = sorted(d for d in subdirs
                                if not _excluded(d, DEFAULT_EXCLUDES)
                                and not _excluded(os.path.normpath(os.path.join(rel_dir, d)), tuple(exclude)))
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES):
                    rel = os.path.normpath(os.path.join(rel_dir, name))
                    if not _excluded(rel, tuple(exclude)):
                        add(os.path.join(directory, name))
    return files, missing


def matching_ignores(path: str, per_file_ignores: dict[str, list[str]], root: str) -> set[str]:
    """Codes or prefixes that `per-file-ignores` switches off for one file."""
    rel = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
    codes: set[str] = set()
    for pattern, ignored in per_file_ignores.items():
        if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(os.path.basename(rel), pattern):
            codes.update(c.upper() for c in ignored)
    return codes


def is_ignored(code: str, prefixes: Iterable[str]) -> bool:
    """Whether a per-file-ignores entry ("BL201", "BL2", "ALL") covers `code`."""
    return any(p == "ALL" or code.startswith(p) for p in prefixes)
