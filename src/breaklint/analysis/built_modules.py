"""Modules that traced code builds, and what a break in their __init__ does (issue #11, stop 26).

Measured on torch 2.13 (CPU, backend="eager"), `Block(3)(x)` in a compiled forward:
- Dynamo inlines Block.__init__; a clean one is built inside the graph with no break.
- When something in it breaks, the construction runs outside the graph and Dynamo meets the __init__
  again as a frame of its own. Its self has no attributes yet, because nn.Module.__init__ has not
  run: at the first statement that uses self Dynamo gives up (GB0119 "Uninitialized nn.Module") and
  runs the rest of the frame eagerly. So the first break is reported, then GB0119, and nothing after
  that first use of self breaks (the review of stop 26: 21 nn.Conv2d lines of one __init__, no break).
- The same happens to each __init__ that `super().__init__()` runs up the chain, and to the __init__
  of every module class built in that eager remainder (its own frame starts on a half-built self).
Only what one file shows is followed: classes, bases and constructions of the same file.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from .astwalk import children, walk
from .names import normalize_torch
from .new_objects import NESTED_DEFS as _NESTED, loop_rows, self_assigned_before, self_attribute, sure_rows
from .scope import ClassInfo, ModuleScopes, Scope, self_parameter

# Breaks that skip the function they are in, wherever they stand (measured: an nn.LSTM called, GB0014,
# and `with self.ctx:` on a held manager, GB0142, make a module built there break with GB0119;
# a bound method taken as a truth value, GB4841, skips the frame as BL108 measured).
_FRAME_SKIPS = frozenset({"GB0014", "GB0142", "GB4841"})


@dataclass(frozen=True)
class Uninitialized:
    """A GB0119 site: `cls`'s __init__ first uses self at `statement`, run as a frame of its own."""
    cls: ClassInfo
    statement: ast.stmt
    built: str       # the class traced code builds (whose __init__ breaks), or "" when `frame` is skipped
    row: int         # the first break that sets it off
    guard: Optional[str]  # the condition that break needs, when every break there has one
    scope: Scope     # the traced __init__ (or skipped function) it follows from
    frame: str = ""  # the traced function Dynamo skips, which builds the module


@dataclass(frozen=True)
class NewObjectCall:
    """`obj.method(...)` on an object the traced function builds, where the method breaks (GB0092)."""
    scope: Scope
    call: ast.Call
    method: str      # "Cls.method"
    class_name: str
    where: str       # the method's first sure break: "line 12" here, "solvers.py:117" in another file
    guard: str = ""  # when only some of the classes it may be break there


def _new_object_calls(scopes: ModuleScopes, by_scope: dict, external: dict) -> list[NewObjectCall]:
    """Measured on 2.13: `solver = Solver(y0); solver.integrate(t)` where integrate breaks reports
    that break, then GB0092 at the call (the bound method of an object Dynamo made has no source to
    rebuild it from), and Dynamo runs the whole function eagerly. Not for an object kept on self,
    one passed to a helper that calls the method, or a break elsewhere while the object lives.
    `external`: "qualname:line:col" -> (Cls.method, where, classes it may be whose method does not break)
    that the call graph found across files."""
    found = []
    for scope in scopes.scopes.values():
        for call in scopes.calls.get(scope.qualname, ()):
            if not isinstance(call.func, ast.Attribute):
                continue
            across = external.get(f"{scope.qualname}:{call.lineno}:{call.col_offset}")
            if across is not None and across[0].rsplit(".", 1)[-1] != call.func.attr:
                across = None  # `Obj().method(x).sum()`: the chained call starts where the method call does
            if (across is not None or _built_here(call.func.value, scope, scopes) is not None) \
                    and call.lineno in loop_rows(scope.func):
                continue  # in a loop, the method's break skips the frame first (the review of stop 27)
            if across is not None:
                guard = ""
                if across[2]:  # it breaks unless the object is of one of these classes
                    calm = across[2].split(", ")
                    classes = calm[0] if len(calm) == 1 else f"({', '.join(calm)})"
                    guard = f"not isinstance({ast.unparse(call.func.value)}, {classes})"
                found.append(NewObjectCall(scope, call, across[0], across[0].rsplit(".", 1)[0], across[1], guard))
                continue
            cls = _built_here(call.func.value, scope, scopes)
            target = scopes._method(cls, call.func.attr) if cls is not None else None
            if target is None:
                continue
            method = f"{target[0].name}.{call.func.attr}"
            breaks = [f.start.row for f in by_scope.get(method, ()) if sure_finding(f)]
            if breaks and not _init_breaks(cls, scopes, by_scope):
                found.append(NewObjectCall(scope, call, method, cls.name, f"line {min(breaks)}"))
    return found


