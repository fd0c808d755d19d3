"""A conservative answer to "is this expression a tensor?" inside one traced function.

It errs towards "no": a rule that branches on an unknown value stays silent, because a linter that
flags `if H % 2:` on an int height loses its users. What counts as a tensor:
forward's tensor parameters, results of torch functions and tensor methods, arithmetic and
comparisons on those, module attributes that hold parameters or buffers, and calls of layers.
"""
from __future__ import annotations

import ast
import copy
import re
from typing import Optional

from .astwalk import function_nodes_of, node_memo, walk
from .flow import bindings_of, function_arguments
from .names import ImportMap, normalize_torch
from .scope import ClassInfo, ModuleScopes, Scope, _constructed, self_parameter, is_autograd_forward
from .torch_api import (CASTS, FRESH_TENSOR_FUNCS, META_ATTRIBUTES, NON_TENSOR_LAYERS, NON_TENSOR_METHODS,
                        NON_TENSOR_NAMESPACES, NON_TENSOR_TORCH_FUNCS, TENSOR_ATTRIBUTES, TENSOR_EVIDENCE_METHODS, TENSOR_NAMESPACES,
                        TENSOR_METHODS, TENSOR_ONLY_METHODS, TENSOR_SUBCLASS_METHODS, TENSOR_TUPLE_FUNCS,
                        REARRANGE_METHODS, SAME_DTYPE)

TENSOR_ANNOTATIONS = re.compile(r"\b(Tensor|FloatTensor|LongTensor|BoolTensor|Parameter)\b")
NON_TENSOR_ANNOTATIONS = re.compile(
    r"^(Optional\[)?(int|float|bool|str|bytes|list|dict|tuple|set|List|Dict|Tuple|Set|Sequence|"
    r"Callable|Any|torch\.Size|Size|torch\.dtype|dtype|torch\.device|device)\b")
# Parameter names that, in model code, hold sizes and counts rather than tensors (`i` and `j` are
# loop indices and sequence lengths, `forward(self, i, j)` of a relative-position bias).
SIZE_LIKE_NAME = re.compile(
    r"^(H|W|C|B|N|L|D|T|S|K|i|j|"
    r"(num|n|use|is|has|do|return|output|max|min|should|enable|apply)_\w+|"
    r"\w*?(^|_)(size|sizes|dim|dims|len|length|count|height|width|idx|offset|stride|ratio|factor|eps|"
    r"rate|prob|mode|flag|kind|type|name|level|depth|first|only|inplace|causal|deterministic|"
    r"verbose|debug|training|groups|heads|channels|layers|steps))$")


_SEQUENCE_VALUES = (ast.ListComp, ast.List, ast.Tuple, ast.Call)


# NumPy functions whose result on an array is an array, named as torch's tensor-only methods are (`np.any`,
# `np.sum`, `np.isnan`); np.nonzero gives a tuple.
_NUMPY_ARRAY_RESULTS = (TENSOR_ONLY_METHODS - {"nonzero"}) | {"where", "maximum", "minimum", "logical_xor", "square"}


def _number_constant(node: ast.AST) -> bool:
    """`0.0`, `-1`: a number written out (no bool)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


_LIST_MUTATORS = frozenset({"append", "insert", "extend", "pop", "remove", "clear", "sort", "reverse",
                            "__setitem__"})


def _last(name: Optional[str]) -> str:
    return name.rsplit(".", 1)[-1] if name else ""


class ClassFacts:
    """What a module class's attributes hold, read from assignments anywhere in the class."""

    def __init__(self, info: ClassInfo, imports: ImportMap):
        self.tensor_attrs: set[str] = set(info.assignments.registered)
        self.layer_attrs: set[str] = set()
        for attr, assigned in info.assignments.values.items():
            for value, _self in assigned:
                self._learn(attr, value, imports)
        self.own: frozenset[str] = frozenset(info.assignments.values) | self.tensor_attrs

    def with_bases(self, bases: list["ClassFacts"]) -> "ClassFacts":
        """These facts, plus what the bases' own facts say of attributes this class never assigns."""
        merged = copy.copy(self)
        merged.tensor_attrs, merged.layer_attrs = set(self.tensor_attrs), set(self.layer_attrs)
        for base in bases:
            merged.tensor_attrs |= base.tensor_attrs - self.own
            merged.layer_attrs |= base.layer_attrs - self.own
        return merged

    def _learn(self, attr: str, value, imports: ImportMap) -> None:
        if isinstance(value, ast.IfExp):  # `torch.ones(n) if code is None else torch.as_tensor(code)`
            self._learn(attr, value.body, imports)
            self._learn(attr, value.orelse, imports)
            return
        made = _made_by_torch(value, imports)
        if made == "tensor":
            self.tensor_attrs.add(attr)
        elif made == "layer":
            self.layer_attrs.add(attr)


