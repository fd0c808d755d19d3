"""A faster child walk over stdlib ast trees.

ast.iter_child_nodes is a generator over every field, and visits a Load/Store context node under
every name; on large files walking cost more than parsing. Here each node type's fields that can
hold nodes are computed once, and expression contexts are never visited.
"""
from __future__ import annotations

import ast
import re
import weakref
from collections import deque
from typing import Callable, TypeVar

T = TypeVar("T")

# Facts computed once per AST node (a function's nodes, its bindings), kept beside the tree rather
# than written onto ast objects: keyed weakly, they go when the file's tree goes.
_NODE_FACTS: dict[object, "weakref.WeakKeyDictionary[ast.AST, object]"] = {}


def node_memo(kind, node: ast.AST, factory: Callable[[], T]) -> T:
    """What `factory()` gives for this node, computed once while the node lives."""
    facts = _NODE_FACTS.get(kind)
    if facts is None:
        facts = _NODE_FACTS[kind] = weakref.WeakKeyDictionary()
    try:
        return facts[node]
    except KeyError:
        value = facts[node] = factory()
        return value


# Kinds of memo computed from the node's own subtree alone (subtree_memo): true whatever file
# context the node is linted with, so they outlive forget_node_facts.
_SUBTREE_KINDS: set = set()


def subtree_memo(kind, node: ast.AST, factory: Callable[[], T]) -> T:
    """node_memo for a fact that `factory` reads off the node's subtree alone (no scope, no import,
    no context): a tree kept for the file's next lint keeps it."""
    facts = _NODE_FACTS.get(kind)
    if facts is None:
        facts = _NODE_FACTS[kind] = weakref.WeakKeyDictionary()
        _SUBTREE_KINDS.add(kind)
    try:
        return facts[node]
    except KeyError:
        value = facts[node] = factory()
        return value


def forget_node_facts() -> None:
    """Drop the memos of node_memo, but those of subtree_memo. A tree kept for a file's next lint
    (runner.TreeStore) must not carry the others over: they may depend on what the rest of the tree
    told the file (its scopes), which changes between graph rounds."""
    for kind, facts in _NODE_FACTS.items():
        if kind not in _SUBTREE_KINDS:
            facts.clear()


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
    node_type = type(node)
    reader = _READERS.get(node_type)
    if reader is None:
        reader = _READERS[node_type] = _make_reader(node_type)
    try:
        return reader(node)
    except AttributeError:  # a node built by hand without all its fields
        return _generic_children(node)


def _generic_children(node: ast.AST) -> list[ast.AST]:
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


# One generated reader per node type: it reads that type's node fields by name, with no loop over
# fields and no isinstance test where the grammar (the class docstring, `expr* body`) says what a
# field holds. children() is called for every node of every walk; this made it about a third faster.
_READERS: dict[type, Callable[[ast.AST], list]] = {}
_NOT_NODES = {"identifier", "string", "constant", "int"}
# Lists that may hold None: `{**a}` among a dict's keys, a keyword-only parameter without a default.
_HOLES = {(ast.Dict, "keys"), (ast.arguments, "kw_defaults")}
_SIGNATURE = re.compile(r"\w+\((.*)\)$")


def _grammar(node_type: type) -> dict[str, str]:
    """field -> its grammar type as the class docstring spells it (`expr*`, `expr?`, `identifier`)."""
    first = (node_type.__doc__ or "").strip().splitlines()[:1]
    match = _SIGNATURE.match(first[0]) if first else None
    types = {}
    if match:
        for part in match.group(1).split(","):
            spelled, _, name = part.strip().rpartition(" ")
            types[name] = spelled
    return types


def _make_reader(node_type: type) -> Callable[[ast.AST], list]:
    grammar = _grammar(node_type)
    lines = ["def read(node):", "    out = []"]
    for field in _fields(node_type):
        spelled = grammar.get(field, "")
        if spelled.rstrip("*?") in _NOT_NODES:
            continue
        lines += [f"    value = node.{field}", "    if value is not None:"]
        if spelled.endswith("*") and (node_type, field) not in _HOLES:
            lines.append("        out += value")
        elif spelled.endswith("*"):
            lines.append("        out += [item for item in value if item is not None]")
        elif spelled:
            lines.append("        out.append(value)")
        else:  # a field the docstring does not describe: test what it holds
            lines += ["        if isinstance(value, list):",
                      "            out += [item for item in value if isinstance(item, AST)]",
                      "        elif isinstance(value, AST):",
                      "            out.append(value)"]
    lines.append("    return out")
    namespace = {"AST": ast.AST}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from the ast module's own field names
    return namespace["read"]


# A `try` statement, with Python 3.11's `try`/`except*` (the lint walk and the rules' eager-after-break test).
TRY_STATEMENTS = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)


def walk(node: ast.AST):
    """Every node under `node` (itself included), in no particular order, like ast.walk."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def breadth_first(node: ast.AST):
    """ast.walk's nodes in ast.walk's order (breadth first), without the expression contexts: they
    are leaves, so leaving them out changes no other node's place."""
    queue = deque([node])
    while queue:
        current = queue.popleft()
        yield current
        queue.extend(children(current))


def function_nodes(func: ast.AST) -> list[ast.AST]:
    """Every node of a function's body, closures included, nested classes excluded: the part of a
    function Dynamo traces with it. Computed once per function node: the scope search, the tensor
    inference and rules each read it, and walking cost more than parsing on large trees."""
    return subtree_memo("function nodes", func, lambda: _function_nodes(func))


def function_nodes_of(func: ast.AST, types: frozenset) -> list[ast.AST]:
    """function_nodes(func) of exactly these node types (the parser makes no subclasses), in the
    same order, once per function and type set: a pass that acts on a few kinds of node loops over
    those alone, not over every node with a chain of isinstance tests (a third of all tests)."""
    return subtree_memo(("function nodes of", types), func,
                     lambda: [node for node in function_nodes(func) if type(node) in types])


def own_nodes(func: ast.AST) -> list[ast.AST]:
    """Every node of a function's own body, in source order, not those of a def, lambda or class nested
    in it (each a frame of its own). Computed once per function node."""
    return subtree_memo("own nodes", func, lambda: _own_nodes(func))


def _own_nodes(func: ast.AST) -> list[ast.AST]:
    nodes, stack = [], list(reversed(func.body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        nodes.append(node)
        stack.extend(reversed(children(node)))
    return nodes


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
