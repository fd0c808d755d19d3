"""Module-level names bound to a builtin generic alias (`Detail = dict[str, Tensor]`).

Measured on 2.13: in traced code a subscript whose key is such a name, `list[Detail]` or
`Optional[Detail]` (in a `cast(...)`, most often), breaks the graph: Dynamo holds the alias as a
variable it cannot subscript with ("missing_mp_subscript" under a builtin, "non-constant typing
subscript" under a typing construct). The same type spelled inline, a typing alias (`Dict[str, Tensor]`)
or a plain class as the key does not break.
"""
from __future__ import annotations

import ast
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


def module_generic_aliases(tree: ast.Module, imports: ImportMap) -> frozenset[str]:
    """Names a module binds to a builtin generic alias (`X = list[int]`, `X: TypeAlias = dict[str, T]`)."""
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
    return next((k for k in keys if isinstance(k, ast.Name) and is_alias(k)), None)
