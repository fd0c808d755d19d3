"""Facts about types a module defines, which other files of the tree import and use in traced code.

Builtin generic aliases (`Detail = dict[str, Tensor]`). Measured on 2.13: in traced code a subscript whose key is such a name, `list[Detail]` or
`Optional[Detail]` (in a `cast(...)`, most often), breaks the graph: Dynamo holds the alias as a
variable it cannot subscript with ("missing_mp_subscript" under a builtin, "non-constant typing
subscript" under a typing construct). The same type spelled inline, a typing alias (`Dict[str, Tensor]`)
or a plain class as the key does not break.

TypedDicts with optional keys (`total=False`, or a `NotRequired[...]` key): constructing one in traced
code breaks (GB0257, "TypedDict with optional keys", measured on 2.13, imported from another file too);
one whose keys are all required is traced.
"""
from __future__ import annotations

import ast
from collections import Counter
from typing import Callable, Iterator, Optional

from .names import ImportMap

BUILTIN_GENERICS = frozenset({"list", "dict", "tuple", "set", "frozenset", "type"})


def _is_builtin_generic(node: ast.AST, imports: ImportMap) -> bool:
    """`dict[str, Tensor]`, `collections.abc.Sequence[int]`: a subscript that makes a types.GenericAlias."""
    if not isinstance(node, ast.Subscript):
        return False
    value = node.value
    if isinstance(value, ast.Name) and value.id in BUILTIN_GENERICS:
        return not imports.is_bound(value.id)
    return (imports.qualify(value) or "").startswith("collections.abc.")


def _module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Top-level statements, also those under `if` / `try` (a TYPE_CHECKING or version switch)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _module_statements(stmt.body + stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield from _module_statements(stmt.body + stmt.orelse + stmt.finalbody
                                          + [s for h in stmt.handlers for s in h.body])


def module_bindings(tree: ast.Module) -> Counter:
    """How often each name is bound at module level (assignments, classes, functions, imports; under
    `if` / `try` too): a name bound twice (`if TYPE_CHECKING: A = dict[...] else: A = dict`) is no sure alias."""
    counts: Counter = Counter()
    for stmt in _module_statements(tree.body):
        if isinstance(stmt, ast.Assign):
            counts.update(n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            counts[stmt.target.id] += 1
        elif isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            counts[stmt.name] += 1
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            counts.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return counts


def module_generic_aliases(tree: ast.Module, imports: ImportMap) -> frozenset[str]:
    """Names a module binds, once, to a builtin generic alias (`X = list[int]`, `X: TypeAlias = dict[str, T]`)."""
    found = set()
    for stmt in _module_statements(tree.body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if _is_builtin_generic(value, imports):
            found.add(target.id)
    if found:
        counts = module_bindings(tree)
        found = {name for name in found if counts[name] == 1}
    return frozenset(found)


def _type_subscript(node: ast.Subscript, imports: ImportMap) -> bool:
    """`list[...]`, `Optional[...]`, `typing.Union[...]`: a subscript that builds a type."""
    value = node.value
    if isinstance(value, ast.Name) and value.id in BUILTIN_GENERICS and not imports.is_bound(value.id):
        return True
    return (imports.qualify(value) or "").startswith(("typing.", "typing_extensions.", "collections.abc."))


def alias_key(node: ast.Subscript, imports: ImportMap, is_alias: Callable[[ast.Name], bool]) -> Optional[ast.Name]:
    """The key of a type subscript that names a builtin generic alias (`list[Detail]`), or None."""
    if not _type_subscript(node, imports):
        return None
    keys = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    keys = [k for key in keys for k in (key.elts if isinstance(key, ast.List) else [key])]  # Callable[[A], B]
    return next((k for k in keys if isinstance(k, ast.Name) and is_alias(k)), None)


def alias_union(node: ast.BinOp, is_alias: Callable[[ast.Name], bool]) -> Optional[ast.Name]:
    """`Detail | None`: the alias of a PEP 604 union spelled with one (measured on 2.13: Dynamo fails
    on it, GB0088, and runs the whole frame eagerly)."""
    if not isinstance(node.op, ast.BitOr):
        return None
    return next((side for side in (node.left, node.right) if isinstance(side, ast.Name) and is_alias(side)), None)


def module_optional_typeddicts(tree: ast.Module, imports: ImportMap) -> frozenset[str]:
    """Classes a module defines at top level that are TypedDicts with optional keys."""
    found = set()
    for stmt in tree.body:
        if not isinstance(stmt, ast.ClassDef) or not any(
                (imports.qualify(b) or "").endswith("TypedDict") for b in stmt.bases):
            continue
        total_false = any(kw.arg == "total" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                          for kw in stmt.keywords)
        not_required = any(isinstance(item, ast.AnnAssign) and "NotRequired" in ast.dump(item.annotation)
                           for item in stmt.body)
        if total_false or not_required:
            found.add(stmt.name)
    return frozenset(found)
