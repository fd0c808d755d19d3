"""BL501: `torch._dynamo.graph_break()` left in traced code."""
from __future__ import annotations

import ast

from .base import Example, Rule

GRAPH_BREAK_CALLS = {"torch._dynamo.graph_break", "torch._dynamo.decorators.graph_break"}


class ExplicitGraphBreak(Rule):
    code = "BL501"
    name = "explicit-graph-break"
    summary = "torch._dynamo.graph_break() splits the graph on purpose"
    gb_ids = ("GB0025",)
    fix_availability = "never"  # it may be deliberate (a split around a custom kernel); a person decides
    node_types = (ast.Call,)
    # 2.13: measured on CPU. 2.11 and 2.15: from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
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
