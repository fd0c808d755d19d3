"""Which functions of a file Dynamo will trace.

Entry points are `forward` of nn.Module subclasses, functions compiled with `torch.compile`
(as a decorator or a call), and the API methods of subclasses of torch.distributions' classes
(a model's forward builds distributions and transforms and calls them). Every function or method of the same file that an entry point calls,
transitively, is traced too; it keeps the chain of calls that reaches it, for the message.
"""
from __future__ import annotations

import ast
import builtins
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import NamedTuple, Optional, Union

from .astwalk import breadth_first, function_nodes_of, node_memo, subtree_memo
from .flow import function_arguments
from .names import ImportMap, dotted, normalize_torch
from .torch_api import COMPILE_DECORATORS, DISABLE_DECORATORS, DISTRIBUTION_CLASSES, DISTRIBUTION_HOOKS, FORWARD_HOOKS

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]

# functools.partial(f, ...): calling it calls f.
PARTIALS = {"functools.partial", "partial"}
# nn.Module methods that return the module itself: `Net(...).eval()` / `.to(device)` is a Net.
MODULE_METHODS_RETURNING_SELF = {"eval", "train", "to", "cuda", "cpu", "float", "half", "double", "bfloat16",
                                 "requires_grad_", "share_memory", "to_empty", "type", "xpu", "ipu", "mtia"}
# Bases that have a `forward` Dynamo does not trace as a module call.
NON_MODULE_BASES = {"object", "Exception", "torch.autograd.Function", "torch.autograd.function.Function",
                    "enum.Enum", "Enum", "typing.NamedTuple", "NamedTuple", "abc.ABC", "ABC",
                    "typing.Protocol", "Protocol", "typing.Generic", "Generic"}


# The node types each pass over a function's nodes acts on (function_nodes_of).
_ASSIGNMENTS = frozenset({ast.Assign, ast.AnnAssign})
_ASSIGNMENTS_AND_CALLS = _ASSIGNMENTS | {ast.Call}
_PLAIN_BINDINGS = frozenset({ast.Assign, ast.AugAssign, ast.Name})
_CALLS = frozenset({ast.Call})
_CALLS_AND_WITHS = frozenset({ast.Call, ast.With, ast.AsyncWith})
_CALLS_AND_READS = _CALLS_AND_WITHS | {ast.Attribute, ast.Subscript}
_RETURNS = frozenset({ast.Return})
# operators, `for` and `len()` on a held object run its special methods
_CALLS_READS_AND_OPERATORS = _CALLS_AND_READS | {ast.BinOp, ast.UnaryOp, ast.For, ast.comprehension, ast.Compare,
                                                  ast.If, ast.While, ast.IfExp}
# `for v in xs` (a statement or a comprehension's) binds v too
_ASSIGNMENTS_AND_LOOPS = _ASSIGNMENTS | {ast.For, ast.comprehension, ast.Expr}
# Calls whose one argument is the sequence they hold the elements of, and containers of their arguments.
_SEQUENCE_WRAPPERS = frozenset({"torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.ParameterList",
                                "list", "tuple", "reversed", "sorted"})
_SEQUENTIAL = frozenset({"torch.nn.Sequential"})
_WRAPPER_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in _SEQUENCE_WRAPPERS | _SEQUENTIAL)
_ATTRIBUTES = frozenset({ast.Attribute})


@dataclass
class ClassInfo:
    name: str
    node: ast.ClassDef
    bases: list[str]  # import-resolved base names ("" when unresolvable)
    methods: dict[str, FunctionNode] = field(default_factory=dict)
    is_module: bool = False
    # Why the class is taken for an nn.Module: its path to a torch base, or the evidence used.
    module_reason: str = ""
    # Methods read as attributes (`@property`, `@cached_property`): reading `self.x` runs them.
    properties: set[str] = field(default_factory=set)
    # `@x.setter` defs by property name: `obj.x = v` runs them.
    setters: dict[str, FunctionNode] = field(default_factory=dict)
    # "distribution" / "transform" / "constraint" for a subclass of a torch.distributions class,
    # with the path of bases that makes it one: its API methods are entry points.
    distribution_kind: str = ""
    distribution_reason: str = ""
    _assignments: Optional["AttributeAssignments"] = field(default=None, repr=False, compare=False)

    @property
    def assignments(self) -> "AttributeAssignments":
        """What the class's methods assign to attributes of the instance, read once (shared by the
        tensor facts of its attributes and by calls of attributes bound to functions)."""
        if self._assignments is None:
            self._assignments = AttributeAssignments(self)
        return self._assignments


class AttributeAssignments:
    """`self.x = value` (and `self.x: T = value`) in any method of a class, and the names that
    `self.register_buffer("x", ...)` / `register_parameter` give."""

    def __init__(self, info: ClassInfo):
        # attribute -> (value, the assigning method's name for its instance); `self.x: T = v` counts as `self.x = v`
        self.values: dict[str, list[tuple[ast.AST, Optional[str]]]] = {}
        self.registered: set[str] = set()
        for method in info.methods.values():
            self_name = self_parameter(method)
            self._method, self._locals = method, None  # the method's plain locals, read when needed
            for node in function_nodes_of(method, _ASSIGNMENTS_AND_CALLS):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        self._add(target, node.value, self_name)
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    self._add(node.target, node.value, self_name)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in ("register_buffer", "register_parameter") and node.args \
                        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    self.registered.add(node.args[0].value)

    def _add(self, target: ast.AST, value: ast.AST, self_name: Optional[str]) -> None:
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name:
            # `a = torch.ones(...)` (or another value on each branch), then `self.a = a`: what the
            # local was given is what the attribute holds.
            values = [value]
            if isinstance(value, ast.Name):
                if self._locals is None:
                    self._locals = _plain_locals(self._method)
                values = self._locals.get(value.id, values)
            for each in values:
                self.values.setdefault(target.attr, []).append((each, self_name))


def _plain_locals(method) -> dict[str, list[ast.AST]]:
    """Names a method binds only by plain `name = value` statements (and `name += ...`; no
    parameter, loop target, `with ... as`, annotated or tuple assignment): name -> every value it is
    given."""
    found: dict[str, list[ast.AST]] = {}
    kept: set[int] = set()  # the Name nodes of `name = ...` and `name += ...`
    other: set[str] = set()
    args = method.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]:
        other.add(arg.arg)
    stores = []
    for node in function_nodes_of(method, _PLAIN_BINDINGS):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found.setdefault(node.targets[0].id, []).append(node.value)
            kept.add(id(node.targets[0]))
        elif isinstance(node, ast.AugAssign):
            kept.add(id(node.target))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores.append(node)
    other.update(node.id for node in stores if id(node) not in kept)
    return {name: values for name, values in found.items() if name not in other}


@dataclass
class Scope:
    func: FunctionNode
    qualname: str
    cls: Optional[ClassInfo]
    chain: tuple[str, ...]  # entry point first, this function last
    # Why Dynamo traces it, in words (`breaklint check --show-scope` prints it).
    reason: str = ""

    @property
    def is_entry(self) -> bool:
        return len(self.chain) == 1


@dataclass
class CallSite:
    caller: Scope
    call: ast.Call
    callee_key: str  # qualname of the callee
    bound_self: bool  # self.method(...) / super().method(...): first parameter is implicit


@dataclass
class ScopeSettings:
    extra_decorators: tuple[str, ...] = ()
    extra_base_classes: tuple[str, ...] = ()


