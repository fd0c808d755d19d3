"""What one file tells the rest of the tree: its names, its classes and the calls of each function.

The per-file lint only follows calls inside one file. Library code breaks mostly in helpers that a
`forward` elsewhere calls (`torch_geometric.utils.*`, a base class's `propagate`), so each file also
yields this small picklable summary; `project.py` joins the summaries of every linted file into a
call graph and sends the functions it reaches back to the per-file lint as extra traced scopes.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable, Optional

from .astwalk import children
from .known_methods import BUILTIN_METHODS, TENSOR_METHODS
from .names import ImportMap
from .scope import FunctionNode, ModuleScopes, _self_name

# Call kinds: a dotted name resolved through the file's imports, a same-file function or
# Class.method, self.method(), super().method(), and obj.method() on a receiver we cannot type.
GLOBAL, LOCAL, SELF, SUPER, ATTRIBUTE = "g", "l", "s", "S", "a"
# Roots whose callees are never in a linted tree: not worth a byte of the summary.
_FOREIGN_ROOTS = {"torch", "numpy", "math", "warnings", "logging", "typing", "os", "sys", "functools",
                  "itertools", "collections", "einops", "re", "copy", "time", "random", "inspect",
                  "dataclasses", "abc", "enum", "contextlib", "operator", "builtins", "triton", "scipy"}

Fact = Optional[bool]  # a tensor, certainly not a tensor, or unknown


@dataclass(frozen=True)
class CallRef:
    kind: str
    name: str
    # Tensor facts of the arguments as the caller's traced scope saw them, else None.
    positional: Optional[tuple[Fact, ...]] = None
    keywords: Optional[tuple[tuple[str, Fact], ...]] = None


@dataclass
class ClassSummary:
    bases: tuple[str, ...]  # as spelled, qualified through imports ("" when unresolvable)
    methods: frozenset[str]
    is_module: bool


@dataclass
class ModuleSummary:
    aliases: dict[str, str]
    functions: frozenset[str]
    classes: dict[str, ClassSummary]
    calls: dict[str, tuple[CallRef, ...]] = field(default_factory=dict)
    # This file's own traced scopes (entry points and what they reach here), with their chains.
    scopes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Top-level functions that return a tensor / a tuple of tensors on every path.
    returns_tensor: frozenset[str] = frozenset()
    returns_tensors: frozenset[str] = frozenset()


def summarize(scopes: ModuleScopes, imports: ImportMap, env_of: Callable, return_kind: Callable) -> ModuleSummary:
    """env_of(qualname) gives the tensor facts of a traced scope (None for untraced functions);
    return_kind(name) says what a top-level function returns ("tensor", "tensors" or None)."""
    classes = {name: ClassSummary(tuple(info.bases), frozenset(info.methods), info.is_module)
               for name, info in scopes.classes.items()}
    calls: dict[str, tuple[CallRef, ...]] = {}
    for name, func in scopes.functions.items():
        refs = _call_refs(func, None, scopes, imports, env_of(name))
        if refs:
            calls[name] = refs
    for cname, info in scopes.classes.items():
        for mname, method in info.methods.items():
            qualname = f"{cname}.{mname}"
            refs = _call_refs(method, _self_name(method), scopes, imports, env_of(qualname))
            if refs:
                calls[qualname] = refs
    kinds = {name: return_kind(name) for name in scopes.functions}
    return ModuleSummary(
        aliases=dict(imports.aliases), functions=frozenset(scopes.functions), classes=classes, calls=calls,
        scopes={q: s.chain for q, s in scopes.scopes.items() if q in scopes.local_scopes},
        returns_tensor=frozenset(n for n, k in kinds.items() if k == "tensor"),
        returns_tensors=frozenset(n for n, k in kinds.items() if k == "tensors"),
    )


def _call_refs(func: FunctionNode, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap,
               env) -> tuple[CallRef, ...]:
    refs: dict[CallRef, None] = {}  # ordered and deduplicated
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ClassDef):
            continue
        stack.extend(children(node))
        if not isinstance(node, ast.Call):
            continue
        ref = _classify(node.func, self_name, scopes, imports)
        if ref is None:
            continue
        kind, name = ref
        if env is not None:
            positional = []
            for arg in node.args:
                if isinstance(arg, ast.Starred):
                    break
                positional.append(_fact(env, arg))
            keywords = tuple((kw.arg, _fact(env, kw.value)) for kw in node.keywords if kw.arg)
            refs[CallRef(kind, name, tuple(positional), keywords)] = None
        else:
            refs[CallRef(kind, name)] = None
    return tuple(refs)


def _fact(env, node: ast.AST) -> Fact:
    if env.is_tensor(node):
        return True
    if env.is_known_non_tensor(node):
        return False
    return None


def _classify(func: ast.AST, self_name: Optional[str], scopes: ModuleScopes, imports: ImportMap):
    if isinstance(func, ast.Name):
        if imports.is_bound(func.id):
            return _global(imports.aliases[func.id])
        if func.id in scopes.functions:
            return LOCAL, func.id
        return None
    if not isinstance(func, ast.Attribute):
        return None
    receiver = func.value
    root = receiver
    while isinstance(root, ast.Attribute):
        root = root.value
    if isinstance(root, ast.Name) and imports.is_bound(root.id):
        return _global(imports.qualify(func))
    if isinstance(receiver, ast.Name):
        if self_name is not None and receiver.id == self_name:
            return SELF, func.attr
        if receiver.id in scopes.classes:
            return LOCAL, f"{receiver.id}.{func.attr}"
    elif isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
        return SUPER, func.attr
    # obj.method(): only names that are not tensor or built-in methods can mean a class of ours.
    if func.attr in TENSOR_METHODS or func.attr in BUILTIN_METHODS or func.attr.startswith("__"):
        return None
    return ATTRIBUTE, func.attr


def _global(dotted: Optional[str]):
    if not dotted or dotted.split(".")[0] in _FOREIGN_ROOTS:
        return None
    return GLOBAL, dotted