def _init_breaks(cls: ClassInfo, scopes: ModuleScopes, by_scope: dict) -> bool:
    """Whether the class's __init__ surely breaks: the object is then built eagerly, a real object
    Dynamo can resume a method of, with no GB0092 (measured on 2.13: whisper's DecodingTask)."""
    init = scopes._method(cls, "__init__")
    if init is None:
        return False
    qualname = f"{init[0].name}.__init__"
    if any(sure_finding(f) for f in by_scope.get(qualname, ())):
        return True
    scope = scopes.scopes.get(qualname)
    if scope is None:
        return False
    rows = sure_rows(scope.func)  # a helper it calls on every call (`log("init")`), which breaks surely
    for call in scopes.calls.get(qualname, ()):
        target = scopes.resolve_call(scope, call) if call.lineno in rows else None
        if target is not None and any(sure_finding(f) for f in by_scope.get(target[2], ())):
            return True
    return False


def sure_finding(finding) -> bool:
    """A finding that breaks whatever the inputs: a registry break with no Python-level guard."""
    return bool(finding.gb_ids) and not finding.breaks_when


def _built_here(receiver: ast.AST, scope: Scope, scopes: ModuleScopes) -> Optional[ClassInfo]:
    """The class of this file whose object the receiver is, when the function builds it: a
    construction itself (`Solver(x).integrate(t)`), a local that every binding constructs, or an
    attribute of self the function assigns only so (`self.solver = Solver(x)`)."""
    if isinstance(receiver, ast.Call):
        return _constructed(scopes.module_made(receiver), scopes)
    if self_attribute(receiver, scope.func) is not None:  # `self.solver = Solver(y)` earlier in the function
        values = self_assigned_before(scope.func, receiver.attr, receiver.lineno)
        classes = [_constructed(v, scopes) for v in values]
        if not classes or None in classes or len({c.name for c in classes}) != 1:
            return None
        return classes[0]
    args = scope.func.args
    if not isinstance(receiver, ast.Name) \
            or receiver.id in {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}:
        return None
    values = scopes.local_values_of(scope.func).get(receiver.id) or []
    classes = [_constructed(scopes.module_made(v), scopes) for v in values]
    if not classes or None in classes or len({c.name for c in classes}) != 1:
        return None
    return classes[0]


def _constructed(value: ast.AST, scopes: ModuleScopes) -> Optional[ClassInfo]:
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in scopes.classes \
            and not scopes.imports.is_bound(value.func.id):
        return scopes.classes[value.func.id]
    return None


def first_use_of_self(func) -> Optional[ast.stmt]:
    """The first statement of the body that reads self or calls super(), not looking into nested
    functions or classes: where Dynamo first wraps the half-built module."""
    return _first_use_in(func.body, self_parameter(func))


def _first_use_in(body: list, self_name: Optional[str]) -> Optional[ast.stmt]:
    for stmt in body:
        if isinstance(stmt, _NESTED):
            continue  # a nested def reads self when it runs, not where it is defined
        if isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try)):
            # a compound statement: Dynamo reports the line inside it that first touches self
            heads = [getattr(stmt, "test", None), getattr(stmt, "iter", None)] + \
                [item.context_expr for item in getattr(stmt, "items", [])]
            if any(h is not None and _uses(h, self_name) for h in heads):
                return stmt
            inner = [s for field in ("body", "handlers", "orelse", "finalbody") for s in getattr(stmt, field, [])]
            inner = [s for h in inner for s in (h.body if isinstance(h, ast.ExceptHandler) else [h])]
            found = _first_use_in(inner, self_name)
            if found is not None:
                return found
            continue
        if _uses(stmt, self_name):
            return stmt
    return None