class ModuleScopes:
    """The traced functions of one module, found without importing it."""

    def __init__(self, tree: ast.Module, imports: ImportMap, settings: ScopeSettings = ScopeSettings(),
                 external: Optional[dict] = None, may_compile: bool = True):
        self.tree = tree
        # False when the file's text never says "compile": no torch.compile(fn) call to look for.
        self.may_compile = may_compile
        self.imports = imports
        self.settings = settings
        # qualname -> project.ExternalEntry: functions that traced code in other files calls.
        self.external = external or {}
        self.classes: dict[str, ClassInfo] = {}
        self.functions: dict[str, FunctionNode] = {}
        self.scopes: dict[str, Scope] = {}
        self.call_sites: dict[str, list[CallSite]] = {}
        self._dispatch_memo: Optional[dict[str, list[str]]] = None
        # qualname of a traced scope -> the Call nodes of its body (the summary reuses this walk)
        self.calls: dict[str, list[ast.Call]] = {}
        # qualname of a traced method -> attributes of self it reads without calling them that no
        # class of this file defines as a method (a base class elsewhere may make them properties)
        self.self_reads: dict[str, tuple[str, ...]] = {}
        # qualname of a traced scope -> the expressions its `with` statements enter
        self.context_managers: dict[str, list[ast.expr]] = {}
        # qualname of a traced scope -> reads of an attribute of a held object (`t.mean`, `self.d.mean`),
        # each as a call with no arguments, so that what a call on that object would run is found the
        # same way (`t = Thing(x)`: a property of Thing runs); the summary follows them across files
        self.object_reads: dict[str, list[ast.Call]] = {}
        self._module_values: Optional[dict[str, list[ast.AST]]] = None
        self._answerable: Optional[frozenset] = None
        # id of a function defined inside another function (a method of a class made in a factory, a
        # closure) -> that function: its free names are the enclosing function's locals
        self.enclosing: dict[int, FunctionNode] = {}
        self._collect_definitions()
        self._mark_modules()
        self._find_scopes()

    # -- definitions -------------------------------------------------------------------------
    def _collect_definitions(self) -> None:
        factories = []
        for node in self.tree.body:
            for stmt in _flatten_toplevel(node):
                if isinstance(stmt, ast.ClassDef):
                    # `if ...: class Impl ... else: class Impl ...`: either may run, so each is a class of
                    # its own; the later ones are named by their line ("Impl@42")
                    self._add_class(stmt, prefix="", name=_unique_name(stmt, self.classes))
                elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    # The last definition is the one that runs (`@overload` stubs come first).
                    self.functions[stmt.name] = stmt
                    factories.append(stmt)
        # A module class defined inside a factory function (`def build(): class Net(nn.Module)`)
        # is traced like any other; top-level names win a clash.
        made_in: dict[str, list[FunctionNode]] = {}
        for func in factories:
            for stmt in func.body:
                for inner in _flatten_toplevel(stmt):
                    if isinstance(inner, ast.ClassDef) and inner.name not in self.classes:
                        self._add_class(inner, prefix="")
                        made_in.setdefault(inner.name, []).append(func)
                    elif isinstance(inner, ast.ClassDef) and inner.name in made_in:
                        made_in[inner.name].append(func)
                        if made_in[inner.name][0] is func:
                            # the same factory defines it again on another branch (`if kind == "a": class
                            # Model ... else: class Model ...`): that one is traced too
                            name = _unique_name(inner, self.classes)
                            self._add_class(inner, prefix="", name=name)
                            made_in[name] = [func]
        # A class's free names are its factory's locals, where one factory alone defines that class name
        # (two factories each with `class Impl` keep the first Impl: its closures would be a guess).
        for name, funcs in made_in.items():
            if len(funcs) == 1:
                for method in self.classes[name].methods.values():
                    self.enclosing[id(method)] = funcs[0]

    def _add_class(self, node: ast.ClassDef, prefix: str, name: Optional[str] = None) -> None:
        name = name or prefix + node.name
        bases = [normalize_torch(self.imports.qualify(_unsubscripted(b))) or "" for b in node.bases]
        info = ClassInfo(name=name, node=node, bases=bases)
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = _property_kind(stmt)
                if kind == "accessor" and stmt.name in info.methods:
                    if _is_setter(stmt):
                        info.setters[stmt.name] = stmt
                    continue  # `@x.setter` keeps the getter: reads run the getter
                info.methods[stmt.name] = stmt
                if kind == "getter":
                    info.properties.add(stmt.name)
            elif isinstance(stmt, ast.ClassDef):
                self._add_class(stmt, prefix=name + ".")
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Name) and stmt.value.id in info.methods \
                    and stmt.value.id not in info.properties:
                # `__call__ = apply`, `forward = _forward_impl`: the alias runs the method defined above
                info.methods[stmt.targets[0].id] = info.methods[stmt.value.id]
        self.classes.setdefault(name, info)

    @property
    def has_setters(self) -> bool:
        return any(info.setters for info in self.classes.values())

    def _setters_for(self, scope: Scope, target: ast.Attribute) -> list:
        """(class, setter def) that `target.value.attr = v` may run: on self, through the class and its
        bases in this file; on an object this file's class makes (`c = Cfg(); c.scale = 3.0`)."""
        if self._is_self(scope, target.value) and scope.cls is not None:
            owners = [scope.cls]
        else:
            owners = [self.classes[value.func.id] for value in self._values(scope, target.value, 0)
                      if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in self.classes
                      and not self.imports.is_bound(value.func.id)]
        found = []
        for owner in owners:
            for cls in [owner] + self.local_ancestors(owner):
                if target.attr in cls.setters:
                    found.append((cls, cls.setters[target.attr]))
                    break
        return found

    @property
    def has_properties(self) -> bool:
        return any(info.properties for info in self.classes.values())

    def _mark_modules(self) -> None:
        extra = set(self.settings.extra_base_classes)

        def mark_module(info: ClassInfo) -> bool:
            reason = "" if info.is_module else self._module_reason(info, extra)
            if reason:
                info.is_module, info.module_reason = True, reason
            return bool(reason)

        def mark_distribution(info: ClassInfo) -> bool:
            kind, reason = ("", "") if info.distribution_kind else self._distribution_base(info)
            if kind:
                info.distribution_kind, info.distribution_reason = kind, reason
            return bool(kind)

        # A subclass of a same-file module is a module, at any depth; the same for subclasses of
        # torch.distributions' classes.
        self._fixpoint(mark_module)
        self._fixpoint(mark_distribution)
        # A class whose hierarchy leaves this file through a base we cannot see (a library's
        # PreTrainedModel two files away): decided by the evidence of its forward.
        for info in self.classes.values():
            if info.is_module or "forward" not in info.methods:
                continue
            unresolved = self._unresolved_ancestors(info)
            if unresolved and _forward_evidence(info.methods["forward"]):
                info.is_module = True
                info.module_reason = (f"base {unresolved[0]} unresolved in this file; taken for an nn.Module "
                                      "by evidence (forward takes arguments or calls attributes of self)")

    def _fixpoint(self, mark) -> None:
        """Run `mark(info)` (true when it marked the class from its bases) over the classes until none
        changes: a mark reaches a subclass at any depth, whatever the order of the classes."""
        changed = True
        while changed:
            changed = False
            for info in self.classes.values():
                changed |= mark(info)

    def _module_reason(self, info: ClassInfo, extra: set[str]) -> str:
        for base in info.bases:
            if not base:
                continue
            short = base.rsplit(".", 1)[-1]
            if base in extra or short in extra:
                return f"subclass of {base} (a configured module base)"
            if is_module_base(base):
                return f"subclass of {base}"
            local = self.classes.get(base)
            if local is not None and local.is_module and local is not info:
                return f"subclass of {base}, " + local.module_reason
        return ""

    def _distribution_base(self, info: ClassInfo) -> tuple[str, str]:
        for base in info.bases:
            if base in DISTRIBUTION_CLASSES:
                return DISTRIBUTION_CLASSES[base], f"subclass of {base}"
            local = self.classes.get(base)
            if local is not None and local.distribution_kind and local is not info:
                return local.distribution_kind, f"subclass of {base}, " + local.distribution_reason
        return "", ""

    def _unresolved_ancestors(self, info: ClassInfo) -> list[str]:
        """Imported bases, at any depth of same-file bases, that are neither torch's nor known
        non-module bases: the class may reach nn.Module through them."""
        found, seen, stack = [], set(), [info]
        while stack:
            current = stack.pop()
            if current.name in seen:
                continue
            seen.add(current.name)
            for base in current.bases:
                if not base or base in NON_MODULE_BASES or base.startswith(("torch.autograd", "torch.nn.Parameter")):
                    continue
                if base in self.classes:
                    stack.append(self.classes[base])
                elif not base.startswith(("torch.", "typing.", "builtins.")):
                    found.append(base)
        return found

    def _forward_hooks(self, info: ClassInfo) -> dict[str, str]:
        """method -> torch base, for the methods of `info` that override one its torch.nn base's forward
        calls on self (`_conv_forward` of an nn.Conv1d subclass, here or through bases of this file), when no
        class of the file between them overrides forward itself."""
        found = {}
        family = [info, *self.local_ancestors(info)]
        if any("forward" in klass.methods for klass in family):
            return found  # torch's forward never runs: what the own forward calls is followed as usual
        for klass in family:
            for base in klass.bases:
                for name in info.methods:
                    if f"{base}.{name}" in FORWARD_HOOKS:
                        found.setdefault(name, base)
        return found

    def local_ancestors(self, cls: ClassInfo) -> list[ClassInfo]:
        """The classes of this file that `cls` inherits from, at any depth, nearest first."""
        found, queue = [], list(cls.bases)
        while queue:
            info = self.classes.get(queue.pop(0))
            if info is not None and info is not cls and all(info is not f for f in found):
                found.append(info)
                queue.extend(info.bases)
        return found

    def held_by_self(self, cls: ClassInfo, attr: str) -> list[ast.AST]:
        """The values the class, and its bases and subclasses in this file, give `self.<attr>`: assigned, or
        registered (`self.register_buffer("attr", value)`, register_parameter)."""
        values = []
        for info in [cls, *self.local_ancestors(cls), *self.local_descendants(cls)]:
            values.extend(value for value, _self in info.assignments.values.get(attr, ()))
            if attr in info.assignments.registered:
                values.extend(subtree_memo("registered values", info.node, lambda: _registered_values(info))
                              .get(attr, ()))
        return values

    def local_descendants(self, cls: ClassInfo) -> list[ClassInfo]:
        """The classes of this file that inherit from `cls`, at any depth."""
        return [info for info in self.classes.values() if info is not cls
                and any(base is cls for base in self.local_ancestors(info))]

    def _method(self, cls: ClassInfo, name: str, skip_self: bool = False) -> Optional[tuple[ClassInfo, FunctionNode]]:
        """Find a method on a class or its same-file bases (a plain depth-first MRO)."""
        seen = set()
        stack = [cls]
        first = True
        while stack:
            info = stack.pop(0)
            if info.name in seen:
                continue
            seen.add(info.name)
            if not (first and skip_self) and name in info.methods:
                return info, info.methods[name]
            first = False
            for base in info.bases:
                if base in self.classes:
                    stack.append(self.classes[base])
        return None

    def module_made(self, node: ast.AST) -> ast.AST:
        """`Net(...)` for `Net(...).eval()` / `.to(device)` / ... where Net is a module class of this file
        that does not define that method itself (nn.Module's returns the module); else the node."""
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MODULE_METHODS_RETURNING_SELF and isinstance(node.func.value, ast.Call):
            made = node.func.value
            cls = self.classes.get(made.func.id) if isinstance(made.func, ast.Name) else None
            if cls is None or not cls.is_module or self.imports.is_bound(made.func.id) \
                    or self._method(cls, node.func.attr) is not None:
                break
            node = made
        return node

    def _autograd_forward(self, cls: ClassInfo):
        """`Fn.apply(...)` of a torch.autograd.Function subclass: Dynamo traces its forward (measured on
        2.13: a break inside `forward` is reported there)."""
        if not any(is_autograd_function_base(base) for info in [cls, *self.local_ancestors(cls)] for base in info.bases):
            return None
        found = self._method(cls, "forward")
        if found is None:
            return None
        owner, method = found
        return owner, method, f"{owner.name}.forward", True

    # -- entry points and the call graph ----------------------------------------------------
    def _decorator_names(self, func: FunctionNode) -> list[str]:
        names = []
        for dec in func.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            names.append(self.imports.qualify(target) or "")
        return names

    def _is_disabled(self, func: FunctionNode) -> bool:
        return any(n in DISABLE_DECORATORS for n in self._decorator_names(func))

    def _is_compile_decorated(self, func: FunctionNode) -> bool:
        extra = set(self.settings.extra_decorators)
        for name in self._decorator_names(func):
            if name in COMPILE_DECORATORS or name in extra or (name and name.rsplit(".", 1)[-1] in extra):
                return True
        return False

    def _find_scopes(self) -> None:
        queue: deque[Scope] = deque()

        def add(func: FunctionNode, qualname: str, cls: Optional[ClassInfo], chain: tuple[str, ...],
                reason: str) -> None:
            if qualname in self.scopes or self._is_disabled(func):
                return
            scope = Scope(func=func, qualname=qualname, cls=cls, chain=chain, reason=reason)
            self.scopes[qualname] = scope
            queue.append(scope)
            # a functools.singledispatch function runs the implementations registered for it
            for impl in self._dispatch_implementations().get(qualname, ()) if cls is None else ():
                add(self.functions[impl], impl, None, chain + (impl,), f"registered for {qualname} (singledispatch)")

        for info in self.classes.values():
            if info.is_module:
                # forward, and a `__call__` override: calling the module inside traced code runs it
                # (PyG's Aggregation.__call__ computes dim_size there), so Dynamo traces it too.
                for entry in ("forward", "__call__"):
                    if entry in info.methods:
                        add(info.methods[entry], f"{info.name}.{entry}", info, (f"{info.name}.{entry}",),
                            f"{entry} of {info.name}: {info.module_reason}")
                # `self.forward = self.forward_split_cat` in __init__ (timm's Partial_conv3): calling the
                # module runs the method the instance attribute holds
                for owner, method in self._bound_forwards(info):
                    qualname = f"{owner.name}.{method.name}"
                    add(method, qualname, owner, (qualname,),
                        f"bound to forward in {info.name}.__init__: {info.module_reason}")
                for hook, base in self._forward_hooks(info).items():
                    add(info.methods[hook], f"{info.name}.{hook}", info, (f"{info.name}.{hook}",),
                        f"{hook} of {info.name}: {base}.forward calls it")
            if info.distribution_kind:
                for entry in distribution_entries(info.methods, info.distribution_kind):
                    add(info.methods[entry], f"{info.name}.{entry}", info, (f"{info.name}.{entry}",),
                        distribution_reason(entry, info.name, info.distribution_kind, info.distribution_reason))
            for mname, method in info.methods.items():
                if self._is_compile_decorated(method):
                    add(method, f"{info.name}.{mname}", info, (f"{info.name}.{mname}",),
                        "decorated with torch.compile")
        for name, func in self.functions.items():
            if self._is_compile_decorated(func):
                add(func, name, None, (name,), "decorated with torch.compile")
        for name in self._compiled_by_call() if self.may_compile else ():
            if name in self.functions:
                add(self.functions[name], name, None, (name,), "passed to torch.compile()")

        def drain() -> None:
            while queue:
                scope = queue.popleft()
                calls, reads = _calls_and_reads(scope.func)
                self.calls[scope.qualname] = calls
                managers = [r.value for r in reads if r.attr == "__enter__"]
                if managers:
                    self.context_managers[scope.qualname] = managers
                    reads = [r for r in reads if r.attr != "__enter__"]
                for call in calls:
                    target = self.resolve_call(scope, call)
                    targets = [target] if target is not None else \
                        self._attribute_targets(scope, call) or self._indirect_targets(scope, call)
                    for cls, func, qualname, bound_self in targets:
                        self.call_sites.setdefault(qualname, []).append(
                            CallSite(caller=scope, call=call, callee_key=qualname, bound_self=bound_self))
                        add(func, qualname, cls, scope.chain + (qualname,), f"called from {scope.qualname}")
                self_name = self_parameter(scope.func) if scope.cls is not None else None
                held = [_read_as_call(r) for r in reads if isinstance(r, ast.Attribute) and not (
                    isinstance(r.value, ast.Name) and r.value.id == self_name)]
                if held:
                    self.object_reads[scope.qualname] = held
                # here only reads a class of this file answers with a property or a special method
                for read in (r for r in held if r.func.attr in self._answerable_reads()):
                    for cls, func, qualname, bound_self in self._indirect_targets(scope, read):
                        attr = read.func.attr
                        if cls is not None and (attr in cls.properties or attr.startswith("__")):
                            add(func, qualname, cls, scope.chain + (qualname,),
                                f"{'property read' if attr in cls.properties else attr} in {scope.qualname}")
                if scope.cls is not None:
                    foreign = []
                    for attr in dict.fromkeys(r.attr for r in reads if isinstance(r.value, ast.Name) and r.value.id == self_name):
                        found = self._method(scope.cls, attr)
                        if found is None:
                            foreign.append(attr)
                        elif attr in _ITEM_METHODS:
                            owner, method = found
                            qualname = f"{owner.name}.{attr}"
                            add(method, qualname, owner, scope.chain + (qualname,),
                                f"{'attribute set' if attr == '__setattr__' else 'item access'} in {scope.qualname}")
                        elif attr in found[0].properties:
                            owner, getter = found
                            qualname = f"{owner.name}.{attr}"
                            add(getter, qualname, owner, scope.chain + (qualname,),
                                f"property read in {scope.qualname}")
                    if foreign:
                        self.self_reads[scope.qualname] = tuple(foreign)
                # `self.x = v` / `obj.x = v` where a class of this file makes x a property with a setter
                if self.has_setters:
                    for target in _stored_attributes(scope.func):
                        for owner, setter in self._setters_for(scope, target):
                            qualname = f"{owner.name}.{target.attr}<setter>"
                            add(setter, qualname, owner, scope.chain + (qualname,), f"property set in {scope.qualname}")

        drain()
        # What this file traces on its own, before what other files reach in it (the call graph
        # across files is built from this).
        self.local_scopes = frozenset(self.scopes)
        for qualname, entry in self.external.items():
            owner, _, method = qualname.rpartition(".")
            if ".<locals>." in qualname:  # a closure a factory of this file returns
                closure = self._closure_named(qualname)
                if closure is not None:
                    self.enclosing.setdefault(id(closure), self.functions[qualname.split(".")[0]])
                    add(closure, qualname, None, tuple(entry.chain), _external_reason(entry))
            elif owner:
                info = self.classes.get(owner)
                if info is not None and method in info.methods:
                    add(info.methods[method], qualname, info, tuple(entry.chain), _external_reason(entry))
            elif qualname in self.functions:
                add(self.functions[qualname], qualname, None, tuple(entry.chain), _external_reason(entry))

        drain()

    def _closure_named(self, qualname: str) -> Optional[FunctionNode]:
        """The def `outer.<locals>.inner` names: a function defined in the body of a top-level one."""
        outer, _, inner = qualname.partition(".<locals>.")
        func = self.functions.get(outer)
        if func is None or "." in inner:
            return None
        stack = list(func.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name == inner:
                    return node
                continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(node, field, None) or ())
        return None

    def _compiled_by_call(self) -> list[str]:
        """Names passed to torch.compile(fn, ...): `step = torch.compile(step)`, `return
        torch.compile(fn)`, a bare call. Only statements are walked, never whole expression trees,
        which cost more than parsing on large files."""
        names = []
        stack = list(self.tree.body)
        while stack:
            node = stack.pop()
            value = getattr(node, "value", None) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) else None
            while isinstance(value, ast.Call):  # also `torch.compile(fn)(*args)`
                if value.args and isinstance(value.args[0], ast.Name) \
                        and self.imports.qualify(value.func) in COMPILE_DECORATORS:
                    names.append(value.args[0].id)
                value = value.func
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                children = getattr(node, field, None)
                if children:
                    stack.extend(children)
        return names

    def _attribute_targets(self, scope: Scope, call: ast.Call) -> list:
        """`self.grid(...)` where `grid` is no method but an attribute the class binds to a method,
        a function, or a closure a method returns: those are called (torchdiffeq's
        `self.grid_constructor = self._grid_constructor_from_step_size(step_size)`)."""
        func = call.func
        if scope.cls is None or not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                                     and func.value.id == self_parameter(scope.func)):
            return []
        targets = []
        for stmt in scope.cls.node.body:  # `fn = staticmethod(helper)` in the class body
            wrapped = _unwrapped_static(stmt.value) if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == func.attr else None
            if wrapped is not None and wrapped is not stmt.value and isinstance(wrapped, ast.Name) \
                    and wrapped.id in self.functions and not self.imports.is_bound(wrapped.id):
                targets.append((None, self.functions[wrapped.id], wrapped.id, False))
        for value, self_name in scope.cls.assignments.values.get(func.attr, ()):
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == self_name:
                found = self._method(scope.cls, value.attr)
                if found:
                    targets.append((found[0], found[1], f"{found[0].name}.{value.attr}", True))
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and isinstance(value.func.value, ast.Name) and value.func.value.id == self_name:
                found = self._method(scope.cls, value.func.attr)
                if found:
                    owner, maker = found
                    for closure in _returned_closures(maker):
                        # not a method: its first parameter is no `self`
                        targets.append((None, closure, f"{owner.name}.{maker.name}.{closure.name}", False))
            elif isinstance(value, ast.Name) and value.id in self.functions and not self.imports.is_bound(value.id):
                targets.append((None, self.functions[value.id], value.id, False))
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                    and value.func.id in self.functions and not self.imports.is_bound(value.func.id):
                # `self.f = make_f(k)` / `self.act = get_act(name)`: what the factory returns is called
                targets.extend(self._returned_functions(value.func.id))
        return targets

    def _bound_forwards(self, info: ClassInfo) -> list[tuple[ClassInfo, FunctionNode]]:
        """Methods (of the class or a same-file base) that a module class's own __init__ binds to
        `self.forward` (`self.forward = self.fast`, `self.fast if c else self.slow`); not a property, whose
        getter runs in __init__ itself, and not a binding in another method, which may never run."""
        init = info.methods.get("__init__")
        self_name = self_parameter(init) if init is not None else None
        if self_name is None:
            return []
        values = []
        for node in function_nodes_of(init, _ASSIGNMENTS):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                    and any(isinstance(t, ast.Attribute) and t.attr == "forward" and isinstance(t.value, ast.Name)
                            and t.value.id == self_name
                            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
                values.extend([node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value])
        found = []
        for value in values:
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                    and value.value.id == self_name and value.attr != "forward":
                method = self._method(info, value.attr)
                if method is not None and value.attr not in method[0].properties:
                    found.append(method)
        return found

    def _bound_methods_returned(self, scope: Scope, call: ast.Call) -> list[ast.Attribute]:
        """`fn = self.pick(k); fn(x)` where `pick` returns `self.a if c else self.b` (through its locals):
        the bound methods it returns, as the attribute reads that spell them."""
        func = call.func
        if scope.cls is None or not (isinstance(func, ast.Attribute) and self._is_self(scope, func.value)):
            return []
        found = self._method(scope.cls, func.attr)
        if found is None or found[1] is scope.func:
            return []
        owner, maker = found
        self_name = self_parameter(maker)
        maker_scope = Scope(maker, f"{owner.name}.{maker.name}", owner, ())
        methods = []
        for ret in function_nodes_of(maker, _RETURNS):
            if isinstance(ret, ast.Return) and ret.value is not None:
                methods.extend(value for value in self._values(maker_scope, ret.value, 1)
                               if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                               and value.value.id == self_name and self._method(owner, value.attr) is not None)
        return methods

    def _returned_functions(self, maker_name: str) -> list:
        """(None, function, qualname, False) for each function a top-level function of this file returns:
        a def of its body (`return f`), a top-level function (`return swish`) or the functions of a
        module-level dict it indexes (`return ACTS[name]`, `ACTS.get(name)`)."""
        maker = self.functions[maker_name]
        found = [(None, closure, f"{maker_name}.{closure.name}", False) for closure in _returned_closures(maker)]
        for node in breadth_first(maker):
            if not isinstance(node, ast.Return) or node.value is None:
                continue
            value = node.value
            if isinstance(value, ast.Subscript) or isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "get":
                holder = value.value if isinstance(value, ast.Subscript) else value.func.value
                names = [v.id for bound in (self.module_bindings().get(holder.id, ()) if isinstance(holder, ast.Name) else ())
                         if isinstance(bound, ast.Dict) for v in bound.values if isinstance(v, ast.Name)]
            elif isinstance(value, ast.Name):
                names = [value.id]
            else:
                continue
            found.extend((None, self.functions[n], n, False) for n in names
                         if n in self.functions and not self.imports.is_bound(n))
        return found

    # -- callables reached indirectly ------------------------------------------------------------
    def indirect_callees(self, scope: Scope, call: ast.Call) -> list[tuple[ast.AST, Optional[str]]]:
        """What a call runs when its callee is not a plain name: (expression, None) for a function the
        callee may hold (`fn = a.f if c else a.g; fn(x)`, `ACTS[name](x)`, `partial(g)`, a callable
        kept on self), (class expression, method) for an object of a known class (`Spline(...)`
        kept in `self._transform`: `self._transform.inverse(x)` runs Spline.inverse, calling the
        object runs Spline.__call__)."""
        # The scope search and the summary both ask.
        return node_memo("indirect callees", call, lambda: self._indirect_callees(scope, call))

    def _indirect_callees(self, scope: Scope, call: ast.Call) -> list[tuple[ast.AST, Optional[str]]]:
        func = call.func
        found: list[tuple[ast.AST, Optional[str]]] = []
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if self._is_self(scope, receiver):
                pass  # self.fn(...): a callable kept on self, below
            elif func.attr.startswith("__") and _makes_object(receiver) or _constructed(receiver):
                # a special method an operator or `for` runs on an object just made (`for v in Seq(xs)`), a
                # property read or a method called on one (`Dist(x).scale`)
                found.append((receiver.func, func.attr))
                return found
            elif _result_of_call(receiver) and not isinstance(receiver, ast.Call):
                # make(x).method(), self.encode(x).latent_dist.mode(): what the call returns (project.py)
                found.append((receiver, func.attr))
                return found
            elif isinstance(receiver, ast.Name) and receiver.id not in self.functions \
                    and receiver.id not in self.classes and not self.imports.is_bound(receiver.id) \
                    or isinstance(receiver, ast.Attribute) and self._is_self(scope, receiver.value):
                # obj.method(...) where obj holds an object of a known class: the same answer for every
                # such call or read in the function (`h = h + ...` bound a thousand times, read as often)
                held_memo = node_memo("held receivers", scope.func, dict)
                key = (dotted(receiver), func.attr)
                if key not in held_memo:
                    held_memo[key] = self._held_receiver_callees(scope, receiver, func.attr)
                return list(held_memo[key])
            elif isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) \
                    and receiver.value.id not in self.functions and receiver.value.id not in self.classes \
                    and not self.imports.is_bound(receiver.value.id) and not self._is_self(scope, receiver.value):
                # `d = make(); d.transform.log(x)`: an attribute of what the name holds, made by a call
                for value in self._values(scope, receiver.value, 0):
                    if value is not receiver.value and _result_of_call(value):
                        found.append((_attribute_of(value, receiver.attr), func.attr))
                return found
            else:
                return found  # torch.cat(...), x.view(...).sum(): nothing held to follow
        elif not isinstance(func, (ast.Name, ast.Subscript)):
            return found
        return self._callable_values(scope, func, found)

    def _held_receiver_callees(self, scope: Scope, receiver: ast.AST, method: str) -> list:
        """(class or factory expression, method) for `receiver.method(...)`, receiver a held object."""
        found: list[tuple[ast.AST, Optional[str]]] = []
        factories = set()  # names already expanded: `x = fn(x)` bound many times holds the same
        for value in self._values(scope, receiver, 0):
            module = _any_class_of(value)
            if module is not None:  # `getattr(geoopt.manifolds, name)()`: some class of that module
                found.append((module, method))
            elif value is not receiver and isinstance(value, ast.Name) and self.imports.is_bound(value.id):
                # `self.ops = fns` with fns an imported module (or class): `self.ops.helper(x)` is `fns.helper(x)`
                found.append((_attribute_of(value, method), None))
            elif value is not receiver and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                    and self._factory_class(value.func.id):
                # `d = make_dist(x)` with `def make_dist(x) -> Dist`: an object of that class of this file (and
                # the factory, for the project's reading of what it returns)
                found.append((ast.copy_location(ast.Name(id=self._factory_class(value.func.id), ctx=ast.Load()),
                                                value.func), method))
                found.append((value.func, method))
            elif value is not receiver and _constructs(value, self.classes):
                if isinstance(value.func, ast.Name) and value.func.id not in self.classes \
                        and value.func.id not in self.functions and not self.imports.is_bound(value.func.id):
                    # `solver = solver_cls(...)` with `solver_cls = SOLVERS[method]`: the classes
                    # (or factories) the name may hold
                    if value.func.id in factories:
                        continue
                    factories.add(value.func.id)
                    for held in self._values(scope, value.func, 1):
                        if held is not value.func and isinstance(held, (ast.Name, ast.Attribute)):
                            found.append((held, method))
                        elif _any_member_of(held) is not None:  # `cls = getattr(pkg.mod, name); cls(...)`
                            found.append((_any_member_of(held), method))
                else:
                    found.append((value.func, method))
            elif value is not receiver and _result_of_call(value):
                found.append((value, method))
            elif value is not receiver and isinstance(value, ast.Call) and isinstance(value.func, ast.Subscript) \
                    and isinstance(value.func.value, ast.Name) and value.func.value.id not in self.classes:
                found.append((value, method))  # `solver = SOLVERS[k](...)`: a table of classes (project.py)
            elif value is receiver and isinstance(receiver, ast.Name):
                # a parameter annotated with a class: any subclass of it (project.py)
                found.extend((cls, method) for cls in _annotated_classes(scope.func, receiver.id))
        return found

    def _callable_values(self, scope: Scope, func: ast.AST, found: list) -> list:
        """What a called name or subscript may hold: functions, and objects whose __call__ runs."""
        for value in self._values(scope, func, 0):
            if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) \
                    and self.imports.is_bound(value.value.id):
                found.append((value, None))  # an element of another module's dict or tuple (project.py)
                continue
            if value is func:
                if isinstance(func, ast.Name):  # a parameter annotated with a callable class
                    found.extend((cls, "__call__") for cls in _annotated_classes(scope.func, func.id))
                continue
            if isinstance(value, ast.Call):  # an object: calling it runs its class's __call__
                bound = self._bound_methods_returned(scope, value)
                if bound:
                    found.extend((method, None) for method in bound)
                    continue
                module = _any_class_of(value)
                if module is not None:  # `getattr(pkg.mod, name)(...)`: some class of that module
                    found.append((module, "__call__"))
                elif _any_member_of(value) is not None:
                    # `fn = getattr(pkg.mod, name); fn(x)`: some function of the module, which one is not known.
                    # Taking every public one put setup and I/O helpers in scope (the review of stop 29): none.
                    pass
                elif _constructs(value, self.classes):
                    found.append((value.func, "__call__"))
            elif _result_of_call(value):  # `y, bm = check(y); bm(t)`: an element of what a call returns
                found.append((value, "__call__"))
            elif isinstance(value, (ast.Name, ast.Attribute)):
                found.append((value, None))
            elif isinstance(value, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) \
                    and id(value) in self.enclosing:  # a closure of an enclosing function
                found.append((value, None))
            elif isinstance(value, ast.Lambda) and scope.cls is not None \
                    and _method_around(scope.cls, value) is not None:
                # `self.f = lambda t: ...` in __init__: the lambda runs where it is called
                self.enclosing.setdefault(id(value), _method_around(scope.cls, value))
                found.append((value, None))
        return found

    def _indirect_targets(self, scope: Scope, call: ast.Call) -> list:
        targets = []
        for expr, method in self.indirect_callees(scope, call):
            if method is None:
                if isinstance(expr, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    func, qualname = self._closure_scope(expr)
                    targets.append((None, func, qualname, False))
                elif isinstance(expr, ast.Name) and expr.id in self.functions and not self.imports.is_bound(expr.id):
                    targets.append((None, self.functions[expr.id], expr.id, False))
                elif isinstance(expr, ast.Attribute) and self._is_self(scope, expr.value) and scope.cls is not None:
                    found = self._method(scope.cls, expr.attr)
                    if found:
                        targets.append((found[0], found[1], f"{found[0].name}.{expr.attr}", True))
            elif isinstance(expr, ast.Name) and expr.id in self.classes and not self.imports.is_bound(expr.id):
                info = self.classes[expr.id]
                if info.is_module and method == "__call__":
                    continue  # a module's forward is an entry point of its own
                found = self._method(info, method)
                if found is None and method == "__bool__":  # truth falls back to __len__
                    method, found = "__len__", self._method(info, "__len__")
                if found:
                    targets.append((found[0], found[1], f"{found[0].name}.{method}", True))
        return targets

    def _values(self, scope: Scope, node: ast.AST, depth: int) -> list[ast.AST]:
        """The expressions a callee or receiver may hold, through local and module-level names,
        `a if c else b`, `a or b`, functools.partial, dict literals subscripted and attributes of self
        bound in the class. An expression that cannot be followed stands for itself."""
        if depth > 4:
            return [node]
        if isinstance(node, ast.IfExp):
            return self._values(scope, node.body, depth + 1) + self._values(scope, node.orelse, depth + 1)
        if isinstance(node, ast.BoolOp):
            return [v for value in node.values for v in self._values(scope, value, depth + 1)]
        if isinstance(node, ast.Call) and node.args and _last_attr(node.func) == "partial" \
                and (self.imports.qualify(node.func) or "") in PARTIALS:
            return self._values(scope, node.args[0], depth + 1)
        made = self.module_made(node) if isinstance(node, ast.Call) else node
        if made is not node:
            return self._values(scope, made, depth + 1)  # `Net(...).eval()` is the Net
        named = _constant_getattr(node)
        if named is not None:  # `getattr(self, "_impl_fast")` is `self._impl_fast`
            return self._values(scope, named, depth + 1)
        held = self._container_items(node) if isinstance(node, ast.Call) else None
        if held is not None:  # `nn.ModuleList([A(), B()])`, `reversed(xs)`: what the container holds
            return self._values(scope, held, depth + 1)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self._values(scope, node.value, depth + 1)  # `self.flows[::-1]` holds what they hold
        if isinstance(node, ast.Subscript):
            found = []
            for holder in self._values(scope, node.value, depth + 1):
                if isinstance(holder, ast.Dict):
                    for value in holder.values:
                        if value is not None:
                            found.extend(self._values(scope, value, depth + 1))
                elif isinstance(holder, (ast.List, ast.Tuple, ast.Set)):  # `FNS[i]`, `for fn in self.fns`
                    for value in holder.elts:
                        if not isinstance(value, ast.Starred):
                            found.extend(self._values(scope, value, depth + 1))
                elif isinstance(holder, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):  # `[T() for _ in r]`
                    found.extend(self._values(scope, holder.elt, depth + 1))
            if isinstance(node.value, ast.Name) and not self._local_bindings(scope).get(node.value.id) \
                    and node.value.id not in {a.arg for a in function_arguments(scope.func.args)}:
                # `REG[name](x)`: what a registrar of this file or a module-level store put in the table too
                # (under that key only, for a constant one: `REG["dbl"]`)
                key = node.slice.value if isinstance(node.slice, ast.Constant) else _ANY_KEY
                for entry, value in self.registered_values().get(node.value.id, ()):
                    if key is _ANY_KEY or entry is _ANY_KEY or entry == key:
                        found.extend(self._values(scope, value, depth + 1))
            return found or [node]
        if isinstance(node, ast.Name):
            if node.id in self.functions or node.id in self.classes or self.imports.is_bound(node.id):
                return [node]
            # Every read of a name holds the same values: worked out once per function, name and
            # depth, without repeats (a name bound in many loops over one list would multiply them).
            memo = node_memo("name values", scope.func, dict)
            key = (node.id, depth)
            if key not in memo:
                bound = self._local_bindings(scope).get(node.id) or self._enclosing_bindings(scope.func, node.id) \
                    or _callable_default(scope.func, node.id) or self.module_bindings().get(node.id)
                values = [v for value in bound for v in self._values(scope, value, depth + 1)] if bound else None
                memo[key] = list({id(v): v for v in values}.values()) if values is not None else None
            return memo[key] if memo[key] is not None else [node]  # unbound: the name stands for itself
        if isinstance(node, ast.Attribute) and self._is_self(scope, node.value) and scope.cls is not None:
            bound = [value for value, _ in scope.cls.assignments.values.get(node.attr, ())] \
                or _class_level_values(scope.cls.node, node.attr)  # `_METHODS = {"euler": _euler}` in the body
            if bound:
                # `self.norm = norm` in `__init__(self, norm=rms_norm)`: what the default holds
                bound += [default for value in bound if isinstance(value, ast.Name)
                          for method in [_method_around(scope.cls, value)] if method is not None
                          for default in _callable_default(method, value.id)]
                # `self.flows = nn.ModuleList(flows)` with `flows` a list that __init__ built
                bound += [local for value in bound if isinstance(value, ast.Call)
                          for held in [self._container_items(value)] if isinstance(held, ast.Name)
                          for method in [_method_around(scope.cls, held)] if method is not None
                          for local in self.local_values_of(method).get(held.id, ())]
                return [v for value in bound for v in self._values(scope, value, depth + 1)]
        return [node]

    def _container_items(self, call: ast.Call) -> Optional[ast.AST]:
        """The sequence a container call holds the elements of: the argument of `nn.ModuleList(xs)`,
        `list(xs)`, `reversed(xs)`; `nn.Sequential(a, b)`'s arguments as a list; else None."""
        last = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id if isinstance(call.func, ast.Name) else ""
        if last not in _WRAPPER_NAMES:
            return None
        name = normalize_torch(self.imports.qualify(call.func))
        if name in _SEQUENCE_WRAPPERS and len(call.args) == 1 and not call.keywords \
                and not (isinstance(call.func, ast.Name) and call.func.id in self.classes):
            return call.args[0]
        if name in _SEQUENTIAL and call.args and not call.keywords:
            if len(call.args) == 1 and isinstance(call.args[0], ast.Starred):
                return call.args[0].value  # `nn.Sequential(*layers)`
            return node_memo("sequential items", call, lambda: ast.copy_location(
                ast.List(elts=[a for a in call.args if not isinstance(a, ast.Starred)], ctx=ast.Load()), call))
        return None

    def _enclosing_bindings(self, func: FunctionNode, name: str) -> list[ast.AST]:
        """A free name of a function defined inside another: what the enclosing functions bind it to
        (`solver = Solver(); solve = lambda y: solver.solve(y)`, a `def` of the enclosing body). A name
        the function binds itself, in any way, is its own, whatever the enclosing function binds."""
        if id(func) not in self.enclosing or name in _bound_names(func):
            return []
        outer = self.enclosing[id(func)]
        while outer is not None:
            last = _last_plain_binding(outer, name)
            bound = [last] if last is not None else \
                (subtree_memo("local values", outer, lambda: _local_values(outer)).get(name) or _closure_defs(outer).get(name))
            if bound:
                for value in bound:
                    if isinstance(value, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                        self.enclosing.setdefault(id(value), outer)
                return bound
            if name in _bound_names(outer):
                return []  # bound some other way (an import, `with ... as`, a loop): not followed
            outer = self.enclosing.get(id(outer))
        return []

    def _closure_scope(self, value) -> tuple[FunctionNode, str]:
        """A closure or lambda the enclosing function bound, as a function to trace: a lambda becomes a
        def returning its expression (its nodes are the lambda's own, so findings keep their lines)."""
        if isinstance(value, ast.Lambda):
            func = node_memo("lambda as def", value, lambda: _lambda_def(value))
            self.enclosing.setdefault(id(func), self.enclosing.get(id(value)))
            return func, f"<lambda@{value.lineno}:{value.col_offset}>"
        return value, f"{value.name}<closure@{value.lineno}>"

    def self_attributes_in(self, scope: Scope, name: str) -> list[str]:
        """The attributes of self a local name is bound to (`step = self.step`, `a, b = self.a, self.b`)."""
        return [value.attr for value in self._local_bindings(scope).get(name, ())
                if isinstance(value, ast.Attribute) and self._is_self(scope, value.value)]

    def self_elements_in(self, scope: Scope, name: str) -> list[str]:
        """The attributes of self whose elements a local name is bound to (`for f in self.flows`,
        `for i, f in enumerate(reversed(self.flows))`, `f = self.flows[0]`)."""
        return [held.attr for held in self._element_sources(scope, name)
                if isinstance(held, ast.Attribute) and self._is_self(scope, held.value)]

    def module_elements_in(self, scope: Scope, name: str) -> list[str]:
        """The module-level names (this file's, or imported) whose elements a local name is bound to
        (`for frame in reversed(_STACK)`, `frame = _STACK[-1]`)."""
        memo = node_memo("module elements", scope.func, dict)
        if name not in memo:
            memo[name] = self._module_elements_in(scope, name)
        return memo[name]

    def _module_elements_in(self, scope: Scope, name: str) -> list[str]:
        local = self._local_bindings(scope)
        params = {a.arg for a in scope.func.args.posonlyargs + scope.func.args.args + scope.func.args.kwonlyargs}
        found = []
        for held in self._element_sources(scope, name):
            if isinstance(held, ast.Name) and held.id in local and len(local[held.id]) == 1 \
                    and isinstance(local[held.id][0], ast.Name):
                held = local[held.id][0]  # `stack = _STACK; for frame in reversed(stack)`
            if isinstance(held, ast.Name) and held.id not in local and held.id not in params \
                    and (held.id in self.module_bindings() or self.imports.is_bound(held.id)):
                found.append(held.id)
        return found

    def _element_sources(self, scope: Scope, name: str) -> list[ast.AST]:
        """The containers whose elements a local name is bound to, past reversed(), list(), slices, .values()."""
        found = []
        for value in self._local_bindings(scope).get(name, ()):
            if not isinstance(value, ast.Subscript) or isinstance(value.slice, ast.Slice):
                continue
            held = value.value
            while True:
                inner = self._container_items(held) if isinstance(held, ast.Call) else None
                if inner is not None:
                    held = inner
                elif isinstance(held, ast.Call) and isinstance(held.func, ast.Attribute) and held.func.attr == "values" \
                        and not held.args and not held.keywords:
                    held = held.func.value  # `for h in self.heads.values()`
                elif isinstance(held, ast.Subscript) and isinstance(held.slice, ast.Slice):
                    held = held.value
                else:
                    break
            found.append(held)
        return found

    def _local_bindings(self, scope: Scope) -> dict[str, list[ast.AST]]:
        """name -> values of `name = value` in a function (read once per function)."""
        return self.local_values_of(scope.func)

    def bindings(self, scope: Scope, name: str) -> list[ast.AST]:
        """The values a name is bound to in a function, else at module level."""
        return self._local_bindings(scope).get(name) or self.module_bindings().get(name) or []

    def _local_instance_class(self, scope: Scope, name: str) -> Optional[ClassInfo]:
        """The same-file class that every `name = Cls(...)` of the function builds, when that is the local's only
        kind of binding (not a parameter, a loop target or another assignment)."""
        values = self.local_values_of(scope.func).get(name)
        if not values or not all(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) for v in values) \
                or name in self.classes or self.imports.is_bound(name) \
                or any(a.arg == name for a in scope.func.args.posonlyargs + scope.func.args.args
                       + scope.func.args.kwonlyargs):
            return None
        # `d = make(x)` with `def make(x) -> Dist` or `return Dist(...)` on every path: the class it makes
        names = {self._factory_class(v.func.id) or v.func.id for v in values}
        if len(names) != 1:
            return None
        cls = self.classes.get(names.pop())
        if cls is None or self.imports.is_bound(cls.name) or _rebound_otherwise(scope.func, name, len(values)):
            return None
        return cls

    def _dispatch_implementations(self) -> dict[str, list[str]]:
        """name -> this file's top-level functions registered for it (`@name.register`, `@name.register(T)`),
        named uniquely (several `def _` keep only the last under that name, which no scope can tell apart)."""
        if self._dispatch_memo is None:
            self._dispatch_memo = {}
            for name, func in self.functions.items():
                for decorator in func.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    if isinstance(target, ast.Attribute) and target.attr == "register" \
                            and isinstance(target.value, ast.Name) and target.value.id in self.functions \
                            and name != "_":
                        self._dispatch_memo.setdefault(target.value.id, []).append(name)
        return self._dispatch_memo

    def _factory_class(self, name: str) -> Optional[str]:
        """The same-file class a same-file function returns an object of: its return annotation, or the one
        class every `return` of it builds."""
        func = self.functions.get(name)
        if func is None or self.imports.is_bound(name):
            return None
        returns = _forward_reference(func.returns) if isinstance(func.returns, ast.Constant) \
            and isinstance(func.returns.value, str) else func.returns
        if isinstance(returns, ast.Name) and returns.id in self.classes:
            return returns.id
        made = {ret.value.func.id if isinstance(ret.value, ast.Call) and isinstance(ret.value.func, ast.Name) else None
                for ret in function_nodes_of(func, _RETURNS)}
        return made.pop() if len(made) == 1 and next(iter(made)) in self.classes else None

    def enclosing_names(self, func: FunctionNode) -> set[str]:
        """Names the functions `func` is defined in bind (their locals and parameters), at any depth."""
        names: set[str] = set()
        outer = self.enclosing.get(id(func))
        while outer is not None:
            names |= set(self.local_values_of(outer)) | {a.arg for a in function_arguments(outer.args)}
            outer = self.enclosing.get(id(outer))
        return names

    def local_values_of(self, func: FunctionNode) -> dict[str, list[ast.AST]]:
        """name -> values of `name = value` in a function."""
        return subtree_memo("local values", func, lambda: _local_values(func))

    def module_bindings(self) -> dict[str, list[ast.AST]]:
        """name -> values of `name = value` at module level (in ifs and trys too)."""
        if self._module_values is None:
            self._module_values = {}
            for stmt in self.tree.body:
                for inner in _flatten_toplevel(stmt):
                    if isinstance(inner, ast.Assign) and len(inner.targets) == 1 \
                            and isinstance(inner.targets[0], ast.Name):
                        self._module_values.setdefault(inner.targets[0].id, []).append(inner.value)
                    elif isinstance(inner, ast.AnnAssign) and inner.value is not None \
                            and isinstance(inner.target, ast.Name):  # `_STEPS: Steps = (f, g)`
                        self._module_values.setdefault(inner.target.id, []).append(inner.value)
        return self._module_values

    def registered_values(self) -> dict[str, list[tuple[object, ast.AST]]]:
        """table name -> what module-level code and registrars put in that module-level table besides its
        literal: `TABLE[k] = v` statements, and each function or class of this file decorated by a registrar
        of this file that stores its argument there (`@register("relu") def relu(x)` with `def register(name):
        def deco(fn): TABLE[name] = fn; return fn`, or `@add def relu(x)` with `def add(fn): TABLE[...] = fn`).
        Measured on 2.13: Dynamo calls the registered function through the table and traces it."""
        return node_memo("registered values", self.tree, lambda: _registered_values_of(self.tree, self.functions))

    def _answerable_reads(self) -> frozenset:
        """Properties and special methods that some class of this file defines."""
        if self._answerable is None:
            self._answerable = frozenset(name for info in self.classes.values() for name in info.methods
                                         if name in info.properties or name.startswith("__"))
        return self._answerable

    def _property(self, cls: ClassInfo, name: str) -> Optional[tuple[ClassInfo, FunctionNode]]:
        found = self._method(cls, name)
        if found is not None and name in found[0].properties:
            return found
        return None

    @staticmethod
    def _is_self(scope: Scope, node: ast.AST) -> bool:
        return scope.cls is not None and isinstance(node, ast.Name) and node.id == self_parameter(scope.func)

    def resolve_call(self, scope: Scope, call: ast.Call):
        func = call.func
        # self.method(...) and super().method(...)
        if isinstance(func, ast.Attribute) and scope.cls is not None:
            receiver = func.value
            is_self = isinstance(receiver, ast.Name) and receiver.id == self_parameter(scope.func)
            is_super = isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) \
                and receiver.func.id == "super"
            if is_self or is_super:
                found = self._method(scope.cls, func.attr, skip_self=is_super)
                if found:
                    owner, method = found
                    return owner, method, f"{owner.name}.{func.attr}", True
                return None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            made = self.module_made(func.value)
            if made is not func.value:  # `Net(...).eval().step(x)` is Net(...).step(x)
                func = ast.Attribute(value=made, attr=func.attr, ctx=ast.Load())
        # Cls(...).method(...): a method of an object of a same-file class built on the spot
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) \
                and isinstance(func.value.func, ast.Name) and func.value.func.id in self.classes \
                and not self.imports.is_bound(func.value.func.id):
            found = self._method(self.classes[func.value.func.id], func.attr)
            if found:
                owner, method = found
                return owner, method, f"{owner.name}.{func.attr}", True
        # Cls(...)(x): the object built on the spot is called (its __call__; a module's forward)
        if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id in self.classes \
                and not self.imports.is_bound(func.func.id):
            cls = self.classes[func.func.id]
            found = self._method(cls, "forward" if cls.is_module else "__call__")
            if found:
                owner, method = found
                return owner, method, f"{owner.name}.{method.name}", True
        # obj.method(...) with `obj = Cls(...)` the only binding of a local: a method of a same-file class
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            made = self._local_instance_class(scope, func.value.id)
            if made is not None:
                found = self._method(made, func.attr)
                return (found[0], found[1], f"{found[0].name}.{func.attr}", True) if found else None
        # Class.method(...) on a same-file class
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.classes:
            owner = self.classes[func.value.id]
            if func.attr in owner.methods:
                return owner, owner.methods[func.attr], f"{owner.name}.{func.attr}", False
            if func.attr == "apply":
                return self._autograd_forward(owner)
            return None
        # `ste = Ste.apply` at module level, then `ste(x)`
        if isinstance(func, ast.Name) and not self.imports.is_bound(func.id):
            values = self.module_bindings().get(func.id, [])
            if len(values) == 1 and isinstance(values[0], ast.Attribute) and values[0].attr == "apply" \
                    and isinstance(values[0].value, ast.Name) and values[0].value.id in self.classes:
                return self._autograd_forward(self.classes[values[0].value.id])
        # plain module-level function
        if isinstance(func, ast.Name) and func.id in self.functions and not self.imports.is_bound(func.id):
            return None, self.functions[func.id], func.id, False
        # a same-file class, constructed: its __init__ runs (as across files). A module's too: Dynamo
        # 2.13 inlines it (measured: a print in the __init__ of a module built in forward breaks there)
        if isinstance(func, ast.Name) and func.id in self.classes and not self.imports.is_bound(func.id):
            found = self._method(self.classes[func.id], "__init__")
            if found:
                owner, method = found
                return owner, method, f"{owner.name}.__init__", True
        return None


