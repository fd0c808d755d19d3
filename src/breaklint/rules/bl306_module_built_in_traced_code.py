"""BL306: a module built in traced code whose __init__ breaks the graph breaks again at `super().__init__()`.

Measured on torch 2.13 (CPU, backend="eager"): `Block(3)(x)` in a compiled forward, where Block's
__init__ prints, breaks at the print and then at the first line of the __init__ that uses self
(GB0119 "Uninitialized nn.Module"): after the first break Dynamo meets the __init__ as a frame of
its own, whose self has no attributes until nn.Module.__init__ has run. A Block whose __init__ does
not break is built inside the graph with no break at all.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.astwalk import walk
from ..analysis.scope import _self_name
from .base import Example, Rule


class ModuleBuiltInTracedCode(Rule):
    code = "BL306"
    name = "module-built-in-traced-code"
    summary = "a module built in traced code whose __init__ breaks breaks again at its first use of self"
    gb_ids = ("GB0119",)
    fix_availability = "never"
    verdicts = {"2.13": True}

    def after_scope(self, ctx, findings: list) -> None:
        built = ctx.built_class
        if built is None or not ctx.scope.cls.is_module:
            return
        # a break of this __init__'s own (not a recompile hazard, not one Dynamo never reaches)
        breaks = [f for f in findings if f.gb_ids and not f.frame_skip and f.code != self.code]
        if not breaks:
            return
        message = (f"traced code builds a {built}, and its __init__ breaks the graph (line {breaks[0].row}): "
                   f"Dynamo then runs this __init__ as a frame of its own, before nn.Module.__init__ has set "
                   f"the module up, and breaks here too (GB0119, \"Uninitialized nn.Module\"); build the "
                   f"{built} once outside traced code and reuse it")
        # Each __init__ up the chain of super().__init__() calls also starts on a half-built self
        # (measured: the base's own first use of self breaks as well), as far as this file shows it.
        cls, seen = ctx.scope.cls, set()
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            init = cls.methods.get("__init__")
            first_use = _first_use_of_self(init) if init is not None else None
            if first_use is None:
                return
            ctx.report(first_use, message)
            cls = _initialised_base(cls, init, ctx.file.scopes.classes)

    VALID = [
        Example("""
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k                      # nothing here breaks: built inside the graph

    def forward(self, x):
        return x * self.k


class Net(nn.Module):
    def forward(self, x):
        return Scale(3)(x)


def factory():
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        print("built", k)

    def forward(self, x):
        return x * self.k


class Net(nn.Module):
    def forward(self, x):
        return Scale(3)(x)


def factory():
    return Net(), (torch.randn(4),)
""", at=((8, 9),)),
    ]


def _initialised_base(cls, init: ast.FunctionDef, classes: dict):
    """The class of this file whose __init__ `super().__init__(...)` runs, if the __init__ calls it and
    the first base with an __init__ is defined here (a module class)."""
    if not any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"
               and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
               and node.func.value.func.id == "super" for node in walk(init)):
        return None
    while cls.bases:
        info = classes.get(cls.bases[0])
        if info is None:
            return None  # an imported base, or nn.Module itself
        if "__init__" in info.methods:
            return info if info.is_module else None
        cls = info  # a base that inherits its __init__: look further up
    return None


def _first_use_of_self(func: ast.FunctionDef) -> Optional[ast.stmt]:
    """The first statement of the body that reads self or calls super(): where Dynamo first wraps
    the half-built module."""
    self_name = _self_name(func)
    for stmt in func.body:
        for node in walk(stmt):
            if isinstance(node, ast.Name) and (node.id == self_name or node.id == "super"):
                return stmt
    return None
