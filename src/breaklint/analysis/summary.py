"""What one file tells the rest of the tree: its names, its classes and the calls of each function.

The per-file lint only follows calls inside one file. Library code breaks mostly in helpers that a
`forward` elsewhere calls (`torch_geometric.utils.*`, a base class's `propagate`), so each file also
yields this small picklable summary; `project.py` joins the summaries of every linted file into a
call graph and sends the functions it reaches back to the per-file lint as extra traced scopes.
"""
from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from .astwalk import breadth_first, function_nodes_of, node_memo
from .callscan import CallText
from .flow import function_arguments
from .torch_api import (BUILTIN_METHODS, KL_DIVERGENCE_FUNCTIONS, TENSOR_METHODS, TENSOR_METHODS_WITHOUT_ARGUMENTS,
                        TENSOR_PROPERTIES)
from .type_facts import module_generic_aliases, module_optional_typeddicts
from .names import ImportMap, dotted
from .new_objects import new_object_calls
from .scope import (BUILTIN_NAMES, FunctionNode, ModuleScopes, _constructed, _read_as_call, self_parameter, _special_read,
                    is_result_item)

# Call kinds: a dotted name resolved through the file's imports, a same-file function or
# Class.method, self.method(), super().method(), and obj.method() on a receiver we cannot type.
GLOBAL, LOCAL, SELF, SUPER, ATTRIBUTE = "g", "l", "s", "S", "a"
# A method of an object whose class (or the factory that made it) the file names: "<spelling>.<method>",
# the spelling as GLOBAL / LOCAL names give it; `self.x.method()` ("x.method"): the project types `x`
# from what the class hierarchy, in any file, assigns to it; `self.x` read, not called ("x"): a
# property of a base class in another file runs.
INSTANCE, MEMBER, READ = "i", "m", "r"
# An attribute of an object of a known class read, not called (`t.scale`, `a + b` reading __add__):
# "<spelling>.<attr>" as INSTANCE, followed only to a property or a special method.
HELD_READ = "h"
# A function or `self.method` passed as an argument in traced code (`checkpoint(self._block, x)`,
# `ratio(err, tol, _linf_norm)`): the callee calls it back, in the same trace. Spelled as GLOBAL /
# LOCAL names are ("f"), or the method's name ("M"); only functions and methods are followed.
PASSED, PASSED_METHOD = "f", "M"
# An object of a known class passed to a function of the tree: "<g|l|s>:<callee>|<position or =keyword>|<class
# spelling>"; the methods the callee calls on that parameter run on it (`advance(g, y)` with `g.update(y)`).
PASSED_OBJECT = "p"
# The class spelling of a PASSED_OBJECT that is an attribute of self: "@self.<attr>" (no class is spelled so).
MEMBER_SPELLING = "@self."
# The receiver spelling of a HELD_READ whose receiver the file cannot type: "?.<attr>" (the project
# dispatches it to a property of that name where few classes of the package define one).
UNTYPED_SPELLING = "?"
# `getattr(self, f"{kind}_reduction")`: every method of the object's hierarchy whose name the template
# matches ("t", the name a regular expression: constant parts literal, formatted parts `\w+`).
GETATTR = "t"
# A decorator named bare (`@effectful`), "<g|l>:<spelling>": followed to the function it names, whose
# nested wrapper is what runs when the decorated function is called; a class named so was built at
# import time (its __call__ runs, through an INSTANCE ref), so its constructor is not followed.
DECORATOR = "d"
# A method run on what a call returns, through attributes of it: "<callee>|<attr.attr>|<method>", the
# callee "self.<name>" (a method or a submodule of self) or "<g|l>:<name>" (a GLOBAL / LOCAL spelling).
RESULT = "o"
# A function or class taken out of a module-level dict, tuple or list of another file and called
# (`ACTS[name](x)`, `for f in PIPELINE: f(x)`): the container's name as the imports qualify it.
ELEMENT = "e"
# `frame.method(...)` with frame an element of a module-level list (`for frame in reversed(_STACK)`): the
# classes whose methods put `self` in it (`_STACK.append(self)` in `__enter__`, an effect-handler stack) and
# their subclasses; "<g|l>:<the list's spelling>|<method>".
STACKED = "c"
# `kl_divergence(p, q)` called: the functions of the tree registered with `@register_kl` run ("k", no name).
REGISTERED_KL = "k"
# Roots whose callees are never in a linted tree: not worth a byte of the summary.
_FOREIGN_ROOTS = {"torch", "numpy", "math", "warnings", "logging", "typing", "os", "sys", "functools",
                  "itertools", "collections", "einops", "re", "copy", "time", "random", "inspect",
                  "dataclasses", "abc", "enum", "contextlib", "operator", "builtins", "triton", "scipy"}


def _foreign(name: str, own_root: str) -> bool:
    """A name under a foreign root, unless the linted file is itself under it (a tree inside torch:
    `from torch.distributions.utils import f` there names a function of the tree)."""
    root = name.split(".")[0]
    return root in _FOREIGN_ROOTS and root != own_root

Fact = Optional[bool]  # a tensor, certainly not a tensor, or unknown


@dataclass(frozen=True)
class CallRef:
    kind: str
    name: str
    # Tensor facts of the arguments as the caller's traced scope saw them, else None.
    positional: Optional[tuple[Fact, ...]] = None
    keywords: Optional[tuple[tuple[str, Fact], ...]] = None
    # The positions of the arguments that are sparse tensors, at every call of this spelling the
    # scope makes (sparse.py; a file that holds no sparse tensor leaves it empty).
    sparse: tuple[int, ...] = ()