def _registered_values(info: ClassInfo) -> dict[str, list[ast.AST]]:
    """name -> the values `self.register_buffer("name", value)` (or register_parameter) gives in the class."""
    found: dict[str, list[ast.AST]] = {}
    for method in info.methods.values():
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("register_buffer", "register_parameter") and len(node.args) >= 2 \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.setdefault(node.args[0].value, []).append(node.args[1])
    return found


def _rebound_otherwise(func: FunctionNode, name: str, assignments: int) -> bool:
    """Whether `name` is bound in `func` by more than its `assignments` plain assignments (a loop target,
    `with ... as`, an augmented or unpacking assignment, a nested def or an import)."""
    stores = subtree_memo("name stores", func, lambda: Counter(
        node.id for node in ast.walk(func) if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del))))
    return stores[name] != assignments


def is_autograd_function_base(base: str) -> bool:
    """`torch.autograd.Function` (or another of its spellings and subclasses in torch.autograd): `Fn.apply`."""
    return base.startswith("torch.autograd.") and base.endswith("Function")


def is_autograd_forward(cls: ClassInfo, func: FunctionNode) -> bool:
    """The static `forward(ctx, ...)` of a torch.autograd.Function subclass: `Fn.apply(a, b)` fills
    its parameters after ctx."""
    return func.name == "forward" and any(is_autograd_function_base(base) for base in cls.bases)


