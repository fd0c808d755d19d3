"""Objects a function builds, spelled so that the cross-file call graph can name their classes (stop 27).

The per-file analysis (built_modules.py) follows only classes of its own file. torchdiffeq's
`solver = SOLVERS[method](...); solver.integrate(t)` and torchode's `adjoint = AutoDiffAdjoint(...);
adjoint.solve(...)` build objects of classes other files define; what their methods do, and whether
their __init__ runs on a half-built self, only the whole tree tells. So each file records, per
traced function, the calls that may build an object (spelled as its imports spell them) and the
methods called on such new objects; project_breaks.py resolves them.

A spelling is a dotted name (`AutoDiffAdjoint`, `to.AutoDiffAdjoint`), or `@register:1` for a class
that reaches a module-level table through `register(name, cls)`, a function of this file that stores
its argument there (torchode's `register_method("dopri5", Dopri5)` then `METHODS[method](term=term)`).
"""
from __future__ import annotations

import ast
from typing import Optional

from .astwalk import node_memo, walk
from .names import dotted
from .scope import ModuleScopes, Scope

# Roots whose classes are never in a linted tree.
_FOREIGN = {"torch", "numpy", "np", "math", "collections", "typing", "functools", "itertools", "dataclasses",
            "enum", "abc", "re", "os", "sys", "warnings", "logging", "scipy", "einops", "builtins"}


def built_spellings(call: ast.Call, scopes: ModuleScopes) -> tuple[str, ...]:
    """The spellings of the classes a call may build: `Cls(...)` / `mod.Cls(...)` whose name is a
    class of this file or a CapWords name of the tree, or `TABLE[key](...)` over a module-level table
    of such names. Empty for anything else."""
    func = call.func
    if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name):
        return table_spellings(func.value.id, scopes)
    return _class_spelling(func, scopes)


def _class_spelling(node: ast.AST, scopes: ModuleScopes) -> tuple[str, ...]:
    spelled = dotted(node)
    if spelled is None:
        return ()
    head, _, _ = spelled.partition(".")
    if head in scopes.classes and "." not in spelled and not scopes.imports.is_bound(head):
        return (spelled,)
    if not scopes.imports.is_bound(head):
        return ()
    qualified = scopes.imports.qualify(node) or spelled
    last = spelled.rsplit(".", 1)[-1]
    if qualified.split(".")[0] in _FOREIGN or not last[:1].isupper():
        return ()  # torch's classes, and functions by the naming convention
    return (spelled,)


def table_spellings(name: str, scopes: ModuleScopes) -> tuple[str, ...]:
    """What `name[key]` may hold when `name` is a module-level table of classes: the values of its
    dict literal, or `@register:<position>` for each function of this file that stores an argument
    in it (`TABLE[key] = cls`). Empty when the table is bound any other way."""
    return node_memo("table spellings", scopes.tree, lambda: _tables(scopes)).get(name, ())


def _tables(scopes: ModuleScopes) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for name, values in scopes.module_bindings().items():
        if len(values) != 1 or not isinstance(values[0], ast.Dict) or scopes.imports.is_bound(name):
            continue
        spellings: list[str] = []
        for value in values[0].values:
            spelled = _class_spelling(value, scopes) if value is not None else ()
            if not spelled:
                break  # a value that is no class name: what the table holds is not known
            spellings.extend(spelled)
        else:
            found[name] = tuple(dict.fromkeys(spellings))
    for fname, func in scopes.functions.items():
        params = [a.arg for a in func.args.posonlyargs + func.args.args]
        for node in walk(func):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Subscript) and isinstance(node.targets[0].value, ast.Name) \
                    and node.targets[0].value.id in found and isinstance(node.value, ast.Name) \
                    and node.value.id in params:
                table = node.targets[0].value.id
                found[table] = found[table] + (f"@{fname}:{params.index(node.value.id)}",)
    return found


def new_object_calls(scope: Scope, scopes: ModuleScopes) -> list[tuple[ast.Call, tuple[str, ...], str]]:
    """(call, class spellings, method) for each `obj.method(...)` of a traced function where `obj` is
    built right there (`Cls(...).method()`) or is a local whose every binding builds the same spellings
    (not a parameter): Dynamo made that object, so a bound method of it has no source (GB0092)."""
    found = []
    args = scope.func.args
    params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    for call in scopes.calls.get(scope.qualname, ()):
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        receiver = func.value
        spellings: tuple[str, ...] = ()
        if isinstance(receiver, ast.Call):
            spellings = built_spellings(receiver, scopes)
        elif isinstance(receiver, ast.Name) and receiver.id not in params:
            values = scopes.local_values_of(scope.func).get(receiver.id) or []
            built = {built_spellings(v, scopes) if isinstance(v, ast.Call) else () for v in values}
            if len(built) == 1:
                spellings = built.pop()
        if spellings:
            found.append((call, spellings, func.attr))
    return found


def constructions(func, scopes: ModuleScopes, after: Optional[int] = None) -> list[tuple[int, tuple[str, ...]]]:
    """(line, class spellings) of each call in a function that may build an object, on or after line
    `after` when given (nested defs and classes left out: they run later, if at all)."""
    found = []
    stack = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call) and (after is None or node.lineno >= after):
            spellings = built_spellings(node, scopes)
            if spellings:
                found.append((node.lineno, spellings))
        stack.extend(ast.iter_child_nodes(node))
    return sorted(found)
