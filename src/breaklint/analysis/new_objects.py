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

from .astwalk import children, node_memo, subtree_memo, walk
from .names import dotted
from .scope import ModuleScopes, Scope, _class_level_values, self_parameter

# Roots whose classes are never in a linted tree.
_FOREIGN = {"torch", "numpy", "np", "math", "collections", "typing", "functools", "itertools", "dataclasses",
            "enum", "abc", "re", "os", "sys", "warnings", "logging", "scipy", "einops", "builtins"}


def built_spellings(call: ast.Call, scopes: ModuleScopes) -> tuple[str, ...]:
    """The spellings of the classes a call may build: `Cls(...)` / `mod.Cls(...)` whose name is a
    class of this file or a CapWords name of the tree, or `TABLE[key](...)` over a module-level table
    of such names. Empty for anything else."""
    func = call.func
    if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name):
        key = func.slice
        if isinstance(key, ast.Constant):  # `MIXED["q2"](y)`: that entry only, when the literal has it
            entry = node_memo("table entries", scopes.tree, lambda: _entries(scopes)).get((func.value.id, key.value))
            if entry is not None:
                return entry
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


def _entries(scopes: ModuleScopes) -> dict[tuple[str, object], tuple[str, ...]]:
    """(table, constant key) -> the spelling of that entry, for the tables `_tables` knows as literals only."""
    tables = node_memo("table spellings", scopes.tree, lambda: _tables(scopes))
    found = {}
    for name, values in scopes.module_bindings().items():
        spellings = tables.get(name, ())
        if not spellings or any(s.startswith("@") for s in spellings):
            continue  # a registry fills it too: an entry may be replaced
        for key, value in zip(values[0].keys, values[0].values):
            if isinstance(key, ast.Constant):
                found[(name, key.value)] = _class_spelling(value, scopes)
    return found


def _tables(scopes: ModuleScopes) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    extended = _extended_at_module_level(scopes.tree)
    for name, values in scopes.module_bindings().items():
        if len(values) != 1 or not isinstance(values[0], ast.Dict) or scopes.imports.is_bound(name) \
                or name in extended:
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


def _extended_at_module_level(tree: ast.Module) -> set[str]:
    """Names a module-level statement adds entries to (`TABLE["x"] = X`, `TABLE.update(...)`): what such
    a table holds is more than its literal says (the review of stop 27)."""
    names: set[str] = set()
    for stmt in tree.body:
        for node in ast.walk(stmt) if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ():
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
                names.add(node.value.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("update", "setdefault", "__setitem__") and isinstance(node.func.value, ast.Name):
                names.add(node.func.value.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def factory_spellings(call: ast.Call, scopes: ModuleScopes) -> tuple[str, ...]:
    """The spellings of the classes a top-level function of this file builds and returns on every path
    (`def make_solver(m, sde): return SOLVERS[m](sde)`), for `solver = make_solver(...)`; empty when some
    return gives anything else. Measured on 2.13 (stop 39): a method of such an object that breaks has
    no source either (GB0092 at the call), as for one built in the traced function itself."""
    func = call.func
    target = scopes.functions.get(func.id) if isinstance(func, ast.Name) and not scopes.imports.is_bound(func.id) \
        else None
    if not isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef)) or "." in func.id:
        return ()
    return _returns_built(target, scopes)


def _returns_built(target, scopes: ModuleScopes) -> tuple[str, ...]:
    """The spellings of what a def builds and returns on every path; empty when some return gives else, or
    when the def runs eagerly (`@torch.compiler.disable`: the object then has a source, measured on 2.13)."""
    if scopes._is_disabled(target):
        return ()
    returns = [node for node in walk_outside_defs(target, root=True) if isinstance(node, ast.Return)]
    spellings: list[str] = []
    for node in returns:
        made = built_spellings(node.value, scopes) if isinstance(node.value, ast.Call) else ()
        if not made:
            return ()
        spellings.extend(made)
    return tuple(dict.fromkeys(spellings))


# The prefix of a spelling that names a function of another file whose every return builds an object
# (`make(x)` with `def make(x): return Dist(x)` there); project_breaks.py reads the function.
FACTORY_PREFIX = "()"
# ... and of one that names a module-level table of classes another file defines (or fills with a registrar).
TABLE_PREFIX = "[]"


