"""BL602: compiled code appends to a list that outlives the call (`self.history.append(x)`, a global list).

Measured on torch 2.13 CPU with a counting backend, 12 calls (bench/recompile_probe.py): Dynamo
guards on the list's length (`not self.history`, `len(G['HISTORY']) == 3`), the list is one longer
on every call, so every call compiles again: 8 compiles in 12 calls, then `recompile_limit` is hit
and the frame runs eagerly. A local list, or one reset at the start of every call, does not.
"""
from __future__ import annotations

import ast

from ..analysis.astwalk import walk
from .base import Example, Rule
from .bl601_number_state_in_compiled_code import COST, kept_self, self_attr, visible_hierarchy

GROWING = {"append", "extend", "insert"}


class ListGrownInCompiledCode(Rule):
    code = "BL602"
    name = "list-grown-in-compiled-code"
    summary = "compiled code appends to a list attribute or global list: recompiles on every call"
    gb_ids = ()
    fix_availability = "never"
    node_types = (ast.Call,)
    verdict_kind = "recompiles"
    # Measured on 2.13 CPU: 8 compiles in 12 calls (a module's list attribute and a global list).
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in GROWING):
            return
        owner = func.value
        self_name = kept_self(ctx)
        attr = self_attr(owner, self_name)
        if attr is not None:
            if self._is_kept_list_attribute(attr, ctx):
                ctx.report(node, f"`{self_name}.{attr}` grows on every call: {COST.replace('its value', 'its length')}; "
                                 f"return the values and collect them outside the compiled code")
        elif isinstance(owner, ast.Name) and self._is_kept_global_list(owner.id, ctx):
            ctx.report(node, f"the module-level list `{owner.id}` grows on every call: "
                             f"{COST.replace('its value', 'its length')}; return the values and collect them "
                             f"outside the compiled code")

    @staticmethod
    def _is_kept_list_attribute(attr: str, ctx) -> bool:
        """Set once (to a list display) and never cleared: each call sees it one longer."""
        cls = ctx.scope.cls
        hierarchy = visible_hierarchy(cls, ctx) if cls.is_module else None
        if hierarchy is None:
            return False
        values = [v for info in hierarchy for v in info.assignments.values.get(attr, [])]
        if len(values) != 1 or not _is_empty_list(values[0][0]):
            return False
        return not any(_cleared(info.node, lambda n: isinstance(n, ast.Attribute) and n.attr == attr)
                       for info in hierarchy)

    @staticmethod
    def _is_kept_global_list(name: str, ctx) -> bool:
        func = ctx.scope.func
        params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
        if name in params or any(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store
                                 for n in walk(func)):
            return False
        bindings = [s for s in ctx.file.tree.body if isinstance(s, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)]
        if len(bindings) != 1 or not _is_empty_list(bindings[0].value):
            return False
        return not _cleared(ctx.file.tree, lambda n: isinstance(n, ast.Name) and n.id == name)

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        feats = []  # a local list: gone when the call ends
        feats.append(self.lin(x))
        feats.append(x)
        return torch.cat(feats, dim=-1)


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.history = []

    def forward(self, x):
        return self.lin(x)


def train(model, batches):
    for x in batches:
        model.history.append(model(x).detach())  # collected outside the compiled code
""", runnable=False),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.history = []

    def forward(self, x):
        y = self.lin(x)
        self.history.append(y.detach())
        return y


def factory():
    return Net(), (torch.randn(2, 4),)
""", calls=12, at=((14, 9),)),
        Example("""
import torch

SEEN = []


@torch.compile
def step(x):
    SEEN.append(x.shape[0])
    return x * 2


def factory():
    return step, (torch.randn(4),)
""", calls=12, at=((9, 5),)),
    ]


def _is_empty_list(value: ast.AST) -> bool:
    if isinstance(value, ast.List):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list" \
        and not value.args and not value.keywords


def _cleared(tree: ast.AST, is_owner) -> bool:
    """`.clear()`, `.pop()`, `del x[...]` or a slice assignment anywhere: the length may stay put."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("clear", "pop", "remove") and is_owner(node.func.value):
            return True
        if isinstance(node, ast.Delete) and any(isinstance(t, ast.Subscript) and is_owner(t.value)
                                                for t in node.targets):
            return True
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) and is_owner(t.value)
                                                for t in node.targets):
            return True
    return False

