"""Modules of the linted tree that are compiled extensions: a `.so` / `.pyd` (or the Cython `.pyx` it is built
from) with no Python source beside it. Dynamo cannot trace a function of one: calling it from traced code breaks
the graph (measured on 2.13: POT's `emd_wrap.emd_c`, "Unsupported method call", GB0156).

Only the folder listing is read; nothing in the tree is imported or run."""
from __future__ import annotations

import functools
import os
from typing import Optional

from .project import module_name

_COMPILED = (".so", ".pyd", ".pyx")


@functools.lru_cache(maxsize=4096)
def _listing(directory: str) -> frozenset:
    try:
        return frozenset(os.listdir(directory))
    except OSError:
        return frozenset()


@functools.lru_cache(maxsize=4096)
def _package_of(path: str) -> tuple[tuple[str, ...], str]:
    """(the dotted parts of the package that holds `path`, the folder its top package sits in)."""
    name, is_package = module_name(path)
    parts = tuple(name.split("."))
    package = parts if is_package else parts[:-1]
    root = os.path.dirname(os.path.abspath(path))
    for _ in package:
        root = os.path.dirname(root)
    return package, root


def compiled_module_of(qualified: str, path: str) -> Optional[str]:
    """The compiled module of this file's package that the imported name `qualified` (`.emd_wrap.emd_c`, or
    `ot.lp.emd_wrap.emd_c` absolutely) is a function of, or None."""
    package, root = _package_of(path)
    if not package:
        return None
    dots = len(qualified) - len(qualified.lstrip("."))
    rest = qualified[dots:].split(".")
    if dots:
        if dots - 1 > len(package):
            return None
        parts = list(package[:len(package) - (dots - 1)]) + rest
    elif rest[0] == package[0]:
        parts = rest
    else:
        return None
    module = parts[:-1]  # the function's name is the last part
    if len(module) < 2:
        return None
    listing = _listing(os.path.join(root, *module[:-1]))
    stem = module[-1]
    if f"{stem}.py" in listing or stem in listing:
        return None  # Python source, or a package folder
    if any(entry.startswith(stem + ".") and entry.endswith(_COMPILED) for entry in listing):
        return ".".join(module)
    return None