def is_module_base(base: str) -> bool:
    """A torch.nn class a model subclasses (`torch.nn.Module`, `torch.nn.Linear`), as imports qualify it."""
    short = base.rsplit(".", 1)[-1]
    return base.startswith("torch.nn.") and short.lstrip("_")[:1].isupper() and short != "Parameter"


def distribution_entries(methods, kind: str) -> list[str]:
    """The methods of a torch.distributions subclass that model code runs: its public methods and
    properties, and the hooks torch's base class calls (`_call`, `_inverse`, `__init__`). (Only the
    overrides of the base class's public API was tried: test recall 0.327 -> 0.308 and precision
    0.729 -> 0.717, so a library's own public methods stay entry points.)"""
    return [name for name in methods if not name.startswith("_") or f"{kind}.{name}" in DISTRIBUTION_HOOKS]


def distribution_reason(method: str, cls: str, kind: str, path: str) -> str:
    return f"{method} of {cls}, a torch.distributions {kind} ({path}): model code calls it"


def _external_reason(entry) -> str:
    reason = getattr(entry, "reason", "")
    if reason:
        return reason
    chain = tuple(entry.chain)
    # The caller may be in this file too (a construction the file alone does not follow).
    return f"called from {chain[-2]} (through the call graph)" if len(chain) > 1 else "an entry point found in another file"


