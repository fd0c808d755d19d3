"""The tensor facts of one file's traced functions, built on demand and shared by the rules and the
summary: each scope's TensorEnv, what same-file helpers return, and what module classes hold.

The facts refer to each other (an env asks whether a helper returns a tensor, which builds another
env), so they form reference cycles; `close()` breaks them when the file is done, so that the file's
tree is freed by reference counting instead of waiting for the cyclic collector (BENCHMARKS.md).
"""
from __future__ import annotations

import ast
from typing import Optional

from .astwalk import own_nodes
from .names import ImportMap
from .project import FileContext
from .scope import ModuleScopes, Scope, self_parameter
from .tensors import ClassFacts, TensorEnv, callee_param_facts, defaulted_none_params, entry_param_facts


class FileFacts:
    def __init__(self, scopes: ModuleScopes, imports: ImportMap, context: FileContext):
        self.scopes = scopes
        self.imports = imports
        self.context = context
        self._envs: dict[str, Optional[TensorEnv]] = {}
        self._returns: dict[str, bool] = {}
        self._class_facts: dict[str, ClassFacts] = {}
        self._own_facts: dict[str, ClassFacts] = {}
        self._member_names: Optional[frozenset] = None

    @property
    def member_names(self) -> frozenset:
        """Names a method or property of a known class returning a tensor may have: the plain classes' of this
        file, and the last part of what the call graph says returns one (a filter before any flow look-up)."""
        if self._member_names is None:
            names = {m for info in self.scopes.classes.values() if not info.is_module for m in info.methods}
            names.update(name.rpartition(".")[2] for name in self.context.returns_tensor or ())
            self._member_names = frozenset(names)
        return self._member_names

    def close(self) -> None:
        self._envs.clear()
        self._returns.clear()
        self._class_facts.clear()
        self._own_facts.clear()

    def env_of(self, scope: Scope) -> Optional[TensorEnv]:
        envs = self._envs
        if scope.qualname in envs:
            return envs[scope.qualname]
        envs[scope.qualname] = None  # cycle guard: recursion sees "unknown"
        facts = self.class_facts_of(scope)
        defaulted_none = frozenset()
        if scope.is_entry:
            params = entry_param_facts(scope)
        else:
            external = self.scopes.external.get(scope.qualname)
            sites, external_sites = self.scopes.call_sites.get(scope.qualname, []), \
                external.sites if external is not None else ()
            params = callee_param_facts(scope, sites, self.env_of, external_sites)
            defaulted_none = defaulted_none_params(scope, sites, external_sites)
        envs[scope.qualname] = TensorEnv(scope, self.scopes, self.imports, facts, params, self.returns_tensor,
                                         self.context.returns_tensors, defaulted_none, self.member_names)
        return envs[scope.qualname]

    def env_named(self, qualname: str) -> Optional[TensorEnv]:
        scope = self.scopes.scopes.get(qualname)
        return self.env_of(scope) if scope is not None else None

    def returns_tensor(self, call: ast.Call, caller: Scope) -> bool:
        """Does a same-file function called here return a tensor on every path? Judged in a
        throwaway env (parameters unknown) so that the answer never depends on which scope's
        env happened to be built first."""
        target = self.scopes.resolve_call(caller, call)
        if target is None:
            known = self.context.returns_tensor
            if not known:
                return False
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and caller.cls is not None \
                    and func.value.id == self_parameter(caller.func):
                # a base's method in another file (the call graph says)
                return f"{caller.cls.name}.self.{func.attr}" in known
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
                made = self.imports.qualify(func.value.func)  # `Holder(x).value()`: a class of another file
                return made is not None and f"{made}.{func.attr}" in known
            return self.imports.qualify(func) in known
        qualname = target[2]
        if qualname not in self._returns:
            self._returns[qualname] = False  # recursion guard
            callee = self.scopes.scopes.get(qualname)
            if callee is not None:
                env = self._unbound_env(callee)
                values = [r.value for r in returns_of(callee.func)]
                self._returns[qualname] = bool(values) and all(v is not None and env.is_tensor(v) for v in values)
        return self._returns[qualname]

    def _unbound_env(self, scope: Scope) -> TensorEnv:
        """A fresh env of the function with its parameters unknown: an answer that holds whoever calls it."""
        return TensorEnv(scope, self.scopes, self.imports, self.class_facts_of(scope), {}, self.returns_tensor)

    def class_facts_of(self, scope: Scope) -> Optional[ClassFacts]:
        """The class's attribute facts, with what its bases in this file assign (`self.x` set in a
        base's __init__, through `super().__init__()`, is an attribute of the subclass too)."""
        if scope.cls is None:
            return None
        name = scope.cls.name
        if name not in self._class_facts:
            locals_ = [self._own_class_facts(base) for base in self.scopes.local_ancestors(scope.cls)]
            facts = self._own_class_facts(scope.cls).with_bases(locals_)
            inherited = self.context.inherited_tensor_attrs.get(name)
            if inherited:  # what bases in other files make tensors, where no class of this file assigns it
                facts.tensor_attrs |= inherited - facts.own - {a for base in locals_ for a in base.own}
            self._class_facts[name] = facts
        return self._class_facts[name]

    def own_tensor_attrs(self, info) -> frozenset:
        """The attributes one class's own methods make tensors (for subclasses in other files)."""
        return frozenset(self._own_class_facts(info).tensor_attrs)

    def _own_class_facts(self, info) -> ClassFacts:
        """What one class's own methods assign, read once per file however many subclasses ask."""
        if info.name not in self._own_facts:
            self._own_facts[info.name] = ClassFacts(info, self.imports)
        return self._own_facts[info.name]

    def return_kind(self, name: str, own: bool = False) -> Optional[str]:
        """What a top-level function returns on every path: "tensor", "tensors" (a tuple or
        list of them) or None, judged with the facts its parameters have."""
        # Only traced functions are judged (their facts exist anyway): an untraced helper that
        # other files call becomes traced in the next round of the call graph, and is judged then.
        scope = self.scopes.scopes.get(name)
        if scope is None:
            return None
        values = [r.value for r in returns_of(scope.func)]
        if not values or any(v is None for v in values):
            return None
        # own: judged without what callers pass (a method's kind serves every object of its class; one that
        # returns its argument, `forward_shape(shape)`, is no tensor because one caller passed a tensor)
        env = self._unbound_env(scope) if own else self.env_of(scope)
        if env is None:
            return None
        if all(env.is_tensor(v) for v in values):
            return "tensor"
        if all(isinstance(v, (ast.Tuple, ast.List)) and v.elts and all(env.is_tensor(e) for e in v.elts)
               for v in values):
            return "tensors"  # (a list as well: unpacked, indexed or iterated alike)
        return None


def returns_of(func) -> list[ast.Return]:
    """The return statements of a function itself, not of functions nested in it."""
    return [node for node in own_nodes(func) if isinstance(node, ast.Return)]

