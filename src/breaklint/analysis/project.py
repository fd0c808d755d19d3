"""Which functions of other files the traced code reaches: the call graph across the linted tree.

Each file's summary (summary.py) names its imports, classes and calls. Here they are joined:
module names come from the package layout (folders with `__init__.py`), imports and re-exports
are followed to the defining file, `self.method()` is looked up along the (cross-file) class
hierarchy of the object it runs on, overrides in subclasses included, and `obj.method()` on an
untyped receiver is dispatched by name when few classes of the same package define that name.
What an entry point reaches this way becomes an extra traced scope of the file that defines it,
with the chain of calls that reaches it and the tensor facts of its arguments at the call sites.
"""
from __future__ import annotations

import ast
import bisect
import functools
import os
import re
import textwrap
from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .astwalk import own_nodes
from .project_breaks import CrossFileBreaks
from .callscan import CallText, balanced as _balanced, calls_named as _calls_named, positional_argument as _positional_argument
from ..sources import read_source
from .flow import parameter_defaults
from .names import dotted
from .new_objects import walk_outside_defs
from .scope import distribution_entries, distribution_reason, is_autograd_function_base, is_module_base
from .torch_api import (BUILTIN_METHODS, DISABLE_DECORATORS, DISTRIBUTION_CLASSES, FORWARD_HOOKS, KL_REGISTRARS, TENSOR_METHODS,
                        TENSOR_METHODS_WITHOUT_ARGUMENTS)
from .summary import (ATTRIBUTE, DECORATOR, ELEMENT, GETATTR, GLOBAL, HELD_READ, INSTANCE, LOCAL, MEMBER, MEMBER_SPELLING,
                      UNTYPED_SPELLING,
                      PASSED, PASSED_METHOD,
                      PASSED_OBJECT, READ, REGISTERED_KL, RESULT, SELF, STACKED,
                      SUPER, CallRef, ModuleSummary, classify_spelling, text_calls)

# "Exact" for a class guessed from `getattr(module, name)()` where the module also exports functions:
# truthy (no subclass is meant), but a tensor method is not dispatched to it.
GUESSED = "guessed"

# obj.method() on an untyped receiver is dispatched by name only when at most this many classes of
# the same top-level package define the method: a family of handlers, manifolds or layers sharing a
# method is a real call, a name that many unrelated classes define a guess. 16 where the call was read
# from the tree of a traced function, whose receiver typing failed (where the dev split's scope recall
# stopped rising, BENCHMARKS.md 5.14); 4 (the limit until stop 30) for a call read off the text of a
# function the graph reached, whose receiver was never typed.
MAX_NAME_DISPATCH = 16
MAX_TEXT_NAME_DISPATCH = 4
# How many functions deep an object passed on is followed (`outer(y, ctl)` -> `inner(y, ctl)` -> `ctl(err)`).
MAX_PASSED_DEPTH = 3
MAX_ALIAS_HOPS = 8
# Summary fields naming types other files import (type_facts.py), told to each importing file's FileContext.
_TYPE_FACTS = ("generic_aliases", "optional_typeddicts")
# Factories that return factories: how far `make(...)` is followed to the class it returns.
MAX_FACTORY_DEPTH = 3


@functools.lru_cache(maxsize=None)
def _pattern(pattern: str, flags: int = 0) -> "re.Pattern":
    """re.compile with no bound on what it keeps: the graph spells a pattern per name it looks for (thousands
    on a large tree), which re's own cache of 512 compiled again and again."""
    return re.compile(pattern, flags)


# What a class assigns to its attributes, read off its text: `self.x = Cls(...)` / `self.x = make(...)`,
# `self.x: Cls = ...`, `self.x = param` (the parameter's annotation says the class), and class-level
# `x: Cls` fields and `x = Cls` (a class kept to be called).
_SELF_ASSIGN = re.compile(r"(?<![\w.])self\s*\.\s*([A-Za-z_]\w*)\s*(?::\s*([^=\n]+?))?\s*=(?!=)\s*"
                          r"([A-Za-z_][\w.]*)?(\s*\()?")
# Class-level statements: `{indent}` is the class body's own indentation.
_CLASS_LEVEL = r"^{indent}([A-Za-z_]\w*)\s*(?::\s*([^=\n]+?))?\s*(?:=(?!=)\s*([A-Za-z_][\w.]*)(\s*\()?|$)"
_INDENT = re.compile(r"\n([ \t]+)\S")
# `[key](`: a table looked up and what it holds called (`SOLVERS[method](...)`).
_TABLE_CALL = re.compile(r"\s*\[[^\[\]\n]*\]\s*\(")
_RETURN_CALL = re.compile(r"(?<![\w.])return\s+([A-Za-z_][\w.]*)\s*\(")
_RETURN = re.compile(r"(?<![\w.])return[ \t]+")
_RETURN_TABLE_CALL = re.compile(r"(?<![\w.])return\s+([A-Za-z_][\w.]*)\s*\[[^\[\]\n]*\]\s*\(")
# `return swish` (a name alone on its line) or `return ACTS[name]` / `return ACTS.get(name)` ("[" or ".get").
_RETURNED_NAME = re.compile(r"^[ \t]*return[ \t]+([A-Za-z_]\w*)[ \t]*(\[|\.get\(|(?=[ \t]*(?:#.*)?$))", re.M)
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.]*")
# `Fn.apply(*args)` runs the static `forward(ctx, *args)`: the arguments fill the parameters after ctx.
CTX_FIRST = "ctx"
# Special methods a constructor call runs, in this order.
_CONSTRUCTION = ("__new__", "__init__", "__post_init__")
# Bases that add no methods an object's own calls could reach.
_MARKER_BASES = {"object", "abc.ABC", "typing.Generic", "typing.Protocol", "ABC", "Generic", "Protocol"}
_TYPING = {"Optional", "Union", "List", "Dict", "Tuple", "Any", "Callable", "Sequence", "Type", "None", "Tensor",
           "Iterable", "Iterator", "Mapping", "Literal", "int", "float", "str", "bool", "list", "dict", "tuple",
           "torch", "typing", "object"}

ClassKey = tuple[str, str]  # (path, class qualname)
# The names of the methods torch.nn bases' forwards call on self (torch_api.FORWARD_HOOKS).
_HOOK_NAMES = frozenset(hook.rsplit(".", 1)[1] for hook in FORWARD_HOOKS)


@dataclass
class ExternalEntry:
    """A function of this file that traced code elsewhere calls."""

    chain: tuple[str, ...]
    # One (positional facts, keyword facts, bound) per call site whose caller knew its argument facts.
    sites: list[tuple[tuple, tuple, bool]] = field(default_factory=list)
    # Why it is traced, when that is not "called from" the chain's previous function.
    reason: str = ""
    # Per site of `sites`: the positions of its arguments that are sparse tensors (CallRef.sparse).
    sparse: list[tuple[int, ...]] = field(default_factory=list)

    def key(self) -> tuple:
        return (self.chain, tuple(sorted(set(zip(self.sites, self.sparse)), key=repr)))

    def sparse_parameters(self) -> frozenset:
        """The parameters (their positions, self counted) every call site hands a sparse tensor."""
        if not self.sites or len(self.sparse) != len(self.sites):
            return frozenset()
        each = [{i + (1 if bound else 0) for i in sparse} for (_, _, bound), sparse in zip(self.sites, self.sparse)]
        return frozenset(set.intersection(*each))


@dataclass
class FileContext:
    """What the rest of the tree tells one file: functions of it that traced code calls, and the
    dotted names it calls (as its imports spell them) that return a tensor or a tuple of tensors."""

    entries: dict[str, ExternalEntry] = field(default_factory=dict)
    returns_tensor: frozenset[str] = frozenset()
    returns_tensors: frozenset[str] = frozenset()
    # ... and those that return a sparse tensor (sparse.py).
    returns_sparse: frozenset[str] = frozenset()
    # project_breaks.py: "qualname:line:col" -> (Cls.method, where it breaks, the classes it may also be
    # whose method does not) of calls on new objects whose method breaks; init qualname -> (why, the
    # condition of the construction, "" for none), of the __init__s run on a half-built self.
    object_breaks: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    half_built: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Names this file imports that another file binds to a builtin generic alias, and the TypedDicts with
    # optional keys it imports (type_facts.py).
    generic_aliases: frozenset[str] = frozenset()
    optional_typeddicts: frozenset[str] = frozenset()
    # class -> attributes its bases in other files make tensors (buffers, parameters, `self.x = torch...`).
    inherited_tensor_attrs: dict[str, frozenset[str]] = field(default_factory=dict)

    def key(self) -> tuple:
        return (tuple((q, self.entries[q].key()) for q in sorted(self.entries)),
                tuple(sorted(self.returns_tensor)), tuple(sorted(self.returns_tensors)), tuple(sorted(self.returns_sparse)),
                tuple(sorted(self.object_breaks.items())), tuple(sorted(self.half_built.items())),
                tuple(sorted(self.generic_aliases)), tuple(sorted(self.optional_typeddicts)),
                tuple((c, tuple(sorted(a))) for c, a in sorted(self.inherited_tensor_attrs.items())))


def module_name(path: str) -> tuple[str, bool]:
    """(dotted module name, is a package's __init__) from the folders that hold an __init__.py."""
    path = os.path.abspath(path)
    directory, filename = os.path.split(path)
    stem = os.path.splitext(filename)[0]
    is_package = stem == "__init__"
    parts = [] if is_package else [stem]
    while os.path.exists(os.path.join(directory, "__init__.py")):
        parent, name = os.path.split(directory)
        parts.append(name)
        if parent == directory:
            break
        directory = parent
    return ".".join(reversed(parts)) or stem, is_package