def _unsubscripted(base: ast.AST) -> ast.AST:
    """`Generic[T]`, `Base[Config]`: the class is the subscripted name."""
    return base.value if isinstance(base, ast.Subscript) else base


def _forward_evidence(forward: FunctionNode) -> bool:
    """A forward that takes an argument besides self, or calls an attribute of self (a submodule)."""
    args = forward.args
    if len(args.posonlyargs + args.args) > 1 or args.kwonlyargs or args.vararg or args.kwarg:
        return True
    self_name = self_parameter(forward)
    return any(isinstance(node.func, ast.Attribute)
               and isinstance(node.func.value, ast.Name) and node.func.value.id == self_name
               for node in function_nodes_of(forward, _CALLS))


def _returned_closures(func: FunctionNode) -> list[FunctionNode]:
    """Functions defined in `func`'s body that it returns by name (`def f(...): ...; return f`)."""
    local = {stmt.name: stmt for stmt in func.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    found = []
    for stmt in func.body:
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id in local:
            found.append(local[stmt.value.id])
    return found


def _unique_name(node: ast.ClassDef, classes: dict) -> str:
    """A class's name, or "Name@line" when an earlier definition of the file took the name."""
    return node.name if node.name not in classes else f"{node.name}@{node.lineno}"


def self_parameter(func: FunctionNode) -> Optional[str]:
    """The name of a function's first positional parameter (`self` / `cls` in a method), or None."""
    args = func.args.posonlyargs + func.args.args
    return args[0].arg if args else None


def _flatten_toplevel(node: ast.stmt):
    """Top-level definitions, also those under `if`/`try` (version switches, optional imports).
    The fallbacks (`else:`, `except:`) come first, so that where both branches define a name the
    main branch's definition, the one current libraries run, is the last and wins (PyG's
    `if torch>=1.12: def scatter ... else: def scatter ...`)."""
    if isinstance(node, (ast.If, ast.Try)):
        for handler in getattr(node, "handlers", []):
            for child in handler.body:
                yield from _flatten_toplevel(child)
        for child in node.orelse + node.body + getattr(node, "finalbody", []):
            yield from _flatten_toplevel(child)
    else:
        yield node


def _calls_and_reads(func: FunctionNode) -> tuple[list[ast.Call], list[ast.Attribute]]:
    """Calls inside a function body (nested closures included, nested classes not), and the reads
    that may run a method of an object: attributes of a held object not called (`self.scale`, `t.mean`:
    a property runs), item access, `with`, and the special methods operators, `len()` and `for` run."""
    calls, reads, called = [], [], set()
    self_name = self_parameter(func)
    for node in function_nodes_of(func, _CALLS_READS_AND_OPERATORS):
        if isinstance(node, ast.Call):
            calls.append(node)
            called.add(id(node.func))
            reads.extend(_special_reads(node, self_name))  # `len(a)`
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            # `with Ctx(...):` runs the manager's __enter__ and __exit__
            reads.extend(_ItemAccess(item.context_expr, "__enter__") for item in node.items)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and (_held(node.value, self_name) or _constructed(node.value)):
            reads.append(node)  # `t.mean`, `self.scale`, `self.dist.mean`, `Dist(x).scale` (a property of one just made)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) \
                and node.value.id == self_name:
            reads.append(_ItemAccess(node.value, "__setattr__"))  # `self.cache = v` runs a __setattr__ of the class
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == self_name:
            # `self[k] = v` / `self[k]` runs the class's __setitem__ / __getitem__
            reads.append(_ItemAccess(node.value, "__getitem__" if isinstance(node.ctx, ast.Load) else "__setitem__"))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Load, ast.Store)) \
                and (_held(node.value, self_name) or _constructed(node.value)):
            # `c[k]` / `self.cache[k] = v` / `Seq(xs)[0]` on an object of the tree: its __getitem__ / __setitem__ runs
            reads.append(_special_read(node.value, "__getitem__" if isinstance(node.ctx, ast.Load) else "__setitem__"))
        elif isinstance(node, (ast.BinOp, ast.UnaryOp, ast.For, ast.comprehension, ast.Compare, ast.If, ast.While,
                               ast.IfExp)):
            # `a + b`, `-a`, `for v in a`, `[v for v in a]`, `k in a`, `a < b`, `if a:` on an object of the tree
            # run its special methods
            reads.extend(_special_reads(node, self_name))
    return calls, [r for r in reads if id(r) not in called]


