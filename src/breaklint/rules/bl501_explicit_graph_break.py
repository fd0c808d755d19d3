"""BL501: `torch._dynamo.graph_break()` left in traced code."""
from __future__ import annotations

import ast

from ..analysis.scope import self_parameter
from .base import Example, Rule, local_names

GRAPH_BREAK_CALLS = {"torch._dynamo.graph_break", "torch._dynamo.decorators.graph_break"}


class ExplicitGraphBreak(Rule):
    code = "BL501"
    name = "explicit-graph-break"
    summary = "torch._dynamo.graph_break(), or a call of a torch.compiler.disable'd function, splits the graph on purpose"
    gb_ids = ("GB0025", "GB0098", "GB0099")
    fix_availability = "never"  # it may be deliberate (a split around a custom kernel); a person decides
    node_types = (ast.Call,)
    # 2.13: measured on CPU. 2.11 and 2.15: from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        disabled = _disabled_callee(node, ctx)
        if disabled is not None:
            # measured on 2.13 (stop 29's registry sweep): GB0098 at the call
            ctx.report(node, f"{disabled} is marked torch.compiler.disable: calling it from traced code splits the "
                             "graph here (GB0098, GB0099 for a method) and it runs eagerly; remove the decorator if it can be traced, or "
                             "keep the split if it is deliberate (then `# noqa: BL501`)")
            return
        if ctx.qualify(node.func) not in GRAPH_BREAK_CALLS:
            return
        ctx.report(node, "torch._dynamo.graph_break() splits the graph; remove it unless the split "
                         "is deliberate (then `# noqa: BL501`)")

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2


def probe():
    torch._dynamo.graph_break()      # outside traced code: nothing to split
    return 1


def factory():
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = torch.relu(x)
        torch._dynamo.graph_break()
        return y * 2


def factory():
    return Net(), (torch.randn(4),)
""", at=((9, 9),)),
        Example("""
import torch
from torch._dynamo import graph_break


@torch.compile
def step(x):
    y = x.sin()
    graph_break()
    return y.cos()


def factory():
    return step, (torch.randn(4),)
""", at=((9, 5),)),
    ]


def _disabled_callee(node: ast.Call, ctx):
    """The name of the function of this file that the call runs, when it is decorated with
    torch.compiler.disable (or torch._dynamo.disable): `helper(x)` or `self.helper(x)`."""
    # most files disable nothing: one look at the text spares the rest
    if not ctx.file.memo(("BL501 mentions disable",), lambda: "disable" in ctx.file.source):
        return None
    scopes = ctx.file.scopes
    func = node.func
    if isinstance(func, ast.Name) and func.id in scopes.functions and not ctx.file.imports.is_bound(func.id):
        target = scopes.functions[func.id]
        return f"{func.id}()" if scopes._is_disabled(target) and func.id not in local_names(ctx) else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and ctx.scope is not None \
            and ctx.scope.cls is not None and func.value.id == self_parameter(ctx.scope.func):
        found = scopes._method(ctx.scope.cls, func.attr)
        if found is not None and scopes._is_disabled(found[1]):
            return f"self.{func.attr}()"
    return None