def _uses(node: ast.AST, self_name: Optional[str]) -> bool:
    """Whether the node reads self or calls super(), outside nested functions and classes."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Name) and (item.id == self_name or item.id == "super"):
            return True
        stack.extend(c for c in children(item) if not isinstance(c, _NESTED))
    return False


def is_built_init(scope: Scope) -> bool:
    """A module's __init__ that something traced calls (a construction, super().__init__()): not one
    that is an entry point by a rule of its own (a torch.distributions subclass's API)."""
    return scope.func.name == "__init__" and scope.cls is not None and scope.cls.is_module and len(scope.chain) > 1


@dataclass(frozen=True)
class BuiltInitEffects:
    dropped: frozenset            # ids of the findings Dynamo never reaches
    sites: list[Uninitialized]    # GB0119 sites (BL306)
    calls: list[NewObjectCall]    # GB0092 sites (BL507)
    skipped: dict = field(default_factory=dict)  # qualname -> why Dynamo runs that traced function eagerly


def built_init_effects(scopes: ModuleScopes, by_scope: dict, object_breaks: Optional[dict] = None,
                       half_built: Optional[dict] = None) -> BuiltInitEffects:
    """What Dynamo does with the module __init__s of this file that traced code builds, and with
    methods of objects built in traced code. `by_scope`: qualname -> the findings of that traced scope.
    From the call graph (project_breaks.py): `object_breaks`, calls on new objects of classes of other
    files whose method surely breaks; `half_built`, __init__s of this file that a function elsewhere,
    run eagerly, builds: init qualname -> (why, the construction's condition)."""
    calls = _new_object_calls(scopes, by_scope, object_breaks or {})
    # A function Dynamo skips whole (a break inside a loop or a user `with`, or GB0092 above) runs
    # eagerly.
    skipped = {scope.qualname: "a break that skips the whole function"
               for scope in scopes.scopes.values()
               if any(f.gb_ids and (f.frame_skip or _FRAME_SKIPS & set(f.gb_ids)) and not f.breaks_when
                      for f in by_scope.get(scope.qualname, ()))}
    for call in calls:
        if not call.guard:
            skipped.setdefault(call.scope.qualname, f"`{call.method}` called on an object it builds")
    inits = {scope.cls.name: scope for scope in scopes.scopes.values() if is_built_init(scope)}
    across = _half_built_here(scopes, half_built or {})
    if not inits and not calls and not across:
        return BuiltInitEffects(frozenset(), [], calls, skipped)
    # What sets each off: its own breaks, a call of nn.Module.__init__ by name (a function Dynamo
    # skips: measured, it breaks), a function or method of this file whose own code breaks, and
    # module classes it builds whose __init__ surely breaks. (row, guard, class built there)
    # a callee that breaks for sure (a guarded break there is no sure trigger: the review of stop 26)
    breaking = {qualname for qualname, found in by_scope.items() if any(sure_finding(f) for f in found)}
    triggers: dict[str, list[tuple[int, Optional[str], Optional[str]]]] = {
        name: [(f.start.row, f.breaks_when, None) for f in by_scope.get(scope.qualname, ()) if f.gb_ids]
        + [(call.lineno, None, None) for call in _breaking_calls(scope, scopes, breaking)]
        for name, scope in inits.items()}
    # module classes it builds, and the base whose __init__ its super().__init__() runs
    builds = {name: [(call.lineno, built) for call, built in _constructions(scope.func, scopes) if built in inits]
              + [(call.lineno, base.name) for call, base in _super_init(scope, scopes) if base.name in inits]
              for name, scope in inits.items()}
    changed = True
    while changed:
        changed = False
        for name in inits:
            for row, built in builds[name]:
                if _sure(triggers[built]) and (row, None, built) not in triggers[name]:
                    triggers[name].append((row, None, built))
                    changed = True
    # The first break is met once, when traced code inlines the outermost __init__ and the ones it
    # builds: follow each root's first trigger down to the finding that is met.
    met: set[tuple[str, int]] = set()
    for name, scope in inits.items():
        if scope.chain[-2:-1] and scope.chain[-2].endswith(".__init__"):
            continue  # reached from another module's __init__: not a root
        seen = set()
        while name is not None and name not in seen and _sure(triggers[name]):
            seen.add(name)
            row, _, built = min(_sure(triggers[name]))
            met.add((inits[name].qualname, row))
            name = built
    dropped: set[int] = set()
    sites: list[Uninitialized] = across
    # Each module of this file a skipped function builds starts its __init__ on a half-built self
    # (measured: GB0119 at its super().__init__(), the module built before or after the loop).
    for frame, why in skipped.items():
        scope = scopes.scopes[frame]
        for call, built in _constructions(scope.func, scopes):
            for cls, statement in _half_built(scopes.classes[built], scopes, set()):
                sites.append(Uninitialized(cls, statement, "", call.lineno, None, scope, f"{frame}: {why}"))
                other = inits.get(cls.name)
                if other is not None and other.chain[-2:-1] == (frame,):
                    dropped |= {id(f) for f in by_scope.get(other.qualname, ()) if f.start.row >= statement.lineno}
    for name, scope in inits.items():
        found = triggers[name]
        if not found:
            continue
        sure = _sure(found)
        row, guard, _ = min(sure) if sure else min(found, key=lambda t: t[0])
        # a call breaklint cannot follow before that (an imported model builder, `vgg16(...)`) may be
        # the first break: then the one found is not met either (the review of stop 26, torchmetrics'
        # DISTS and LPIPS)
        unseen = sure and _unresolved_call_before(scope, scopes, row)
        for cls, statement in _half_built(scope.cls, scopes, set()):
            sites.append(Uninitialized(cls, statement, name, row, None if sure else guard, scope))
            other = inits.get(cls.name)
            if sure and other is not None:
                # that frame runs eagerly from its first use of self on: nothing there breaks, save
                # the first break, met while the outermost __init__ was inlined
                dropped |= {id(f) for f in by_scope.get(other.qualname, ())
                            if f.start.row >= statement.lineno
                            and (unseen or (other.qualname, f.start.row) not in met)}
    return BuiltInitEffects(frozenset(dropped), sites, calls, skipped)


def _half_built_here(scopes: ModuleScopes, half_built: dict) -> list[Uninitialized]:
    """GB0119 sites for the __init__s of this file that the call graph says run on a half-built self,
    at the first use of self. What follows it is left as it is: the function that builds the module
    was traced once before Dynamo gave up on it, and in that trace the first break of the __init__
    chain is met (measured: a print after `super().__init__()` in a base __init__ breaks, then GB0119)."""
    sites: list[Uninitialized] = []
    for qualname, (why, condition) in half_built.items():
        scope = scopes.scopes.get(qualname)
        if scope is None or scope.cls is None:
            continue
        use = first_use_of_self(scope.func)
        if use is not None:
            sites.append(Uninitialized(scope.cls, use, "", 0, condition or None, scope, why))
    return sites


# Builtins an __init__ calls that build nothing and never break.
_PLAIN_BUILTINS = frozenset({"len", "range", "int", "float", "bool", "str", "list", "dict", "tuple", "set",
                             "min", "max", "sum", "abs", "round", "isinstance", "issubclass", "getattr",
                             "hasattr", "setattr", "super", "zip", "enumerate", "sorted", "reversed", "any",
                             "all", "map", "filter", "type", "id", "repr", "divmod", "pow", "frozenset"})


def _unresolved_call_before(scope: Scope, scopes: ModuleScopes, row: int) -> bool:
    """Whether the __init__ calls, on a line before `row`, a name this file does not define and that
    is neither torch's nor a plain builtin (or builds a class of this file whose __init__ does):
    something that may build a module and break."""
    return _unresolved_call(scope.func, scopes, row, 0)


def _unresolved_call(func_node, scopes: ModuleScopes, row: Optional[int], depth: int) -> bool:
    for node in walk(func_node):
        if not (isinstance(node, ast.Call) and (row is None or node.lineno < row)):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            name = func.id
            if name in scopes.functions or name in _PLAIN_BUILTINS:
                continue
            named = _classes_named(func, func_node, scopes)
            if len(named) == 1:
                init = scopes.classes[named[0]].methods.get("__init__")
                if depth < 3 and init is not None and _unresolved_call(init, scopes, None, depth + 1):
                    return True
                continue
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and scopes.imports.is_bound(func.value.id):
            name = func.value.id  # `models.vgg16(...)`: a function of an imported module
        else:
            continue  # a method of a value (`x.view(...)`, `self.register_buffer(...)`)
        qual = normalize_torch(scopes.imports.qualify(func)) or ""
        if qual.startswith(("torch.", "math.", "numpy.", "warnings.", "logging.", "copy.", "functools.",
                            "itertools.", "collections.", "typing.", "os.", "re.")):
            continue
        return True
    return False


def _sure(triggers: list) -> list:
    """The triggers that need no condition."""
    return [t for t in triggers if t[1] is None]


def _half_built(cls: ClassInfo, scopes: ModuleScopes, seen: set):
    """(class, first use of self) for cls's __init__ run as a frame of its own, the bases' __init__s
    its super().__init__() runs, and the modules built in what then runs eagerly."""
    while cls is not None and cls.name not in seen:
        seen.add(cls.name)
        init = cls.methods.get("__init__")
        use = first_use_of_self(init) if init is not None else None
        if use is None:
            return
        yield cls, use
        for call, built in _constructions(init, scopes):
            if built in scopes.classes:  # the whole frame reruns eagerly: what comes before self too
                yield from _half_built(scopes.classes[built], scopes, seen)
        cls = _initialised_base(cls, init, scopes.classes)


def _breaking_calls(scope: Scope, scopes: ModuleScopes, breaking: set):
    """Calls in an __init__ that break: `nn.Module.__init__(self)`, and `helper(...)` / `self.m(...)`
    of a traced function of this file with a break of its own."""
    self_name = self_parameter(scope.func)
    for node in walk(scope.func):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "__init__" \
                and normalize_torch(scopes.imports.qualify(func.value)) in _MODULE_BASES:
            yield node
        elif isinstance(func, ast.Name) and func.id in breaking and not scopes.imports.is_bound(func.id):
            yield node
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == self_name \
                and f"{scope.cls.name}.{func.attr}" in breaking:
            yield node


_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})