def _made_spellings(call: ast.Call, scopes: ModuleScopes, scope: Scope) -> tuple[str, ...]:
    """What a call may build: a class, a table of classes, a factory of this file, a method of self's class
    (of this file) that builds on every path (`self._dist(x)`), a class self holds (`dist_class = Gauss` in
    the class body, `self.cls = Gauss` in __init__), or a function another file of the tree defines
    (resolved by the project: empty there unless every return builds). Measured on 2.13: each such object's
    bound method has no source (GB0092)."""
    found = built_spellings(call, scopes) or factory_spellings(call, scopes)
    if found:
        return found
    func = call.func
    if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and scopes.imports.is_bound(func.value.id):
        # `SOLVERS[method](...)`, the table another file's (project.py): "[]SOLVERS" or, for a constant key,
        # "[]SOLVERS|euler"
        key = func.slice.value if isinstance(func.slice, ast.Constant) else None
        return (TABLE_PREFIX + func.value.id + (f"|{key}" if key is not None else ""),)
    attr = self_attribute(func, scope.func)
    if attr is not None and scope.cls is not None:
        method = scopes._method(scope.cls, attr)
        if method is not None:
            # (not where a subclass of this file overrides it: its version may return a kept object)
            if any(attr in info.methods for info in scopes.local_descendants(scope.cls)):
                return ()
            return _returns_built(method[1], scopes)
        held = [v for info in [scope.cls, *scopes.local_ancestors(scope.cls), *scopes.local_descendants(scope.cls)]
                for v in _class_level_values(info.node, attr)] + scopes.held_by_self(scope.cls, attr)
        classes = {_class_spelling(v, scopes) if isinstance(v, (ast.Name, ast.Attribute)) else () for v in held}
        if held and len(classes) == 1:
            return classes.pop()
        return ()
    spelled = dotted(call.func)
    head = spelled.partition(".")[0] if spelled else None
    if head and scopes.imports.is_bound(head) and head not in scopes.classes:
        qualified = scopes.imports.qualify(call.func) or spelled
        if qualified.split(".")[0] not in _FOREIGN and spelled.rsplit(".", 1)[-1][:1].islower():
            return (FACTORY_PREFIX + spelled,)
    return ()