@dataclass
class ClassSummary:
    bases: tuple[str, ...]  # as spelled, qualified through imports ("" when unresolvable)
    methods: frozenset[str]
    is_module: bool
    # Methods read as attributes (@property): reading `self.x` runs them.
    properties: frozenset[str] = frozenset()
    # (first line, last line) of the class: the project reads what it assigns to `self.x` off the text.
    lines: tuple[int, int] = (0, 0)
    # "distribution" / "transform" / "constraint" when the file saw a torch.distributions base.
    distribution_kind: str = ""
    # Attributes the class's own methods make tensors (buffers, parameters, `self.x = torch.ones(n)`): a
    # subclass in another file reads them as tensors (tensors.ClassFacts).
    tensor_attrs: frozenset[str] = frozenset()


@dataclass
class ModuleSummary:
    aliases: dict[str, str]
    functions: frozenset[str]
    classes: dict[str, ClassSummary]
    calls: dict[str, tuple[CallRef, ...]] = field(default_factory=dict)
    # Untraced functions: (first line, last line, self parameter). Their calls are read off the
    # file's text only when the call graph reaches them (text_calls): most never are, and walking
    # every function for its calls cost a quarter of a cold run.
    spans: dict[str, tuple[int, int, Optional[str]]] = field(default_factory=dict)
    # This file's own traced scopes (entry points and what they reach here), with their chains.
    scopes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Modules this file star-imports, as spelled (relative ones keep their dots).
    stars: tuple[str, ...] = ()
    # The top package this file is in, when it is a foreign root (a tree inside torch): its names are ours.
    own_root: str = ""
    # Module-level names bound to a builtin generic alias (`Detail = dict[str, Tensor]`), and the TypedDicts
    # with optional keys the module defines (type_facts.py): other files import them.
    generic_aliases: frozenset[str] = frozenset()
    optional_typeddicts: frozenset[str] = frozenset()
    # Top-level functions that return a tensor / a tuple of tensors on every path.
    returns_tensor: frozenset[str] = frozenset()
    returns_tensors: frozenset[str] = frozenset()
    # Top-level functions that return a sparse tensor on every path (sparse.py).
    returns_sparse: frozenset[str] = frozenset()
    # Every function and method: (first line, last line), for what it returns (`return Cls(...)`,
    # read off the text when the project asks), and its return annotation as the imports spell it.
    lines: dict[str, tuple[int, int]] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    # Traced functions: (line, column, class spellings, method, in a loop) of each `obj.method(...)` on an
    # object the function builds (new_objects.py); project_breaks.py looks for a sure break in the method.
    object_calls: dict[str, tuple[tuple[int, int, tuple[str, ...], str, bool], ...]] = field(default_factory=dict)
    # Known once the rules have run: the first row of each traced function's own sure break (a
    # finding with no guard, in a statement that runs on every call), the names it calls on every call
    # (`f`, `mod.f`, `self.m` and `super().m` as `m`), the traced functions Dynamo runs eagerly (why), and
    # for those, the (line, class spellings, condition) of what they build.
    breaking: dict[str, int] = field(default_factory=dict)
    sure_calls: dict[str, frozenset[str]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    builds: dict[str, tuple[tuple[int, tuple[str, ...], str], ...]] = field(default_factory=dict)


def summarize(scopes: ModuleScopes, imports: ImportMap, env_of: Callable,
              return_kind: Callable, tensor_attrs: Callable = lambda info: frozenset()) -> ModuleSummary:
    """env_of(qualname) gives the tensor facts of a traced scope (None for untraced functions);
    return_kind(name) says what a top-level function returns ("tensor", "tensors" or None);
    tensor_attrs(info) the attributes a module class's own methods make tensors."""
    classes = {name: ClassSummary(tuple(info.bases), frozenset(info.methods), info.is_module,
                                  frozenset(info.properties), (info.node.lineno, info.node.end_lineno or info.node.lineno),
                                  info.distribution_kind, tensor_attrs(info) if info.is_module else frozenset())
               for name, info in scopes.classes.items()}
    calls: dict[str, tuple[CallRef, ...]] = {}
    spans: dict[str, tuple[int, int, Optional[str]]] = {}
    lines: dict[str, tuple[int, int]] = {}
    annotations: dict[str, str] = {}

    def add(qualname: str, func: FunctionNode, self_name: Optional[str]) -> None:
        lines[qualname] = (func.lineno, func.end_lineno or func.lineno)
        if func.returns is not None:
            spelled = _annotation_spelling(func.returns, imports)
            if spelled:
                annotations[qualname] = spelled
        env = env_of(qualname)
        if env is not None:  # traced: the scope search already holds its Call nodes
            refs = _call_refs(scopes.calls.get(qualname, ()), self_name, scopes, imports, env,
                              scopes.scopes.get(qualname))
            reads = scopes.self_reads.get(qualname, ())
            if reads:  # item access (`self[k] = v`) runs a special method: a call, not a property read
                refs = refs + tuple(CallRef(SELF if attr in ("__getitem__", "__setitem__", "__setattr__") else READ, attr)
                                    for attr in reads)
            held = scopes.object_reads.get(qualname, ())
            if held:  # `t.mean` with t of a class another file defines: its property runs
                refs = refs + _held_read_refs(held, self_name, scopes, imports, scopes.scopes.get(qualname))
            refs = refs + _decorator_refs(func, self_name, scopes, imports)
            refs = refs + _manager_refs(scopes.context_managers.get(qualname, ()), self_name, scopes, imports,
                                        scopes.scopes.get(qualname))
            if refs:
                calls[qualname] = refs
        else:  # untraced: read off the text if and when the call graph reaches it
            first = func.body[0].lineno if func.body else func.lineno
            spans[qualname] = (first, func.end_lineno or first, self_name)

    for name, func in scopes.functions.items():
        add(name, func, None)
    for cname, info in scopes.classes.items():
        for mname, method in info.methods.items():
            # a staticmethod's first parameter named cls is no class (the review of stop 38). (Any other first
            # parameter of one is still read as self: `x.sum(0)` in torch-struct's static `Semiring.sum(x)` then
            # reaches the overrides of `sum`, which a caller passing a subclass runs, and which the dispatch on
            # the class kept on self does not find by itself; tests/generalize/test_inputs_and_class_defaults.py.)
            self_name = self_parameter(method)
            add(f"{cname}.{mname}", method, None if self_name == "cls" and _is_static(method) else self_name)
    for qualname, scope in scopes.scopes.items():
        if qualname not in lines:  # a closure or lambda traced code calls through a free name
            add(qualname, scope.func, None)
    kinds = {name: return_kind(name) for name in scopes.functions}
    # methods of plain classes too: `h = Holder(x); h.value()` in another file is a tensor where Holder.value
    # returns one (a module's methods are not asked: judging the forwards of a model library cost 13% of a cold
    # run on transformers, and a submodule's results are judged through its layers already)
    # A module's method that only other files' traced code reaches is asked (`s = self.score(x)` in a subclass
    # of another file): few, and no forward.
    kinds.update((q, return_kind(q, own=True)) for q in scopes.scopes if q.count(".") == 1
                 and q.partition(".")[0] in scopes.classes and (not scopes.classes[q.partition(".")[0]].is_module
                                                               or q not in scopes.local_scopes and not q.endswith(".forward")))
    object_calls = {}
    for qualname, scope in scopes.scopes.items():
        found = tuple((call.lineno, call.col_offset, spellings, method, in_loop)
                      for call, spellings, method, in_loop in new_object_calls(scope, scopes))
        if found:
            object_calls[qualname] = found
    return ModuleSummary(
        aliases=_aliases_with_rebinds(scopes, imports), functions=frozenset(scopes.functions), classes=classes, calls=calls,
        spans=spans, stars=tuple(imports.stars), own_root=imports.own_root if imports.own_root in _FOREIGN_ROOTS else "",
        scopes={q: s.chain for q, s in scopes.scopes.items() if q in scopes.local_scopes},
        returns_tensor=frozenset(n for n, k in kinds.items() if k == "tensor"),
        returns_tensors=frozenset(n for n, k in kinds.items() if k == "tensors"),
        lines=lines, annotations=annotations, object_calls=object_calls,
        generic_aliases=module_generic_aliases(scopes.tree, imports),
        optional_typeddicts=module_optional_typeddicts(scopes.tree, imports),
    )


def _aliases_with_rebinds(scopes: ModuleScopes, imports: ImportMap) -> dict[str, str]:
    """The imports' names, and each module-level name bound once to an imported name or an attribute of
    one (`from .core import clip as _clip` then `clip = _clip`): other files import it as they would the
    original (measured on 2.13: Dynamo traces the function under either name)."""
    aliases = dict(imports.aliases)
    pending = {name: values[0] for name, values in scopes.module_bindings().items()
               if name not in aliases and name not in scopes.functions and name not in scopes.classes
               and len(values) == 1 and isinstance(values[0], (ast.Name, ast.Attribute))}
    while pending:  # `_c = _clip; clip = _c`: a chain of rebinds, in any order
        done = []
        for name, value in pending.items():
            spelled = dotted(value)
            head = spelled.partition(".")[0] if spelled else None
            if head in aliases and head != name:
                aliases[name] = aliases[head] + spelled[len(head):]
                done.append(name)
        if not done:
            break
        for name in done:
            del pending[name]
    return aliases


def _manager_refs(managers, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap, scope) -> tuple:
    """`with Ctx(...):` / `with make(...):` / `c = Ctx(); with c:`: the manager's __enter__ and __exit__.
    A manager made before the compiled call (`with self.lock:`, a module-level one) is never entered by
    Dynamo: it skips the frame first (GB0142, rules/bl506), so nothing of it is traced."""
    refs = []
    for expr in managers:
        if isinstance(expr, ast.Call):
            spelled = dotted(expr.func)
            ref = _classify_spelling(spelled, False, self_name, imports.aliases, scopes.functions, scopes.classes,
                                    own_root=imports.own_root) if spelled else None
            if ref is not None and ref[0] in (GLOBAL, LOCAL):
                refs.extend(CallRef(INSTANCE, f"{ref[1]}.{special}") for special in _MANAGER_METHODS)
        elif isinstance(expr, ast.Name) and scope is not None \
                and any(isinstance(node, ast.Name) and node.id == expr.id and isinstance(node.ctx, ast.Store)
                        for node in function_nodes_of(scope.func, _NAME_NODES)):
            # a local bound to what a call made in the function
            for special in _MANAGER_METHODS:
                read = _read_as_call(_special_read(expr, special))
                refs.extend(CallRef(INSTANCE, ref[1]) for ref in _indirect_refs(read, self_name, scopes, imports, scope)
                            if ref[0] == INSTANCE)
    return tuple(refs)


_MANAGER_METHODS = ("__enter__", "__exit__")
_NAME_NODES = frozenset({ast.Name})


def _decorator_refs(func: FunctionNode, self_name: Optional[str], scopes: ModuleScopes,
                    imports: ImportMap) -> tuple[CallRef, ...]:
    """A traced function's decorators of the tree (`@apply_scale`, `@keep_shape(...)`): calling the
    function runs the wrapper they return, defined inside them."""
    refs = []
    for dec in func.decorator_list:
        found = _classify(dec.func if isinstance(dec, ast.Call) else dec, self_name, scopes, imports)
        if found is not None and found[0] in (GLOBAL, LOCAL):
            if isinstance(dec, ast.Call):
                refs.append(CallRef(*found))
            else:
                # `@Wrapped` with Wrapped a class (or a factory of objects): calling the function
                # calls the object it made, so its __call__ runs; the object was made at import time
                refs.append(CallRef(DECORATOR, f"{found[0]}:{found[1]}"))
                refs.append(CallRef(INSTANCE, f"{found[1]}.__call__"))
                if self_name is not None:  # a method: reading it off the object runs a descriptor's __get__
                    refs.append(CallRef(INSTANCE, f"{found[1]}.__get__"))  # (`@lazy_property`: measured, traced)
    return tuple(refs)


def _is_static(func: FunctionNode) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)


