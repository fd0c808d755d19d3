"""Which assignment reaches a use of a local name, in straight-line code.

Both the tensor inference and BL401's mask facts first judge a name by all of its bindings (a
name is a tensor when every binding is one). Real functions rebind names across branches
(`row, col = adj.coo()` for a sparse input, `row, col = edge_index` otherwise), so that answer is
often "unknown". A use whose binding is certain, because the last binding above it sits in a
statement list that also holds the use and nothing can rebind the name in between, is judged by
that one assignment instead. Uses inside a comprehension or lambda that binds the name, and any
use inside a nested function (which runs later), are never judged this way.
"""
from __future__ import annotations

import ast
from typing import Optional

from .astwalk import function_nodes_of, subtree_memo, walk

Position = tuple[int, int]


def _start(node: ast.AST) -> Position:
    return node.lineno, node.col_offset


def _end(node: ast.AST) -> Position:
    return node.end_lineno, node.end_col_offset


# The nodes Bindings reads: those that bind a name, or open a scope of their own.
_BINDERS = frozenset({ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda, ast.Assign, ast.AnnAssign,
                      ast.AugAssign, ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr, ast.FunctionDef,
                      ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.ExceptHandler})


class Bindings:
    """Every place one function (closures included) binds each name, and its statement lists."""

    def __init__(self, func: ast.AST):
        # name -> positions where a binding takes effect (an assignment's end: its right-hand side
        # reads the old value)
        self.sites: dict[str, list[Position]] = {}
        # id(statement) -> (the statement list holding it, its index there)
        self.block_of: dict[int, tuple[list, int]] = {}
        _index_blocks(func.body, self.block_of)
        # Scopes inside the function: a comprehension or lambda binds its own names, and a nested
        # function reads the outer ones when it is called, not where it is defined. (start, end,
        # names bound there, or None for "any name").
        self.inner_scopes: list[tuple[Position, Position, Optional[frozenset]]] = []
        for node in function_nodes_of(func, _BINDERS):
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                names = frozenset(n.id for g in node.generators for n in walk(g.target) if type(n) is ast.Name)
                self.inner_scopes.append((_start(node), _end(node), names))
            elif isinstance(node, ast.Lambda):
                names = frozenset(a.arg for a in function_arguments(node.args))
                self.inner_scopes.append((_start(node), _end(node), names))
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    self._add_targets(target, _end(node))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                self._add_targets(node.target, _start(node.target))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                self._add_targets(node.optional_vars, _start(node.optional_vars))
            elif isinstance(node, ast.NamedExpr):
                self._add_targets(node.target, _end(node))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.sites.setdefault(node.name, []).append(_start(node))
                if not isinstance(node, ast.ClassDef):
                    self.inner_scopes.append((_start(node), _end(node), None))
                    for arg in function_arguments(node.args):
                        self.sites.setdefault(arg.arg, []).append(_start(node))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    name = (alias.asname or alias.name).split(".")[0]
                    self.sites.setdefault(name, []).append(_start(node))
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self.sites.setdefault(node.name, []).append(_start(node))

    def _add_targets(self, target: ast.AST, where: Position) -> None:
        if isinstance(target, ast.Name):
            self.sites.setdefault(target.id, []).append(where)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._add_targets(elt, where)
        elif isinstance(target, ast.Starred):
            self._add_targets(target.value, where)

    def reaching(self, use: ast.Name, assignments: list[tuple[ast.stmt, object]]) -> Optional[object]:
        """The value of the plain assignment that surely reaches `use`, else None.

        `assignments` are (statement, value) of the name's plain assignments. The binding that
        reaches is the last one above the use; it counts only when it is one of those assignments,
        when the use sits inside a later statement of the same statement list, and when no loop
        around the use in that statement binds the name again (the loop would carry it back)."""
        if not assignments:
            return None
        where = _start(use)
        for start, end, names in self.inner_scopes:
            if start <= where <= end and (names is None or use.id in names):
                return None
        above = [site for site in self.sites.get(use.id, ()) if site <= where]
        if not above:
            return None
        last = max(above)
        chosen = [(stmt, value) for stmt, value in assignments if _end(stmt) == last]
        if len(chosen) != 1:
            return None
        statement, value = chosen[0]
        located = self.block_of.get(id(statement))
        if located is None:
            return None
        block, index = located
        for later in block[index + 1:]:
            if _start(later) <= where <= _end(later):
                # A later binding inside a loop around the use can come back to it; one in a plain
                # branch cannot (`if not adj.has_value(): adj = adj.fill_value(1.)`).
                for loop in _loops_around(later, where):
                    if any(_start(loop) <= site <= _end(loop) and site != where for site in self.sites[use.id]):
                        return None
                return value
        return None


def _loops_around(stmt: ast.stmt, where: Position) -> list[ast.stmt]:
    """The loop statements, `stmt` included, whose span holds the position `where`."""
    loops, stack = [], [stmt]
    while stack:
        node = stack.pop()
        if not (_start(node) <= where <= _end(node)):
            continue
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            loops.append(node)
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(node, field, None) or [])
        for clause in getattr(node, "handlers", []) + getattr(node, "cases", []):
            stack.extend(clause.body)
    return loops


def function_arguments(args: ast.arguments) -> list[ast.arg]:
    out = args.posonlyargs + args.args + args.kwonlyargs
    return out + [a for a in (args.vararg, args.kwarg) if a is not None]


def parameter_defaults(args: ast.arguments) -> list[tuple[ast.arg, Optional[ast.expr]]]:
    """Each parameter with its default (None where it has none), in function_arguments' order."""
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    return list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults)) \
        + [(a, None) for a in (args.vararg, args.kwarg) if a is not None]


def _index_blocks(body: list, block_of: dict[int, tuple[list, int]]) -> None:
    """Map every statement to the statement list holding it, closures' bodies included (their
    assignments are bound too); class bodies are not traced with the function."""
    for index, stmt in enumerate(body):
        block_of[id(stmt)] = (body, index)
        if isinstance(stmt, ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            _index_blocks(getattr(stmt, field, None) or [], block_of)
        for clause in getattr(stmt, "handlers", []) + getattr(stmt, "cases", []):
            _index_blocks(clause.body, block_of)


def bindings_of(func: ast.AST) -> Bindings:
    """One Bindings per function node, shared by the tensor inference and the rules."""
    return subtree_memo("bindings", func, lambda: Bindings(func))
