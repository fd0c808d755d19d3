"""BL306: a module built in traced code whose __init__ breaks the graph breaks again at `super().__init__()`.

Measured on torch 2.13 (CPU, backend="eager"): `Block(3)(x)` in a compiled forward, where Block's
__init__ prints, breaks at the print and then at the first line of the __init__ that uses self
(GB0119 "Uninitialized nn.Module"): after the first break Dynamo meets the __init__ as a frame of
its own, whose self has no attributes until nn.Module.__init__ has run. A Block whose __init__ does
not break is built inside the graph with no break at all.
"""
from __future__ import annotations

from .base import Example, Rule


class ModuleBuiltInTracedCode(Rule):
    code = "BL306"
    name = "module-built-in-traced-code"
    summary = "a module built in traced code whose __init__ breaks breaks again at its first use of self"
    gb_ids = ("GB0119",)
    fix_availability = "never"
    verdicts = {"2.13": True}

    def after_file(self, ctx, effects) -> None:
        for site in effects.sites:
            ctx.scope = site.scope
            cause = f"traced code builds a module whose {site.built}.__init__ breaks the graph (line {site.row})"
            if site.frame:
                built = f" (line {site.row})" if site.row else ""
                cause = f"the module is built{built} in a function Dynamo skips and runs eagerly ({site.frame})"
                how = (f"this {site.cls.name}.__init__ then runs as a frame of its own, before nn.Module.__init__ "
                       f"has set the module up, and breaks here")
            elif site.cls.name == site.built:
                how = ("Dynamo then runs that __init__ as a frame of its own, before nn.Module.__init__ has set "
                       "the module up, and breaks here too")
            else:
                how = (f"the rest of it runs outside the graph, and this {site.cls.name}.__init__, run from there "
                       f"as a frame of its own before nn.Module.__init__ has set the module up, breaks here")
            ctx.report(site.statement, f"{cause}: {how} (GB0119, \"Uninitialized nn.Module\"); build the module "
                                       f"once outside traced code and reuse it", guard=site.guard)

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
