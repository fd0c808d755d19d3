"""Resolve the names a file binds by import to fully qualified names.

`import torch.nn as nn` then `nn.Linear` resolves to "torch.nn.Linear"; this is what lets
rules match `F.one_hot`, `torch.nn.functional.one_hot` and `from torch.nn.functional import
one_hot` alike, without importing anything.
"""
from __future__ import annotations

import ast
import sys
from typing import Optional

# Common spellings resolved even when the import is not visible (star imports, re-exports).
_WELL_KNOWN_ROOTS = {"torch": "torch", "np": "numpy", "numpy": "numpy"}


class ImportMap:
    def __init__(self, tree: ast.Module, own_root: str = ""):
        """own_root: the top package the file is in (`torch` for torch/distributions/utils.py)."""
        self.own_root = own_root
        self.aliases: dict[str, str] = {}
        # Modules star-imported (`from .pool import *`), relative ones with their leading dots: the
        # call graph looks names up in them (PyG re-exports `global_add_pool` this way).
        self.stars: list[str] = []
        # `try: from fast_ext import k` / `except ImportError: from .slow import k`: the fallback is
        # the tree's own code, which runs where the optional package is missing; it wins.
        statements = list(import_statements(tree.body))
        fallbacks = _fallback_imports(tree.body)
        for node in [n for n in statements if id(n) not in fallbacks] + [n for n in statements if id(n) in fallbacks]:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        root = alias.name.split(".")[0]
                        self.aliases.setdefault(root, root)
                continue
            # Relative imports stay relative: "." marks them so they never look like torch.
            module = "." * node.level + (node.module or "")
            if node.level == 0 and not node.module:
                continue
            for alias in node.names:
                if alias.name == "*":
                    self.stars.append(module)
                else:
                    # `from . import splines` binds ".splines", not "..splines" (one level up).
                    joined = f"{module}{alias.name}" if module.endswith(".") else f"{module}.{alias.name}"
                    self.aliases[alias.asname or alias.name] = joined

    def qualify(self, node: ast.AST) -> Optional[str]:
        """Dotted name of an expression like `nn.functional.relu`, resolved through imports."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        root = self.aliases.get(node.id) or _WELL_KNOWN_ROOTS.get(node.id) or node.id
        parts.append(root)
        return ".".join(reversed(parts))

    def is_bound(self, name: str) -> bool:
        return name in self.aliases


def import_statements(body):
    """Import statements at any depth of statements (in functions, ifs, trys), without walking
    into expressions: walking every node of a large file cost more than parsing it."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if children:
                stack.extend(children)


def _fallback_imports(body) -> set[int]:
    """ids of the import statements in `except ImportError` (or ModuleNotFoundError) handlers."""
    found: set[int] = set()
    if not any(isinstance(node, (ast.Try, ast.If, ast.With)) for node in body):
        return found
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Try) and not any(_always_present(n) for n in import_statements(node.body)):
            for handler in node.handlers:
                if handler.type is not None and _IMPORT_ERRORS & {dotted(n) for n in ast.walk(handler.type)}:
                    found.update(id(n) for n in import_statements(handler.body))
        for field in ("body", "orelse", "finalbody", "handlers"):
            children = getattr(node, field, None)
            if children and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.extend(children)
    return found


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def _always_present(node) -> bool:
    """An import from torch, numpy or the standard library: where the model runs it succeeds (a newer API
    tried first, `try: from torch.nn.functional import silu`), so the try body wins, not the fallback."""
    if isinstance(node, ast.ImportFrom):
        if node.level or not node.module:
            return False
        roots = [node.module.split(".")[0]]
    else:
        roots = [alias.name.split(".")[0] for alias in node.names]
    return any(root in ("torch", "numpy") or root in sys.stdlib_module_names for root in roots)


def dotted(node: ast.AST) -> Optional[str]:
    """The literal dotted spelling of a Name/Attribute chain, without import resolution."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def normalize_torch(qualname: Optional[str]) -> Optional[str]:
    """Fold private module paths onto public ones: torch.nn.modules.linear.Linear -> torch.nn.Linear."""
    if not qualname:
        return qualname
    if qualname.startswith("torch.nn.modules."):
        return "torch.nn." + qualname.rsplit(".", 1)[-1]
    if qualname.startswith("torch.nn.parameter."):
        return "torch.nn." + qualname.rsplit(".", 1)[-1]
    return qualname
