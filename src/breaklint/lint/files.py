"""Which files to lint: walk the given paths, skip the usual non-source folders and excludes, and
match per-file ignores."""
from __future__ import annotations

import fnmatch
import os
import stat
from typing import Iterable

DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs", "build", "dist",
    "site-packages", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules",
    ".breaklint_cache", "*.egg-info", "__pypackages__", ".ipynb_checkpoints",
)
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
# DEFAULT_EXCLUDES as a set of plain names and the few patterns (tested once per folder met).
_DEFAULT_NAMES = frozenset(os.path.normcase(p) for p in DEFAULT_EXCLUDES if not set("*?[") & set(p))
_DEFAULT_PATTERNS = tuple(os.path.normcase(p) for p in DEFAULT_EXCLUDES if set("*?[") & set(p))


def _default_excluded(name: str) -> bool:
    """_excluded(name, DEFAULT_EXCLUDES) for a single folder name."""
    name = os.path.normcase(name)
    return name in _DEFAULT_NAMES or any(fnmatch.fnmatchcase(name, p) for p in _DEFAULT_PATTERNS)


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


def _kind(path: str) -> str:
    """"file", "dir", "missing" or a word for what else it is (a FIFO must never be opened: reading
    one blocks forever)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return exc.strerror or "unreadable"
    return _mode_kind(mode)


def _entry_kind(path: str) -> tuple[str, bool]:
    """_kind of a name met in a folder, and whether it is a symlink: one lstat for the rest."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "missing", False
    except OSError as exc:
        return exc.strerror or "unreadable", False
    if stat.S_ISLNK(mode):
        return _kind(path), True
    return _mode_kind(mode), False


def _mode_kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


def discover(paths: Iterable[str], exclude: Iterable[str] = (), root: str = "."
             ) -> tuple[list[str], list[tuple[str, str]]]:
    """(files, problems): problems are (path, reason) for what was named or met but cannot be linted
    (missing, not a regular file, a folder that cannot be listed). A file named explicitly skips the
    default excludes (like ruff) but not the user's `exclude` patterns: pre-commit passes every staged
    file by name, and a configured exclude must still hold there (ruff needs --force-exclude for that).
    A file reached twice (through a symlink) is linted once."""
    files: list[str] = []
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    root = os.path.abspath(root)
    exclude = tuple(exclude)

    def add(real: str, absolute: str) -> None:
        if real not in seen:
            seen.add(real)
            files.append(absolute)

    def unlistable(error: OSError) -> None:
        problems.append((error.filename or "", f"cannot list folder: {error.strerror or error}"))

    for given in paths:
        kind = _kind(given)
        if kind == "file":
            rel = os.path.normpath(os.path.relpath(os.path.abspath(given), root))
            if not _excluded(rel, exclude):
                add(os.path.realpath(given), os.path.abspath(given))
            continue
        if kind == "missing":
            problems.append((given, "no such file or directory"))
            continue
        if kind != "dir":
            problems.append((given, f"not a regular file ({kind}); skipped"))
            continue
        for directory, subdirs, names in os.walk(given, onerror=unlistable):
            rel_dir = os.path.relpath(directory, root)
            # Default excludes name folders met below the given path, never the folders above it:
            # `breaklint check .venv/lib/.../site-packages/torch` lints torch, as ruff would.
            subdirs[:] = sorted(d for d in subdirs
                                if not _default_excluded(d)
                                and not (exclude and _excluded(os.path.normpath(os.path.join(rel_dir, d)), exclude)))
            # A name that is no symlink has its folder's real path (one realpath per folder, not one
            # per file: realpath costs a syscall per component of the path).
            real_dir = abs_dir = None
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES):
                    rel = os.path.normpath(os.path.join(rel_dir, name))
                    if exclude and _excluded(rel, exclude):
                        continue
                    path = os.path.join(directory, name)
                    kind, link = _entry_kind(path)
                    if kind == "file":
                        if real_dir is None:
                            real_dir, abs_dir = os.path.realpath(directory), os.path.abspath(directory)
                        add(os.path.realpath(path) if link else os.path.join(real_dir, name),
                            os.path.join(abs_dir, name))
                    elif kind == "missing":  # a dangling symlink
                        problems.append((path, "No such file or directory"))
                    elif kind != "dir":  # a folder named x.py is walked on its own
                        problems.append((path, f"not a regular file ({kind}); skipped"))
    return files, problems


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