_ITEM_METHODS = ("__getitem__", "__setitem__", "__setattr__")


_BINARY_SPECIALS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.MatMult: "matmul", ast.Div: "truediv",
                    ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "and", ast.BitOr: "or",
                    ast.BitXor: "xor", ast.LShift: "lshift", ast.RShift: "rshift"}
_UNARY_SPECIALS = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}
# builtins that run one special method of their argument's class (stop 41: Dynamo inlines a Python one)
_BUILTIN_SPECIALS = {"len": "__len__", "hash": "__hash__", "repr": "__repr__", "str": "__str__"}
_ITERATIONS = (ast.For, ast.comprehension)  # `for v in a` and `[v for v in a]` both run a.__iter__
_COMPARISON_SPECIALS = {ast.Lt: ("__lt__", "__gt__"), ast.Gt: ("__gt__", "__lt__"), ast.LtE: ("__le__", "__ge__"),
                        ast.GtE: ("__ge__", "__le__"), ast.Eq: ("__eq__", "__eq__"), ast.NotEq: ("__ne__", "__ne__")}


def _held(node: ast.AST, self_name: Optional[str]) -> bool:
    """A plain name or `self.x`: what an object of a known class may be kept in."""
    return isinstance(node, ast.Name) or isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and node.value.id == self_name