def _annotation_spelling(node: ast.AST, imports: ImportMap) -> str:
    """The class names an annotation mentions (`Optional[Flow]`, `"Flow"`, `A | B`), qualified
    through the imports and joined by spaces; the project keeps those that are classes of the tree."""
    names = []
    for part in breadth_first(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            names.extend(n for n in part.value.replace("[", " ").replace("]", " ").replace(",", " ")
                         .replace("|", " ").split() if n.replace(".", "").replace("_", "").isalnum())
        elif isinstance(part, (ast.Name, ast.Attribute)) and not isinstance(getattr(part, "value", None), ast.Attribute):
            qualified = imports.qualify(part)
            if qualified:
                names.append(qualified)
    return " ".join(n for n in names if not _foreign(n, imports.own_root) and n not in _NOT_CLASSES)


# Names an annotation spells that are never a class of the tree.
_NOT_CLASSES = {"None", "Optional", "Union", "List", "Dict", "Tuple", "Any", "Callable", "Sequence", "Type",
                "int", "float", "str", "bool", "list", "dict", "tuple", "type", "object", "Iterable", "Iterator"}


def _call_refs(nodes, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap,
               env, scope=None) -> tuple[CallRef, ...]:
    refs: dict[CallRef, None] = {}  # ordered and deduplicated
    for node in nodes:
        template = getattr_template(node, self_name)
        if template is not None:  # and on: its default (`getattr(self, t, self.fallback)`) is passed
            refs[CallRef(GETATTR, template)] = None
        module_template = _module_getattr_template(node, imports, scope)
        if module_template is not None:  # `getattr(ops, "op_" + name)(x)`: the module's functions so named
            refs[CallRef(GETATTR, module_template)] = None
        found = [_classify(node.func, self_name, scopes, imports)]
        by_name = None  # the name-only reference that a typed one replaces
        if found[0] is None and "kl_divergence" in (getattr(node.func, "attr", None), getattr(node.func, "id", None)) \
                and imports.qualify(node.func) in KL_DIVERGENCE_FUNCTIONS:
            found[0] = (REGISTERED_KL, "")
        if found[0] is None and _no_tensor_method(node, imports):
            found[0] = (ATTRIBUTE, node.func.attr)  # `t.inverse(y)`: Tensor.inverse takes no argument
        if found[0] is None or found[0][0] in (ATTRIBUTE, SELF, MEMBER):
            # the callee may be held in a name, or `self.dist` may hold what this file can tell
            # (`self.dist = dist` of an enclosing factory's `dist = cls(2)`)
            typed = _indirect_refs(node, self_name, scopes, imports, scope)
            if found[0] is not None and found[0][0] == ATTRIBUTE and any(ref[0] in (INSTANCE, RESULT) for ref in typed):
                by_name = found[0]  # the receiver's class is known: no guess by the method's name
            found.extend(typed)
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) \
                and (found[0] is not None and found[0][0] == ATTRIBUTE or found[0] is None and _constructed(func.value)):
            # `Normal(loc, scale).log_prob(x)`: a method of what the call makes, a class of another file
            # too; `Out(x).norm()` as well, a tensor method's name on an object a class just made
            # (not `self.proj(x).view(...)`, a tensor nearly always: asking costs a round of the graph)
            found.append(_result_ref(func.value, func.attr, self_name, scopes, imports))
        elif isinstance(func, ast.Call) and found[0] is None:
            found.append(_result_ref(func, "__call__", self_name, scopes, imports))  # `Noise(0.1)(x)`
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and scope is not None \
                and not func.attr.startswith("__"):
            # `m, c = self.m, self.c; m.init(y)`: as `self.m.init(y)`, which the project types
            held = [(MEMBER, f"{attr}.{func.attr}") for attr in scopes.self_attributes_in(scope, func.value.id)]
            # `for f in self.flows: f.inverse(y)`: a method of what the held container holds
            held += [(MEMBER, f"{attr}.{func.attr}") for attr in scopes.self_elements_in(scope, func.value.id)]
            if held and found[0] is not None and found[0][0] == ATTRIBUTE:
                by_name = found[0]  # typed through the attribute, which guesses by name only where typing fails
            found.extend(held)
            # `for frame in reversed(_STACK): frame.process(msg)`: what the classes that push `self` there define
            # (beside the guess by name, which stays: the list may be filled some other way too)
            for spelled in scopes.module_elements_in(scope, func.value.id):
                ref = _container_ref(spelled, imports.aliases, imports.own_root)
                if ref is not None:
                    found.append((STACKED, f"{ref[0]}:{ref[1]}|{func.attr}"))
        elif isinstance(func, ast.Name) and scope is not None and found[0] is None:
            # `for t in self.parts: x = t(x)`: calling an element runs its class's __call__
            found.extend((MEMBER, f"{attr}.__call__") for attr in scopes.self_elements_in(scope, func.id))
        for ref in found:
            if ref is not None and ref is not by_name:
                _add_ref(refs, node, ref, env)
        if _defers_callbacks(node.func):
            continue
        # names bound to tuples of callables are looked up only for calls of the tree's own functions
        ours = scope if found[0] is not None else None
        keys = [str(i) for i in range(len(node.args))] + [f"={kw.arg}" for kw in node.keywords]
        for key, arg in zip(keys, (*node.args, *(kw.value for kw in node.keywords))):
            if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id != self_name \
                    and scope is not None and not arg.attr.startswith("__") and arg.value.id not in imports.aliases \
                    and arg.attr not in TENSOR_PROPERTIES:
                # `map(v.scale, ks)`: a bound method of an object the function typed is called where it goes
                # (measured on 2.13: Dynamo traces it); the object's class says which
                for ref in _indirect_refs(_read_as_call(arg), self_name, scopes, imports, scope):
                    if ref[0] == INSTANCE:
                        refs[CallRef(*ref)] = None
            for passed in _passed_callables(arg, self_name, scopes, imports, ours, 0):
                if passed[0] != PASSED_OBJECT:
                    refs[CallRef(*passed)] = None
                elif found[0] is not None and found[0][0] in (GLOBAL, LOCAL, SELF) and key != "=None":
                    # an object passed to a function of the tree (not through **kwargs): the methods
                    # the callee calls on that parameter run on it
                    refs[CallRef(PASSED_OBJECT, f"{found[0][0]}:{found[0][1]}|{key}|{passed[1]}")] = None
    return tuple(refs)