class ProjectGraph:
    def __init__(self, summaries: dict[str, ModuleSummary]):
        self.summaries = summaries
        self.module_of: dict[str, str] = {}
        self.package_of: dict[str, bool] = {}
        self.path_of: dict[str, str] = {}
        for path in summaries:
            name, is_package = module_name(path)
            self.module_of[path] = name
            self.package_of[path] = is_package
            self.path_of.setdefault(name, path)
        self._texts: dict[str, Optional[CallText]] = {}
        self._star_memo: dict[tuple[str, tuple[str, ...]], Optional[tuple[str, str, str]]] = {}
        self._text_calls: dict[tuple[str, str], tuple[CallRef, ...]] = {}
        self._bases: dict[ClassKey, list[ClassKey]] = {}
        self._children: dict[ClassKey, list[ClassKey]] = {}
        self._methods_by_name: dict[tuple[str, str], list[ClassKey]] = {}
        self._methods_by_name_only: Optional[dict[str, list[tuple[str, ClassKey]]]] = None
        self._structural_memo: dict[tuple[ClassKey, str], tuple[ClassKey, ...]] = {}
        self._module_classes_memo: dict[str, tuple[tuple[ClassKey, ...], bool]] = {}
        self._module_keys: Optional[set[ClassKey]] = None
        self._attr_table: dict[ClassKey, dict[str, list[tuple[str, str]]]] = {}
        self._returned_memo: dict[tuple[str, str], list[tuple[ClassKey, bool]]] = {}
        self._item_memo: dict[tuple[tuple[str, str], int], list[tuple[ClassKey, bool]]] = {}
        self._returned_functions_memo: dict[tuple[str, str], list[str]] = {}
        self._function_tree_memo: dict[tuple[str, str], Optional[ast.AST]] = {}
        self._called_on_memo: dict[tuple[str, str, str, object], list[str]] = {}  # (.., param, boxed keys or False)
        self._spans_memo: dict[str, list[tuple[int, int, str]]] = {}
        self._passed_memo: dict[tuple[ClassKey, str], list[tuple[str, str]]] = {}
        self._construction_memo: dict[ClassKey, list[tuple[str, int, str]]] = {}
        self._compound_memo: dict[str, list[str]] = {}
        self._stack_memo: dict[str, list[ClassKey]] = {}
        self._class_objects_memo: dict[tuple[str, str], list[ClassKey]] = {}
        self._table_memo: dict[str, dict[str, str]] = {}
        self._forward_memo: dict = {}
        self._bindings_memo: dict[tuple[ClassKey, str], list[tuple[str, str]]] = {}
        self._alias_index: Optional[dict[str, list[str]]] = None
        self._registered_memo: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
        self._kl_memo: Optional[list[tuple[str, str]]] = None
        self._package_call_index: Optional[dict[tuple[str, str], list[tuple[str, int, int]]]] = None
        self._class_index: Optional[dict[tuple[str, str], list[ClassKey]]] = None
        # Hierarchy answers, asked hundreds of thousands of times on a big tree (a base class's
        # `self.x()` looks at every subclass). Like the memos above, they read only what a graph
        # round never changes (classes, bases, imports, class bodies), so they outlive a round.
        self._mro_memo: dict[ClassKey, tuple[ClassKey, ...]] = {}
        self._descendants_memo: dict[ClassKey, tuple[ClassKey, ...]] = {}
        self._lookup_memo: dict[tuple[ClassKey, str, bool], Optional[ClassKey]] = {}
        self._overrides_memo: dict[tuple[ClassKey, str], tuple[ClassKey, ...]] = {}
        self._attribute_memo: dict[tuple[ClassKey, str, int], list[tuple[ClassKey, bool, bool]]] = {}
        self._bound_memo: dict[tuple[ClassKey, str], list[tuple[ClassKey, str]]] = {}
        self._targets_memo: dict[tuple, tuple] = {}
        # Which classes reach nn.Module / a torch.distributions class: bases only, fixed for the run.
        self._modules_memo: Optional[dict[ClassKey, str]] = None
        self._distributions_memo: Optional[dict[ClassKey, tuple[str, str]]] = None
        self._properties = frozenset(p for summary in summaries.values() for info in summary.classes.values()
                                     for p in info.properties)
        self._item_hooks = any("__setitem__" in info.methods or "__getitem__" in info.methods
                               for summary in summaries.values() for info in summary.classes.values())
        self._managers = any("__enter__" in info.methods for summary in summaries.values()
                             for info in summary.classes.values())
        self._getattr_hooks = any("__getattr__" in info.methods for summary in summaries.values()
                                  for info in summary.classes.values())
        for path, summary in summaries.items():
            top = self.module_of[path].split(".")[0]
            for cname, info in summary.classes.items():
                key = (path, cname)
                bases = [b for b in (self._resolve_class(path, base) for base in info.bases if base) if b]
                self._bases[key] = bases
                for base in bases:
                    self._children.setdefault(base, []).append(key)
                for method in info.methods:
                    self._methods_by_name.setdefault((top, method), []).append(key)

    # -- calls ------------------------------------------------------------------------------------
    def calls(self, path: str, qualname: str) -> tuple[CallRef, ...]:
        """What a function calls: from the summary for traced ones, else read off the file's text
        once the graph reaches it (summary.spans)."""
        summary = self.summaries[path]
        refs = summary.calls.get(qualname)
        if refs is not None or qualname not in summary.spans:
            return refs or ()
        key = (path, qualname)
        if key not in self._text_calls:
            text = self._text(path)
            refs = text_calls(summary, qualname, text) if text is not None else ()
            first, last, self_name = summary.spans[qualname]
            if text is not None and self._managers:
                # `with Ctx(...):` in a function read off the text: the manager's __enter__ / __exit__
                for spelled in dict.fromkeys(_WITH_CALL.findall(text.lines(first, last))):
                    ref = classify_spelling(spelled, False, self_name, summary.aliases, summary.functions,
                                            summary.classes, own_root=summary.own_root)
                    if ref is not None and ref[0] in (GLOBAL, LOCAL):
                        refs = refs + tuple(CallRef(INSTANCE, f"{ref[1]}.{m}") for m in ("__enter__", "__exit__"))
            if text is not None and self_name and self._item_hooks:
                # `self[k] = v` / `self[k]`: the class's __setitem__ / __getitem__ run
                body = text.lines(first, last)
                for match in _pattern(rf"(?<![\w.]){re.escape(self_name)}\s*\[[^\]\n]*\]\s*(=(?!=))?").finditer(body):
                    refs = refs + (CallRef(SELF, "__setitem__" if match.group(1) else "__getitem__"),)
                refs = tuple(dict.fromkeys(refs))
            if text is not None and self_name and (self._properties or self._getattr_hooks):
                # `self.x` read where some class of the tree makes `x` a property or has a __getattr__
                reads = _pattern(rf"(?<![\w.]){re.escape(self_name)}\s*\.\s*([A-Za-z_]\w*)\b(?!\s*\()") \
                    .findall(text.lines(first, last))
                refs = refs + tuple(CallRef(READ, attr) for attr in dict.fromkeys(reads)
                                    if self._getattr_hooks or attr in self._properties)
            self._text_calls[key] = refs
        return self._text_calls[key]

    def _text(self, path: str) -> Optional[CallText]:
        if path not in self._texts:
            try:
                self._texts[path] = CallText(read_source(path))  # decoded as the lint decoded it
            except (OSError, ValueError):
                self._texts[path] = None
        return self._texts[path]

    # -- names -----------------------------------------------------------------------------------
    def _absolute(self, path: str, dotted: str) -> str:
        """Resolve a relative import target (".loop.f") against the importing module."""
        if not dotted.startswith("."):
            return dotted
        level = len(dotted) - len(dotted.lstrip("."))
        package = self.module_of[path].split(".")
        if not self.package_of[path]:
            package = package[:-1]
        if level > 1:
            package = package[: len(package) - (level - 1)]
        rest = dotted.lstrip(".")
        return ".".join(package + ([rest] if rest else []))

    def resolve(self, dotted: str, hops: int = 0, fact: Optional[str] = None) -> Optional[tuple[str, str, str]]:
        """("function" | "class" | "method", path, qualname) that a dotted name means, or None. With `fact`
        (a summary field of type_facts.py), ("fact", path, name) for a name the defining file lists there,
        through imports but not star imports."""
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            path = self.path_of.get(".".join(parts[:cut]))
            if path is not None:
                return self._resolve_in(path, parts[cut:], hops, stars=fact is None, fact=fact)
        return None

    def _resolve_in(self, path: str, rest: list[str], hops: int,
                    stars: bool = True, fact: Optional[str] = None) -> Optional[tuple[str, str, str]]:
        summary = self.summaries[path]
        head = rest[0]
        if fact is not None and len(rest) == 1 and head in getattr(summary, fact):
            return "fact", path, head
        if head in summary.classes:
            if len(rest) == 1:
                return "class", path, head
            if len(rest) == 2 and rest[1] in summary.classes[head].methods:
                return "method", path, f"{head}.{rest[1]}"
            return None
        if head in summary.functions:
            return ("function", path, head) if len(rest) == 1 else None
        target = summary.aliases.get(head)
        if target is not None and hops < MAX_ALIAS_HOPS:
            target = self._absolute(path, target)
            return self.resolve(".".join([target] + rest[1:]), hops + 1, fact)
        if stars and summary.stars and hops < MAX_ALIAS_HOPS:
            key = (path, tuple(rest))
            if key not in self._star_memo:
                self._star_memo[key] = None  # a cycle of star imports sees "not found"
                self._star_memo[key] = self._through_stars(path, rest, hops)
            return self._star_memo[key]
        return None

    def _through_stars(self, path: str, rest: list[str], hops: int) -> Optional[tuple[str, str, str]]:
        """`from .pool import *` re-exports: breadth first through the star-imported modules, the
        first that defines or imports the name wins."""
        seen, queue = {path}, deque([path])
        while queue:
            current = queue.popleft()
            for star in self.summaries[current].stars:
                star_path = self.path_of.get(self._absolute(current, star))
                if star_path is None or star_path in seen:
                    continue
                seen.add(star_path)
                found = self._resolve_in(star_path, rest, hops + 1, stars=False)
                if found is not None:
                    return found
                queue.append(star_path)
        return None

    def _resolve_class(self, path: str, spelled: str) -> Optional[ClassKey]:
        summary = self.summaries[path]
        if spelled in summary.classes:
            return path, spelled
        found = self.resolve(self._absolute(path, spelled)) if "." in spelled else None
        if found is None and spelled in summary.aliases:
            found = self.resolve(self._absolute(path, summary.aliases[spelled]))
        if found is not None and found[0] == "class":
            return found[1], found[2]
        return None

    def _assigned_calls(self, cls: ClassKey, attr: str):
        """What `self.<attr> = callee(...)` in the class's hierarchy calls: `resolve`'s answer for the
        callee, None for one outside the tree."""
        for key in self._mro(cls):
            for kind, spelled in self._assigned(key).get(attr, ()):
                if kind == "call":
                    yield self._named(key[0], spelled)

    def _may_hold_submodule(self, cls: ClassKey, attr: str) -> bool:
        """Whether `self.<attr>` may be a submodule: assigned a call of a class outside the tree
        (nn.Linear), of a module class of the tree, or of a factory that returns one."""
        for named in self._assigned_calls(cls, attr):
            if named is None:
                return True
            if named[0] == "class" and self._is_module((named[1], named[2])):
                return True
            if named[0] == "function" and any(self._is_module(c) for c, _ in self._returned(named[1], named[2], 0)):
                return True
        return False

    def _bases_known(self, cls: ClassKey) -> bool:
        """Whether every base of the class's hierarchy is a class of the tree (or a bare marker base)."""
        return all(not base or base in _MARKER_BASES or self._resolve_class(key[0], base) is not None
                   for key in self._mro(cls) for base in self.summaries[key[0]].classes[key[1]].bases)

    # -- classes -----------------------------------------------------------------------------------
    def _mro(self, cls: ClassKey) -> tuple[ClassKey, ...]:
        """The class and its bases, breadth first (close enough to Python's MRO for lookup)."""
        found = self._mro_memo.get(cls)
        if found is None:
            found = self._mro_memo[cls] = tuple(_breadth_first([cls], self._bases))
        return found

    def _inherited_method(self, dotted_name: str) -> Optional[tuple[str, str, str]]:
        """("method", path, qualname) for `pkg.mod.Sub.value` where Sub inherits value from a base (of
        another file too), else None."""
        owner, _, method = dotted_name.rpartition(".")
        cls = self.resolve(owner)
        if cls is None or cls[0] != "class":
            return None
        found = self._lookup((cls[1], cls[2]), method)
        return ("method", found[0], f"{found[1]}.{method}") if found is not None else None

    def _lookup(self, cls: ClassKey, method: str, skip_first: bool = False) -> Optional[ClassKey]:
        memo_key = (cls, method, skip_first)
        if memo_key in self._lookup_memo:
            return self._lookup_memo[memo_key]
        found = None
        for i, key in enumerate(self._mro(cls)):
            if skip_first and i == 0:
                continue
            if method in self.summaries[key[0]].classes[key[1]].methods:
                found = key
                break
        self._lookup_memo[memo_key] = found
        return found

    def _next_in_mro(self, instance: ClassKey, owner: ClassKey, method: str) -> Optional[ClassKey]:
        """`super().method()` in `owner`'s code on an object of class `instance`: the next class after
        `owner` in the instance's order that defines it (a mixin's super() reaches a sibling base)."""
        order = self._mro(instance)
        if owner not in order:
            return None
        for key in order[order.index(owner) + 1:]:
            if method in self.summaries[key[0]].classes[key[1]].methods:
                return key
        return None

    def modules(self) -> dict[ClassKey, str]:
        """Classes that reach nn.Module through bases in any file, at any depth, and that their own
        file did not take for modules: class -> the path of bases, for the reason."""
        if self._modules_memo is None:
            found = self._reaching(is_module_base)
            self._modules_memo = {key: reason for key, reason in found.items()
                                  if not self.summaries[key[0]].classes[key[1]].is_module}
        return self._modules_memo

    def distribution_classes(self) -> dict[ClassKey, tuple[str, str]]:
        """Classes that reach a torch.distributions class through bases in other files, and that
        their own file did not see as such: class -> (kind, the path of bases)."""
        if self._distributions_memo is None:
            found = self._reaching(lambda base: base in DISTRIBUTION_CLASSES, own_names=True)
            self._distributions_memo = {
                key: (DISTRIBUTION_CLASSES[reason.rsplit(" ", 1)[-1]], reason)
                for key, reason in found.items() if not self.summaries[key[0]].classes[key[1]].distribution_kind}
        return self._distributions_memo

    def _reaching(self, is_torch_base, own_names: bool = False) -> dict[ClassKey, str]:
        """Classes with a torch base that `is_torch_base` accepts, at any depth of bases in any file:
        class -> "subclass of A (module), subclass of <torch base>"."""
        reasons: dict[ClassKey, str] = {}
        for key in self._bases:
            dotted = f"{self.module_of[key[0]]}.{key[1]}"
            if own_names and is_torch_base(dotted):
                # torch's own class, when the tree linted is torch itself (torch/distributions/).
                reasons[key] = f"the torch class {dotted}"
                continue
            for base in self.summaries[key[0]].classes[key[1]].bases:
                if is_torch_base(base):
                    reasons[key] = f"subclass of {base}"
                    break
        changed = True
        while changed:
            changed = False
            for key, bases in self._bases.items():
                if key in reasons:
                    continue
                for base in bases:
                    if base in reasons:
                        reasons[key] = f"subclass of {base[1]} ({self.module_of[base[0]]}), " + reasons[base]
                        changed = True
                        break
        return reasons

    def _inherited_return(self, owner: ClassKey, method: str) -> bool:
        """Whether `self.<method>(...)` on an object of `owner` runs a method of a base in another file that
        returns a tensor on every path (judged there without its callers' facts)."""
        found = self._lookup(owner, method)
        return found is not None and found[0] != owner[0] \
            and f"{found[1]}.{method}" in self.summaries[found[0]].returns_tensor

    def _inherited_tensor_attrs(self, path: str, traced: list[str]) -> dict[str, frozenset[str]]:
        """class -> attributes that its bases in other files make tensors, for the classes of a file with a
        traced method (`if self.scale > 0:` with `scale` a buffer of a base elsewhere; measured on 2.13)."""
        classes = self.summaries[path].classes
        read: dict[str, set[str]] = {}  # class -> the `self.x` its traced methods read (not its own methods)
        for qualname in traced:
            cname = qualname.rpartition(".")[0]
            if cname in classes:
                read.setdefault(cname, set()).update(ref.name for ref in self.calls(path, qualname) if ref.kind == READ)
        found = {}
        for cname, names in read.items():
            # only what is read: a file told of more is linted again for nothing (a model library's every
            # subclass of its base model)
            attrs = frozenset(attr for key in self._mro((path, cname)) if key[0] != path
                              for attr in self.summaries[key[0]].classes[key[1]].tensor_attrs if attr in names)
            if attrs:
                found[cname] = attrs
        return found

    def _descendants(self, cls: ClassKey) -> tuple[ClassKey, ...]:
        found = self._descendants_memo.get(cls)
        if found is None:
            found = self._descendants_memo[cls] = tuple(_breadth_first(self._children.get(cls, ()), self._children))
        return found

    def _overrides(self, cls: ClassKey, method: str) -> tuple[ClassKey, ...]:
        """The subclasses of `cls`, at any depth, that define `method` themselves."""
        memo_key = (cls, method)
        found = self._overrides_memo.get(memo_key)
        if found is None:
            found = self._overrides_memo[memo_key] = tuple(
                child for child in self._descendants(cls) if method in self.summaries[child[0]].classes[child[1]].methods)
        return found

    # -- what each file learns -----------------------------------------------------------------------
    def contexts(self) -> dict[str, FileContext]:
        """For each file that the rest of the tree tells something, what it tells."""
        reached = self.external_entries()
        result = {path: FileContext(entries=entries) for path, entries in reached.items()}
        # the GLOBAL names traced code of each file calls, where the tree has an optional-key TypedDict to tell of
        called: Optional[dict[str, set[str]]] = \
            {} if any(summary.optional_typeddicts for summary in self.summaries.values()) else None
        for path, summary in self.summaries.items():
            tensor, tensors, sparse = set(), set(), set()
            # Calls of traced functions: the file's own, and those other files reach.
            traced = list(summary.calls.items()) + [(q, self.calls(path, q)) for q in reached.get(path, ())]
            if called is not None:
                called[path] = {ref.name for _q, refs in traced for ref in refs if ref.kind == GLOBAL}
            for caller, refs in traced:
                for ref in refs:
                    if ref.kind == SELF:
                        # `self.score(x)` with score a method of a base in another file returning a tensor:
                        # "<class>.self.<method>" (the class the caller's self is of)
                        owner = self._owner(path, caller)
                        if owner is not None and self._inherited_return(owner, ref.name):
                            tensor.add(f"{owner[1]}.self.{ref.name}")
                        continue
                    if ref.kind not in (GLOBAL, INSTANCE, HELD_READ) or ref.name in tensor or ref.name in tensors:
                        continue
                    found = self.resolve(self._absolute(path, ref.name))
                    if found is None and ref.kind != GLOBAL:
                        found = self._inherited_method(self._absolute(path, ref.name))
                    # a function, or a method (or property) of an object of a known class (`h.value()`), its
                    # own or a base's
                    if found is None or found[0] != ("function" if ref.kind == GLOBAL else "method"):
                        continue
                    target = self.summaries[found[1]]
                    if found[2] in target.returns_tensor:
                        tensor.add(ref.name)
                    elif found[2] in target.returns_tensors:
                        tensors.add(ref.name)
                    if found[2] in target.returns_sparse:
                        sparse.add(ref.name)
            if tensor or tensors or sparse:
                context = result.setdefault(path, FileContext())
                context.returns_tensor, context.returns_tensors = frozenset(tensor), frozenset(tensors)
                context.returns_sparse = frozenset(sparse)
            inherited = self._inherited_tensor_attrs(path, list(summary.scopes) + list(reached.get(path, ())))
            if inherited:
                result.setdefault(path, FileContext()).inherited_tensor_attrs = inherited
        self._add_cross_file_breaks(result, reached)
        for fact in _TYPE_FACTS:
            if any(getattr(summary, fact) for summary in self.summaries.values()):
                for path in self.summaries:
                    # a TypedDict matters where traced code builds it: most files only annotate with one,
                    # and a file told of it is linted again
                    only = called[path] if fact == "optional_typeddicts" else None  # (then called is kept)
                    imported = self._imported_type_facts(path, fact, only)
                    if imported:
                        setattr(result.setdefault(path, FileContext()), fact, imported)
        return result

    def _imported_type_facts(self, path: str, fact: str, only: Optional[set[str]]) -> frozenset[str]:
        """The names a file imports that another file of the tree lists in its summary's `fact` (a generic
        alias, a TypedDict with optional keys), through re-exports too; with `only`, just the imports so
        spelled. Only capitalised names are looked up: type aliases and classes are spelled so."""
        found = set()
        for name, target in self.summaries[path].aliases.items():
            if target.rpartition(".")[2][:1].isupper() and (only is None or target in only):
                hit = self.resolve(self._absolute(path, target), fact=fact)
                if hit is not None and hit[0] == "fact":
                    found.add(name)
        return frozenset(found)

    def _add_cross_file_breaks(self, result: dict[str, FileContext], reached: dict) -> None:
        """Calls on new objects whose method breaks, and the module __init__s that then run on a
        half-built self (project_breaks.py); such an __init__ becomes a traced scope of its file."""
        found = CrossFileBreaks(self)
        for path, calls in found.object_breaks.items():
            result.setdefault(path, FileContext()).object_breaks = calls
        for path, inits in found.half_built.items():
            context = result.setdefault(path, FileContext())
            own = self.summaries[path].scopes
            for qualname, (why, chain, condition) in inits.items():
                context.half_built[qualname] = (why, condition)
                if qualname not in own and qualname not in reached.get(path, {}):
                    context.entries[qualname] = ExternalEntry(
                        chain=chain, reason=f"a module built where Dynamo runs eagerly ({why})")

    # -- reachability ------------------------------------------------------------------------------
    def external_entries(self) -> dict[str, dict[str, ExternalEntry]]:
        """For each file, the functions that traced code reaches from another file (or through the
        class hierarchy), which the file's own analysis cannot see."""
        result: dict[str, dict[str, ExternalEntry]] = {}
        seen: set[tuple[str, str, Optional[ClassKey]]] = set()
        queue: deque[tuple[str, str, Optional[ClassKey], tuple[str, ...]]] = deque()
        for path, summary in self.summaries.items():
            for qualname, chain in summary.scopes.items():
                state = (path, qualname, self._owner(path, qualname))
                seen.add(state)
                queue.append((*state, chain))

        def enter(path: str, cname: str, method: str, reason: str) -> None:
            """A method the whole tree shows to be traced, which its own file's analysis did not find."""
            qualname = f"{cname}.{method}"
            if qualname in self.summaries[path].scopes:
                return
            result.setdefault(path, {})[qualname] = ExternalEntry(chain=(qualname,), reason=reason)
            state = (path, qualname, (path, cname))
            if state not in seen:
                seen.add(state)
                queue.append((*state, (qualname,)))

        # Modules that only the whole tree shows to be modules (their file saw no path to nn.Module
        # and no evidence): their forward is an entry point.
        for (path, cname), reason in self.modules().items():
            for entry in ("forward", "__call__"):
                if entry in self.summaries[path].classes[cname].methods:
                    enter(path, cname, entry, f"{entry} of {cname}: {reason}")
        # Overrides of a method that a torch.nn base's forward calls on self (`_conv_forward`), the base
        # reached through classes of other files; not where a forward of the tree overrides torch's (what
        # that calls is followed as usual).
        for path, summary in self.summaries.items():
            for cname, info in summary.classes.items():
                for method in info.methods & _HOOK_NAMES:
                    base = next((base for key in self._mro((path, cname))
                                 for base in self.summaries[key[0]].classes[key[1]].bases
                                 if f"{base}.{method}" in FORWARD_HOOKS), None)
                    if base is not None and not self._lookup((path, cname), "forward"):
                        enter(path, cname, method, f"{method} of {cname}: {base}.forward calls it")
        # Subclasses of torch.distributions' classes through bases in other files: their API methods.
        for (path, cname), (kind, reason) in self.distribution_classes().items():
            for method in distribution_entries(self.summaries[path].classes[cname].methods, kind):
                enter(path, cname, method, distribution_reason(method, cname, kind, reason))
        while queue:
            path, qualname, dynamic, chain = queue.popleft()
            for ref in self.calls(path, qualname):
                for target_path, target, target_class, bound in self._targets(path, qualname, dynamic, ref):
                    if target not in self.summaries[target_path].scopes:  # the file's own analysis misses it
                        entries = result.setdefault(target_path, {})
                        entry = entries.get(target)
                        if entry is None:
                            entry = entries[target] = ExternalEntry(chain=chain + (target,))
                        if ref.positional is not None and ref.kind != READ \
                                and not target.endswith(("__post_init__", "__new__")):
                            if bound is CTX_FIRST:  # the static forward(ctx, *args): ctx is no argument
                                entry.sites.append(((None,) + ref.positional, ref.keywords, False))
                                entry.sparse.append(tuple(i + 1 for i in ref.sparse))
                            else:
                                entry.sites.append((ref.positional, ref.keywords, bound))
                                entry.sparse.append(ref.sparse)
                    state = (target_path, target, target_class)
                    if state not in seen:
                        seen.add(state)
                        queue.append((*state, chain + (target,)))
        return result

    def _owner(self, path: str, qualname: str) -> Optional[ClassKey]:
        if "." in qualname:
            cls = qualname.rsplit(".", 1)[0]
            if cls in self.summaries[path].classes:
                return path, cls
        return None

    def _targets(self, path: str, qualname: str, dynamic: Optional[ClassKey], ref: CallRef) -> tuple:
        """(path, qualname, class the method runs on, bound: the first parameter is implicit) of each
        function a call may run. Kept for the next graph round, which asks again for every call."""
        # (a function read off the text in one round may be linted as traced in the next: its name
        # dispatch then goes further, _by_name)
        memo_key = (path, qualname, dynamic, ref.kind, ref.name, bool(ref.positional),
                    qualname in self.summaries[path].calls)
        found = self._targets_memo.get(memo_key)
        if found is None:
            found = self._targets_memo[memo_key] = tuple(self._find_targets(path, qualname, dynamic, ref))
        return found

    def _resolved_targets(self, found: tuple[str, str, str]):
        """What calling a name `resolve` found runs: a class's constructor, else the function or method."""
        kind, path, qualname = found
        if kind == "class":
            yield from self._construction((path, qualname))
        else:
            yield path, qualname, self._owner(path, qualname) if kind == "method" else None, False

    def _find_targets(self, path: str, qualname: str, dynamic: Optional[ClassKey], ref: CallRef):
        summary = self.summaries[path]
        if ref.kind == LOCAL:
            if ref.name in summary.functions:
                yield path, ref.name, None, False
            elif ref.name in summary.classes:
                yield from self._construction((path, ref.name))
            elif "." in ref.name:
                cls, method = ref.name.rsplit(".", 1)
                if cls in summary.classes:
                    yield from self._class_attribute_call((path, cls), method)
            elif summary.stars:  # a name `from m import *` brought in
                found = self._through_stars(path, [ref.name], 0)
                if found is not None:
                    yield from self._resolved_targets(found)
        elif ref.kind == GLOBAL:
            found = self.resolve(self._absolute(path, ref.name))
            if found is None:
                # `Cls.method` inherited from a base class, or `module.Cls` re-exported
                head, _, method = ref.name.rpartition(".")
                owner = self.resolve(self._absolute(path, head)) if head else None
                if owner is not None and owner[0] == "class":
                    yield from self._class_attribute_call((owner[1], owner[2]), method)
                elif owner is None and head and not method.startswith("__"):
                    # `_default.go(x)` with `_default = Helper()` at the top of another module
                    for cls, exact in self._module_object_classes(self._absolute(path, head)):
                        yield from self._method_targets(cls, method, exact)
            else:
                yield from self._resolved_targets(found)
        elif ref.kind in (SELF, SUPER):
            owner = self._owner(path, qualname)
            start = dynamic or owner
            if start is None:
                return
            if ref.kind == SUPER:
                found = self._next_in_mro(dynamic, owner, ref.name) if dynamic and owner and dynamic != owner else None
                found = found or self._lookup(owner or start, ref.name, skip_first=True)
                if found is not None:
                    yield found[0], f"{found[1]}.{ref.name}", start, True
                return
            found = self._lookup(start, ref.name)
            if found is not None:
                yield found[0], f"{found[1]}.{ref.name}", start, True
            elif self._is_module(start) and self._may_hold_submodule(start, ref.name):
                # `self.lin(x)` with `self.lin = nn.Linear(...)`: a module's submodules are never in its
                # __dict__, so a __getattr__ of its hierarchy answers the read (a plain attribute or an
                # inherited method is found first, and the hook never runs)
                hook = self._lookup(start, "__getattr__")
                if hook is not None:
                    yield hook[0], f"{hook[1]}.__getattr__", start, True
            # The object may be any subclass of the one we know: its overrides run too.
            overrides = self._overrides(start, ref.name)
            overridden = bool(overrides)
            for child in overrides:
                yield child[0], f"{child[1]}.{ref.name}", child, True
            if found is not None and ref.name not in self.summaries[found[0]].classes[found[1]].properties \
                    or overridden or ref.name.startswith("__"):
                return
            # self.x(...) where x holds an object (its __call__ runs), a class (it is constructed) or
            # a bound method of the class
            for hit, method in self._bound_methods(start, ref.name):
                yield hit[0], f"{hit[1]}.{method}", start, True
            for cls, exact, is_class in self._attribute_classes(start, ref.name):
                if is_class:
                    yield from self._construction(cls)
                elif not self._is_module(cls):
                    yield from self._method_targets(cls, "__call__", exact)
            # `self.act = get_act(name)` with get_act elsewhere returning `ACTS[name]` or `swish`
            for named in self._assigned_calls(start, ref.name):
                if named is not None and named[0] == "function":
                    for function in self._returned_functions(named[1], named[2]):
                        yield named[1], function, None, False
            # `self.fn = fn` with `Wrapper(drift)` built somewhere: the function passed runs
            yield from self._passed_functions(start, ref.name)
            for key in self._mro(start):  # `act_fn = staticmethod(gelu)` in a class body of another file
                for kind, spelled in self._assigned(key).get(ref.name, ()):
                    hit = self._named(key[0], spelled) if kind == "static" else None
                    if hit is not None and hit[0] == "function":
                        yield hit[1], hit[2], None, False
        elif ref.kind == READ:
            start = dynamic or self._owner(path, qualname)
            if start is None:
                return
            found = self._lookup(start, ref.name)
            if found is not None and ref.name in self.summaries[found[0]].classes[found[1]].properties:
                yield found[0], f"{found[1]}.{ref.name}", start, True
            elif found is None:
                # no method or property of that name: a __getattr__ of the hierarchy may answer the
                # read (a module's submodules and parameters are never in its __dict__)
                hook = self._lookup(start, "__getattr__")
                if hook is not None:
                    yield hook[0], f"{hook[1]}.__getattr__", start, True
        elif ref.kind == INSTANCE:
            spelled, _, method = ref.name.rpartition(".")
            if method == "__call__":  # `fn = make_drift(0.5); fn(t, y)`: the closure the factory returns
                made = self._named_function(path, spelled)
                if made is not None and made[0] == "function":
                    for function in self._returned_functions(made[1], made[2]):
                        yield made[1], function, None, False
                    # `solver_fn = select(method); solver_fn(sde, bm)`: the class it returns is built
                    for cls in self._returned_class_objects(made[1], made[2]):
                        yield from self._construction(cls)
            named = self._classes_named(path, spelled, 0)
            for cls, exact in named:
                if method == "__call__" and self._is_module(cls):
                    continue  # a module's forward is an entry point of its own
                yield from self._method_targets(cls, method, exact)
            if not named and method != "__call__" and not method.startswith("__") and method not in BUILTIN_METHODS \
                    and self._returns_untyped_object(path, spelled) \
                    and (method not in TENSOR_METHODS or self._called_as_no_tensor(path, qualname, spelled)):
                # `nx = get_backend(x); nx.eye(n)`: the function returns an object nothing types (an instance
                # cached from a registry of classes): the methods of that name, as for an untyped member; a
                # tensor method's name (`nx.unique(y)`) only where another method called on it is no tensor's
                yield from self._by_name(path, qualname, method, families=True)
        elif ref.kind == HELD_READ:  # a read runs a property or a special method, never a plain method
            spelled, _, read = ref.name.rpartition(".")
            if spelled == UNTYPED_SPELLING:
                yield from self._by_name(path, qualname, read, properties=True)
                held = []
            elif spelled.startswith(MEMBER_SPELLING):  # `self.tok.eot`: what the hierarchy assigns to `tok`
                start = dynamic or self._owner(path, qualname)
                # (no fallback by name when nothing is found: `x` may hold a torch module, nn.Linear's
                # `in_features`, or a buffer's `device`: the review of stop 36)
                held = [(cls, exact) for cls, exact, is_class in self._attribute_classes(start, spelled[len(MEMBER_SPELLING):])
                        if not is_class] if start is not None else []
            else:
                held = self._classes_named(path, spelled, 0)
            for cls, exact in held:
                # truth falls back to __len__ where the hierarchy has no __bool__
                attr = "__len__" if read == "__bool__" and self._lookup(cls, "__bool__") is None else read
                found = False
                for target in self._method_targets(cls, attr, exact, forwarding=False):
                    found = True
                    owner = self.summaries[target[0]].classes.get(target[1].rpartition(".")[0])
                    if attr.startswith("__") or owner is not None and attr in owner.properties:
                        yield target
                if not found and not attr.startswith("__") and self._bases_known(cls) \
                        and not any(attr in self._assigned(key) for key in self._mro(cls)):
                    # `p.alpha` that no class of the hierarchy defines or assigns: its __getattr__ answers
                    hook = self._lookup(cls, "__getattr__")
                    if hook is not None:
                        yield hook[0], f"{hook[1]}.__getattr__", cls, True
        elif ref.kind == MEMBER:
            attr, _, method = ref.name.partition(".")
            start = dynamic or self._owner(path, qualname)
            typed = self._attribute_classes(start, attr) if start is not None else []
            while "." in method:  # `self.flow.base.log_prob(z)`: what each attribute holds in turn
                attr, _, method = method.partition(".")
                typed = [held for cls, _exact, is_class in typed if not is_class
                         for held in self._attribute_classes(cls, attr)]
            answered = False
            for cls, exact, _is_class in typed:
                for target in self._method_targets(cls, method, exact):
                    answered = True
                    yield target
                for hit, bound in self._bound_methods(cls, method):  # `self.prod = {...: self.prod_diag}[k]`
                    answered = True
                    yield hit[0], f"{hit[1]}.{bound}", cls, True
            # no class it may hold has the method, and each is wholly in the tree (else the method may
            # come from a base outside it, nn.Linear's reset_parameters): the typing is incomplete,
            # dispatch by a rare name
            if method == "__call__" and "." not in ref.name[:-len(".__call__")]:
                # `for f in self.fns: x = f(x)` with `Chain([cb1, cb2])`: the functions the list holds
                for target in self._passed_functions(start, attr) if start is not None else ():
                    answered = True
                    yield target
            if not answered and all(self._bases_known(cls) for cls, _, _ in typed) and method not in BUILTIN_METHODS \
                    and (method not in TENSOR_METHODS or ref.positional and method in TENSOR_METHODS_WITHOUT_ARGUMENTS) \
                    and not method.startswith("__"):
                # (`self.bijector.inverse(y, ctx)`: Tensor.inverse takes no argument, so not a tensor's)
                # Nothing types what self holds there (a closure's or a caller's object): other packages too.
                yield from self._by_name(path, qualname, method,
                                         elsewhere=not typed and not self._typed_by_another_ref(path, qualname, method))
        elif ref.kind == ATTRIBUTE:
            yield from self._by_name(path, qualname, ref.name)
        elif ref.kind == RESULT:
            callee, attrs, method = ref.name.split("|")
            steps = attrs.split(".") if attrs else []
            if steps and steps[0].startswith("["):  # an element of a returned tuple: `y, bm = check(y)`
                classes = self._returned_item(path, qualname, dynamic, callee, int(steps.pop(0)[1:-1]))
            else:
                classes = self._result_classes(path, qualname, dynamic, callee)
            for attr in steps:
                classes = [(c, exact) for held, _ in classes
                           for c, exact, is_class in self._attribute_classes(held, attr) if not is_class]
            for cls, exact in dict.fromkeys(classes):
                if method == "__call__" and self._is_module(cls):
                    continue  # a module's forward is an entry point of its own
                yield from self._method_targets(cls, method, exact)
            if not classes and not steps and method not in BUILTIN_METHODS and method not in TENSOR_METHODS \
                    and not method.startswith("__"):
                # `nx = get_backend(x); nx.unique(y)` where nothing types what the function returns (an instance
                # cached from a registry of classes): the methods of that name, as for an untyped member
                yield from self._by_name(path, qualname, method, families=True)
            if method == "__call__" and not steps and not callee.startswith(("self.", "T:")):
                # `select(method)(sde, bm)`: the class the function returns is built
                kind, _, spelled = callee.partition(":")
                made = self._named(path, self._absolute(path, spelled) if kind == GLOBAL else spelled)
                for cls in self._returned_class_objects(made[1], made[2]) if made and made[0] == "function" else ():
                    yield from self._construction(cls)
        elif ref.kind == ELEMENT:
            yield from self._container_targets(self._absolute(path, ref.name))
        elif ref.kind == STACKED:
            spelled, _, method = ref.name.rpartition("|")
            kind, _, name = spelled.partition(":")
            qualified = self._absolute(path, name) if kind == GLOBAL else f"{self.module_of[path]}.{name}"
            for cls in self._stack_fillers(qualified):
                yield from self._method_targets(cls, method, False)
        elif ref.kind == REGISTERED_KL:
            for site, function in self._registered_kl():
                yield site, function, None, False
        elif ref.kind == DECORATOR:
            kind, _, spelled = ref.name.partition(":")
            for target in self._find_targets(path, qualname, dynamic, CallRef(kind, spelled)):
                if not (target[3] is True and target[1].rsplit(".", 1)[-1] in _CONSTRUCTION + ("__setattr__",)):
                    yield target
        elif ref.kind == PASSED_OBJECT:
            callee, key, spelled = ref.name.split("|")
            kind, _, name = callee.partition(":")
            if spelled.startswith(MEMBER_SPELLING):
                start = dynamic or self._owner(path, qualname)
                classes = [(cls, exact) for cls, exact, is_class in
                           (self._attribute_classes(start, spelled[len(MEMBER_SPELLING):]) if start is not None else ())
                           if not is_class]
            else:
                classes = self._classes_named(path, spelled, 0)
            for target_path, target, _owner, bound in self._find_targets(path, qualname, dynamic, CallRef(kind, name)) \
                    if classes else ():
                param = self._parameter_at(target_path, target, key, bound is True)
                for method in self._methods_called_on(target_path, target, param) if param else ():
                    for cls, exact in classes:
                        yield from self._method_targets(cls, method, exact)
        elif ref.kind == PASSED:
            found = (("function", path, ref.name) if ref.name in summary.functions
                     else self.resolve(self._absolute(path, ref.name)))
            if found is not None and found[0] != "class":
                yield from self._resolved_targets(found)
        elif ref.kind == PASSED_METHOD:
            start = dynamic or self._owner(path, qualname)
            if start is not None:
                yield from self._named_method(start, ref.name, inherited_only=True)
        elif ref.kind == GETATTR and "|" in ref.name:  # `getattr(ops, "op_" + name)`: functions of that module
            module, _, template = ref.name.partition("|")
            holder = self.path_of.get(self._absolute(path, module))
            pattern = _pattern(template)
            for name in sorted(self.summaries[holder].functions) if holder is not None else ():
                if "." not in name and pattern.fullmatch(name):
                    yield holder, name, None, False
        elif ref.kind == GETATTR:
            start = dynamic or self._owner(path, qualname)
            if start is not None:
                pattern = _pattern(ref.name)
                names = {name for key in self._mro(start) + self._descendants(start)
                         for name in self.summaries[key[0]].classes[key[1]].methods
                         if pattern.fullmatch(name) and not name.startswith("__")}
                for name in sorted(names):
                    yield from self._named_method(start, name, inherited_only=False)

    def _named_method(self, start: ClassKey, name: str, inherited_only: bool):
        """`self.<name>` taken as a value (passed, or looked up by getattr): the method the object's
        class defines, and the overrides of subclasses; a property is no callable. inherited_only: the
        class's hierarchy must define it (a passed `self.weight` is a tensor unless a method says so)."""
        found = self._lookup(start, name)
        if found is None and inherited_only \
                or found is not None and name in self.summaries[found[0]].classes[found[1]].properties:
            return
        if found is not None:
            yield from self._method_targets(start, name, True)
        for child in self._overrides(start, name):
            yield child[0], f"{child[1]}.{name}", child, True

    def _result_classes(self, path: str, qualname: str, dynamic: Optional[ClassKey],
                        callee: str) -> list[tuple[ClassKey, bool]]:
        """Classes of what a call returns: `self.m(...)` (the method's return, or the forward /
        __call__ of what `self.m` holds), a class of the tree called (an instance), a factory."""
        if callee.startswith("self."):
            start = dynamic or self._owner(path, qualname)
            if start is None:
                return []
            name = callee[5:]
            hit = self._lookup(start, name)
            if hit is not None:
                return self._returned(hit[0], f"{hit[1]}.{name}", 0)
            found = []
            for held, _exact, is_class in self._attribute_classes(start, name):
                if is_class:
                    found.append((held, True))
                    continue
                call = self._lookup(held, "forward" if self._is_module(held) else "__call__")
                if call is not None:
                    found.extend(self._returned(call[0], f"{call[1]}.{'forward' if self._is_module(held) else '__call__'}", 0))
            return found
        kind, _, spelled = callee.partition(":")
        if kind == "T":  # `solver = SOLVERS[method](...)`: any class the module-level dict holds
            return [(cls, True) for cls in self._table_classes(path, spelled)]
        if kind == GLOBAL:
            spelled = self._absolute(path, spelled)
        return self._classes_named(path, spelled, 0)

    def _returned_functions(self, path: str, qualname: str) -> list[str]:
        """Top-level functions of `path` that its function returns by name (`return swish`) or out of a
        module-level dict of functions (`return ACTS[name]`, `return ACTS.get(name)`)."""
        memo_key = (path, qualname)
        if memo_key in self._returned_functions_memo:
            return self._returned_functions_memo[memo_key]
        summary = self.summaries[path]
        span = summary.lines.get(qualname)
        text = self._text(path) if span is not None else None
        found: list[str] = []
        body = text.lines(*span) if text is not None else ""
        for name, indexed in _RETURNED_NAME.findall(body):
            if not indexed and name in summary.functions:
                found.append(name)
            elif not indexed and "." not in qualname and _pattern(rf"(?m)^[ \t]+def[ \t]+{name}[ \t]*\(").search(body):
                found.append(f"{qualname}.<locals>.{name}")  # a closure the factory defines and returns
            elif indexed:
                found.extend(v.id for v in _dict_values(text.text, name) if isinstance(v, ast.Name)
                             and v.id in summary.functions)
        if re.search(r"return[ \t]+(\{|\(|\w+[ \t]+if[ \t])", body):
            # `return {"swish": swish, "relu": F.relu}[name]`, `return swish if smooth else relu`
            tree = self._function_tree(path, qualname)
            for node in walk_outside_defs(tree, root=True) if tree is not None else ():
                if isinstance(node, ast.Return):
                    found.extend(v.id for v in _displayed_callables(node.value) if v.id in summary.functions)
        self._returned_functions_memo[memo_key] = found = list(dict.fromkeys(found))
        return found

    def _returned_item(self, path: str, qualname: str, dynamic: Optional[ClassKey], callee: str,
                       index: int) -> list[tuple[ClassKey, bool]]:
        """Classes of element `index` of the tuples a function returns (`return y, bm` with
        `bm = BrownianInterval(...)` bound in it, or `return y, Cls(...)`)."""
        if callee.startswith("self."):
            start = dynamic or self._owner(path, qualname)
            hit = self._lookup(start, callee[5:]) if start is not None else None
            found = (hit[0], f"{hit[1]}.{callee[5:]}") if hit is not None else None
        else:
            kind, _, spelled = callee.partition(":")
            return self._item_classes(path, self._absolute(path, spelled) if kind == GLOBAL else spelled, index)
        return self._function_item(found, index) if found is not None else []

    def _item_classes(self, path: str, spelled: str, index: int) -> list[tuple[ClassKey, bool]]:
        """Classes of element `index` of what calling the function `spelled` in `path` returns."""
        named = self._named(path, spelled)
        if named is None or named[0] not in ("function", "method"):
            return []
        return self._function_item((named[1], named[2]), index)

    def _function_item(self, found: tuple[str, str], index: int) -> list[tuple[ClassKey, bool]]:
        memo_key = (found, index)
        if memo_key not in self._item_memo:
            self._item_memo[memo_key] = []  # a cycle sees nothing
            self._item_memo[memo_key] = self._find_returned_item(found[0], found[1], index)
        return self._item_memo[memo_key]

    def _find_returned_item(self, path: str, qualname: str, index: int) -> list[tuple[ClassKey, bool]]:
        span = self.summaries[path].lines.get(qualname)
        text = self._text(path) if span is not None else None
        if text is None:
            return []
        body = text.lines(*span)
        found: list[tuple[ClassKey, bool]] = []
        for match in _RETURN.finditer(body):
            try:
                value = ast.parse("(" + _statement_rest(body, match.end()) + "\n)", mode="eval").body
            except SyntaxError:
                continue
            if not isinstance(value, ast.Tuple) or index >= len(value.elts):
                continue
            item = value.elts[index]
            if isinstance(item, ast.Call) and dotted(item.func):
                found.extend(self._classes_named(path, dotted(item.func), 0))
            elif isinstance(item, ast.Name):  # a name the function binds: `bm = BrownianInterval(...)`
                for kind, spelled in _bound_in(body, item.id):
                    if kind == "call":
                        found.extend(self._classes_named(path, spelled, 0))
        return list(dict.fromkeys(found))

    def _class_attribute_call(self, cls: ClassKey, method: str):
        """`Cls.method(...)`: the method its hierarchy defines; `Fn.apply(...)` of an autograd
        Function runs its forward (Dynamo traces it)."""
        found = self._lookup(cls, method)
        if found is not None:
            yield found[0], f"{found[1]}.{method}", cls, False
        elif method == "apply" and self._is_autograd_function(cls):
            hit = self._lookup(cls, "forward")
            if hit is not None:
                yield hit[0], f"{hit[1]}.forward", cls, CTX_FIRST

    def _is_autograd_function(self, cls: ClassKey) -> bool:
        return any(is_autograd_function_base(base) for key in self._mro(cls)
                   for base in self.summaries[key[0]].classes[key[1]].bases)

    def _by_name(self, path: str, qualname: str, method: str, properties: bool = False, elsewhere: bool = False,
                 families: bool = False):
        """`obj.method()` on an object of unknown class: the methods of that name the package defines, where
        few classes define one; with `properties`, a read (`obj.interval`): the properties of that name.
        elsewhere: where the package defines none, the other packages linted with it (`self.inner.infer(x)` in
        a script wrapping a library's model it got untyped; not for a local or a parameter, which a caller's
        object or a module's classes may type by other paths)."""
        top = self.module_of[path].split(".")[0]
        candidates = self._methods_by_name.get((top, method), ())
        if not candidates and elsewhere:
            candidates = self._methods_elsewhere(top, method)
        if properties:
            candidates = [cls for cls in candidates if method in self.summaries[cls[0]].classes[cls[1]].properties]
        limit = MAX_NAME_DISPATCH if qualname in self.summaries[path].calls else MAX_TEXT_NAME_DISPATCH
        # `families`: an object an untyped function returned, where an interface and its implementations are one
        # guess (the other callers keep the plain count: one base with 30 subclasses is 30 guesses for a member)
        if 0 < len(candidates) <= limit or families and 0 < len(self._families(candidates, method)) <= limit:
            for cls in candidates:
                yield cls[0], f"{cls[1]}.{method}", cls, True

    def _named_function(self, path: str, spelled: str) -> Optional[tuple[str, str, str]]:
        """What a name spelled in `path` means (`resolve`'s answer), a bare name only as a function of the file."""
        if "." in spelled:
            return self.resolve(self._absolute(path, spelled))
        return ("function", path, spelled) if spelled in self.summaries[path].functions else None

    def _returns_untyped_object(self, path: str, spelled: str) -> bool:
        """`spelled` is a function of the tree (not a class) that is not known to return tensors."""
        made = self._named_function(path, spelled)
        if made is None or made[0] != "function":
            return False
        summary = self.summaries[made[1]]
        return made[2] not in summary.returns_tensor and made[2] not in summary.returns_tensors

    def _called_as_no_tensor(self, path: str, qualname: str, spelled: str) -> bool:
        """A method no tensor has is called on the object `spelled(...)` made in this function."""
        for ref in self.calls(path, qualname):
            owner, _, method = ref.name.rpartition(".")
            if ref.kind == INSTANCE and owner == spelled and method not in TENSOR_METHODS \
                    and method not in BUILTIN_METHODS and not method.startswith("__"):
                return True
        return False

    def _families(self, candidates, method: str) -> set:
        """The classes among `candidates` whose `method` overrides none of another candidate's (the base of
        each family): an interface and its implementations are one guess, not many (POT's Backend and its
        NumPy, torch, JAX... backends, reached through `nx = get_backend(x)`)."""
        members = set(candidates)
        return {cls for cls in candidates if not any(base in members for base in self._mro(cls)[1:])}

    def _typed_by_another_ref(self, path: str, qualname: str, method: str) -> bool:
        """The function calls `method` on an object another ref types (`cls = getattr(pkg.dists, "Diag")`
        kept on self: an INSTANCE ref `pkg.dists.Diag.log_prob`): no need to look in other packages."""
        return any(ref.kind in (INSTANCE, RESULT, ELEMENT, STACKED) and ref.name.endswith(("." + method, "|" + method))
                   for ref in self.calls(path, qualname))

    def _methods_elsewhere(self, top: str, method: str) -> list[ClassKey]:
        if self._methods_by_name_only is None:
            self._methods_by_name_only = {}
            for (owner, name), classes in self._methods_by_name.items():
                self._methods_by_name_only.setdefault(name, []).extend((owner, cls) for cls in classes)
        return [cls for owner, cls in self._methods_by_name_only.get(method, ()) if owner != top]

    # -- objects whose class is known ------------------------------------------------------------
    def _is_module(self, cls: ClassKey) -> bool:
        if self._module_keys is None:
            self._module_keys = set(self.modules())
        return self.summaries[cls[0]].classes[cls[1]].is_module or cls in self._module_keys

    def _construction(self, cls: ClassKey):
        """`Cls(...)`: its __new__, __init__ and __post_init__ run, wherever the hierarchy defines
        them. A module's too: Dynamo 2.13 inlines the __init__ of a module built in traced code."""
        for special in _CONSTRUCTION:
            found = self._lookup(cls, special)
            if found is not None:
                yield found[0], f"{found[1]}.{special}", cls, True
        # Its __init__ (a dataclass's generated one too) sets attributes: a __setattr__ of the tree runs.
        found = self._lookup(cls, "__setattr__")
        if found is not None:
            yield found[0], f"{found[1]}.__setattr__", cls, True

    def _method_targets(self, cls: ClassKey, method: str, exact: bool, forwarding: bool = True):
        """`obj.method()` on an object of class `cls`: the method its hierarchy defines, and, when
        the object may be of a subclass (`exact` False: known from an annotation), their overrides;
        forwarding: a method none defines goes to __getattr__ (not for a read, which HELD_READ answers)."""
        if exact is GUESSED and method in TENSOR_METHODS:
            return  # the object may be a tensor a function of the module returned
        found = self._lookup(cls, method)
        if found is not None:
            yield found[0], f"{found[1]}.{method}", cls, True
        elif forwarding and not method.startswith("__"):
            yield from self._forwarded(cls, method)
        if not exact:
            overrides = self._overrides(cls, method)
            for child in overrides:
                yield child[0], f"{child[1]}.{method}", child, True
            if not overrides and found is not None:
                for other in self._structural(found, method):
                    yield other[0], f"{other[1]}.{method}", other, True

    def _forwarded(self, cls: ClassKey, method: str) -> list:
        """`wrapper.method()` that no class of the wrapper's hierarchy (wholly in the tree) defines or
        assigns: its __getattr__ answers, and where that returns `getattr(self.<attr>, name)`, the method
        of what the attribute holds runs (a forwarding wrapper). Not where the class sets attributes by
        name (`setattr(self, k, v)`, `self.__dict__`) or its module assigns `Cls.<name> = ...`: the method
        may be one of those. Memoised per (class, method): wrappers that may hold each other would
        otherwise be walked along every path."""
        memo_key = (cls, method)
        if memo_key in self._forward_memo:
            return self._forward_memo[memo_key]
        self._forward_memo[memo_key] = []  # a cycle of wrappers sees nothing more
        hook = self._lookup(cls, "__getattr__")
        if hook is None or not self._bases_known(cls) or any(method in self._assigned(key) for key in self._mro(cls)) \
                or self._sets_attributes_by_name(cls):
            return []
        # (deduplicated: wrappers reached along many paths give each target once)
        found = list(dict.fromkeys([(hook[0], f"{hook[1]}.__getattr__", cls, True),
                                    *self._forwarded_to(cls, method, hook)]))
        self._forward_memo[memo_key] = found
        return found

    def _sets_attributes_by_name(self, cls: ClassKey) -> bool:
        for key in self._mro(cls):
            text = self._text(key[0])
            if text is None:
                return True
            if _pattern(rf"(?m)^{re.escape(key[1])}\.\w+[ \t]*=(?!=)").search(text.text):
                return True
            for qualname, span in self.summaries[key[0]].lines.items():
                if qualname.startswith(key[1] + ".") and _pattern(
                        r"setattr\(\s*self\b|self\.__dict__").search(text.lines(*span)):
                    return True
        return False

    def _forwarded_to(self, cls: ClassKey, method: str, hook: tuple):
        """`def __getattr__(self, name): return getattr(self.<attr>, name)`: the method of what it holds."""
        tree = self._function_tree(hook[0], f"{hook[1]}.__getattr__")
        params = [arg.arg for arg in tree.args.args] if tree is not None else []
        if len(params) < 2:
            return
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Name) and node.args[1].id == params[1] \
                    and isinstance(node.args[0], ast.Attribute) and isinstance(node.args[0].value, ast.Name) \
                    and node.args[0].value.id == params[0]:
                for held, exact, is_class in self._attribute_classes(cls, node.args[0].attr):
                    if not is_class and held != cls:
                        yield from self._method_targets(held, method, exact)

    def _structural(self, interface: ClassKey, method: str) -> tuple[ClassKey, ...]:
        """Classes that implement an interface without subclassing it (duck typing: an annotation says
        `SingleStepMethod`, the object is an `ExplicitRungeKutta(nn.Module)`): only where the interface's
        method raises NotImplementedError, so that something else must run, and the interface has at
        least two other public methods; the classes of the same package that define that method and at
        least two thirds of those others."""
        memo_key = (interface, method)
        if memo_key in self._structural_memo:
            return self._structural_memo[memo_key]
        found: tuple[ClassKey, ...] = ()
        names = [m for m in self.summaries[interface[0]].classes[interface[1]].methods
                 if not m.startswith("_") and m != method]
        # an interface of one or two methods says too little to match on
        if len(names) >= 2 and _is_abstract(self._function_tree(interface[0], f"{interface[1]}.{method}")):
            top = self.module_of[interface[0]].split(".")[0]
            related = set(self._mro(interface)) | set(self._descendants(interface))
            found = tuple(cls for cls in self._methods_by_name.get((top, method), ())
                          if cls not in related
                          and 3 * sum(self._lookup(cls, m) is not None for m in names) >= 2 * len(names))
        self._structural_memo[memo_key] = found
        return found

    def _named(self, path: str, spelled: str) -> Optional[tuple[str, str, str]]:
        """What a name spelled in `path` (local, through its imports, or already qualified) means."""
        summary = self.summaries[path]
        parts = spelled.split(".")
        if parts[0] in summary.classes or parts[0] in summary.functions:
            return self._resolve_in(path, parts, 0)
        return self.resolve(self._qualified(path, spelled))

    def _module_text(self, qualified: str):
        """(path, text, name) of the module of the tree that `module.name` names, text None when there is
        none or its text never spells the name."""
        module, _, name = qualified.rpartition(".")
        holder = self.path_of.get(module)
        text = self._text(holder) if holder is not None else None
        return holder, (text if text is not None and name in text.text else None), name

    def _container_targets(self, qualified: str):
        """What calling an element of a module-level dict, tuple or list of the tree runs: its functions,
        and its classes' constructors (`ACTS = {"relu2": relu2}`, `PIPELINE = (f1, f2)`)."""
        holder, text, name = self._module_text(qualified)
        if text is None:
            return
        for value in _dict_values(text.text, name) + _sequence_values(text.text, name):
            spelled = dotted(value) if value is not None else None
            hit = self._named(holder, spelled) if spelled else None
            if hit is not None:
                yield from self._resolved_targets(hit)
            elif isinstance(value, ast.Lambda):  # `{"gelu": lambda x: gelu_tanh(x)}`: what the lambda calls
                for call in (n for n in ast.walk(value.body) if isinstance(n, ast.Call)):
                    called = dotted(call.func)
                    hit = self._named(holder, called) if called else None
                    if hit is not None:
                        yield from self._resolved_targets(hit)
        for hit in self._registered(holder, name):  # filled by a decorator: `@register_loss def l2(x)`
            yield from self._resolved_targets(hit)

    def _module_object_classes(self, qualified: str) -> list[tuple[ClassKey, bool]]:
        """Classes of a module-level object, `module.name` with `name = Cls(...)` in that module."""
        holder, text, name = self._module_text(qualified)
        if text is None:
            return []
        found = []
        for callee in _pattern(rf"(?m)^{re.escape(name)}[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_][\w.]*)[ \t]*\(").findall(text.text):
            found.extend(self._classes_named(holder, callee, 0))
        return list(dict.fromkeys(found))

    def _qualified(self, path: str, spelled: str) -> str:
        """A dotted name spelled in `path`, its first part put through the file's imports, absolute."""
        parts = spelled.split(".")
        aliases = self.summaries[path].aliases
        if parts[0] in aliases:
            spelled = ".".join([aliases[parts[0]]] + parts[1:])
        return self._absolute(path, spelled)

    def _classes_named(self, path: str, spelled: str, depth: int) -> list[tuple[ClassKey, bool]]:
        """The classes of the objects that calling `spelled` makes: the class itself (exact), or what
        a factory function returns."""
        if spelled.endswith(".*"):  # `getattr(pkg.mod, name)()`: any class the module exports
            classes, with_functions = self._module_classes(path, spelled[:-2])
            # where the module also exports functions, the name may call one and give a tensor:
            # GUESSED keeps tensor methods (`z.sum()`) from being dispatched to its classes
            return [(cls, GUESSED if with_functions else True) for cls in classes]
        found = self._named(path, spelled) if spelled else None
        if found is None:
            return []
        if found[0] == "class":
            return [((found[1], found[2]), True)]
        if found[0] in ("function", "method") and depth < MAX_FACTORY_DEPTH:
            # a factory, or a class's own (`Coupling.from_config(cfg)` returning `cls(...)`)
            return self._returned(found[1], found[2], depth + 1)
        return []

    def _module_classes(self, path: str, spelled: str) -> tuple[tuple[ClassKey, ...], bool]:
        """The classes a module of the tree defines or imports by name (the module spelled in `path`),
        and whether it also exports functions."""
        holder = self.path_of.get(self._qualified(path, spelled))
        if holder is None:
            return (), False
        if holder not in self._module_classes_memo:
            summary = self.summaries[holder]
            found = [(holder, cname) for cname in summary.classes if "." not in cname]
            functions = bool(summary.functions)
            for local in summary.aliases:
                hit = self._resolve_in(holder, [local], 0, stars=False)
                if hit is not None and hit[0] == "class":
                    found.append((hit[1], hit[2]))
                functions |= hit is not None and hit[0] == "function"
            self._module_classes_memo[holder] = (tuple(dict.fromkeys(found)), functions)
        return self._module_classes_memo[holder]

    def _annotated(self, path: str, annotation: str) -> list[tuple[ClassKey, bool]]:
        """Classes an annotation's text names; the object may be of any subclass."""
        found = []
        for name in _IDENTIFIER.findall(annotation):
            if name.split(".")[0] in _TYPING or name.rsplit(".", 1)[-1] in _TYPING:
                continue
            hit = self._named(path, name)
            if hit is not None and hit[0] == "class":
                found.append(((hit[1], hit[2]), False))
            elif hit is None and "." not in name:
                # a forward reference the file does not import (`latent_dist: "DiagonalGaussian"`, a
                # TYPE_CHECKING import): the one class of that name in the package
                same = self._classes_by_name().get((self.module_of[path].split(".")[0], name), ())
                if len(same) == 1:
                    found.append((same[0], False))
        return found

    def _classes_by_name(self) -> dict[tuple[str, str], list[ClassKey]]:
        if self._class_index is None:
            self._class_index = {}
            for path, summary in self.summaries.items():
                top = self.module_of[path].split(".")[0]
                for cname in summary.classes:
                    self._class_index.setdefault((top, cname.rsplit(".", 1)[-1]), []).append((path, cname))
        return self._class_index

    def _returned(self, path: str, qualname: str, depth: int) -> list[tuple[ClassKey, bool]]:
        """Classes of the objects a function returns: its return annotation, and `return Cls(...)` /
        `return make(...)` in its body."""
        key = (path, qualname)
        if key in self._returned_memo:
            return self._returned_memo[key]
        self._returned_memo[key] = []  # a cycle of factories sees nothing
        summary = self.summaries[path]
        found: list[tuple[ClassKey, bool]] = []
        annotation = summary.annotations.get(qualname)
        if annotation:
            found.extend(self._annotated(path, annotation))
        span = summary.lines.get(qualname)
        text = self._text(path) if span is not None else None
        if text is not None:
            owner = self._owner(path, qualname)
            body = text.lines(*span)
            for table in dict.fromkeys(_RETURN_TABLE_CALL.findall(body)):  # `return DISTS[name](*args)`
                found.extend((cls, True) for cls in self._table_classes(path, table))
            for spelled in dict.fromkeys(_RETURN_CALL.findall(body)):
                if spelled == "cls" and owner is not None:
                    found.append((owner, False))  # a classmethod's `return cls(...)`: it or a subclass
                elif spelled != qualname and not spelled.startswith(("self.", "super", "cls.")):
                    found.extend(self._classes_named(path, spelled, depth))
        self._returned_memo[key] = found = list(dict.fromkeys(found))
        return found

    def surely_built(self, path: str, qualname: str) -> list[ClassKey]:
        """The classes a function builds and returns on every path (`return Dist(x)`, each return a class
        of the tree called): what `make(x).sample()` runs its method on, an object with no source for
        Dynamo (BL507). Empty when some return gives anything else."""
        tree = self._function_tree(path, qualname)
        if tree is None or any(self._qualified(path, dotted(d.func if isinstance(d, ast.Call) else d) or "")
                               in DISABLE_DECORATORS for d in tree.decorator_list):
            return []  # (run eagerly, the object it returns has a source)
        returns = [node for node in walk_outside_defs(tree, root=True) if isinstance(node, ast.Return)]
        found: list[ClassKey] = []
        for node in returns:
            spelled = dotted(node.value.func) if isinstance(node.value, ast.Call) else None
            hit = self._named(path, spelled) if spelled else None
            if hit is None or hit[0] != "class":
                return []
            found.append((hit[1], hit[2]))
        return list(dict.fromkeys(found))

    def _attribute_classes(self, cls: ClassKey, attr: str, depth: int = 0) -> list[tuple[ClassKey, bool, bool]]:
        """(class, exact, is the class itself rather than an instance) of what `self.<attr>` may hold
        on an object of class `cls`: what the class and its bases, in any file, assign to it, or
        what a property of that name returns."""
        memo_key = (cls, attr, depth)
        if memo_key not in self._attribute_memo:
            self._attribute_memo[memo_key] = []  # a cycle through `self.default_cls()` sees nothing
            self._attribute_memo[memo_key] = self._find_attribute_classes(cls, attr, depth)
        return self._attribute_memo[memo_key]

    def _find_attribute_classes(self, cls: ClassKey, attr: str, depth: int) -> list[tuple[ClassKey, bool, bool]]:
        found: list[tuple[ClassKey, bool, bool]] = []
        for key in self._mro(cls):
            info = self.summaries[key[0]].classes[key[1]]
            if attr in info.methods:
                if attr in info.properties:
                    found.extend((c, exact, False) for c, exact in self._returned(key[0], f"{key[1]}.{attr}", 0))
                break
            for kind, spelled in self._assigned(key).get(attr, ()):
                if kind == "annotation":
                    found.extend((c, exact, False) for c, exact in self._annotated(key[0], spelled))
                elif kind == "value":
                    hit = self._named(key[0], spelled)
                    if hit is not None and hit[0] == "class":
                        found.append(((hit[1], hit[2]), True, True))
                    elif hit is None and depth == 0:
                        # a parameter (`def set_processor(self, processor)`): what the object's own class
                        # binds to that name when it is not the class that assigns, and what the tree's
                        # constructions of either pass for it
                        default = self._class_default(key, spelled)
                        if default is not None:
                            # `def __init__(self, semiring=LogSemiring)`: the attribute holds that class:
                            # `self.semiring.sum(x)` runs its static and class methods (not its subclasses'
                            # overrides: which a caller passes is not known; the review of stop 27)
                            found.append((default, True, True))
                        if key != cls:
                            for kind2, spelled2 in self._body_bindings(cls, spelled):
                                found.extend(self._bound_classes(cls, cls, kind2, spelled2, depth))
                        for owner in dict.fromkeys((key, cls)):
                            for site_path, callee in self._passed_to(owner, spelled):
                                if "|" in callee:  # an attribute of the object that builds this one
                                    holder, _, attr = callee.partition("|")
                                    builder = self._owner(site_path, holder)
                                    if builder is None:
                                        made = []
                                    elif not attr:  # the builder itself
                                        made = [(builder, False)]
                                    else:
                                        made = [(c, exact) for c, exact, is_class in self._attribute_classes(builder, attr, depth + 1)
                                                if not is_class] if builder != owner else []
                                elif callee.endswith("]"):  # an element of a returned tuple
                                    callee, _, index = callee[:-1].partition("[")
                                    made = self._item_classes(site_path, callee, int(index))
                                else:
                                    made = self._classes_named(site_path, callee, 0)
                                found.extend((c, exact, False) for c, exact in made)
                elif kind == "table":
                    spelled, _, constant = spelled.partition("|")
                    found.extend((c, True, False) for c in self._table_classes(key[0], spelled, constant or None))
                else:
                    found.extend(self._bound_classes(key, cls, kind, spelled, depth))
        return list(dict.fromkeys(found))

    def table_of_classes(self, path: str, spelled: str, key: Optional[str]) -> list[ClassKey]:
        """The classes of a table of another file that holds only classes (under `key`, when given); empty
        when an entry there may be anything else (a function returning a kept object)."""
        classes = self._table_classes(path, spelled, key)
        holder, name, text = self._table_text(path, spelled)
        if text is None:
            return []
        items = [(k, v) for k, v in _table_items(text.text, name) if key is None or str(k) == key]
        values = [self._named(holder, dotted(v)) if v is not None and dotted(v) else None for _k, v in items]
        registered = self._registered(holder, name) if key is None else []
        if any(hit is None or hit[0] != "class" for hit in values) or any(hit[0] != "class" for hit in registered):
            return []
        return classes

    def _table_text(self, path: str, spelled: str):
        """(file, name, text of the file) of a module-level table spelled in `path`: defined there, or
        imported from the file that defines it; the text None when that file is not in the tree."""
        holder, name = path, spelled
        if "." in spelled or spelled.split(".")[0] in self.summaries[path].aliases:
            module, _, name = self._qualified(path, spelled).rpartition(".")
            holder = self.path_of.get(module)
        return holder, name, self._text(holder) if holder is not None and "." not in name else None

    def _table_classes(self, path: str, spelled: str, key: Optional[str] = None) -> list[ClassKey]:
        """The classes a module-level dict literal holds as values (`SOLVERS = {"euler": Euler, ...}`),
        the dict spelled in `path` (defined there or imported from the file that defines it); with a
        constant key (`HEADS["cls"]`), the class under that key only."""
        holder, name, text = self._table_text(path, spelled)
        if text is None:
            return []
        found = []
        items = _table_items(text.text, name)
        if key is not None and any(str(k) == key for k, _ in items):
            items = [(k, value) for k, value in items if str(k) == key]
        for _key, value in items:
            spelled_value = dotted(value) if value is not None else None
            hit = self._named(holder, spelled_value) if spelled_value else None
            if hit is not None and hit[0] == "class":
                found.append((hit[1], hit[2]))
        if key is None:
            found.extend((hit[1], hit[2]) for hit in self._registered(holder, name) if hit[0] == "class")
        return list(dict.fromkeys(found))

    def _registered(self, path: str, name: str) -> list[tuple[str, str, str]]:
        """("class" | "function", file, name) of each definition that a decorator of `path` files into its
        module-level dict `name`: `REG[key] = cls` inside `def register(key)` (or a function nested in
        it), and `@register("key")` / `@reg.register` over a top-level class or def, in the files that
        import `register` and in its own file."""
        memo_key = (path, name)
        if memo_key in self._registered_memo:
            return self._registered_memo[memo_key]
        found = self._registered_memo[memo_key] = []
        text = self._text(path)
        summary = self.summaries[path]
        if text is None or f"{name}[" not in text.text.replace(" ", ""):
            return found
        registrars = set()
        for match in _pattern(rf"(?<![\w.]){re.escape(name)}\s*\[[^\]\n]*\]\s*=(?!=)").finditer(text.text):
            holder = self._function_at(path, text.line_of(match.start()))
            if holder is not None and holder.split(".")[0] in summary.functions:
                registrars.add(holder.split(".")[0])
        for registrar in sorted(registrars):
            decorated = _pattern(rf"(?m)^@[ \t]*((?:[A-Za-z_]\w*\.)*{registrar})\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*"
                                   r"(?:async[ \t]+)?(class|def)[ \t]+([A-Za-z_]\w*)")
            module_tail = self.module_of[path].rsplit(".", 1)[-1]
            for site in dict.fromkeys([path, *self._importers(registrar), *self._importers(module_tail)]):
                site_text = self._text(site)
                if site_text is None or "@" not in site_text.text:
                    continue
                for match in decorated.finditer(site_text.text):
                    if self._named(site, match.group(1)) == ("function", path, registrar):
                        found.append(("class" if match.group(2) == "class" else "function", site, match.group(3)))
        return found

    def _registered_kl(self) -> list[tuple[str, str]]:
        """(file, function) of each top-level function of the tree under `@register_kl(P, Q)`."""
        if self._kl_memo is None:
            self._kl_memo = []
            decorated = _pattern(r"(?m)^@[ \t]*([A-Za-z_][\w.]*)[ \t]*\([^\n]*\n(?:[ \t]*@[^\n]*\n)*def[ \t]+([A-Za-z_]\w*)")
            for path in sorted(self.summaries):
                text = self._text(path)
                if text is None or "register_kl" not in text.text:
                    continue
                for match in decorated.finditer(text.text):
                    if self._qualified(path, match.group(1)) in KL_REGISTRARS \
                            and match.group(2) in self.summaries[path].functions:
                        self._kl_memo.append((path, match.group(2)))
        return self._kl_memo

    def _importers(self, name: str) -> list[str]:
        """The files that import something whose dotted name ends in `name` (a class, function or module)."""
        if self._alias_index is None:
            self._alias_index = {}
            for path, summary in self.summaries.items():
                for target in set(summary.aliases.values()):
                    self._alias_index.setdefault(target.rsplit(".", 1)[-1], []).append(path)
        return self._alias_index.get(name, [])

    def _class_default(self, cls: ClassKey, param: str) -> Optional[ClassKey]:
        """The class of the tree that a parameter of the class's own __init__ defaults to, if any."""
        tree = self._function_tree(cls[0], f"{cls[1]}.__init__") if "__init__" in \
            self.summaries[cls[0]].classes[cls[1]].methods else None
        if tree is None:
            return None
        value = {arg.arg: default for arg, default in parameter_defaults(tree.args)}.get(param)
        spelled = dotted(value) if value is not None else None
        hit = self._named(cls[0], spelled) if spelled else None
        return (hit[1], hit[2]) if hit is not None and hit[0] == "class" else None

    def _bound_classes(self, key: ClassKey, cls: ClassKey, kind: str, spelled: str,
                       depth: int) -> list[tuple[ClassKey, bool, bool]]:
        """Instances a class body's binding makes: `Cls(...)` / `make(...)` spelled in `key`'s file, or
        `self.default_cls()` (the class a class attribute of the object's class holds, called)."""
        if kind == "call" and spelled.startswith("self.") and spelled.count(".") == 1:
            kind, spelled = "self call", spelled[5:]  # `self.norm = self.norm_cls()`
        if kind == "call":
            return [(c, exact, False) for c, exact in self._classes_named(key[0], spelled, 0)]
        if kind == "made":
            # `Config(...).build()`: what the tree's method returns; a method from outside the tree
            # (`Net(...).to(device)`, nn.Module's) gives back the object itself
            maker, _, method = spelled.partition("|")
            found = []
            for made, exact in self._classes_named(key[0], maker, 0):
                hit = self._lookup(made, method)
                if hit is None:
                    found.append((made, exact, False))
                else:
                    found.extend((c, e, False) for c, e in self._returned(hit[0], f"{hit[1]}.{method}", 1))
            return found
        if kind == "self call" and depth < 2:
            return [(c, exact, False) for c, exact, is_class in self._attribute_classes(cls, spelled, depth + 1)
                    if is_class]
        return []

    def _body_bindings(self, cls: ClassKey, name: str) -> list[tuple[str, str]]:
        memo_key = (cls, name)
        if memo_key not in self._bindings_memo:
            info = self.summaries[cls[0]].classes[cls[1]]
            text = self._text(cls[0]) if info.lines[0] else None
            self._bindings_memo[memo_key] = _bound_in(text.lines(*info.lines), name) if text is not None else []
        return self._bindings_memo[memo_key]

    def _bound_methods(self, cls: ClassKey, attr: str) -> list[tuple[ClassKey, str]]:
        """Methods of the class that `self.<attr>` may hold bound (`self.score = score_fn` after
        `if score_fn is None: score_fn = self.score_softmax`)."""
        memo_key = (cls, attr)
        if memo_key in self._bound_memo:
            return self._bound_memo[memo_key]
        found = self._bound_memo[memo_key] = []
        for key in self._mro(cls):
            for kind, spelled in self._assigned(key).get(attr, ()):
                if kind == "self method":
                    hit = self._lookup(cls, spelled)
                    if hit is not None:
                        found.append((hit, spelled))
        return found

    def _passed_to(self, cls: ClassKey, param: str) -> list[tuple[str, str]]:
        """(file, callee spelled there) for each `Cls(..., param=callee(...))`, or `param=name` after
        `name = callee(...)` in the same function, in the files that name the class: what a
        constructor parameter kept on self receives."""
        memo_key = (cls, param)
        if memo_key in self._passed_memo:
            return self._passed_memo[memo_key]
        found: list[tuple[str, str]] = []
        keyword = _pattern(rf"(?<![\w.]){re.escape(param)}\s*=(?!=)\s*([A-Za-z_][\w.]*)\s*([(,)\n])")
        position = self._init_position(cls, param)
        for path, at, arguments in self._constructions(cls):
            values = keyword.findall(arguments)
            argument = _positional_argument(arguments, position) if position is not None else None
            head = _ARGUMENT_HEAD.match(argument) if argument else None
            if head is not None:  # `Wrapper(Inner(), 2)`: the parameter's place among the positional arguments
                values.append((head.group(1), head.group(2) or ","))
            elif argument and argument[0] in "[(":
                # `Compose([Exp(), Affine(2.0)])`: the classes built in a list kept on self, whose elements
                # the object calls (`for t in self.parts: t(x)`)
                values.extend((callee, "(") for callee in _element_constructions(argument))
            for callee, after in values:
                found.extend(self._argument_sources(path, at, callee, after, cls, 0))
        self._passed_memo[memo_key] = found = list(dict.fromkeys(found))
        return found

    def _argument_sources(self, path: str, at: int, callee: str, after: str, cls: ClassKey,
                          depth: int) -> list[tuple[str, str]]:
        """(file, callee spelled there) of what one argument of a call at `at` holds (see _passed_to)."""
        if callee.startswith("cls.") or callee in ("None", "True", "False"):
            return []
        receiver, _, method = callee.rpartition(".")
        if after == "(" and method in _RETURNS_SELF and receiver and receiver != "self":
            callee, after = receiver, ","  # `Wrapper(model.eval())`: nn.Module.eval() returns the module
        text = self._text(path)
        holder = self._function_at(path, text.line_of(at))
        if callee == "self" or callee.startswith("self."):
            # `Helper(self)`: a back reference to the object that builds it (of its class or a
            # subclass); `Solver(bm=self.bm)`: what the building object keeps in that attribute
            if holder is not None and after != "(" and callee.count(".") <= 1:
                return [(path, f"{holder}|{callee[5:]}")]
            return []
        if after == "(":
            return [(path, callee)]
        if "." in callee:
            return []
        if holder is None:
            return []
        # a name bound earlier in the function that builds the object
        first, last = self.summaries[path].lines[holder]
        body = text.lines(first, last)
        # (not `sde = Wrapper(sde)` or `sde = check(sde)` itself: the argument is what the name held before)
        rebound = [(kind, spelled) for kind, spelled in _bound_in(body, callee, skip=at - text.end_of(first - 1))
                   if spelled.rsplit(".", 1)[-1] != cls[1].rsplit(".", 1)[-1]]
        found = [(path, spelled) for kind, spelled in rebound if kind == "call" and not _unpacked(body, callee, spelled)]
        # ... or unpacked from what a call returns (`y, bm = check(y)`): "check[1]"
        unpacked = [(path, f"{spelled}[{index}]") for spelled, index in _unpacked_from(body, callee)]
        found.extend(unpacked)
        if depth < 2 and not rebound and not unpacked:
            # ... or a parameter of the top-level function that builds it, never bound again there: what
            # its callers pass (`def check(sde): return Wrapper(sde)`, called as `check(self.sde)`)
            found.extend(self._parameter_sources(path, holder, callee, cls, depth + 1))
        return found

    def _parameter_sources(self, path: str, holder: str, name: str, cls: ClassKey, depth: int) -> list[tuple[str, str]]:
        """What the callers of the top-level function `holder` pass for its parameter `name` (see _passed_to)."""
        tree = self._function_tree(path, holder) if "." not in holder else None
        if tree is None:
            return []
        positional = [arg.arg for arg in (*tree.args.posonlyargs, *tree.args.args)]
        if name not in positional and name not in (arg.arg for arg in tree.args.kwonlyargs):
            return []
        position = positional.index(name) if name in positional else None
        keyword = _pattern(rf"(?<![\w.]){re.escape(name)}\s*=(?!=)\s*([A-Za-z_][\w.]*)\s*([(,)\n])")
        found = []
        for call_path, call_at, arguments in self._function_calls(path, holder):
            values = keyword.findall(arguments)
            argument = _positional_argument(arguments, position) if position is not None else None
            head = _ARGUMENT_HEAD.match(argument) if argument else None
            if head is not None:
                values.append((head.group(1), head.group(2) or ","))
            for callee, after in values:
                found.extend(self._argument_sources(call_path, call_at, callee, after, cls, depth))
        return found

    def _function_calls(self, path: str, name: str) -> list[tuple[str, int, str]]:
        """(file, offset, argument text) of each call of the top-level function `name` of `path` in the
        tree: `name(...)` where the file binds the name to it, `module.name(...)` through an alias of its
        module or of a package that re-exports it."""
        memo_key = (path, "calls of", name)
        if memo_key in self._passed_memo:
            return self._passed_memo[memo_key]
        target = ("function", path, name)
        parts = self.module_of[path].split(".")  # the module and the packages above it
        found = []
        for file in dict.fromkeys([path, *self._importers(name), *(f for part in parts for f in self._importers(part))]):
            text = self._text(file)
            if text is None or name not in text.text:
                continue
            aliases = self.summaries[file].aliases
            for start, paren in _calls_named(text.text, name):
                if _DEF_BEFORE.search(text.text, max(0, start - 12), start):
                    continue  # its own `def name(`
                if text.text[start - 1:start] == ".":
                    prefix = _DOTTED_TAIL.search(text.text, 0, start - 1)
                    head = prefix.group(0).split(".")[0] if prefix is not None else ""
                    if head not in aliases or \
                            self.resolve(self._absolute(file, aliases[head] + prefix.group(0)[len(head):] + "." + name)) != target:
                        continue
                elif not (file == path or name in aliases and self.resolve(self._absolute(file, aliases[name])) == target):
                    continue
                found.append((file, start, _balanced(text.text, paren)))
        self._passed_memo[memo_key] = found
        return found

    def _passed_functions(self, cls: ClassKey, attr: str) -> list[tuple[str, str]]:
        """Targets of the functions of the tree passed by name to a constructor parameter that the class
        keeps in `self.<attr>` (`self.fn = fn`; `Wrapper(drift)`, `Wrapper(fn=ops.drift)`), and of a
        method of the building object passed bound (`LambdaLayer(self.domain_map)`, overrides included)."""
        memo_key = (cls, "passed functions", attr)
        if memo_key in self._passed_memo:
            return self._passed_memo[memo_key]
        found = []
        for key in self._mro(cls):
            for kind, param in self._assigned(key).get(attr, ()):
                if kind != "value" or "." in param:
                    continue
                keyword = _pattern(rf"(?<![\w.]){re.escape(param)}\s*=(?!=)\s*([A-Za-z_][\w.]*)\s*[,)\n]")
                for owner in dict.fromkeys((key, cls)):
                    position = self._init_position(owner, param)
                    for site, at, arguments in self._constructions(owner):
                        names = keyword.findall(arguments)
                        argument = _positional_argument(arguments, position) if position is not None else None
                        head = _ARGUMENT_HEAD.match(argument) if argument else None
                        if head is not None and not head.group(2) and head.end() == len(argument):
                            names.append(head.group(1))
                        elif argument and argument[0] in "[(":  # `Chain([cb1, cb2])`: each function listed
                            names.extend(_element_names(argument))
                        # Only objects built in a method count: a module-level pipeline's `Lambda(load)`
                        # is no part of the model (the review of stop 29).
                        holder = self._function_at(site, self._text(site).line_of(at)) if names else None
                        builder = self._owner(site, holder) if holder is not None else None
                        if builder is None:
                            continue
                        for name in names:
                            if name.startswith("self.") and name.count(".") == 1:
                                found.extend(self._named_method(builder, name[5:], inherited_only=True))
                                continue
                            hit = self._named(site, name)
                            if hit is not None and hit[0] == "function":
                                found.append((hit[1], hit[2], None, False))
        self._passed_memo[memo_key] = found = list(dict.fromkeys(found))
        return found

    def _constructions(self, cls: ClassKey) -> list[tuple[str, int, str]]:
        """(file, offset, argument text) of each `Cls(...)` in the files that import the class or its
        module (by the name's last part), and its own file."""
        if cls in self._construction_memo:
            return self._construction_memo[cls]
        cname = cls[1].rsplit(".", 1)[-1]
        module_tail = self.module_of[cls[0]].rsplit(".", 1)[-1]
        files = dict.fromkeys([cls[0], *self._importers(cname), *self._importers(module_tail)])
        found = []
        for path in files:
            text = self._text(path)
            if text is None:
                continue
            for start, paren in _calls_named(text.text, cname):
                found.append((path, start, _balanced(text.text, paren)))
        # ... and through a package above its module (`import torchode as to; to.AutoDiffAdjoint(...)`)
        parts = self.module_of[cls[0]].split(".")
        for package in (".".join(parts[:i]) for i in range(1, len(parts))):
            for path, start, paren in self._package_calls().get((package, cname), ()):
                found.append((path, start, _balanced(self._text(path).text, paren)))
        # ... and through a top-level function that returns the class itself:
        # `solver_fn = methods.select(method); solver = solver_fn(sde=sde, bm=bm)`, with `return Euler`,
        # `return {"euler": Euler, ...}[method]` or `return Euler if ito else Heun` in select
        for path in files:
            text = self._text(path)
            makers = [self._function_at(path, text.line_of(offset)) for offset in _returns_of(text.text, cname)] \
                if text is not None else []
            makers += [maker for maker in self._compound_makers(path) if cname in text.lines(*self.summaries[path].lines[maker])]
            for maker in dict.fromkeys(makers):
                if maker is not None and "." not in maker and cls in self._returned_class_objects(path, maker):
                    found.extend(self._calls_of_what(path, maker))
        # ... and through a module-level table that holds the class: `SOLVERS[method](sde, bm, dt)`, or
        # `solver_cls = SOLVERS[method]` and then `solver_cls(...)` in the same function
        for path in dict.fromkeys([cls[0], *self._importers(cname)]):
            for table, keys in self._tables_holding(path, cls):
                found.extend(self._table_calls(path, table, keys))
        self._construction_memo[cls] = found = list(dict.fromkeys(found))
        return found

    def _stack_fillers(self, qualified: str) -> list[ClassKey]:
        """The classes with a method that puts `self` in the module-level list `qualified` ("pkg.runtime._STACK"):
        `_STACK.append(self)`, `.insert(0, self)`, `runtime._STACK.append(self)` in the list's file and the files
        that import it or its module. Their objects (of any subclass) are its elements."""
        if qualified in self._stack_memo:
            return self._stack_memo[qualified]
        module, _, name = qualified.rpartition(".")
        holder = self.path_of.get(module)
        found: list[ClassKey] = []
        self._stack_memo[qualified] = found
        if holder is None:
            return found
        module_tail = module.rsplit(".", 1)[-1]
        files = [holder, *self._importers(name), *self._importers(module_tail)]
        files += [path for path, summary in self.summaries.items() if summary.stars]  # `from pkg.runtime import *`
        for path in dict.fromkeys(files):
            text = self._text(path)
            if text is None:
                continue
            aliases = self.summaries[path].aliases
            # the names the list has in this file: its own, an alias (`import _STACK as S`), or through a star
            local = {alias for alias, target in aliases.items() if self._absolute(path, target) == qualified}
            if path == holder or name not in aliases and any(self._absolute(path, star) == module
                                                             for star in self.summaries[path].stars):
                local.add(name)
            spellings = [n for n in local | {name} if n in text.text]
            if not spellings:
                continue
            pushed = _pattern(rf"(?<![\w.])((?:[A-Za-z_]\w*\.)*)({'|'.join(map(re.escape, spellings))})[ \t]*\.[ \t]*"
                                rf"(?:append|insert|appendleft)[ \t]*\((?:[^(),]*,)?[ \t]*([A-Za-z_]\w*)[ \t]*\)")
            for match in pushed.finditer(text.text):
                prefix = match.group(1)
                if prefix:
                    head, _, rest = prefix[:-1].partition(".")
                    if match.group(2) != name or head not in aliases \
                            or self._absolute(path, aliases[head] + ("." + rest if rest else "")) != module:
                        continue
                elif match.group(2) not in local:
                    continue
                method = self._function_at(path, text.line_of(match.start()))
                if method is None or self._in_string_or_comment(path, match.start()):
                    continue
                if match.group(3) == "self":
                    owner = self._owner(path, method)
                    found.extend([owner] if owner is not None else [])
                elif "." not in method and match.group(3) in self._parameters_of(path, method):
                    # `def push_stack(frame): _STACK.append(frame)`, called as `push_stack(self)` in a method
                    for file, start, args in self._function_calls(path, method):
                        caller = self._function_at(file, self._text(file).line_of(start))
                        owner = self._owner(file, caller) if caller is not None else None
                        if owner is not None and _pattern(r"\([ \t]*self[ \t]*,?[ \t]*\)").fullmatch(args):
                            found.append(owner)
        found[:] = dict.fromkeys(found)
        return found

    def _parameters_of(self, path: str, qualname: str) -> list[str]:
        tree = self._function_tree(path, qualname)
        return [a.arg for a in tree.args.posonlyargs + tree.args.args] if tree is not None else []

    def _tables_holding(self, path: str, cls: ClassKey) -> list[tuple[str, Optional[frozenset]]]:
        """(name, keys) of the module-level dicts, tuples and lists of `path` that hold the class itself
        (not built): keys, the constant keys it is stored under, None where any key may give it."""
        text = self._text(path)
        cname = cls[1].rsplit(".", 1)[-1]
        if text is None or cname not in text.text:
            return []
        if path not in self._table_memo:  # found once per file: name -> its literal's text
            self._table_memo[path] = {match.group(1): _statement_rest(text.text, match.end())
                                      for match in _MODULE_TABLE.finditer(text.text)}
        spelled_bare = _pattern(rf"(?<![\w'\"]){re.escape(cname)}(?![\w'\"])")
        found = []
        for name, literal in self._table_memo[path].items():
            if not spelled_bare.search(literal):
                continue  # parsed only where the class's name is spelled, not quoted (`__all__ = ["Model"]`)
            keys, anywhere = set(), False
            for key, value in _table_items(text.text, name):
                spelled = dotted(value) if value is not None else None
                if spelled and spelled.rsplit(".", 1)[-1] == cname \
                        and self._named(path, spelled) == ("class", cls[0], cls[1]):
                    if key is None:
                        anywhere = True
                    else:
                        keys.add(key)
            if anywhere or keys:
                found.append((name, None if anywhere else frozenset(keys)))
        return found

    def _table_calls(self, table_path: str, table: str, keys: Optional[frozenset]) -> list[tuple[str, int, str]]:
        """(file, offset, argument text) of each call of an element of a module-level table, in its file
        and the files that import it or its module: `TABLE[key](...)`, `mod.TABLE.get(key)(...)`, and
        `name = TABLE[key]` then `name(...)` later in the same function, until the name is bound again.
        A constant key other than those the class is stored under is another class's (`HEADS["seg"]`)."""
        module = self.module_of[table_path]
        element = rf"((?:[A-Za-z_]\w*\.)*){re.escape(table)}[ \t]*(?:\[|\.get[ \t]*\()"
        direct = _pattern(rf"(?<![\w.]){element}")
        bound = _pattern(rf"(?m)^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*{element}")
        returned = _pattern(rf"(?m)^[ \t]+return[ \t]+{element}")
        found = []
        for path in dict.fromkeys([table_path, *self._importers(table), *self._importers(module.rsplit(".", 1)[-1])]):
            text = self._text(path)
            if text is None or table not in text.text:
                continue
            aliases = self.summaries[path].aliases

            def ours(prefix: str, start: int, at: int, path=path, text=text, aliases=aliases) -> bool:
                """The table of `table_path` (not one of the same name elsewhere), named in code, under a key
                that may give the class."""
                if prefix:
                    head, _, rest = prefix[:-1].partition(".")
                    if head not in aliases or self._absolute(path, aliases[head] + ("." + rest if rest else "")) != module:
                        return False
                elif path != table_path and (table not in aliases
                                             or self._absolute(path, aliases[table]) != f"{module}.{table}"):
                    return False
                if keys is not None:
                    key = _constant_key(text.text, at)
                    if key is not _UNKNOWN and key not in keys:
                        return False
                return not self._in_string_or_comment(path, start)

            for match in direct.finditer(text.text):
                if not ours(match.group(1), match.start(), match.end()):
                    continue
                bracket = _balanced(text.text, match.end() - 1)  # `[key]` or `.get(key)`
                close = match.end() - 2 + len(bracket) if bracket[-1:] in ("]", ")") else None
                paren = _SPACES_THEN_PAREN.match(text.text, close + 1) if close is not None else None
                if paren is not None:
                    found.append((path, match.start(), _balanced(text.text, paren.end() - 1)))
            for match in bound.finditer(text.text):
                if ours(match.group(2), match.start(2), match.end()):
                    found.extend(self._later_calls(path, match.group(1), match.start(), match.end()))
            for match in returned.finditer(text.text):  # `def select(m): return SOLVERS[m]`, then `select(m)(...)`
                maker = self._function_at(path, text.line_of(match.start()))
                if maker is not None and "." not in maker and ours(match.group(1), match.start(1), match.end()):
                    found.extend(self._calls_of_what(path, maker))
        return found

    def _in_string_or_comment(self, path: str, offset: int) -> bool:
        """Whether a character of the file sits in a docstring or other triple-quoted string (an odd
        number of its quotes before it) or behind a `#` on its line: a usage example, not code. (A
        tokenizer pass per file cost more than the whole lookup on transformers.)"""
        text = self._text(path).text
        line_start = text.rfind("\n", 0, offset) + 1
        if "#" in text[line_start:offset]:
            return True
        return text.count('"""', 0, offset) % 2 == 1 or text.count("'''", 0, offset) % 2 == 1

    def _package_calls(self) -> dict[tuple[str, str], list[tuple[str, int, int]]]:
        """(package, name) -> (file, offset, offset of its "(") of each `alias.Name(` where the file
        binds `alias` to a package of the tree (`import torchode as to`): built once, one scan per
        such alias, so that a class's constructions through its package cost a lookup."""
        if self._package_call_index is None:
            self._package_call_index = {}
            for path, summary in self.summaries.items():
                text = None
                for local, target in summary.aliases.items():
                    package = self._absolute(path, target)
                    holder = self.path_of.get(package)
                    if holder is None or not self.package_of[holder]:
                        continue
                    text = text or self._text(path)
                    if text is None:
                        break
                    for match in _pattern(rf"(?<![\w.]){re.escape(local)}\.([A-Za-z_]\w*)\s*\(").finditer(text.text):
                        self._package_call_index.setdefault((package, match.group(1)), []).append(
                            (path, match.start(), match.end() - 1))
        return self._package_call_index

    def _function_at(self, path: str, line: int) -> Optional[str]:
        """The innermost function or method of `path` around a line."""
        spans = self._spans_memo.get(path)
        if spans is None:
            spans = self._spans_memo[path] = sorted((first, last, q) for q, (first, last) in self.summaries[path].lines.items())
        index = bisect.bisect_right(spans, (line, float("inf"), "")) - 1
        # spans only nest (a method of a class defined in a function), so look back a little
        for first, last, qualname in reversed(spans[max(0, index - 32):index + 1]):
            if first <= line <= last:
                return qualname
        return None

    def _compound_makers(self, path: str) -> list[str]:
        """Top-level functions of `path` with a return that may pick a class out of a literal or a
        conditional (`return {...}[key]`, `return A if c else B`, `return table[key]`): the only ones
        whose text `_constructions` reads for a class spelled inside a longer expression."""
        if path not in self._compound_memo:
            text = self._text(path)
            makers = [self._function_at(path, text.line_of(match.start()))
                      for match in _COMPOUND_RETURN.finditer(text.text)] if text is not None else []
            self._compound_memo[path] = [m for m in dict.fromkeys(makers) if m is not None and "." not in m]
        return self._compound_memo[path]

    def _returned_class_objects(self, path: str, qualname: str) -> list[ClassKey]:
        """Classes a function's own body (not a def nested in it) returns as the class itself, not an
        instance: `return Cls`, `return mod.Cls`, `return A if c else B`, `return {"a": A}[key]`, an
        element of a module-level table (`return SOLVERS[key]`, `.get(key)`) or of a dict the function
        builds (`table = {...}; return table[key]`)."""
        memo_key = (path, qualname)
        if memo_key in self._class_objects_memo:
            return self._class_objects_memo[memo_key]
        self._class_objects_memo[memo_key] = found = []
        tree = self._function_tree(path, qualname)
        own = own_nodes(tree) if tree is not None else []
        local_dicts: dict[str, list] = {}
        for node in own:  # a local bound to a dict literal, each time it is (any of them may be returned)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        local_dicts.setdefault(target.id, []).extend(node.value.values)
        values = [node.value for node in own if isinstance(node, ast.Return) and node.value is not None]
        while values:
            value = values.pop()
            if isinstance(value, ast.IfExp):
                values += [value.body, value.orelse]
                continue
            container = value.value if isinstance(value, ast.Subscript) else \
                value.func.value if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr == "get" else None
            if isinstance(container, ast.Dict):
                values += [v for v in container.values if v is not None]
            elif isinstance(container, ast.Name) and container.id in local_dicts:
                values += [v for v in local_dicts[container.id] if v is not None]
            elif container is not None and dotted(container):
                found.extend(self._table_classes(path, dotted(container)))
            elif isinstance(value, (ast.Name, ast.Attribute)) and dotted(value):
                hit = self._named(path, dotted(value))
                if hit is not None and hit[0] == "class":
                    found.append((hit[1], hit[2]))
        found[:] = dict.fromkeys(found)
        return found

    def _calls_of_what(self, maker_path: str, maker: str) -> list[tuple[str, int, str]]:
        """(file, offset, argument text) of each call of a name bound to what `maker` returns
        (`fn = maker(...)` or `fn = module.maker(...)`, then `fn(...)` later in the same function,
        until the name is bound again)."""
        module_tail = self.module_of[maker_path].rsplit(".", 1)[-1]
        files = dict.fromkeys([maker_path, *self._alias_index.get(maker, ()), *self._alias_index.get(module_tail, ())])
        found = []
        for path in files:
            text = self._text(path)
            if text is None or maker not in text.text:
                continue
            for call_at, paren in _calls_named(text.text, maker):  # str.find, then the one line
                # `maker(...)(sde, bm)`: the returned callable called at once
                again = _SPACES_THEN_PAREN.match(text.text, paren + len(_balanced(text.text, paren)))
                if again is not None:
                    found.append((path, call_at, _balanced(text.text, again.end() - 1)))
                line_start = text.text.rfind("\n", 0, call_at) + 1
                match = _BOUND_TO_CALL.match(text.text, line_start, call_at)
                if match is None:
                    continue
                found.extend(self._later_calls(path, match.group(1), match.start(), match.end()))
        return found

    def _later_calls(self, path: str, name: str, bound_at: int, after: int) -> list[tuple[str, int, str]]:
        """(file, offset, argument text) of each `name(...)` from `after` to the end of the function around
        `bound_at`, until the name is bound again: the calls of a local bound there."""
        text = self._text(path)
        holder = self._function_at(path, text.line_of(bound_at))
        span = self.summaries[path].lines.get(holder) if holder is not None else None
        if span is None:
            return []
        end = text.end_of(span[1])  # the end of the holder
        rebound = _pattern(rf"^[ \t]*{re.escape(name)}[ \t]*=(?!=)", re.M).search(text.text, after, end)
        region = text.text[after:rebound.start() if rebound is not None else end]
        return [(path, after + start, _balanced(text.text, after + paren)) for start, paren in _calls_named(region, name)]

    def _init_position(self, cls: ClassKey, param: str) -> Optional[int]:
        """Where `param` stands among the positional arguments of a call of the class (its __init__'s
        parameters after self), or None."""
        found = self._lookup(cls, "__init__")
        names = self._parameters_of(found[0], f"{found[1]}.__init__")[1:] if found is not None else []
        return names.index(param) if param in names else None

    def _function_tree(self, path: str, qualname: str) -> Optional[ast.AST]:
        """The def of a function, parsed from its own lines (read only for the few functions an object
        is passed to)."""
        memo_key = (path, qualname)
        if memo_key not in self._function_tree_memo:
            span = self.summaries[path].lines.get(qualname)
            text = self._text(path) if span is not None else None
            tree = None
            if text is not None:
                try:
                    body = ast.parse(textwrap.dedent(text.lines(*span))).body
                    tree = body[0] if body and isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
                except SyntaxError:
                    pass
            self._function_tree_memo[memo_key] = tree
        return self._function_tree_memo[memo_key]

    def _parameter_at(self, path: str, qualname: str, key: str, bound: bool) -> Optional[str]:
        """The parameter an argument fills: "=name" by keyword, else by position (after self if bound);
        None for what `*args` / `**kwargs` take."""
        tree = self._function_tree(path, qualname)
        if tree is None:
            return None
        args = tree.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        if key.startswith("="):
            named = [a.arg for a in args.args + args.kwonlyargs]
            return key[1:] if key[1:] in named else None
        index = int(key) + (1 if bound else 0)
        return positional[index] if index < len(positional) else None

    def _methods_called_on(self, path: str, qualname: str, param: str, boxed=False,
                           depth: int = 0) -> list[str]:
        """Methods a function calls on one of its parameters (`g.update(y)`; `g(y)` is __call__), through
        a name bound to it or a display holding it too (`msg = {"fn": fn}; msg["fn"]()`), and in the
        functions of the tree it passes either on to (`inner(y, ctl)`; measured on 2.13, Dynamo runs
        them all on the object); not inside nested functions that take a parameter of the same name.
        boxed: the parameter is itself a display holding the object (`apply_stack(msg)`), under these keys
        (a frozenset; empty when not known)."""
        key = (path, qualname, param, boxed)
        if key in self._called_on_memo:
            return self._called_on_memo[key]
        self._called_on_memo[key] = []  # a cycle of functions passing it on sees nothing more
        tree = self._function_tree(path, qualname)
        if tree is None:
            return []
        found = []
        names, holders = _parameter_aliases(tree, param, boxed)
        stack = list(tree.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if any(a.arg in names | set(holders) for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs):
                    continue  # the name means something else in there
            if isinstance(node, ast.Call):
                func = node.func
                if _holds_parameter(func, names, holders):
                    found.append("__call__")
                elif isinstance(func, ast.Attribute) and _holds_parameter(func.value, names, holders):
                    found.append(func.attr)
                elif depth < MAX_PASSED_DEPTH:
                    found.extend(self._methods_called_further(path, node, names, holders, depth))
            stack.extend(ast.iter_child_nodes(node))
        self._called_on_memo[key] = found = list(dict.fromkeys(found))
        return found

    def _methods_called_further(self, path: str, call: ast.Call, names: set[str], holders: dict,
                                depth: int) -> list[str]:
        """What a function of the tree that a call passes the object (or a display holding it) to calls on it."""
        def boxed(name: str):
            return frozenset(holders[name] or ()) if name in holders else False
        passed = [(str(i), boxed(arg.id)) for i, arg in enumerate(call.args)
                  if isinstance(arg, ast.Name) and arg.id in names | set(holders)]
        passed += [(f"={kw.arg}", boxed(kw.value.id)) for kw in call.keywords
                   if kw.arg and isinstance(kw.value, ast.Name) and kw.value.id in names | set(holders)]
        spelled = dotted(call.func) if passed else None
        hit = self._named(path, spelled) if spelled and not spelled.startswith(("self.", "cls.")) else None
        if hit is None or hit[0] != "function":
            return []
        found = []
        for key, keys in passed:
            param = self._parameter_at(hit[1], hit[2], key, False)
            if param:
                found.extend(self._methods_called_on(hit[1], hit[2], param, keys, depth + 1))
        return found

    def _assigned(self, cls: ClassKey) -> dict[str, list[tuple[str, str]]]:
        """attribute -> ("call", callee) | ("annotation", text) | ("value", name) for one class, read
        off its text once."""
        if cls in self._attr_table:
            return self._attr_table[cls]
        table: dict[str, list[tuple[str, str]]] = {}
        self._attr_table[cls] = table
        info = self.summaries[cls[0]].classes[cls[1]]
        text = self._text(cls[0]) if info.lines[0] else None
        if text is None:
            return table
        body = text.lines(*info.lines)

        def note(attr: str, annotation: str, value: str, called: str) -> None:
            if annotation:
                table.setdefault(attr, []).append(("annotation", annotation))
            if value and called:
                table.setdefault(attr, []).append(("call", value))
            elif value and "." not in value:
                # `self.x = x`: the parameter's annotation, where the class spells one
                param = _annotation_of(body, value)
                if param is not None:
                    table.setdefault(attr, []).append(("annotation", param.group(1)))
                table.setdefault(attr, []).append(("value", value))
                # ... and what the class binds to `x` (`x = A() if c else B()`, `x = self.default_cls()`,
                # `x = self.method`)
                table.setdefault(attr, []).extend(_bound_in(body, value))
            elif value:
                table.setdefault(attr, []).append(("value", value))

        for match in _self_assignments(body):
            attr, annotation, value, called = match.groups(default="")
            table.setdefault(attr, [])  # assigned, whatever the value: a __getattr__ is not asked for it
            if not value or value.startswith("self.") and not called or value == "getattr" and called:
                # (`self.m = getattr(manifolds, name)()`: what the rest of the statement makes)
                # `self.f = (self.a if c else self.b)`, `self.r = (self.make() if r is None else copy(r))`
                start = match.start(3) if value else match.start(4) if called else match.end()
                for kind, spelled in _rhs_bindings(_statement_rest(body, start)):
                    table.setdefault(attr, []).append((kind, spelled))
                if not value:
                    if annotation:  # `self.tail: Head = {...}[name]`: the annotation still says what it holds
                        table.setdefault(attr, []).append(("annotation", annotation))
                    continue
            if value and not called and _TABLE_CALL.match(body, match.end(3)):
                # `self.solver = SOLVERS[method](...)`: one of the classes a module-level dict holds (the one
                # under a constant key: `HEADS["cls"](...)`, "HEADS|cls")
                key = _constant_key(body, body.index("[", match.end(3)) + 1)
                table[attr].append(("table", value if key is _UNKNOWN else f"{value}|{key}"))
                continue
            if value in _COPIES and called:
                copied = _COPIED_NAME.match(body, match.end(4))
                if copied is not None:  # `self.fns = list(fns)`: what the parameter holds
                    note(attr, annotation, copied.group(1), "")
                    continue
            if value and called and not annotation:
                paren = match.end(4) - 1
                then = _THEN_METHOD.match(body, paren + len(_balanced(body, paren)))
                if then is not None:
                    # `self.layer = Config().build()`: what the method returns (made by "made")
                    table[attr].append(("made", f"{value}|{then.group(1)}"))
                    continue
            note(attr, annotation, value, called)
        indent = _INDENT.search(body)
        if indent is not None:
            level = _pattern(_CLASS_LEVEL.format(indent=re.escape(indent.group(1))), re.M)
            for match in level.finditer(body):
                attr, annotation, value, called = match.groups(default="")
                wrapped = _COPIED_NAME.match(body, match.end()) if value == "staticmethod" and called else None
                if wrapped is not None:  # `act_fn = staticmethod(gelu)`: `self.act_fn(x)` calls gelu
                    table.setdefault(attr, []).append(("static", wrapped.group(1)))
                    continue
                note(attr, annotation, value, called)
        return table


_WITH_CALL = re.compile(r"(?<![\w.])with\s+([A-Za-z_][\w.]*)\s*\(")
_CALLED = re.compile(r"([A-Za-z_][\w.]*)\s*\(")
_SELF_METHOD = re.compile(r"^self\.([A-Za-z_]\w*)$")


def _self_assignments(body: str):
    r"""_SELF_ASSIGN.finditer(body), tried only where the text says `self` (a match starts there):
    sre tried the pattern at every offset of every class body, 4x slower on transformers. After a
    match the search goes on from its end, as finditer's does (`self.a = self.b = x` is one match)."""
    start = body.find("self")
    while start != -1:
        before = body[start - 1] if start else ""
        if not (before == "." or before == "_" or before.isalnum()):  # re's (?<![\w.])
            match = _SELF_ASSIGN.match(body, start)
            if match is not None:
                yield match
                start = body.find("self", match.end())
                continue
        start = body.find("self", start + 1)


# A module-level name bound to a literal that may hold classes: `SOLVERS = {...}`, `(...)`, `[...]`, `dict(...)`.
_MODULE_TABLE = re.compile(r"(?m)^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*(?=[{\[(]|dict[ \t]*\()")
_SPACES_THEN_PAREN = re.compile(r"[ \t]*\(")
_DEF_BEFORE = re.compile(r"\bdef[ \t]+$")
# The dotted name that ends where a search stops (`api.run` before `.integrate(`).
_DOTTED_TAIL = re.compile(r"[A-Za-z_][\w.]*$")
# `fn = ` or `fn = module.` before a call on its line (the call's name follows)
_BOUND_TO_CALL = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(?:[A-Za-z_][\w.]*\.)?$")
# Calls whose result holds the same elements as their one argument.
_COPIES = ("list", "tuple", "nn.ModuleList", "torch.nn.ModuleList", "ModuleList")
_COPIED_NAME = re.compile(r"\s*([A-Za-z_]\w*)\s*\)")
_THEN_METHOD = re.compile(r"[ \t]*\.[ \t]*([A-Za-z_]\w*)[ \t]*\(")
_ARGUMENT_HEAD = re.compile(r"([A-Za-z_][\w.]*)\s*(\(|$)")
# nn.Module methods that return the module itself.
_RETURNS_SELF = frozenset({"eval", "train", "to", "cuda", "cpu", "float", "double", "half", "bfloat16",
                           "requires_grad_", "share_memory", "to_empty", "type", "apply"})


def _element_constructions(literal: str) -> list[str]:
    """The callees of the calls that are elements of a list or tuple literal's text (`[A(), m.B(2)]`)."""
    return [spelled for elt in _literal_elements(literal) if isinstance(elt, ast.Call)
            for spelled in [dotted(elt.func)] if spelled is not None]


def _element_names(literal: str) -> list[str]:
    """The (dotted) names that are elements of a list or tuple literal's text (`[cb1, ops.cb2]`)."""
    return [spelled for elt in _literal_elements(literal) if isinstance(elt, (ast.Name, ast.Attribute))
            for spelled in [dotted(elt)] if spelled is not None]


def _literal_elements(literal: str) -> list[ast.expr]:
    try:
        node = ast.parse(literal, mode="eval").body
    except SyntaxError:
        return []
    return node.elts if isinstance(node, (ast.List, ast.Tuple)) else []




# A return that may pick a class: `return {`, `return A if`, `return table[` / `return table.get(`.
_COMPOUND_RETURN = re.compile(r"^[ \t]+return[ \t]+(?:\{|\(?[A-Za-z_][\w.]*[ \t]+if[ \t]|[A-Za-z_][\w.]*[ \t]*(?:\[|\.get[ \t]*\())",
                              re.M)
_RETURNED_CLASS = re.compile(r"[ \t]*return[ \t]+(?:[A-Za-z_][\w.]*\.)?(\w+)[ \t]*(?:#.*)?$")


def _returns_of(text: str, name: str) -> list[int]:
    """Offsets of the lines `return name` / `return module.name` (the name itself, not a call of it).
    str.find for the name, then the one line: a pattern per class over every importing file cost 12%
    of a cold run on transformers."""
    found = []
    start = text.find(name)
    while start != -1:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        line = text[line_start:line_end if line_end != -1 else len(text)]
        if "return" in line:
            match = _RETURNED_CLASS.match(line)
            if match is not None and match.group(1) == name:
                found.append(line_start)
        start = text.find(name, start + len(name))
    return found




_TUPLE_BINDING = re.compile(r"^[ \t]*\(?([\w \t,]+,[\w \t,]*?)\)?[ \t]*=(?!=)[ \t]*([A-Za-z_][\w.]*)\s*\(", re.M)


@functools.lru_cache(maxsize=4096)  # asked once per construction in the function, of the same text
def _unpacked_from(body: str, name: str) -> tuple[tuple[str, int], ...]:
    """(callee, index) for each `a, name = callee(...)` in a function's text."""
    found = []
    if name not in body or "," not in body:
        return ()
    for match in _TUPLE_BINDING.finditer(body):
        targets = [t.strip() for t in match.group(1).split(",")]
        if name in targets and not any(t.startswith("*") for t in targets):
            found.append((match.group(2), targets.index(name)))
    return tuple(found)


def _unpacked(body: str, name: str, callee: str) -> bool:
    """Whether `name` gets `callee`'s result only through tuple unpacking (the whole result is not its value)."""
    return any(c == callee for c, _ in _unpacked_from(body, name)) \
        and not _pattern(rf"(?m)^[ \t]*{re.escape(name)}[ \t]*=(?!=)[ \t]*{re.escape(callee)}\s*\(").search(body)


def _bound_in(body: str, name: str, skip: Optional[int] = None) -> list[tuple[str, str]]:
    """What a class body binds to a local name (`name = A() if c else B()`, `name = self.make()`,
    `name = self.method`): ("call", callee), ("self call", attribute), ("self method", method); skip:
    an offset of the body whose own statement does not count (the call an argument is read for)."""
    found = []
    for match in _after_name(body, name, _ASSIGNMENT_AFTER):
        rest = _statement_rest(body, match.end())
        if skip is not None and match.start() <= skip <= match.end() + len(rest):
            continue
        found.extend(_rhs_bindings(rest))
    return found


# `getattr(mod.sub, name)(` with a name that is no string constant
_GETATTR_CALL = re.compile(r"^getattr\(\s*([A-Za-z_][\w.]*)\s*,\s*[^\s\"'][^()]*(?:\([^()]*\)[^()]*)*\)\s*\(")


def _rhs_bindings(rhs: str) -> list[tuple[str, str]]:
    """What the right-hand side of a binding holds: ("self method", m) for `self.m`, alone or as a
    branch of `a if c else b` / `a or b`, ("self call", m) for `self.m(...)`, ("call", callee) for
    another call outside any bracket."""
    rhs = rhs.strip()
    while rhs.startswith("(") and len(_balanced(rhs, 0)) == len(rhs):
        rhs = rhs[1:-1].strip()
    method = _SELF_METHOD.match(rhs)
    if method is not None:
        return [("self method", method.group(1))]
    found = []
    if "self." in rhs and (" if " in rhs or " or " in rhs or rhs.startswith("{")):
        try:  # in brackets of its own, so that lines (and comments on them) stay one expression
            tree = ast.parse("(" + rhs + "\n)", mode="eval").body
        except SyntaxError:
            tree = None
        stack = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.IfExp):
                stack += [node.orelse, node.body]
            elif isinstance(node, ast.BoolOp):
                stack += reversed(node.values)
            elif isinstance(node, ast.Subscript) or isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "get":  # `{k: self.a, ...}[kind]`, `{...}.get(kind)`
                stack.append(node.value if isinstance(node, ast.Subscript) else node.func.value)
            elif isinstance(node, ast.Dict):
                stack += reversed(node.values)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                found.append(("self method", node.attr))
    if rhs.startswith(("[", "(")) and " for " in rhs:  # `[T(i) for i in r]`: each element is made by the call
        try:
            tree = ast.parse(rhs, mode="eval").body
        except SyntaxError:
            tree = None
        if isinstance(tree, (ast.ListComp, ast.GeneratorExp)) and isinstance(tree.elt, ast.Call) and dotted(tree.elt.func):
            table = _comprehended_table(tree, tree.elt.func)
            found.append(("table", table) if table else ("call", dotted(tree.elt.func)))
    elif rhs.startswith("{") and " for " in rhs:
        try:
            tree = ast.parse(rhs, mode="eval").body
        except SyntaxError:
            tree = None
        if isinstance(tree, ast.DictComp) and isinstance(tree.value, ast.Call):
            table = _comprehended_table(tree, tree.value.func)
            if table:  # `{k: cls() for k, cls in HEADS.items()}`
                found.append(("table", table))
    module = _GETATTR_CALL.match(rhs)
    if module is not None:  # `getattr(af, name)(...)`: some class of that module (`_classes_named`)
        found.append(("call", module.group(1) + ".*"))
    for callee in _top_level_calls(rhs):
        if callee.startswith("self."):
            if callee.count(".") == 1:
                found.append(("self call", callee[5:]))
        elif callee not in _TYPING and not callee.startswith(("super", "cls.")):
            found.append(("call", callee))
    return found