def _special_reads(node: ast.AST, self_name: Optional[str]) -> list[ast.Attribute]:
    """The special methods an operator, `len()` or a `for` runs on held operands, as attribute reads."""
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY_SPECIALS:
        name = _BINARY_SPECIALS[type(node.op)]
        pairs = [(node.left, f"__{name}__"), (node.right, f"__r{name}__")]
    elif isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY_SPECIALS:
        pairs = [(node.operand, _UNARY_SPECIALS[type(node.op)])]
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        pairs = [(node.comparators[0], "__contains__")]  # `k in obj`
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISON_SPECIALS:
        # `a < b`: a's __lt__; b's reflection (__gt__) only where a is a constant (`1 > a`), whose method gives
        # NotImplemented: between two objects of the tree the reflection seldom runs (the review of stop 35)
        method, reflected = _COMPARISON_SPECIALS[type(node.ops[0])]
        pairs = [(node.left, method)] if not isinstance(node.left, ast.Constant) else [(node.comparators[0], reflected)]
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        # `if obj:` / `not obj`: its __bool__, else its __len__ (resolved so where the class has no __bool__); a
        # local only: `if self.training:` / `if self.flag:` are everywhere, and nearly always plain values
        test = node.operand if isinstance(node, ast.UnaryOp) else node.test
        if not (isinstance(test, ast.Name) or _constructed(test)):
            return []
        pairs = [(test, "__bool__")]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _BUILTIN_SPECIALS \
            and len(node.args) == 1 and not node.keywords:
        pairs = [(node.args[0], _BUILTIN_SPECIALS[node.func.id])]  # `len(a)`, `hash(a)`, `repr(a)`, `str(a)`
    elif isinstance(node, _ITERATIONS):
        # `__iter__`, then `__next__` of an object that is its own iterator (a class that defines both)
        pairs = [(node.iter, "__iter__"), (node.iter, "__next__")]
        if _makes_object(node.iter):  # `for v in Seq(xs):` runs Seq.__iter__ on the object just made
            return [_special_read(node.iter, "__iter__"), _special_read(node.iter, "__next__")]
    else:
        return []
    # held operands, and objects just made (`Vec(x) + Vec(y)` runs Vec.__add__)
    return [_special_read(operand, special) for operand, special in pairs
            if _held(operand, self_name) or not isinstance(node, _ITERATIONS) and _constructed(operand)]


# Python's builtins: `range(...)` makes no object of the tree; a bare name among them is never a
# function a star import brought in (summary.py).
BUILTIN_NAMES = frozenset(dir(builtins))


def _makes_object(node: ast.AST) -> bool:
    """`Seq(xs)` / `mod.Seq(xs)`: a call of a (dotted) name that is no builtin (range, zip, enumerate...)."""
    return isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) or isinstance(node.func, ast.Name)
                                           and node.func.id not in BUILTIN_NAMES) and dotted(node.func) is not None


def _constructed(node: ast.AST) -> bool:
    """`Vec(x)` / `mod.Vec(x)`: a call of a class by its (capitalised) name, an object just made."""
    return _makes_object(node) and dotted(node.func).rsplit(".", 1)[-1][:1].isupper()


def _special_read(operand: ast.expr, special: str) -> ast.Attribute:
    """`operand.<special>` as an attribute read, made once per operand node (one node has one parent,
    so one special method)."""
    return node_memo(f"special {special}", operand, lambda: ast.copy_location(
        ast.Attribute(value=operand, attr=special, ctx=ast.Load()), operand))


def _read_as_call(read: ast.Attribute) -> ast.Call:
    """`t.mean` as the call `t.mean()`, made once per read node and kept while the node lives."""
    return node_memo("read as call", read, lambda: ast.copy_location(ast.Call(func=read, args=[], keywords=[]), read))


class _ItemAccess(NamedTuple):
    """Reads like an attribute read of the special method an item access or a with statement runs."""
    value: ast.expr
    attr: str


def _last_attr(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def is_result_item(node: ast.AST) -> bool:
    """`f(x)[1]`: an element, by a constant int index, of what a call returns (a bool is no index)."""
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
        and type(node.slice.value) is int and isinstance(node.value, ast.Call)


def _result_of_call(node: ast.AST) -> bool:
    """`f(x)` or `f(x).a.b` where f is a dotted name (or `f(x)[i]`, an element of a returned tuple): an
    object whose class what f returns may tell."""
    while isinstance(node, ast.Attribute) or is_result_item(node):
        node = node.value
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id != "super"


def _constructs(value: ast.AST, classes: dict) -> bool:
    """`Spline(...)`, `splines.Spline(...)`, `make_flow(...)`: a call of a name or dotted name, which
    makes an object when it is a class or a factory; the call graph decides which (project.py)."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name)


def _annotated_classes(func: FunctionNode, name: str) -> list[ast.AST]:
    """The (dotted) class names a parameter's annotation mentions (`dist: Optional[Distribution]`)."""
    args = func.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs:
        if arg.arg == name and arg.annotation is not None:
            return [node for node in _annotation_names(arg.annotation)
                    if _last_attr(node)[:1].isupper() and _last_attr(node) not in _TYPING_NAMES]
    return []


def _annotation_names(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, (ast.Name, ast.Attribute)):
        return [node]
    if isinstance(node, ast.Subscript):
        last = _last_attr(node.value)
        if last == "Literal":  # `Literal["Norm", "none"]`: values, not forward references
            return []
        if last == "Annotated":  # `Annotated[T, "meta"]`: T only
            return _annotation_names(node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts
                                     else node.slice)
        return _annotation_names(node.value) + _annotation_names(node.slice)
    if isinstance(node, ast.Tuple):
        return [n for elt in node.elts for n in _annotation_names(elt)]
    if isinstance(node, ast.BinOp):  # A | B
        return _annotation_names(node.left) + _annotation_names(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        # a forward reference (`model: "Whisper"`, the class imported under TYPE_CHECKING): the names it spells
        parsed = _forward_reference(node)
        return _annotation_names(parsed) if parsed is not None else []
    return []


def _forward_reference(node: ast.Constant) -> Optional[ast.AST]:
    """The expression a string annotation spells, placed where the string is; None when it does not parse."""
    try:
        parsed = ast.parse(node.value.strip(), mode="eval").body
    except SyntaxError:
        return None
    for part in ast.walk(parsed):
        ast.copy_location(part, node)
    return parsed


_TYPING_NAMES = {"Optional", "Union", "List", "Dict", "Tuple", "Any", "Callable", "Sequence", "Type", "Tensor",
                 "Iterable", "Iterator", "Mapping", "Literal"}


def _is_setter(func: FunctionNode) -> bool:
    return any(isinstance(dec, ast.Attribute) and dec.attr == "setter" for dec in func.decorator_list)


def _stored_attributes(func: FunctionNode) -> list[ast.Attribute]:
    """`a.b = v` / `a.b += v` targets of a function's body (nested closures included)."""
    return [node for node in function_nodes_of(func, _ATTRIBUTES) if isinstance(node.ctx, ast.Store)]


def _property_kind(func: FunctionNode) -> Optional[str]:
    """"getter" for `@property` / `@cached_property` / `@functools.cached_property`, "accessor" for
    `@x.setter` / `@x.deleter`, None for other methods."""
    for dec in func.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name in ("setter", "deleter"):
            return "accessor"
        if name.endswith("property"):
            return "getter"
    return None


def _callable_default(func, name: str) -> list[ast.AST]:
    """[default] when `name` is a parameter of `func` whose default names a function or class
    (`norm=rms_norm`, `act=F.relu`): a callable that traced code runs unless a caller passes
    another. A parameter the function rebinds is left to its bindings."""
    if isinstance(func, ast.Lambda):
        return []
    args = func.args
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default is not None]
    for arg, default in pairs:
        if arg.arg == name and isinstance(default, (ast.Name, ast.Attribute)) \
                and not (default.id if isinstance(default, ast.Name) else default.attr)[:1].isupper():
            # a class default (`gnn=GraphSAGE`) is not called as such: an instance is usually passed
            # (the review of stop 26: 12 false positives in PyG's GLEM)
            return [default]
    return []


def _bound_names(func) -> frozenset:
    """Every name a function binds (so a local, not a closure): parameters, assignment, loop, `with`,
    `except` and walrus targets, imports, nested defs and classes; `nonlocal` names are the enclosing
    function's. Names bound inside its nested functions count too (a safe excess: not followed)."""
    def collect() -> frozenset:
        args = func.args
        names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        outer = set()
        for node in (n for stmt in (func.body if isinstance(func.body, list) else [func.body])
                     for n in breadth_first(stmt)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                names.add(node.name)
            elif isinstance(node, ast.Nonlocal):
                outer.update(node.names)
        return frozenset(names - outer)
    return subtree_memo("bound names", func, collect)


def _last_plain_binding(func: FunctionNode, name: str) -> Optional[ast.AST]:
    """Where a function binds a name only by statements of its own body, not under `if` / `for` /
    `try` (`scale = lambda ...` then `scale = lambda ...`): the last one, the value a closure sees."""
    last, nested = subtree_memo("plain bindings", func, lambda: _plain_bindings(func))
    return None if name in nested else last.get(name)


def _plain_bindings(func: FunctionNode) -> tuple[dict[str, Optional[ast.AST]], set]:
    """For every name at once, one walk of the body: name -> the last top-level `name = v` / `def name`
    (None for `a = b = v`), and the names also bound some other way (nested, unpacked, looped)."""
    last: dict[str, Optional[ast.AST]] = {}
    nested: set = set()
    for stmt in func.body:
        if isinstance(stmt, ast.Assign):
            direct = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
            for target in direct:
                last[target] = stmt.value if len(stmt.targets) == 1 else None
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            direct = {stmt.name}
            last[stmt.name] = stmt
        else:
            direct = set()
        nested |= _bound_names_of_statement(stmt) - direct
    return last, nested


def _bound_names_of_statement(stmt: ast.stmt) -> set:
    nodes = list(breadth_first(stmt))
    return {node.id for node in nodes if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)} \
        | {node.name for node in nodes if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _closure_defs(func: FunctionNode) -> dict[str, list[ast.AST]]:
    """name -> the defs of a function's own body (under `if` / `try` too, not inside nested defs)."""
    def collect() -> dict[str, list[ast.AST]]:
        found: dict[str, list[ast.AST]] = {}
        for stmt in func.body:
            for inner in _flatten_toplevel(stmt):
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.setdefault(inner.name, []).append(inner)
        return found
    return subtree_memo("closure defs", func, collect)


def _lambda_def(value: ast.Lambda) -> ast.FunctionDef:
    body = ast.copy_location(ast.Return(value=value.body), value.body)
    body.end_lineno, body.end_col_offset = value.body.end_lineno, value.body.end_col_offset
    func = ast.FunctionDef(name="<lambda>", args=value.args, body=[body], decorator_list=[], returns=None,
                           type_comment=None, type_params=[])
    return ast.copy_location(func, value)


def _local_values(func: FunctionNode) -> dict[str, list[ast.AST]]:
    bindings: dict[str, list[ast.AST]] = {}
    for node in function_nodes_of(func, _ASSIGNMENTS_AND_LOOPS):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bindings.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            bindings.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            # `for fn in self.fns:` binds fn to an element of what it iterates
            bindings.setdefault(node.target.id, []).append(_element_of(node))
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Tuple):
            # `for i, f in enumerate(self.flows)`, `for f, g in zip(self.fs, self.gs)`: each name an element
            for target, iterated in _zipped_targets(node):
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append(_element_of_sequence(iterated))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)) \
                and isinstance(node.value, (ast.Tuple, ast.List)) and len(node.value.elts) == len(node.targets[0].elts) \
                and not any(isinstance(e, ast.Starred) for e in node.targets[0].elts + node.value.elts):
            # `a, b = self.a, self.b`: each name holds its own element
            for target, value in zip(node.targets[0].elts, node.value.elts):
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append(value)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)) \
                and isinstance(node.value, ast.Call) and not any(isinstance(t, ast.Starred) for t in node.targets[0].elts):
            # `y, bm = check(y)`: bm holds element 1 of what check returns (project.py reads its returns)
            for index, target in enumerate(node.targets[0].elts):
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append(_item_of_result(node.value, index))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and isinstance(node.value.func.value, ast.Name) and node.value.func.attr in ("append", "extend") \
                and len(node.value.args) == 1 and not node.value.keywords:
            # `flows.append(Planar())`: the list also holds what is appended
            grown = node.value
            bindings.setdefault(grown.func.value.id, []).append(
                grown.args[0] if grown.func.attr == "extend" else _list_of(grown.args[0]))
    return bindings