def _no_tensor_method(node: ast.Call, imports: ImportMap) -> bool:
    """`obj.inverse(y)`: a tensor method's name called with a positional argument that the tensor method
    does not take, on an object that is no imported module (`torch.inverse(x)`, `np.exp(x)`)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and node.args and func.attr in TENSOR_METHODS_WITHOUT_ARGUMENTS):
        return False
    root = func.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return not (isinstance(root, ast.Name) and imports.is_bound(root.id))


# Callees that keep a callback for later, outside the trace (hooks, threads, executors, exit handlers).
_DEFERRING = ("register", "hook", "Thread", "Process", "Timer", "submit", "add_done_callback", "finalize",
              "connect", "subscribe", "on_")


def getattr_template(node: ast.AST, self_name: Optional[str]) -> Optional[str]:
    """The name pattern of `getattr(self, <template>)`, a regular expression, when the template has a
    constant part (`"assert_sizes_{}".format(kind)`, `f"{kind}_reduction"`, `"forward_" + mode`); a
    bare variable or a constant name gives None (a constant is an ordinary attribute read)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and self_name is not None and len(node.args) >= 2 and isinstance(node.args[0], ast.Name)
            and node.args[0].id == self_name):
        return None
    parts = _template_parts(node.args[1], 0)
    if parts is None or None not in parts:
        return None
    # Some real name in the constant text (`"_" + kind` or `"{}_{}"` would name any private method).
    if sum(ch.isalnum() for p in parts if p is not None for ch in p) < 3:
        return None
    return "".join(r"\w+" if p is None else re.escape(p) for p in parts)