def self_attribute(node: ast.AST, func) -> Optional[str]:
    """The attribute name of `self.<attr>` in a method, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_parameter(func):
        return node.attr
    return None


def self_assigned_before(func, attr: str, line: int) -> list[ast.AST]:
    """The values a method assigns to `self.<attr>` (`self.solver = Loud(y)`), when it assigns it only
    so and at least once before `line`; [] otherwise. Measured on 2.13 (stop 27): a method of an object
    that the traced function builds and keeps on self has no source either (GB0092); one built in
    __init__ does."""
    values, before = [], False
    for node in walk_outside_defs(func, root=True):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if self_attribute(target, func) == attr:
                if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                    return []
                values.append(node.value)
                before |= node.lineno < line
    return values if before else []


def new_object_calls(scope: Scope, scopes: ModuleScopes) -> list[tuple[ast.Call, tuple[str, ...], str, bool]]:
    """(call, class spellings, method, in a loop) for each `obj.method(...)` of a traced function where `obj`
    is built right there (`Cls(...).method()`), or is a local (not a parameter) or an attribute of self that
    the function binds, every binding building the same spellings: Dynamo made that object, so a bound
    method of it has no source (GB0092). In a loop, a break skips the frame before any rebuild is tried
    (the review of stop 27): no GB0092 there."""
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
            spellings = _made_spellings(receiver, scopes, scope)
        elif isinstance(receiver, ast.Name) and receiver.id not in params:
            values = scopes.local_values_of(scope.func).get(receiver.id) or []
            built = {_made_spellings(v, scopes, scope) if isinstance(v, ast.Call) else () for v in values}
            if len(built) == 1:
                spellings = built.pop()
        elif self_attribute(receiver, scope.func) is not None:
            values = self_assigned_before(scope.func, receiver.attr, call.lineno)
            built = {built_spellings(v, scopes) if isinstance(v, ast.Call) else () for v in values}
            if len(built) == 1:
                spellings = built.pop()
        if spellings:
            found.append((call, spellings, func.attr, call.lineno in loop_rows(scope.func)))
    return found


def constructions(func, scopes: ModuleScopes) -> list[tuple[int, tuple[str, ...], str]]:
    """(line, class spellings, condition) of each call in a function that may build an object: the
    condition is the `if` tests it needs ("" for none), as source text (the review of stop 27: a module
    built under a condition is reported with it). Not in nested defs or classes (they run later, if at
    all), nor in exception handlers."""
    found = []
    stack = [(stmt, ()) for stmt in func.body]
    while stack:
        node, tests = stack.pop()
        if isinstance(node, NESTED_DEFS) or isinstance(node, ast.ExceptHandler):
            continue
        if isinstance(node, ast.Call):
            spellings = built_spellings(node, scopes)
            if spellings:
                found.append((node.lineno, spellings, " and ".join(tests)))
        if isinstance(node, ast.If):
            stack.append((node.test, tests))
            text = ast.unparse(node.test)
            stack.extend((stmt, tests + (text,)) for stmt in node.body)
            stack.extend((stmt, tests + (f"not ({text})",)) for stmt in node.orelse)
            continue
        stack.extend((child, tests) for child in ast.iter_child_nodes(node))
    return sorted(found)


# Bodies that run later, if at all: not part of the function that holds them.
NESTED_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match) if hasattr(ast, "Match") else \
    (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try)


def sure_rows(func) -> set[int]:
    """The lines of a function that run on every call: its top-level statements and those of the `with`,
    `try` and loop blocks among them, up to a branch that may return or raise (what follows may not run),
    and the headers (an `if`'s test, a loop's iterable or test) of the branches and loops among them. Not
    the insides of `if`s, handlers or nested defs (the review of stop 27: a break only there is no sure
    break)."""
    return subtree_memo("sure rows", func, lambda: _sure_rows(func))


def _sure_rows(func) -> set[int]:
    rows: set[int] = set()
    for stmt, whole in _sure_walk(func):
        if whole and not isinstance(stmt, (ast.With, ast.AsyncWith)):
            rows.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
            continue
        head = getattr(stmt, "test", None) or getattr(stmt, "iter", None)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            head = stmt.items[-1].context_expr
        if head is not None:
            rows.update(range(stmt.lineno, (head.end_lineno or head.lineno) + 1))
    return rows


def _sure_walk(func):
    """(statement, whether all of it runs) in order: whole statements, and the branches, loops and `with`s
    whose header alone is taken as sure; the bodies of `with`, `try` and loop statements are walked too
    (a loop is taken to run; `while True:` does), not those of `if`s and handlers. A branch that may
    return or raise ends the walk: what follows it may not run."""
    def walk_body(body, loop=False):
        for stmt in body:
            if isinstance(stmt, NESTED_DEFS):
                continue
            if isinstance(stmt, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.Try)):
                yield stmt, isinstance(stmt, (ast.With, ast.AsyncWith))
                for item in walk_body(stmt.body, True if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) else loop):
                    yield item
                    if item[0] is None:
                        return
                continue
            if isinstance(stmt, _BRANCHES):  # an `if` (or `match`): its test only
                yield stmt, False
                if _leaves_within(stmt):
                    yield None, False  # what follows may not run
                    return
                if loop and _skips_within(stmt):
                    return  # `if ...: continue` in a loop: the rest of its body may not run (what follows the loop does)
                continue
            yield stmt, True
            if loop and isinstance(stmt, (ast.Continue, ast.Break)):
                return

    for stmt, whole in walk_body(func.body):
        if stmt is None:
            return
        yield stmt, whole


def loop_rows(func) -> set[int]:
    """The lines inside loops of a function (not in nested defs): one walk per function, asked only for a
    function that calls a method on an object it builds."""
    def find():
        loops: set[int] = set()
        for node in walk_outside_defs(func, root=True):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
                loops.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        return loops
    return subtree_memo("loop rows", func, find)


def _leaves_within(stmt: ast.stmt) -> bool:
    """Whether a `return` or `raise` of the function (not of a nested def) lies within the statement."""
    return any(isinstance(node, (ast.Return, ast.Raise)) for node in walk_outside_defs(stmt))


def _skips_within(stmt: ast.stmt) -> bool:
    """Whether a `continue` or `break` of the enclosing loop (not of a loop inside the statement) lies within it."""
    stack = list(children(stmt))
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.Continue, ast.Break)):
            return True
        if not isinstance(item, NESTED_DEFS + (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(children(item))
    return False


def walk_outside_defs(node, root: bool = False):
    """The node (or, with `root`, only its descendants) and what lies under it, not looking into nested
    defs, lambdas or classes."""
    stack = list(children(node)) if root else [node]
    while stack:
        item = stack.pop()
        if isinstance(item, NESTED_DEFS):
            continue
        yield item
        stack.extend(children(item))