def _list_of(value: ast.AST) -> ast.List:
    """`[value]` as an expression (made once per value): a list that holds what was appended."""
    return node_memo("appended", value, lambda: ast.copy_location(ast.List(elts=[value], ctx=ast.Load()), value))


def _any_class_of(value: ast.AST) -> Optional[ast.Attribute]:
    """`getattr(pkg.mod, name)(...)` with a name that is no constant: an object of some class that module
    exports, as the expression `pkg.mod.*` (made once per call; project.py reads the module's classes)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Call)):
        return None
    return _any_member_of(value.func)


def _any_member_of(lookup: ast.AST) -> Optional[ast.Attribute]:
    """`getattr(pkg.mod, name)` with a name that is no constant, as the expression `pkg.mod.*`."""
    if not (isinstance(lookup, ast.Call) and isinstance(lookup.func, ast.Name) and lookup.func.id == "getattr"
            and len(lookup.args) == 2 and not lookup.keywords and not isinstance(lookup.args[1], ast.Constant)
            and dotted(lookup.args[0]) is not None):
        return None
    return node_memo("any class of", lookup, lambda: ast.copy_location(
        ast.Attribute(value=lookup.args[0], attr="*", ctx=ast.Load()), lookup.args[0]))


def _attribute_of(value: ast.expr, attr: str) -> ast.Attribute:
    """`value.attr` as an expression (made once per pair): an attribute of what a call returns."""
    return node_memo(f"attribute {attr}", value, lambda: ast.copy_location(
        ast.Attribute(value=value, attr=attr, ctx=ast.Load()), value))


def _item_of_result(call: ast.Call, index: int) -> ast.Subscript:
    """Element `index` of what a call returns, as the value `call(...)[index]` (made once per pair)."""
    return node_memo(f"result item {index}", call, lambda: ast.copy_location(
        ast.Subscript(value=call, slice=ast.Constant(index), ctx=ast.Load()), call))


def _constant_getattr(node: ast.AST) -> Optional[ast.Attribute]:
    """`getattr(obj, "name")` (no default) as the expression `obj.name` (made once per call)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) == 2 and not node.keywords and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str) and node.args[1].value.isidentifier()):
        return None
    return node_memo("constant getattr", node, lambda: ast.copy_location(
        ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Load()), node))


def _method_around(cls: ClassInfo, node: ast.AST) -> Optional[FunctionNode]:
    """The method of the class whose lines hold `node` (where a value kept on self was written)."""
    for method in cls.methods.values():
        if method.lineno <= node.lineno <= (method.end_lineno or method.lineno):
            return method
    return None


def _class_level_values(cls_node: ast.ClassDef, name: str) -> list[ast.AST]:
    """The values a class body binds to `name` with a plain assignment (a table of functions, a default;
    the function a `staticmethod(swish)` wraps, which calling `self.act(x)` runs)."""
    return [_unwrapped_static(stmt.value) for stmt in cls_node.body if isinstance(stmt, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == name for target in stmt.targets)]


def _unwrapped_static(value: ast.AST) -> ast.AST:
    """The function `staticmethod(f)` wraps, else the value itself."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "staticmethod" \
            and len(value.args) == 1 and not value.keywords:
        return value.args[0]
    return value


def _zipped_targets(loop) -> list[tuple[ast.AST, ast.AST]]:
    """(target, the sequence it takes elements of) of a loop over `enumerate(xs)` or `zip(xs, ys)`."""
    it, targets = loop.iter, loop.target.elts
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and not it.keywords):
        return []
    if it.func.id == "enumerate" and len(it.args) == 1 and len(targets) == 2:
        return [(targets[1], it.args[0])]
    if it.func.id == "zip" and len(it.args) == len(targets) and not any(isinstance(a, ast.Starred) for a in it.args):
        return list(zip(targets, it.args))
    return []


def _element_of_sequence(sequence: ast.AST) -> ast.Subscript:
    """One element of `sequence`, as the value `sequence[0]` (made once per sequence node)."""
    return node_memo("sequence element", sequence, lambda: ast.copy_location(
        ast.Subscript(value=sequence, slice=ast.Constant(0), ctx=ast.Load()), sequence))


def _element_of(loop) -> ast.Subscript:
    """`for v in xs` as the value `xs[0]`: one element, whichever (made once per loop node)."""
    return node_memo("loop element", loop, lambda: ast.copy_location(
        ast.Subscript(value=loop.iter, slice=ast.Constant(0), ctx=ast.Load()), loop.iter))


def _registrars(functions: dict) -> dict[str, tuple[str, bool, bool]]:
    """top-level function -> (table, whether it is a decorator factory, whether the key is the function's
    own name) for each function that stores a parameter in a module-level table: its own (`def add(fn):
    TABLE[fn.__name__] = fn`) or that of a def nested in it (`def register(name): def deco(fn): TABLE[name] = fn`)."""
    found = {}
    for name, func in functions.items():
        if "." in name or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in [func] + [n for n in func.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            params = {a.arg for a in inner.args.posonlyargs + inner.args.args}
            for node in ast.walk(inner):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Subscript) \
                        and isinstance(node.targets[0].value, ast.Name) \
                        and isinstance(node.value, ast.Name) and node.value.id in params:
                    key = node.targets[0].slice
                    by_name = isinstance(key, ast.Attribute) and key.attr == "__name__" \
                        and isinstance(key.value, ast.Name) and key.value.id == node.value.id
                    found[name] = (node.targets[0].value.id, inner is not func, by_name)
    return found


# The key of a table entry that any key may select (a registrar's key not a constant).
_ANY_KEY = object()


def _registered_values_of(tree: ast.Module, functions: dict) -> dict[str, list[tuple[object, ast.AST]]]:
    """table -> (key, value) of what module-level stores and registrars put there; the key a constant,
    the function's own name for `TABLE[fn.__name__] = fn`, else _ANY_KEY."""
    registrars = _registrars(functions)
    found: dict[str, list[tuple[object, ast.AST]]] = {}
    for stmt in tree.body:
        for inner in _flatten_toplevel(stmt):
            if isinstance(inner, ast.Assign) and len(inner.targets) == 1 \
                    and isinstance(inner.targets[0], ast.Subscript) and isinstance(inner.targets[0].value, ast.Name):
                target = inner.targets[0]
                key = target.slice.value if isinstance(target.slice, ast.Constant) else _ANY_KEY
                found.setdefault(target.value.id, []).append((key, inner.value))
            if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for decorator in inner.decorator_list:
                factory = isinstance(decorator, ast.Call)
                callee = decorator.func if factory else decorator
                if isinstance(callee, ast.Name) and registrars.get(callee.id, (None, None, None))[1] == factory:
                    table, _factory, by_name = registrars[callee.id]
                    key = inner.name if by_name else decorator.args[0].value if factory and decorator.args \
                        and isinstance(decorator.args[0], ast.Constant) else _ANY_KEY
                    name = ast.copy_location(ast.Name(id=inner.name, ctx=ast.Load()), inner)
                    found.setdefault(table, []).append((key, name))
    return found