def _module_getattr_template(node: ast.AST, imports: ImportMap, scope) -> Optional[str]:
    """"<module>|<pattern>" for `getattr(mod, <template>)` with `mod` a module of the tree the file imports
    (`from . import ops`; measured on 2.13: Dynamo traces the function the name gives), else None; not where
    the function binds that name itself (a parameter `ops` is no module)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) >= 2 and isinstance(node.args[0], ast.Name)):
        return None
    if scope is not None and _binds_name(scope.func, node.args[0].id):
        return None
    target = imports.aliases.get(node.args[0].id)
    if target is None or _foreign(target, imports.own_root):
        return None
    pattern = getattr_template(ast.Call(func=node.func, args=[ast.Name(id="self"), node.args[1]], keywords=[]), "self")
    return f"{target}|{pattern}" if pattern is not None else None


def _template_parts(node: ast.AST, depth: int) -> Optional[list]:
    """Constant pieces of a string expression, None for each formatted piece; None if not a template."""
    if depth > 3:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value if isinstance(v, ast.Constant) else None for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template_parts(node.left, depth + 1), _template_parts(node.right, depth + 1)
        return None if left is None and right is None else (left or [None]) + (right or [None])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return _between_fields(re.split(r"\{[^{}]*\}", node.func.value.value))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return _between_fields(re.split(r"%[sdr]", node.left.value))
    return None


def _between_fields(pieces: list[str]) -> list:
    """The constant pieces of a format string split at its fields, with None where each field was."""
    return [x for i, piece in enumerate(pieces) for x in ([None, piece] if i else [piece])]


def _defers_callbacks(func: ast.AST) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return any(word in name for word in _DEFERRING)


def _passed_callables(arg: ast.AST, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap,
                      scope, depth: int) -> list:
    """Functions of this file, imported names and `self.method`s passed as an argument, alone or in a
    tuple or list of them (`steps = (self._brightness, _hue); dispatch(x, steps)`)."""
    if isinstance(arg, (ast.Tuple, ast.List)) and depth < 2:
        return [p for elt in arg.elts for p in _passed_callables(elt, self_name, scopes, imports, scope, depth + 1)]
    if isinstance(arg, ast.Name):
        if arg.id in scopes.functions and not imports.is_bound(arg.id):
            return [(PASSED, arg.id)]
        target = imports.aliases.get(arg.id)
        if target is not None:
            return [] if _foreign(target, imports.own_root) else [(PASSED, target)]
        if depth == 0 and scope is not None:  # a name bound to a tuple or list of callables
            bound = scopes.bindings(scope, arg.id)
            found = [p for value in bound if isinstance(value, (ast.Tuple, ast.List))
                     for p in _passed_callables(value, self_name, scopes, imports, scope, depth + 1)]
            if any(isinstance(value, ast.Call) for value in bound):
                # an object of a known class passed (`bm = BrownianInterval(...); integrate(bm, y)`)
                found.extend(_passed_objects(arg, self_name, scopes, imports, scope))
            return found
    elif isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and self_name is not None \
            and arg.value.id == self_name and not arg.attr.startswith("__"):
        # `self.m` is a bound method, or an object self holds (`solve(self.field, y)`): the project
        # types the attribute from what the class hierarchy assigns to it
        return [(PASSED_METHOD, arg.attr), (PASSED_OBJECT, f"{MEMBER_SPELLING}{arg.attr}")]
    elif depth == 0 and scope is not None and isinstance(arg, ast.Call):
        return _passed_objects(arg, self_name, scopes, imports, scope)  # made in the call: `outer(BM(), y)`
    return []


def _passed_objects(arg: ast.AST, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap,
                    scope) -> list:
    """(PASSED_OBJECT, class spelling) for each class the object an argument holds may be of; the
    project runs on it what the callee calls on that parameter."""
    def find() -> list:
        called = _read_as_call(_special_read(arg, "__call__"))
        return [(PASSED_OBJECT, ref[1][:-len(".__call__")])
                for ref in _indirect_refs(called, self_name, scopes, imports, scope)
                if ref[0] == INSTANCE and ref[1].endswith(".__call__") and not _foreign(ref[1], imports.own_root)]

    if not isinstance(arg, ast.Name):
        return find()
    # a name holds the same objects wherever the function passes it (`y = f(y)` a thousand times)
    memo = node_memo("passed objects", scope.func, dict)
    if arg.id not in memo:
        memo[arg.id] = find()
    return memo[arg.id]


def _indirect_refs(node: ast.Call, self_name, scopes: ModuleScopes, imports: ImportMap, scope) -> list:
    """Refs for what a call runs through a function-valued name, a dict of functions, a partial, a
    callable or an object kept on self (scope.indirect_callees), spelled as the file imports them."""
    if scope is None:
        return []
    refs = []
    for expr, method in scopes.indirect_callees(scope, node):
        if method is None and isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) \
                and expr.value.id in imports.aliases:
            container = _global(imports.aliases[expr.value.id], imports.own_root)
            if container is not None:
                refs.append((ELEMENT, container[1]))
            continue
        spelled = dotted(expr)
        if spelled is None or method is not None and self_name is not None and spelled.startswith(self_name + "."):
            ref = _result_ref(expr, method, self_name, scopes, imports)
            if ref is not None:
                refs.append(ref)
            continue
        if method is not None:
            spelled = f"{spelled}.{method}"
        ref = _classify_spelling(spelled, False, self_name, imports.aliases, scopes.functions, scopes.classes,
                                 bool(imports.stars), imports.own_root)
        if method is not None and imports.stars and (ref is None or ref[0] == ATTRIBUTE) \
                and spelled.count(".") == 1 and spelled[:1].isupper():
            ref = (LOCAL, spelled)  # `h: Handler` with Handler from a `from m import *`: the project looks it up
        if ref is not None and ref[0] in (GLOBAL, LOCAL):
            refs.append((INSTANCE, ref[1]) if method is not None else ref)
    return refs


def _held_read_refs(reads, self_name, scopes: ModuleScopes, imports: ImportMap, scope) -> tuple:
    """HELD_READ refs for attributes read on held objects: "<class spelling>.<attr>" where the file knows
    the class; "@self.<x>.<attr>" for `self.x.attr` where it does not (`self.tok: Tokenizer = tok`,
    `self.x = x`), which the project types from what the hierarchy assigns to `x`; "?.<attr>" for a read
    on an untyped local or parameter, which the project dispatches by the property's name."""
    refs: dict[CallRef, None] = {}
    for read in reads:
        typed = [ref for ref in _indirect_refs(read, self_name, scopes, imports, scope) if ref[0] == INSTANCE]
        for ref in typed:
            refs[CallRef(HELD_READ, ref[1])] = None
        receiver = read.func.value
        attr = read.func.attr
        if typed:
            continue
        if self_name is not None and isinstance(receiver, ast.Attribute) \
                and isinstance(receiver.value, ast.Name) and receiver.value.id == self_name:
            refs[CallRef(HELD_READ, f"{MEMBER_SPELLING}{receiver.attr}.{attr}")] = None
        elif _may_name_a_property(attr) and _untyped_object(receiver, scopes, imports, scope):
            # `control.interval`, the receiver untyped: a property of that name, where few classes have one
            refs[CallRef(HELD_READ, f"{UNTYPED_SPELLING}.{attr}")] = None
    return tuple(refs)


