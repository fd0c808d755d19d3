"""A faster child walk over stdlib ast trees.

ast.iter_child_nodes is a generator over every field, and visits a Load/Store context node under
every name; on large files walking cost more than parsing. Here each node type's fields that can
hold nodes are computed once, and expression contexts are never visited.
"""
from __future__ import annotations

import ast
import weakref
from typing import Callable, TypeVar

T = TypeVar("T")

# Facts computed once per AST node (a function's nodes, its bindings), kept beside the tree rather
# than written onto ast objects: keyed weakly, they go when the file's tree goes.
_NODE_FACTS: dict[str, "weakref.WeakKeyDictionary[ast.AST, object]"] = {}


def node_memo(kind: str, node: ast.AST, factory: Callable[[], T]) -> T:
    """What `factory()` gives for this node, computed once while the node lives."""
    facts = _NODE_FACTS.get(kind)
    if facts is None:
        facts = _NODE_FACTS[kind] = weakref.WeakKeyDictionary()
    try:
        return facts[node]
    except KeyError:
        value = facts[node] = factory()
        return value


# Fields that never hold a node we want to visit (contexts, identifiers, literals).
_SKIP_FIELDS = {"ctx", "id", "attr", "name", "arg", "module", "asname", "kind", "type_comment", "level",
                "conversion", "is_async", "lineno", "col_offset", "end_lineno", "end_col_offset"}
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(node_type: type) -> tuple[str, ...]:
    fields = _FIELDS.get(node_type)
    if fields is None:
        fields = tuple(f for f in node_type._fields if f not in _SKIP_FIELDS)
        if node_type is ast.Constant:
            fields = ()
        _FIELDS[node_type] = fields
    return fields


def children(node: ast.AST) -> list[ast.AST]:
    """The direct child nodes of `node`, in field order (expression contexts excluded)."""
    out: list[ast.AST] = []
    for field in _fields(type(node)):
        value = getattr(node, field, None)
        if value is None:
            continue
        if isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            out.append(value)
    return out


def walk(node: ast.AST):
    """Every node under `node` (itself included), in no particular order, like ast.walk."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def function_nodes(func: ast.AST) -> list[ast.AST]:
    """Every node of a function's body, closures included, nested classes excluded: the part of a
    function Dynamo traces with it. Computed once per function node: the scope search, the tensor
    inference and rules each read it, and walking cost more than parsing on large trees."""
    return node_memo("function nodes", func, lambda: _function_nodes(func))


def _function_nodes(func: ast.AST) -> list[ast.AST]:
    nodes = []
    stack = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ClassDef):
            continue
        nodes.append(node)
        stack.extend(children(node))
    return nodes
