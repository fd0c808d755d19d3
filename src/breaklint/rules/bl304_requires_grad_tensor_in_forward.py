"""BL304: a torch function called with requires_grad=True in traced code.

Found through the dev split (issue #11): PyG's EquilibriumAggregation starts its inner optimisation
from `torch.zeros(..., requires_grad=True)` in forward, and nothing flagged it. Measured on torch 2.13
(CPU, backend="eager"): `torch.zeros / randn / tensor / zeros_like(..., requires_grad=True)` each break
(GB0225 "Attempted to use tensor creation function with requires_grad=True"), also under
`torch.no_grad()`; `requires_grad=False` does not, and neither does the method form
`x.new_zeros(..., requires_grad=True)` (not flagged). `torch.zeros(...).requires_grad_()` breaks too,
so it is no fix.
"""
from __future__ import annotations

import ast

from ..analysis.names import normalize_torch
from .base import Example, Rule


class RequiresGradTensorInForward(Rule):
    code = "BL304"
    name = "requires-grad-tensor-in-forward"
    summary = "a tensor created with requires_grad=True inside traced code"
    gb_ids = ("GB0225",)
    fix_availability = "never"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        if not any(k.arg == "requires_grad" and isinstance(k.value, ast.Constant) and k.value.value is True
                   for k in node.keywords):
            return
        qual = normalize_torch(ctx.qualify(node.func)) or ""
        short = qual.rsplit(".", 1)[-1]
        # torch functions only (torch.nn.Parameter is BL302's; a class is no tensor factory).
        if not qual.startswith("torch.") or qual.startswith("torch.nn.") or not short[:1].islower():
            return
        ctx.report(node, f"{qual}(..., requires_grad=True) in traced code breaks the graph (GB0225); create "
                         f"the tensor outside the compiled region and pass it in, or drop requires_grad")

    VALID = [
        Example("""
import torch
from torch import nn


class Shift(nn.Module):
    def forward(self, x):
        offset = torch.zeros(x.shape[-1], requires_grad=False)
        start = x.new_zeros(x.shape[-1], requires_grad=True)  # the method form is traced
        return x + offset + start


def factory():
    return Shift(), (torch.randn(2, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Equilibrium(nn.Module):
    def forward(self, x):
        y = torch.zeros(x.shape[0], 4, requires_grad=True)
        return x.sum(-1, keepdim=True) + y


def factory():
    return Equilibrium(), (torch.randn(2, 4),)
""", at=((8, 13),)),
    ]