def _untyped_object(receiver: ast.AST, scopes: ModuleScopes, imports: ImportMap, scope) -> bool:
    """A local or parameter that nothing types, not a module, class or function name (`consts.scale`,
    `math.pi`: their attributes, no property), nor a local a foreign library's call made
    (`info = torch.finfo(x.dtype); info.eps`: the review of stop 36)."""
    if not isinstance(receiver, ast.Name) or imports.is_bound(receiver.id) \
            or receiver.id in scopes.classes or receiver.id in scopes.functions:
        return False
    values = scopes.local_values_of(scope.func).get(receiver.id, ()) if scope is not None else ()
    return not any(isinstance(value, ast.Call) and _foreign(imports.qualify(value.func) or "", imports.own_root)
                   for value in values)


def _may_name_a_property(attr: str) -> bool:
    """Not a name a tensor or a builtin answers (`x.shape`, `d.items`), nor a special one."""
    return not attr.startswith("__") and attr not in TENSOR_PROPERTIES and attr not in TENSOR_METHODS \
        and attr not in BUILTIN_METHODS


def _result_ref(expr: ast.AST, method: Optional[str], self_name: Optional[str], scopes: ModuleScopes,
                imports: ImportMap):
    """RESULT ref for `method` run on what a call returns, through attributes of it:
    `self.encode(x).latent_dist.mode()` -> "self.encode|latent_dist|mode"; `d = self.dist(x);
    d.log_prob(y)` (the callee `self.dist`, no call) -> "self.dist||log_prob"."""
    if method is None:
        return None
    attrs = []
    while isinstance(expr, ast.Attribute) and not (isinstance(expr.value, ast.Name) and expr.value.id == self_name) \
            or is_result_item(expr):
        # `check(y)[1]` (a tuple's element, "[1]") or `.attr`
        attrs.append(f"[{expr.slice.value}]" if isinstance(expr, ast.Subscript) else expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Call):
        expr = expr.func
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) \
                and expr.value.id not in scopes.functions and expr.value.id not in scopes.classes:
            # `SOLVERS[method](...)`: a class out of a module-level dict, here or in another file
            return RESULT, f"T:{expr.value.id}|{'.'.join(reversed(attrs))}|{method}"
    spelled = dotted(expr)
    if spelled is None:
        return None
    parts = spelled.split(".")
    if self_name is not None and parts[0] == self_name:
        if len(parts) != 2:
            return None
        callee = f"self.{parts[1]}"
    else:
        ref = _classify_spelling(spelled, False, self_name, imports.aliases, scopes.functions, scopes.classes,
                                own_root=imports.own_root)
        if ref is None or ref[0] not in (GLOBAL, LOCAL):
            return None
        callee = f"{ref[0]}:{ref[1]}"
    return RESULT, f"{callee}|{'.'.join(reversed(attrs))}|{method}"