def _super_init(scope: Scope, scopes: ModuleScopes):
    """(call, base) for the `super().__init__(...)` of an __init__ whose base __init__ is of this file."""
    base = _initialised_base(scope.cls, scope.func, scopes.classes)
    if base is not None:
        yield super_init_call(scope.func), base


def super_init_call(init) -> Optional[ast.Call]:
    """The __init__'s `super().__init__(...)` call, if it makes one."""
    for node in walk(init):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__" \
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name) \
                and node.func.value.func.id == "super":
            return node
    return None


def _constructions(func, scopes: ModuleScopes):
    """(call, class name) for each module class of this file the function builds by name, or through
    a local that holds only classes of this file (`net_type = Alex if a else Vgg; net_type()`)."""
    for node in walk(func):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) \
                or scopes.imports.is_bound(node.func.id):
            continue
        named = _classes_named(node.func, func, scopes)
        if len(named) == 1 and scopes.classes[named[0]].is_module:  # an alias of several: which is built is not known
            yield node, named[0]


def _classes_named(name: ast.Name, func, scopes: ModuleScopes) -> list[str]:
    """The classes of this file a called name stands for: itself, or every value of a local alias."""
    if name.id in scopes.classes:
        return [name.id]
    values = scopes.local_values_of(func).get(name.id) or []
    names = [v.id for v in values if isinstance(v, ast.Name)]
    if values and len(names) == len(values) and all(n in scopes.classes for n in names):
        return list(dict.fromkeys(names))
    return []


def _initialised_base(cls: ClassInfo, init, classes: dict) -> Optional[ClassInfo]:
    """The class of this file whose __init__ `super().__init__(...)` runs, if the __init__ calls it and
    the first base with an __init__ is defined here (a module class)."""
    if super_init_call(init) is None:
        return None
    while cls.bases:
        info = classes.get(cls.bases[0])
        if info is None:
            return None  # an imported base, or nn.Module itself
        if "__init__" in info.methods:
            return info if info.is_module else None
        cls = info  # a base that inherits its __init__: look further up
    return None
