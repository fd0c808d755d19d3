"""BL302: nn.Parameter(...) constructed inside traced code."""
from __future__ import annotations

import ast

from ..analysis.names import normalize_torch
from .base import Example, Rule

PARAMETER_CLASSES = ("torch.nn.Parameter", "torch.nn.UninitializedParameter")


class ParameterInForward(Rule):
    code = "BL302"
    name = "parameter-in-forward"
    summary = "nn.Parameter(...) inside traced code breaks the graph"
    gb_ids = ("GB0264",)
    fix_availability = "never"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        qual = normalize_torch(ctx.qualify(node.func)) or ""
        if qual not in PARAMETER_CLASSES:
            return
        built = ctx.built_class
        advice = (f"this __init__ runs in traced code, which builds a {built}: build it once outside traced code "
                  f"and reuse it" if built else "create the parameter in __init__, or use a plain tensor if it "
                  "need not be learned")
        ctx.report(node, f"nn.Parameter(...) in traced code breaks the graph; {advice}")

    VALID = [
        Example("""
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(4))

    def forward(self, x):
        w = torch.ones(4)  # a plain tensor is fine
        return x * self.weight * w


def factory():
    return Scale(), (torch.randn(2, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Scale(nn.Module):
    def forward(self, x):
        weight = nn.Parameter(torch.ones(x.shape[-1]))
        return x * weight


def factory():
    return Scale(), (torch.randn(2, 4),)
""", at=((8, 18),)),
        Example("""
import torch
from torch.nn.parameter import Parameter


@torch.compile
def affine(x):
    bias = Parameter(torch.zeros(4))
    return x + bias


def factory():
    return affine, (torch.randn(2, 4),)
""", at=((8, 12),)),
    ]