def _add_ref(refs: dict, node: ast.Call, ref, env) -> None:
    kind, name = ref
    positional = []
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            break
        positional.append(_fact(env, arg))
    keywords = tuple((kw.arg, _fact(env, kw.value)) for kw in node.keywords if kw.arg)
    refs[CallRef(kind, name, tuple(positional), keywords)] = None


def text_calls(summary: ModuleSummary, qualname: str, text: CallText) -> tuple[CallRef, ...]:
    """The calls of an untraced function, read off its file's text (names only, no argument facts)."""
    span = summary.spans.get(qualname)
    if span is None:
        return ()
    first, last, self_name = span
    refs: dict[CallRef, None] = {}
    for spelling, on_result in text.spellings(first, last):
        ref = _classify_spelling(spelling, on_result, self_name, summary.aliases, summary.functions,
                                 summary.classes, bool(summary.stars), summary.own_root)
        if ref is not None:
            refs[CallRef(*ref)] = None
    if self_name is not None:
        for call in text.getattr_calls(first, last):
            template = getattr_template(call, self_name)
            if template is not None:
                refs[CallRef(GETATTR, template)] = None
    for ref in _stacked_text_refs(summary, text, first, last):
        refs[CallRef(*ref)] = None
    return tuple(refs)


_FOR_LINE = re.compile(r"^[ \t]*for[ \t]+([\w \t,()]+?)[ \t]+in[ \t]+(.+?):[ \t]*(?:#.*)?$", re.M)
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?![\w(])")


def _stacked_text_refs(summary: ModuleSummary, text: CallText, first: int, last: int) -> list:
    """STACKED refs of an untraced function read off its text: `for frame in reversed(_STACK):` then
    `frame.process(msg)`, `_STACK` a module-level name of the file or an imported one."""
    body = text.lines(first, last)
    if "for" not in body:
        return []
    found = []
    for loop in _FOR_LINE.finditer(body):
        targets = re.findall(r"[A-Za-z_]\w*", loop.group(1))
        for name in dict.fromkeys(_NAME.findall(loop.group(2))):
            if name in BUILTIN_NAMES:
                continue
            alias = re.search(rf"(?m)^[ \t]+{re.escape(name)}[ \t]*=[ \t]*([A-Za-z_]\w*)[ \t]*$", body)
            name = alias.group(1) if alias is not None else name  # `stack = _STACK`
            if name not in summary.aliases and not (f"\n{name}" in text.text and re.search(
                    rf"(?m)^{re.escape(name)}[ \t]*(?::[^=\n]*)?=(?!=)", text.text)):
                continue  # neither imported nor bound at module level
            ref = _container_ref(name, summary.aliases, summary.own_root)
            if ref is None:
                continue
            for target in targets:
                for method in dict.fromkeys(re.findall(rf"(?<![\w.]){re.escape(target)}\.([A-Za-z_]\w*)[ \t]*\(", body)):
                    found.append((STACKED, f"{ref[0]}:{ref[1]}|{method}"))
    return found