def _comprehended_table(tree: ast.AST, callee: ast.AST) -> Optional[str]:
    """`[T() for T in TRANSFORMS]`, `{k: cls() for k, cls in HEADS.items()}`: the module-level table
    whose classes the comprehension instantiates, when the callee is its loop variable."""
    if len(tree.generators) != 1 or not isinstance(callee, ast.Name):
        return None
    loop = tree.generators[0]
    target, it = loop.target, loop.iter
    if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(it, ast.Call) \
            and isinstance(it.func, ast.Attribute) and it.func.attr == "items" and not it.args:
        target, it = target.elts[1], it.func.value
    elif isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "values" and not it.args:
        it = it.func.value
    if isinstance(target, ast.Name) and target.id == callee.id and isinstance(it, (ast.Name, ast.Attribute)):
        return dotted(it)
    return None


# What follows a name that is assigned (`name = ...`, not `name == ...`), or annotated (`name: Cls`).
_ASSIGNMENT_AFTER = re.compile(r"\s*=(?!=)[ \t]*")
_ANNOTATION_AFTER = re.compile(r"\s*:\s*([^=,)\n]+)")


def _after_name(body: str, name: str, after: "re.Pattern"):
    r"""The matches of `after` right behind each occurrence of the identifier `name` that is a whole
    word and no attribute, in text order: re.finditer(rf"(?<![\w.]){name}{after}") without compiling
    a pattern per name (which overflowed re's cache) or indexing every binding of the body for one
    name (the call graph's largest cost). str.isalnum and "_" are exactly re's \w; `after` starts
    with \s* or a non-word character, so the word ends where `name` does."""
    start = body.find(name)
    while start != -1:
        before = body[start - 1] if start else ""
        if not (before == "." or before == "_" or before.isalnum()):
            match = after.match(body, start + len(name))
            if match is not None:
                yield match
        start = body.find(name, start + 1)


