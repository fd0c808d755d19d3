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
        first_use = _first_use_of_self(ctx.scope.func)
        if first_use is None:
            return
        ctx.report(first_use, f"traced code builds a {built}, and its __init__ breaks the graph (line "
                              f"{breaks[0].row}): Dynamo then runs this __init__ as a frame of its own, "
                              f"before nn.Module.__init__ has set the module up, and breaks here too (GB0119, "
                              f"\"Uninitialized nn.Module\"); build the {built} once outside traced code and "
                              f"reuse it")

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


def _first_use_of_self(func: ast.FunctionDef) -> Optional[ast.stmt]:
    """The first statement of the body that reads self or calls super(): where Dynamo first wraps
    the half-built module."""
    self_name = _self_name(func)
    for stmt in func.body:
        for node in walk(stmt):
            if isinstance(node, ast.Name) and (node.id == self_name or node.id == "super"):
                return stmt
    return None