def _container_ref(name: str, aliases: dict[str, str], own_root: str = ""):
    """A module-level container's spelling for a STACKED ref: GLOBAL as the import qualifies it, else this file's
    own (LOCAL); None for a foreign one."""
    return _global(aliases[name], own_root) if name in aliases else (LOCAL, name)


def _fact(env, node: ast.AST) -> Fact:
    if env.is_tensor(node):
        return True
    if env.is_known_non_tensor(node):
        return False
    return None


def _classify(func: ast.AST, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap):
    """The kind of a Call node's callee: its spelling, judged as a call read off the text is."""
    spelled = _spelling(func)
    if spelled is None:
        return None
    return _classify_spelling(*spelled, self_name, imports.aliases, scopes.functions, scopes.classes,
                              bool(imports.stars), imports.own_root)


def _spelling(func: ast.AST) -> Optional[tuple[str, bool]]:
    """(spelling, on a call/subscript result) of a callee, as callscan reads it off the text."""
    if isinstance(func, ast.Name):
        return func.id, False
    if not isinstance(func, ast.Attribute):
        return None
    name = dotted(func)
    if name is not None:
        # `self.__class__.helper(x)`: the method of the object's own class, as `self.helper(x)`
        return name.replace(".__class__.", ".", 1) if name.count(".") == 2 else name, False
    receiver = func.value
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "type" \
            and len(receiver.args) == 1 and isinstance(receiver.args[0], ast.Name) and not receiver.keywords:
        return f"{receiver.args[0].id}.{func.attr}", False  # `type(self).helper(x)`, likewise
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
        return f"super().{func.attr}", False
    return func.attr, True


def _classify_spelling(spelling: str, on_result: bool, self_name: Optional[str], aliases: dict[str, str],
                       functions, classes, stars: bool = False, own_root: str = ""):
    """A call's kind from its dotted spelling: `a.b.c`, `super().m`, or a method `m` called on a
    call's or subscript's result (on_result). functions / classes: this file's names; stars: the file
    has `from m import *`, so a name it neither defines nor imports may come from one (the project
    looks it up through them)."""
    if not on_result and spelling.startswith("super("):
        return SUPER, spelling.rpartition(".")[2]
    parts = spelling.split(".")
    attr = parts[-1]
    if not on_result:
        root = parts[0]
        if root in aliases:
            return _global(".".join([aliases[root]] + parts[1:]), own_root)
        if self_name == "cls" and spelling == "cls":
            return SELF, "__init__"  # a classmethod's `cls(...)`: the constructor of its class (or a subclass)
        if len(parts) == 1:
            # a class called: its constructor runs
            if root in functions or root in classes:
                return LOCAL, root
            return (LOCAL, root) if stars and root not in BUILTIN_NAMES else None
        if self_name is not None and root == self_name:
            if len(parts) == 2:
                return SELF, attr
            if 3 <= len(parts) <= 5 and not attr.startswith("__"):
                # also a tensor method's name (`self.transform.inverse(y)`): the project follows it
                # only when it knows the attribute's class; through attributes of it too
                # (`self.flow.base.log_prob(z)`: "flow.base.log_prob")
                return MEMBER, ".".join(parts[1:])
        if len(parts) == 2 and root in classes:
            return LOCAL, f"{root}.{attr}"
    # obj.method(): only names that are not tensor or built-in methods can mean a class of ours.
    if attr in TENSOR_METHODS or attr in BUILTIN_METHODS or attr.startswith("__"):
        return None
    return ATTRIBUTE, attr


classify_spelling = _classify_spelling  # the project reads `with` managers off untraced text the same way


def _global(name: Optional[str], own_root: str = ""):
    if not name or _foreign(name, own_root):
        return None
    return GLOBAL, name


def mark_sparse_arguments(summary: ModuleSummary, scopes: ModuleScopes, imports: ImportMap, is_sparse) -> None:
    """Note on each call of another file's function the arguments that are sparse tensors at every call of
    that spelling in the scope (`is_sparse(arg, scope)`): the call graph tells the callee (BL504's parameters
    handed a sparse tensor, `_batch_mm(self.matrix, x)` across files)."""
    for qualname, refs in summary.calls.items():
        scope = scopes.scopes.get(qualname)
        if scope is None:
            continue
        handed: dict[str, set[int]] = {}
        for node in scopes.calls.get(qualname, ()):
            found = _classify(node.func, None, scopes, imports)
            if found is None or found[0] != GLOBAL:
                continue
            sparse = {i for i, arg in enumerate(node.args) if not isinstance(arg, ast.Starred) and is_sparse(arg, scope)}
            handed[found[1]] = handed.get(found[1], sparse) & sparse
        if any(handed.values()):
            summary.calls[qualname] = tuple(
                dataclasses.replace(ref, sparse=tuple(sorted(handed[ref.name])))
                if ref.kind == GLOBAL and ref.positional is not None and handed.get(ref.name) else ref
                for ref in refs)


def _binds_name(func, name: str) -> bool:
    """Whether a function binds `name` itself: a parameter, or any assignment to it in its body."""
    if any(a.arg == name for a in function_arguments(func.args)):
        return True
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(func))