def _annotation_of(body: str, name: str):
    """The first `name: annotation` of the text (group 1 is the annotation), or None."""
    return next(_after_name(body, name, _ANNOTATION_AFTER), None)


@functools.lru_cache(maxsize=4096)
def _module_literals(text: str, name: str, opening: str) -> tuple:
    """The parsed value of each module-level `name = <literal>` of a file's text whose value starts as the
    regular expression `opening` matches (a brace or `dict(` for a dict, a bracket for a list or tuple).
    Kept: each graph round asks again for the same tables (the trees are only read)."""
    found = []
    for match in _pattern(rf"(?m)^{re.escape(name)}\s*(?::[^=\n]*)?=\s*(?={opening})").finditer(text):
        try:
            found.append(ast.parse(_statement_rest(text, match.end()) + "\n", mode="eval").body)
        except SyntaxError:
            continue
    return tuple(found)


_UNKNOWN = object()


def _constant_key(text: str, after: int):
    """The constant a subscript or `.get(` that opens just before `after` is given (`TABLE["seg"]`), or
    _UNKNOWN (a variable key)."""
    match = _pattern(r"[ \t]*(\"[^\"\n]*\"|'[^'\n]*'|-?\d+)[ \t]*[\]),]").match(text[after:after + 200])
    return ast.literal_eval(match.group(1)) if match is not None else _UNKNOWN