def _made_by_torch(value, imports: ImportMap) -> Optional[str]:
    """"tensor" for `torch.ones(n)`, `torch.tensor(x).to(device)` or `nn.Parameter(...)`, "layer" for
    `nn.Linear(a, b)`, else None: what a value made by a torch call (read without any local facts) is."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) \
            and func.attr in TENSOR_METHODS and func.attr not in NON_TENSOR_METHODS:
        # `torch.ones(n).to(device)`, `nn.Linear(a, b).to(device)`: what the receiver is
        return _made_by_torch(func.value, imports)
    qual = normalize_torch(imports.qualify(value.func)) or ""
    if qual in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") or (
            qual.startswith("torch.") and not qual.startswith("torch.nn.") and _last(qual)[:1].islower()
            and not qual.startswith(NON_TENSOR_NAMESPACES) and qual not in NON_TENSOR_TORCH_FUNCS
            and not _last(qual).startswith(("is_", "get_", "set_", "use_", "_"))):
        return "tensor"
    if qual.startswith("torch.nn.") and _last(qual)[:1].isupper() and _last(qual) not in NON_TENSOR_LAYERS:
        return "layer"
    return None


def module_tensor_constants(scopes: ModuleScopes, imports: ImportMap) -> frozenset:
    """Module-level names that only ever hold a tensor made by torch (`EPS = torch.tensor(1e-6)`).
    Traced code that reads one reads a graph input (measured on 2.13: `if EPS > 0:` and
    `torch.add(x, y, alpha=EPS)` in a compiled function break)."""
    return node_memo("module tensor constants", scopes.tree, lambda: _module_tensor_constants(scopes, imports))


# Methods that give back a tensor of the same kind: casts, device moves, views and rearrangements.
_KEEPS_A_TENSOR = frozenset(CASTS) | REARRANGE_METHODS | SAME_DTYPE | {"to", "cpu", "cuda", "view"}


def _fresh_tensor(value, imports: ImportMap) -> bool:
    """`torch.tensor(1e-6)`, `torch.ones(3).to(device)`, `(2 * torch.ones(1)).sqrt()`: an expression that surely
    makes a new tensor (not `torch.randn(3, 4).max(dim=0)`, a named tuple, nor `.item()` of one)."""
    if isinstance(value, ast.BinOp) and not isinstance(value.op, ast.MatMult):
        return _fresh_tensor(value.left, imports) or _fresh_tensor(value.right, imports)
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        return _fresh_tensor(value.operand, imports)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _TENSOR_RESULT_METHODS:
        return _fresh_tensor(value.func.value, imports)
    return isinstance(value, ast.Call) and normalize_torch(imports.qualify(value.func)) in FRESH_TENSOR_FUNCS


# A tensor's methods whose result is one tensor (not `.max(dim=0)`'s named tuple, `.item()` or `.size()`).
_TENSOR_RESULT_METHODS = _KEEPS_A_TENSOR | (TENSOR_METHODS - NON_TENSOR_METHODS - TENSOR_TUPLE_FUNCS - {"numpy"})


def _module_tensor_constants(scopes: ModuleScopes, imports: ImportMap) -> frozenset:
    names = {name for name, values in scopes.module_bindings().items()
             if not imports.is_bound(name) and all(_fresh_tensor(v, imports) for v in values)}
    if not names:
        return frozenset()
    # Any other way the module binds a name may rebind it: `global EPS` in a function, tuple, `for`,
    # `with` and walrus targets, `A = B = ...`, `del`, defs; `globals()[...]` and `import *` any name.
    for node in walk(scopes.tree):
        if isinstance(node, ast.Global):
            names -= set(node.names)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names) \
                or isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "globals":
            return frozenset()
    for name in _other_module_bindings(scopes.tree):
        names.discard(name)
    return frozenset(names)


def _other_module_bindings(tree: ast.Module):
    """Names the module level binds other than by `name = value` / `name: T = value`."""
    stack = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.Assign) and (len(stmt.targets) > 1 or not isinstance(stmt.targets[0], ast.Name)):
            yield from (n.id for t in stmt.targets for n in walk(t) if isinstance(n, ast.Name))
        elif isinstance(stmt, (ast.AugAssign, ast.For, ast.AsyncFor, ast.Delete)):
            targets = stmt.targets if isinstance(stmt, ast.Delete) else [stmt.target]
            yield from (n.id for t in targets for n in walk(t) if isinstance(n, ast.Name))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield stmt.name
            continue
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from (n.id for item in stmt.items if item.optional_vars is not None
                        for n in walk(item.optional_vars) if isinstance(n, ast.Name))
        for node in walk(stmt) if not isinstance(stmt, (ast.If, ast.Try, ast.For, ast.While, ast.With)) else ():
            if isinstance(node, ast.NamedExpr):
                yield node.target.id
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(stmt, field, []) or []:
                stack.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])
        if isinstance(stmt, (ast.If, ast.While)):
            yield from (n.target.id for n in walk(stmt.test) if isinstance(n, ast.NamedExpr))


# The nodes that bind a function's names (what _infer_locals reads), and calls.
_BINDING_NODES = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.ListComp, ast.SetComp,
                            ast.DictComp, ast.GeneratorExp, ast.Lambda, ast.withitem, ast.NamedExpr})
_CALLS = frozenset({ast.Call})
_NESTED_FUNCTIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda})


class TensorEnv:
    """Tensor facts for the names of one traced function."""

    def __init__(self, scope: Scope, scopes: ModuleScopes, imports: ImportMap,
                 class_facts: Optional[ClassFacts], param_is_tensor: dict[str, bool],
                 call_returns_tensor=None, tuple_calls: frozenset = frozenset(),
                 defaulted_none: frozenset = frozenset(), member_names: frozenset = frozenset()):
        self.scope = scope
        # Names a method or property returning a tensor may have (filefacts.member_names): `h.<name>` only is
        # looked up through what reaches `h`.
        self.member_names = member_names
        self.scopes = scopes
        # Parameters that keep their default of None: no known call site passes them.
        self.defaulted_none = defaulted_none
        # Answers "does this call of a same-file function return a tensor?" (engine-provided).
        self.call_returns_tensor = call_returns_tensor
        # Dotted names of imported helpers that return a tuple of tensors (project.py).
        self.tuple_calls = tuple_calls
        self.imports = imports
        self.class_facts = class_facts
        self.self_name = self_parameter(scope.func) if scope.cls is not None else None
        self._memo: dict[int, bool] = {}
        self._mutated: Optional[frozenset] = None
        self.tensor_names: set[str] = {p for p, t in param_is_tensor.items() if t}
        self.known_non_tensor: set[str] = {p for p, t in param_is_tensor.items() if not t}
        self.tensor_params = set(self.tensor_names)
        # name -> first row that rebinds it: a read above it still sees the parameter.
        self.first_binding: dict[str, int] = {}
        # name -> (statement, value) of each plain assignment, for the binding that reaches a use
        self.definitions: dict[str, list[tuple[ast.stmt, object]]] = {}
        # name -> [(comprehension or lambda, {name it binds: value or None})]: names that shadow the
        # function's there.
        self._scoped: dict[str, list[tuple[ast.AST, dict]]] = {}
        self._flow = None
        args = scope.func.args
        self.parameters = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        # Uses are judged by their reaching assignment only once the names' own facts are settled:
        # during the fixpoint that lookup would be redone every round, for little gain.
        self._settled = False
        self.module_constants: set[str] = set()
        self._infer_locals()
        self._settled = True
        self._memo.clear()

    # -- locals ---------------------------------------------------------------------------------
    def _infer_locals(self) -> None:
        assigned: dict[str, list[Optional[ast.AST]]] = {}
        for node in function_nodes_of(self.scope.func, _BINDING_NODES):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = node.value
                if isinstance(node, ast.AugAssign):
                    value = ast.BinOp(left=node.target, op=node.op, right=node.value)
                for target in targets:
                    # The right-hand side is read before the names are bound, on any of its rows.
                    self._bind(target, value, assigned, node.end_lineno, node)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                self._bind(node.target, _ElementOf(node.iter), assigned)
            elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                # Its targets are its own (Python 3): bound inside it, never over the function's names.
                inner: dict[str, list] = {}
                for generator in node.generators:
                    self._bind(generator.target, _ElementOf(generator.iter), inner, track=False)
                self._shadow(node, {k: v[0] if len(v) == 1 else None for k, v in inner.items()})
            elif isinstance(node, ast.Lambda):
                self._shadow(node, {a.arg: None for a in function_arguments(node.args)})
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                self._bind(node.optional_vars, None, assigned)
            elif isinstance(node, ast.NamedExpr):
                self._bind(node.target, node.value, assigned)
        self._memo.clear()  # _bind asked about calls before any local was known
        params = set(self.tensor_names) | set(self.known_non_tensor)
        for name in list(assigned):
            if name in params:
                # A parameter rebound in the body: keep the parameter's fact only if all agree.
                assigned[name].append(_Param(name in self.tensor_names))
        self.tensor_names -= set(assigned)
        # module-level tensors are graph inputs, like the parameters (BL105 reads them so)
        self.module_constants = self._module_constants_read(assigned)
        self.tensor_names |= self.module_constants
        self._learn_from_methods(assigned)
        # name -> whether one of its values reads it (a rebinding): the values never change during
        # the fixpoint, so each is walked once, not once per round.
        self._reads_itself: dict[str, bool] = {}
        for _ in range(4):  # fixpoint over chains like a = x + 1; b = a * 2
            changed = False
            for name, values in assigned.items():
                if name in self.tensor_names:
                    continue
                if values and all(v is not None and self._value_is_tensor(v) for v in values):
                    self.tensor_names.add(name)
                    changed = True
                elif self._flag_that_becomes_a_tensor(values):
                    self.tensor_names.add(name)
                    changed = True
                elif self._tensor_by_induction(name, values):
                    changed = True
            # Answers memoised during this round may predate what it learned.
            self._memo.clear()
            if not changed:
                break
        self._memo.clear()
        # Numbers, to a fixpoint too (`diag = 1; n = diag + 1`: the walk meets n before diag), and by
        # induction over a rebinding (`k = k.item() if isinstance(k, Tensor) else k`: a number if every
        # value is, given that k was one).
        # (a parameter nothing types is left out: its value on entry is none of `values`)
        untyped = {a.arg for a in function_arguments(self.scope.func.args)} - params
        undecided = [(name, values) for name, values in assigned.items() if name not in self.tensor_names
                     and name not in untyped and values and all(v is not None for v in values)]
        for _ in range(4):
            still = []
            for name, values in undecided:
                if name in self.known_non_tensor:
                    continue
                self.known_non_tensor.add(name)  # assumed, for the values that read the name itself
                if not all(self._value_known_non_tensor(v) for v in values):
                    self.known_non_tensor.discard(name)
                    still.append((name, values))
            if len(still) == len(undecided):
                break
            undecided = still  # a later round reads only the names still open

    def _module_constants_read(self, assigned) -> set[str]:
        """The module's tensor constants this function sees: not its own names, nor those of a
        function it is defined in."""
        constants = module_tensor_constants(self.scopes, self.imports)
        if not constants:
            return set()
        own = set(assigned) | self.parameters | {a.arg for a in function_arguments(self.scope.func.args)}
        # a nested def or lambda of this function whose parameter has the name (its body is walked here)
        own |= {a.arg for node in function_nodes_of(self.scope.func, _NESTED_FUNCTIONS)
                if node is not self.scope.func for a in function_arguments(node.args)}
        own |= self.scopes.enclosing_names(self.scope.func)
        return set(constants) - own

    def _learn_from_methods(self, assigned) -> None:
        """`num_nodes = helper(...)` then `num_nodes.new_zeros(1)`: a name whose methods only a tensor
        has is a tensor, when nothing it is bound to is known to be something else."""
        called: dict[str, set] = {}
        for node in function_nodes_of(self.scope.func, _CALLS):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                called.setdefault(node.func.value.id, set()).add(node.func.attr)
        used = {name for name, methods in called.items() if methods & TENSOR_EVIDENCE_METHODS}
        # a name also called with a method no tensor has is some other object with a tensor-like API (a NumPy
        # or array-backend namespace: `nx.argsort(a, 0)`, `nx.take_along_axis(...)`, POT's backends)
        used = {name for name in used if all(m in TENSOR_METHODS or m in TENSOR_SUBCLASS_METHODS or m.startswith("__")
                                             for m in called[name])}
        for name in used - self.tensor_names - self.known_non_tensor:
            values = assigned.get(name, [])
            if any(v is not None and self._value_known_non_tensor(v) for v in values):
                continue
            if not values and name not in self.parameters:
                continue  # a global or a closure's free name
            self.tensor_names.add(name)
        self._memo.clear()

    def _flag_that_becomes_a_tensor(self, values) -> bool:
        """`accept = ratio <= 1; if dt > max_step: accept = False`: a flag that holds a bool tensor on
        some paths and a literal True/False on the others is branched on as a tensor whenever the
        tensor path runs."""
        literals = [v for v in values if isinstance(v, ast.Constant) and isinstance(v.value, bool)]
        if not literals or len(literals) == len(values):
            return False
        return all(v is not None and self._value_is_tensor(v) for v in values if not any(v is lit for lit in literals))

    def _tensor_by_induction(self, name: str, values) -> bool:
        """`y = x * 2; y = y + 1`: y is a tensor when one binding is a tensor outright and every
        other is a tensor provided y already held one (a rebinding reads the previous value)."""
        reads_itself = self._reads_itself.get(name)
        if reads_itself is None:
            reads_itself = self._reads_itself[name] = any(
                isinstance(v, _PassThrough) or isinstance(v, ast.AST) and any(
                    isinstance(n, ast.Name) and n.id == name for n in walk(v)) for v in values)
        if not reads_itself:
            return False
        self._memo.clear()
        if not any(v is not None and self._value_is_tensor(v) for v in values):
            return False
        self.tensor_names.add(name)
        self._memo.clear()
        if all(v is not None and self._value_is_tensor(v) for v in values):
            return True
        self.tensor_names.discard(name)
        self._memo.clear()
        return False

    def _bind(self, target, value, assigned, row: int = 0, statement: Optional[ast.stmt] = None,
              track: bool = True) -> None:
        """Record `target = value` in `assigned`; `track=False` for a comprehension's own names, which
        say nothing of the function's (no first binding, no reaching assignment)."""
        if isinstance(target, ast.Name):
            call = value.iterable if isinstance(value, _ElementOf) else value
            if isinstance(call, ast.Call) and _passes(call, target.id) and not self._call_is_tensor(call) \
                    and not self.is_known_non_tensor(call):
                # `x = helper(x)`, `ei, w = add_self_loops(ei, w)`: an unknown helper handed x back.
                value = _PassThrough(target.id, _passed(call, target.id))
            assigned.setdefault(target.id, []).append(value)
            if not track:
                return
            if statement is not None and value is not None:
                self.definitions.setdefault(target.id, []).append((statement, value))
            row = row or getattr(target, "lineno", 0)
            if row and row < self.first_binding.get(target.id, row + 1):
                self.first_binding[target.id] = row
        elif isinstance(target, (ast.Tuple, ast.List)):
            elements = _zipped(value, len(target.elts))
            for i, elt in enumerate(target.elts):
                if isinstance(elt, ast.Starred):
                    self._bind(elt.value, None, assigned, row, track=track)
                else:
                    element = None
                    if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                        element = value.elts[i]
                    elif elements is not None:
                        element = elements[i]
                    elif isinstance(value, _ElementOf):
                        # `for h, w in t:` unpacks each row of t: tensors when the rows are.
                        element = _ElementOf(value)
                    elif value is not None and not isinstance(value, (_Param, _NotTensor)):
                        element = _ElementOf(value)
                    self._bind(elt, element, assigned, row, statement, track)

    def _value_is_tensor(self, value) -> bool:
        if isinstance(value, _Param):
            return value.is_tensor
        if isinstance(value, _NotTensor):
            return False
        if isinstance(value, _PassThrough):
            return value.name in self.tensor_names
        if isinstance(value, _ElementOf):
            return self._elements_are_tensors(value.iterable)
        return self.is_tensor(value)

    def _value_known_non_tensor(self, value) -> bool:
        if isinstance(value, _NotTensor):
            return True
        if isinstance(value, _PassThrough):
            return False
        if isinstance(value, _Param):
            return not value.is_tensor
        if isinstance(value, _ElementOf):
            return self._is_meta(value.iterable)
        return self.is_known_non_tensor(value)

    def _elements_are_tensors(self, node: ast.AST) -> bool:
        """Elements of x.split(...), torch.chunk(...), x.unbind(), or iterating a tensor."""
        if isinstance(node, _ElementOf):
            # An element of an element: a row of a tensor (or of one of its chunks) is a tensor.
            return self._elements_are_tensors(node.iterable)
        if isinstance(node, ast.Call):
            qual = self.imports.qualify(node.func) or ""
            if qual in self.tuple_calls:
                return True
            if qual.startswith("torch.") and _last(qual) in TENSOR_TUPLE_FUNCS:
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr in TENSOR_TUPLE_FUNCS \
                    and self.is_tensor(node.func.value):
                return True
            if isinstance(node.func, ast.Name) and node.func.id in ("zip", "enumerate", "reversed"):
                return False
        if isinstance(node, (ast.Tuple, ast.List)):
            return bool(node.elts) and all(self.is_tensor(e) for e in node.elts)
        if isinstance(node, ast.ListComp):
            return self.is_tensor(node.elt)
        return self.is_tensor(node)

    def _holds_tensors(self, node: ast.AST) -> bool:
        """A name surely bound to a sequence whose elements are all tensors: a list comprehension of
        them, a display of them, or a call whose elements are (x.unbind(), a function of the tree
        returning a tuple or list of tensors)."""
        if not isinstance(node, ast.Name) or not any(isinstance(value, _SEQUENCE_VALUES)
                                                     for _, value in self.definitions.get(node.id, ())):
            return False  # (no flow look-up for a name never bound to such a value)
        if node.id in self._mutated_sequences():
            return False  # `ys[0] = 1.0`, `ys.insert(0, n)`: what it was bound to no longer tells its elements
        held = self.reaching_value(node)
        if isinstance(held, (ast.ListComp, ast.List, ast.Tuple)):
            return self._elements_are_tensors(held)
        if isinstance(held, ast.Call):
            qual = self.imports.qualify(held.func) or ""
            return qual in self.tuple_calls or self._elements_are_tensors(held) and not self.is_tensor(held)
        return False

    # -- expressions ------------------------------------------------------------------------------
    def is_tensor(self, node: ast.AST) -> bool:
        key = id(node)
        if key not in self._memo:
            self._memo[key] = False  # guards against cycles
            self._memo[key] = self._is_tensor(node)
        return self._memo[key]

    def _is_tensor(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            scoped = self._scoped_value(node)
            if scoped is not _UNSCOPED:
                return scoped is not None and self._value_is_tensor(scoped)
            if node.id in self.tensor_names:
                return True
            # `x = helper(x)`: the argument is still the tensor parameter, whatever helper returns.
            if node.id in self.tensor_params and getattr(node, "lineno", 0) <= self.first_binding.get(node.id, 0):
                return True
            return self._reaching_is_tensor(node)
        if isinstance(node, ast.Attribute):
            if node.attr in META_ATTRIBUTES:
                return False
            if node.attr in TENSOR_ATTRIBUTES:
                return self.is_tensor(node.value)
            if self._is_self(node.value) and self.class_facts is not None:
                return node.attr in self.class_facts.tensor_attrs
            if node.attr in _RESULT_FIELDS:
                # `top.values` / `top.indices` of `top = x.topk(2)` (a named tuple of tensors)
                held = node.value if isinstance(node.value, ast.Call) else \
                    self.reaching_value(node.value) if isinstance(node.value, ast.Name) else None
                return isinstance(held, ast.Call) and self._elements_are_tensors(held)
            return self._object_member_is_tensor(node.value, node.attr)  # a property of a known class
        if isinstance(node, ast.Subscript):
            if self.is_tensor(node.value):
                return True
            if _array_only_index(node.slice):
                # `a[:, i]`, `a[..., 0]`: only tensors (and numpy arrays, which Dynamo traces as
                # tensors) take a tuple of slices; lists, tuples and dicts do not.
                return not self.is_known_non_tensor(node.value)
            # `batch[idx]` with a tensor index: only a tensor can be indexed by one (a list takes
            # only a 0-d integer tensor), so an untyped `batch` is a tensor here.
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if any(not isinstance(p, ast.Slice) and self.is_tensor(p) for p in parts):
                return True
            # `ys[0]` of `ys = [t * 2 for t in xs.unbind(0)]` or of a function returning a tuple or list of tensors
            return not isinstance(node.slice, (ast.Slice, ast.Tuple)) and self._holds_tensors(node.value)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and _elementwise_logic(node) \
                    and self._compares_untyped_values(node):
                return True
            return self.is_tensor(node.left) or self.is_tensor(node.right)
        if isinstance(node, ast.UnaryOp):
            return self.is_tensor(node.operand)
        if isinstance(node, ast.Compare):
            if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
                return False
            return self.is_tensor(node.left) or any(self.is_tensor(c) for c in node.comparators)
        if isinstance(node, ast.BoolOp):
            return any(self.is_tensor(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            return self.is_tensor(node.body) and self.is_tensor(node.orelse)
        if isinstance(node, ast.NamedExpr):
            return self.is_tensor(node.value)
        if isinstance(node, ast.Call):
            return self._call_is_tensor(node)
        return False

    def _call_is_tensor(self, node: ast.Call) -> bool:
        func = node.func
        if self.call_returns_tensor is not None and self.call_returns_tensor(node, self.scope):
            return True
        qual = normalize_torch(self.imports.qualify(func)) or ""
        if qual == "typing.cast" and len(node.args) == 2:  # `cast(torch.LongTensor, perm)`: perm, so typed
            kind = annotation_kind(node.args[0])  # (`cast(float, scale)` says it is no tensor)
            return kind if kind is not None else self.is_tensor(node.args[1])
        if qual.startswith("torch."):
            if qual in NON_TENSOR_TORCH_FUNCS or qual.startswith(NON_TENSOR_NAMESPACES):
                return False
            short = _last(qual)
            if short.startswith(("is_", "get_", "set_", "use_", "_")):
                return False
            if short[:1].isupper():
                return short.endswith("Tensor")
            if short in TENSOR_TUPLE_FUNCS and short not in ("max", "min"):
                return False
            if short in ("max", "min") and (len(node.args) > 1 or node.keywords):
                return len(node.args) > 1 and self.is_tensor(node.args[1])  # max(a, b) elementwise
            # torch.<fn> and the tensor namespaces (nn.functional, linalg, fft, special) return
            # tensors; deeper or other submodules (torch.accelerator, torch.xpu...) do not.
            if qual.count(".") == 1:
                return True
            return qual.startswith(TENSOR_NAMESPACES[1:])
        if qual.startswith("numpy.") and qual.count(".") == 1 and qual[6:] in _NUMPY_ARRAY_RESULTS \
                and any(self.is_tensor(a) for a in node.args):
            # `np.any(a > 0)` with `a = x.numpy()`: Dynamo runs NumPy on an array made from a tensor through
            # torch._numpy, and its result is an array it traces as a tensor (measured on 2.13: `if np.any(...)`
            # breaks as data-dependent branching)
            return True
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if self._is_self(receiver) and self.class_facts is not None:
                return func.attr in self.class_facts.layer_attrs
            if func.attr in NON_TENSOR_METHODS:
                return False
            if func.attr in _NUMPY_ARRAY_RESULTS and node.args and isinstance(receiver, ast.Name) \
                    and self._made_by_a_function(receiver.id) and not self.is_known_non_tensor(receiver) \
                    and not self.is_tensor(receiver) and self.is_tensor(node.args[0]):
                # `err = nx.max(norm(a))`: an array namespace (NumPy's, a NumPy-like backend object) applied to a
                # tensor gives one
                return True
            if func.attr in ("max", "min") and (node.args or node.keywords):
                # x.max(dim=1) returns (values, indices); x.max(other) is elementwise.
                return bool(node.args) and self.is_tensor(node.args[0]) and self.is_tensor(receiver)
            if self.is_tensor(receiver):
                # a method neither torch.Tensor nor torch's own subclasses have is a project Tensor
                # subclass's own (`y.from_forward() -> bool`); `x.__getitem__(0)` is still a tensor
                return func.attr in TENSOR_METHODS or func.attr in TENSOR_SUBCLASS_METHODS \
                    or func.attr.startswith("__")
            if func.attr in TENSOR_ONLY_METHODS and (not self.is_known_non_tensor(receiver) or self.sized_by_name(receiver)) \
                    and not isinstance(receiver, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict)):
                return qual.split(".")[0] not in ("np", "numpy", "math")
            return self._object_member_is_tensor(receiver, func.attr)
        if isinstance(func, ast.Name):
            if func.id in ("abs",) and node.args:
                return self.is_tensor(node.args[0])
            if func.id in ("max", "min") and len(node.args) >= 2 and not node.keywords \
                    and not self.imports.is_bound(func.id) and func.id not in self.scopes.functions \
                    and any(self.is_tensor(a) for a in node.args) \
                    and all(self.is_tensor(a) or _number_constant(a) for a in node.args):
                # Python's max of tensors (or of a tensor and a number) is traced to a tensor: measured on 2.13
                return True
            if func.id == "getattr" and node.args and self._is_self(node.args[0]) \
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                    and self.class_facts is not None:
                return node.args[1].value in self.class_facts.tensor_attrs
        return False

    def _made_by_a_function(self, name: str) -> bool:
        """Every value of the local `name` is a call of a function (lowercase: `nx = get_backend(x)`), not of a
        class, an attribute of self or a module: what an array-namespace factory gives."""
        values = self.scopes.local_values_of(self.scope.func).get(name)
        return bool(values) and all(
            isinstance(v, ast.Call) and isinstance(v.func, (ast.Name, ast.Attribute))
            and (v.func.id if isinstance(v.func, ast.Name) else v.func.attr)[:1].islower()
            and (self.imports.qualify(v.func) or "").split(".")[0] not in ("np", "numpy", "math", "torch")
            for v in values)

    def _mutated_sequences(self) -> frozenset:
        """Names the function stores an item into or calls a list's mutating method on."""
        if self._mutated is None:
            names = set()
            for node in walk(self.scope.func):
                if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                        and isinstance(node.value, ast.Name):
                    names.add(node.value.id)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and isinstance(node.func.value, ast.Name) and node.func.attr in _LIST_MUTATORS:
                    names.add(node.func.value.id)
            self._mutated = frozenset(names)
        return self._mutated

    def _object_member_is_tensor(self, receiver: ast.AST, attr: str) -> bool:
        """`h.value()` or `h.total` with `h = Holder(x)` surely (or `self.h`, given only `Holder(...)` by the
        class): what that class's method or property returns, as the call graph says (this file's classes, or
        another file's)."""
        if self.call_returns_tensor is None or attr not in self.member_names:
            return False
        if isinstance(receiver, ast.Name):
            held = self.reaching_value(receiver)
        elif isinstance(receiver, ast.Attribute) and self._is_self(receiver.value) and self.scope.cls is not None:
            values = self.scopes.held_by_self(self.scope.cls, receiver.attr)  # `self.h = Holder(...)`, one value
            held = values[0] if len(values) == 1 else None
        else:
            return False
        if not _constructed(held):  # `Holder(...)`: an object of a class, just made
            return False
        member = node_memo(f"member {attr}", held, lambda: ast.copy_location(ast.Call(
            func=ast.Attribute(value=held, attr=attr, ctx=ast.Load()), args=[], keywords=[]), held))
        return self.call_returns_tensor(member, self.scope)

    def _shadow(self, scope: ast.AST, names: dict) -> None:
        for name in names:
            self._scoped.setdefault(name, []).append((scope, names))

    def _scoped_value(self, node: ast.Name):
        """The value a comprehension or lambda around `node` binds its name to (None: unknown), or
        _UNSCOPED when the name is the function's own there."""
        scopes = self._scoped.get(node.id)
        if scopes is None:
            return _UNSCOPED
        found, best = _UNSCOPED, None
        for scope, names in scopes:
            if (scope.lineno, scope.col_offset) <= (node.lineno, node.col_offset) \
                    <= (scope.end_lineno, scope.end_col_offset):
                size = (scope.end_lineno - scope.lineno, scope.end_col_offset - scope.col_offset)
                if best is None or size < best:
                    found, best = names[node.id], size
        return found

    def reaching_value(self, node: ast.Name):
        """The value of the assignment that surely reaches this use (flow.py), else None."""
        assignments = self.definitions.get(node.id)
        if not assignments:
            return None
        if self._flow is None:
            self._flow = bindings_of(self.scope.func)
        return self._flow.reaching(node, assignments)

    def _reaching_is_tensor(self, node: ast.Name) -> bool:
        """Judge a use by the one assignment that surely reaches it (flow.py), when all of the
        name's bindings together do not make it a tensor."""
        if not self._settled:
            return False
        assignments = self.definitions.get(node.id)
        if not assignments or not any(self._value_is_tensor(v) if not isinstance(v, _PassThrough) else
                                      v.node is not None for _, v in assignments):
            return False  # no assignment of it could make it a tensor: skip the flow index
        value = self.reaching_value(node)
        if value is None:
            return False
        if isinstance(value, _PassThrough):
            return value.node is not None and self.is_tensor(value.node)
        return self._value_is_tensor(value)

    def is_none(self, node: ast.AST) -> bool:
        """A parameter that some call site leaves out and that keeps its default of None."""
        return isinstance(node, ast.Name) and node.id in self.defaulted_none and node.id not in self.first_binding

    def _compares_untyped_values(self, node: ast.AST) -> bool:
        """`(t0 <= t) & (t <= t1)` is elementwise logic on tensors only when each comparison has an
        operand we know nothing of: a name (or an element of one) not known to be something else.
        `(x.shape[-1] % 2 == 1) | (x.dim() == 4)` compares sizes, and `(stride[0] > size[0]) |
        (stride[1] > size[1])` elements of int tuples: there `|` joins Python bools."""
        def untyped(operand: ast.AST) -> bool:
            base = operand.value if isinstance(operand, ast.Subscript) else operand
            return isinstance(base, ast.Name) and base.id not in self.known_non_tensor \
                and not self.is_known_non_tensor(operand)
        return all(any(untyped(o) for o in [c.left, *c.comparators]) for c in _comparisons(node))

    def is_tensor_without(self, node: ast.AST, names: set[str]) -> bool:
        """is_tensor with some names taken to be non-tensors (an isinstance check narrowed them)."""
        saved = self.tensor_names, self.tensor_params
        self.tensor_names, self.tensor_params = self.tensor_names - names, self.tensor_params - names
        self._memo.clear()
        try:
            return self.is_tensor(node)
        finally:
            self.tensor_names, self.tensor_params = saved
            self._memo.clear()

    def sized_by_name(self, node: ast.AST) -> bool:
        """A parameter taken for a size only by its name (`forward(self, x, L)`, SIZE_LIKE_NAME): a method
        only tensors have called on it (`L.max()`) says otherwise, and so does `.item()`."""
        if not isinstance(node, ast.Name) or node.id not in self.parameters or not SIZE_LIKE_NAME.match(node.id) \
                or not self.scope.is_entry:
            return False  # (a callee's parameter is known by what its callers pass, not by its name)
        args = self.scope.func.args
        found = [a for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg == node.id]
        return bool(found) and found[0].annotation is None and node.id not in self.definitions

    def is_known_non_tensor(self, node: ast.AST) -> bool:
        """True only for values that certainly are not tensors (literals, sizes, flags)."""
        if isinstance(node, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict, ast.Set, ast.Tuple,
                             ast.ListComp, ast.DictComp, ast.SetComp, ast.Lambda)):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.known_non_tensor
        if self._is_meta(node):
            return True
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in (
                    "len", "int", "float", "bool", "str", "isinstance", "range", "list", "tuple", "dict",
                    "min", "max", "round", "hasattr", "getattr", "type", "id", "sum", "any", "all", "sorted", "abs"):
                # abs() of a tensor is a tensor: of a number only (`abs(diag)`) it is none
                return node.func.id not in ("min", "max", "sum", "any", "all", "getattr", "abs") or \
                    all(self.is_known_non_tensor(a) for a in node.args)
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("size", "dim", "numel", "item",
                                                                           "tolist", "ndimension", "stride"):
                return True
            qual = self.imports.qualify(node.func) or ""
            if qual.startswith("math."):
                return True
        if isinstance(node, ast.BinOp):
            return self.is_known_non_tensor(node.left) and self.is_known_non_tensor(node.right)
        if isinstance(node, ast.UnaryOp):
            return self.is_known_non_tensor(node.operand)
        if isinstance(node, ast.IfExp):  # `round(n.item()) if isinstance(n, Tensor) else round(n)`
            return self.is_known_non_tensor(node.body) and self.is_known_non_tensor(node.orelse)
        if isinstance(node, ast.Compare):
            return self.is_known_non_tensor(node.left) and all(self.is_known_non_tensor(c) for c in node.comparators)
        if isinstance(node, ast.Attribute) and self._is_self(node.value):
            return self.class_facts is not None and node.attr not in self.class_facts.tensor_attrs \
                and node.attr not in self.class_facts.layer_attrs and node.attr in ("training",)
        return False

    def _is_meta(self, node: ast.AST) -> bool:
        """x.shape, x.shape[0], x.size(1), x.dim(), x.ndim, x.dtype..."""
        if isinstance(node, ast.Attribute):
            return node.attr in META_ATTRIBUTES
        if isinstance(node, ast.Subscript):
            return self._is_meta(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return node.func.attr in ("size", "dim", "ndimension", "numel", "stride")
        return False

    def _is_self(self, node: ast.AST) -> bool:
        return self.self_name is not None and isinstance(node, ast.Name) and node.id == self.self_name


class _ElementOf:
    """Placeholder value: one element of an iterable (a for target or a tuple unpack)."""

    def __init__(self, iterable):
        self.iterable = iterable


class _Param:
    def __init__(self, is_tensor: bool):
        self.is_tensor = is_tensor


_UNSCOPED = object()


class _NotTensor:
    """Placeholder value: surely not a tensor (the counter of `enumerate`)."""


class _PassThrough:
    """Placeholder value: the result of a call that was handed this very name; a tensor when the
    name holds one elsewhere (by induction), never known to be something else. `node` is the
    argument as passed, for judging one use by the assignment that reaches it."""

    def __init__(self, name: str, node: Optional[ast.Name] = None):
        self.name = name
        self.node = node


def _passes(call: ast.Call, name: str) -> bool:
    return _passed(call, name) is not None


def _passed(call: ast.Call, name: str) -> Optional[ast.Name]:
    for value in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(value, ast.Name) and value.id == name:
            return value
    return None


# The fields of the named tuples torch's tuple functions return (topk, sort, max, min, kthvalue, mode, ...).
_RESULT_FIELDS = frozenset({"values", "indices"})


def _zipped(value, count: int) -> Optional[list]:
    """The element values of `for a, b in zip(xs, ys)` and `for i, x in enumerate(xs)`."""
    if not isinstance(value, _ElementOf) or not isinstance(value.iterable, ast.Call):
        return None
    call = value.iterable
    if not isinstance(call.func, ast.Name) or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if call.func.id == "zip" and len(call.args) == count:
        return [_ElementOf(a) for a in call.args]
    if call.func.id == "enumerate" and count == 2 and len(call.args) == 1:
        return [_NotTensor(), _ElementOf(call.args[0])]
    return None


def _array_only_index(index: ast.AST) -> bool:
    """A subscript only tensors and arrays accept: a tuple holding a slice or an Ellipsis."""
    if isinstance(index, ast.Constant) and index.value is Ellipsis:
        return True
    return isinstance(index, ast.Tuple) and any(
        isinstance(e, ast.Slice) or isinstance(e, ast.Constant) and e.value is Ellipsis for e in index.elts)


def _comparisons(node: ast.AST) -> list[ast.Compare]:
    """The comparisons joined by a tree of `&` / `|` / `^` / `~`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _comparisons(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _comparisons(node.left) + _comparisons(node.right)
    return [node] if isinstance(node, ast.Compare) else []


def _elementwise_logic(node: ast.BinOp) -> bool:
    """`(a <= b) & (b <= c)`: Python code joins comparisons of plain values with `and`; `&` on two
    comparisons is elementwise logic on tensors (or numpy arrays, tensors to Dynamo)."""
    def comparison(side: ast.AST) -> bool:
        if isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.Invert):
            side = side.operand
        if isinstance(side, ast.BinOp) and isinstance(side.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return _elementwise_logic(side)
        return isinstance(side, ast.Compare) and not any(
            isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in side.ops)
    return comparison(node.left) and comparison(node.right)


def annotation_kind(annotation: Optional[ast.AST]) -> Optional[bool]:
    """True for Tensor annotations, False for annotations that rule tensors out, None if unknown."""
    if annotation is None:
        return None
    text = ast.unparse(annotation) if not isinstance(annotation, ast.Constant) else str(annotation.value)
    if TENSOR_ANNOTATIONS.search(text) and _union_with_non_tensor(text):
        return None  # `float | Tensor`: either, so unknown
    if TENSOR_ANNOTATIONS.search(text):
        # Tuple[Tensor, ...] and List[Tensor] are containers, not tensors; so is Optional[List[Tensor]]
        # (`concat_preds = concat_preds or []` tests a list, not a tensor).
        return not _CONTAINER.match(_without_optional(text))
    if NON_TENSOR_ANNOTATIONS.match(text):
        return False
    return None


_CONTAINER = re.compile(r"^(?:typing\.|collections\.abc\.)?(Tuple|List|Sequence|Iterable|Iterator|Dict|Mapping|Set|"
                        r"FrozenSet|tuple|list|dict|set|frozenset)\[")


def _without_optional(text: str) -> str:
    """`Optional[X]`, `X | None`, `None | X` -> X (text only; anything else unchanged)."""
    match = re.match(r"^(?:typing\.)?Optional\[(.*)\]$", text)
    if match:
        return match.group(1).strip()
    members = [m.strip() for m in text.split("|")]
    rest = [m for m in members if m != "None"]
    return rest[0] if len(members) > 1 and len(rest) == 1 else text


def _union_with_non_tensor(text: str) -> bool:
    """`float | Tensor`, `Union[int, Tensor]`: a union with a member that is neither a tensor nor None."""
    inner = text
    match = re.match(r"^(?:typing\.)?Union\[(.*)\]$", text)
    if match:
        inner = match.group(1)
    elif "|" not in text:
        return False
    members = [m.strip() for m in re.split(r"[|,]", inner) if m.strip()]
    return any(not TENSOR_ANNOTATIONS.search(m) and m != "None" for m in members)


def entry_param_facts(scope: Scope) -> dict[str, bool]:
    """forward(self, x, H, W): x is a tensor; H and W (size-like names) and defaulted flags are not."""
    func = scope.func
    args = func.args
    positional = args.posonlyargs + args.args
    if scope.cls is not None and positional:
        positional = positional[1:]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    facts: dict[str, bool] = {}
    for arg, default in pairs:
        kind = annotation_kind(arg.annotation)
        if kind is not None:
            facts[arg.arg] = kind
        elif arg.annotation is not None and _union_with_non_tensor(ast.unparse(arg.annotation)):
            continue  # `float | Tensor`: the annotation says it may be either; no guess from the name
        elif default is not None:
            if isinstance(default, ast.Constant) and default.value is None:
                continue  # unknown: an optional mask, or an optional flag
            facts[arg.arg] = False
        elif SIZE_LIKE_NAME.match(arg.arg):
            facts[arg.arg] = False
        else:
            facts[arg.arg] = True
    for extra in (args.vararg, args.kwarg):
        if extra is not None:
            facts[extra.arg] = False
    return facts


def _callee_parameters(scope: Scope) -> tuple[list[ast.arg], bool]:
    """The positional parameters a call site fills, and whether the first (self/cls) is bound."""
    positional = scope.func.args.posonlyargs + scope.func.args.args
    bound = bool(scope.cls is not None and positional and (
        positional[0].arg in ("self", "cls") or is_autograd_forward(scope.cls, scope.func)))
    return (positional[1:] if bound else positional), bound


def defaulted_none_params(scope: Scope, sites, external_sites=()) -> frozenset:
    """Parameters with a default of None that some known call site leaves out (`ptr2index(ptr)` for
    `def ptr2index(ptr, output_size=None)`): None where the function is traced from that caller,
    however many other callers pass it."""
    func = scope.func
    if not sites and not external_sites:
        return frozenset()
    params, bound = _callee_parameters(scope)
    defaults = [None] * (len(params) - len(func.args.defaults)) + list(func.args.defaults)
    candidates = [(i, arg.arg) for i, (arg, default) in enumerate(zip(params, defaults))
                  if isinstance(default, ast.Constant) and default.value is None]
    found = set()
    for i, name in candidates:
        for site in sites:
            offset = 0 if (site.bound_self or not bound) else 1
            call = site.call
            if not (any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)
                    or len(call.args) > i + offset or any(k.arg == name for k in call.keywords)):
                found.add(name)
        for positional_facts, keywords, bound_self in external_sites:
            offset = 0 if (bound_self or not bound) else 1
            if not (len(positional_facts) > i + offset or name in dict(keywords)):
                found.add(name)
    return frozenset(found)


def callee_param_facts(scope: Scope, sites, env_of, external_sites=()) -> dict[str, bool]:
    """Parameters of a called helper: annotated, or tensors at every known call site (same-file
    sites in `sites`; sites in other files as (positional facts, keyword facts, bound) tuples)."""
    func = scope.func
    params, bound = _callee_parameters(scope)
    facts: dict[str, bool] = {}
    for i, arg in enumerate(params):
        kind = annotation_kind(arg.annotation)
        if kind is not None:
            facts[arg.arg] = kind
            continue
        seen = []
        for site in sites:
            offset = 0 if (site.bound_self or not bound) else 1
            call_args = site.call.args
            value = None
            if i + offset < len(call_args) and not any(isinstance(a, ast.Starred) for a in call_args[: i + offset + 1]):
                value = call_args[i + offset]
            else:
                for kw in site.call.keywords:
                    if kw.arg == arg.arg:
                        value = kw.value
            if value is None:
                seen.append(None)
                continue
            env = env_of(site.caller)
            if env is None:
                seen.append(None)
            elif env.is_tensor(value):
                seen.append(True)
            else:
                seen.append(False if env.is_known_non_tensor(value) else None)
        for positional, keywords, bound_self in external_sites:
            offset = 0 if (bound_self or not bound) else 1
            if i + offset < len(positional):
                seen.append(positional[i + offset])
            else:
                seen.append(dict(keywords).get(arg.arg))
        # A call site hands a tensor and none hands anything else we know of: that evidence outweighs
        # a size-like name (error_ratio). A site whose argument is unknown (an untyped caller's
        # local) does not speak against it.
        if True in seen and False not in seen:
            facts[arg.arg] = True
        elif seen and all(s is False for s in seen):
            facts[arg.arg] = False
    for kwarg in func.args.kwonlyargs:
        kind = annotation_kind(kwarg.annotation)
        if kind is not None:
            facts[kwarg.arg] = kind
    return facts