_SPREAD = object()  # the key of a `**other` element of a dict literal


def _dict_items(text: str, name: str) -> list[tuple[object, ast.AST]]:
    """(key, value) of each element of each module-level `name = {...}` / `dict(...)` literal of a file's
    text: the key a constant's value, None for another expression, _SPREAD for `**other`."""
    items: list[tuple[object, ast.AST]] = []
    for literal in _module_literals(text, name, r"\{|dict\s*\("):
        if isinstance(literal, ast.Call):  # `dict(euler=Euler, ...)`, `dict({...}, k=v)`
            items.extend((keyword.arg, keyword.value) for keyword in literal.keywords if keyword.arg is not None)
            literal = literal.args[0] if len(literal.args) == 1 else None
        if isinstance(literal, ast.Dict):
            items.extend((_SPREAD if key is None else key.value if isinstance(key, ast.Constant) else None, value)
                         for key, value in zip(literal.keys, literal.values))
    return items


def _sequence_items(text: str, name: str) -> list[tuple[Optional[int], ast.AST]]:
    """(index, element) of each module-level `name = (...)` / `name = [...]` literal of a file's text (the
    index None after a `*rest`; starred elements left out)."""
    items: list[tuple[Optional[int], ast.AST]] = []
    for literal in _module_literals(text, name, r"[\[(]"):
        if isinstance(literal, (ast.Tuple, ast.List)):
            starred = any(isinstance(element, ast.Starred) for element in literal.elts)
            items.extend((None if starred else index, element) for index, element in enumerate(literal.elts)
                         if not isinstance(element, ast.Starred))
    return items


def _table_items(text: str, name: str) -> list[tuple[object, ast.AST]]:
    """(constant key or None, value) of each element of a module-level dict, tuple or list literal (a
    sequence's element under its index); `**other` left out."""
    return [(key, value) for key, value in _dict_items(text, name) if key is not _SPREAD] + _sequence_items(text, name)


def _dict_values(text: str, name: str) -> list:
    """The values of each module-level `name = {...}` dict literal of a file's text (`**x` included)."""
    return [value for _key, value in _dict_items(text, name)]


def _sequence_values(text: str, name: str) -> list:
    """The elements of each module-level `name = (...)` / `name = [...]` literal of a file's text."""
    return [element for _index, element in _sequence_items(text, name)]


def _statement_rest(text: str, start: int) -> str:
    """From `start` to the end of the statement: the line, and the lines after while brackets are open."""
    depth, i = 0, start
    while i < len(text) and i - start < 2000:
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                break
        elif ch == "\n" and depth == 0:
            break
        i += 1
    return text[start:i]


def _top_level_calls(rhs: str) -> list[str]:
    """Callees called outside any bracket of an expression (`A(x) if c else B(y)`: A and B, not x's)."""
    found, depth = [], 0
    for match in _CALLED.finditer(rhs):
        before = rhs[:match.start()]
        depth = sum(before.count(c) for c in "([{") - sum(before.count(c) for c in ")]}")
        if depth == 0:
            found.append(match.group(1))
    return found


def _breadth_first(start: Iterable[ClassKey], edges: dict[ClassKey, list[ClassKey]]) -> Iterable[ClassKey]:
    seen, queue = set(), deque(start)
    while queue:
        key = queue.popleft()
        if key in seen:
            continue
        seen.add(key)
        yield key
        queue.extend(edges.get(key, ()))


def _is_abstract(func: Optional[ast.AST]) -> bool:
    """A def whose body, past its docstring, only raises NotImplementedError (a `pass` or `...` body is
    as often a no-op default that really runs: a hook)."""
    if func is None:
        return False
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if len(body) != 1:
        return False
    stmt = body[0]
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False


# A key not a constant (`msg[k] = v`): it may be any.
_ANY = object()


def _parameter_aliases(func, param: str, boxed=False) -> tuple[set[str], dict[str, Optional[set]]]:
    """The names that hold a parameter in a function: itself and each name bound only to it (`f = fn`, `for f
    in (fn,)` not), and the names bound only to a dict, list or tuple display that holds it (`msg = {"fn": fn,
    ...}`, called as `msg["fn"](*args)`: measured on 2.13, Dynamo runs the object's __call__ there too), each
    with the constant keys (or indices) it sits under; one stored into at such a key (or at a key not
    constant) is not trusted. boxed: the parameter is itself such a display, under those keys (a frozenset,
    empty when not known: any key)."""
    bound: dict[str, list[Optional[ast.AST]]] = {}
    stored: dict[str, set] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor)):
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(None)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                for target in ast.walk(item.optional_vars) if item.optional_vars is not None else ():
                    if isinstance(target, ast.Name):
                        bound.setdefault(target.id, []).append(None)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
            stored.setdefault(node.value.id, set()).add(node.slice.value if isinstance(node.slice, ast.Constant)
                                                        else _ANY)
    aliases = {name for name, values in bound.items()
               if all(isinstance(v, ast.Name) and v.id == param for v in values)}
    def overwritten(name: str, keys) -> bool:
        return bool(stored.get(name)) and (_ANY in stored[name] or not keys or bool(stored[name] & set(keys)))
    if boxed is not False:
        return set(), {name: (set(boxed) or None) for name in {param} | aliases if not overwritten(name, boxed)}
    holders: dict[str, Optional[set]] = {}
    for name, values in bound.items():
        if name in aliases:
            continue
        keys: set = set()
        for value in values:
            if not isinstance(value, (ast.Dict, ast.List, ast.Tuple)):
                break
            pairs = zip(value.keys, value.values) if isinstance(value, ast.Dict) else enumerate(value.elts)
            found = [k.value if isinstance(k, ast.Constant) else k for k, v in pairs
                     if isinstance(v, ast.Name) and v.id == param]
            if not found:
                break
            keys.update(found)
        else:
            if not overwritten(name, keys):
                holders[name] = keys
    return {param} | aliases, holders


def _holds_parameter(node: ast.AST, names: set[str], holders: dict) -> bool:
    """`fn` or an alias of it, or `msg[key]` of a display holding it under that key (any key when it is no
    constant, or when the display's keys are unknown)."""
    if isinstance(node, ast.Name):
        return node.id in names
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in holders):
        return False
    keys = holders[node.value.id]
    return keys is None or not isinstance(node.slice, ast.Constant) or node.slice.value in keys


def _displayed_callables(node: Optional[ast.AST], depth: int = 0) -> list[ast.Name]:
    """The names a returned expression may give: `{...}[key]` and `(...)[i]` of a display, `a if c else b`."""
    if node is None or depth > 3:
        return []
    if isinstance(node, ast.Name):
        return [node]
    if isinstance(node, ast.IfExp):
        return _displayed_callables(node.body, depth + 1) + _displayed_callables(node.orelse, depth + 1)
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Dict, ast.Tuple, ast.List)):
        values = node.value.values if isinstance(node.value, ast.Dict) else node.value.elts
        return [v for value in values for v in _displayed_callables(value, depth + 1)]
    return []
