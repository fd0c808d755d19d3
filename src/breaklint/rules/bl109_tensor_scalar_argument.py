"""BL109: a tensor given as the Scalar argument of an op (`torch.add(a, b, alpha=t)`) in traced code.

Measured on torch 2.13 CPU with a 0-d tensor: `alpha=` of add / sub / rsub, `value=` of addcmul and
`alpha=` / `beta=` of addmm, addmv, addbmm, baddbmm and addr, as torch functions and as Tensor methods,
break the graph with GB0033 ("Data dependent operator"): the Scalar must be a Python number, so Dynamo
reads the tensor's value. A tensor operand (`torch.add(a, t)`, `torch.mul(x, t)`) does not break.
"""
from __future__ import annotations

import ast

from ..analysis.torch_api import SCALAR_KEYWORDS
from .base import Example, Rule


class TensorScalarArgument(Rule):
    code = "BL109"
    name = "tensor-scalar-argument"
    summary = "a tensor given as an op's Scalar argument (alpha=, beta=, value=) is read out of the graph"
    gb_ids = ("GB0033",)
    fix_availability = "never"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in SCALAR_KEYWORDS or not node.keywords:
            return
        qual = ctx.qualify(func) or ""
        if qual != f"torch.{func.attr}" and not ctx.is_tensor(func.value):
            return  # np.add, a class's own `add(x, alpha=...)`: not the op measured
        scalars = SCALAR_KEYWORDS[func.attr].split()
        for keyword in node.keywords:
            if keyword.arg in scalars and ctx.is_tensor(keyword.value):
                # an op whose only Scalar is alpha scales its second operand: say how to write that
                advice = (f"multiply the operand by the tensor instead (`torch.{func.attr}(a, b * t)`)"
                          if scalars == ["alpha"] else "scale the operands by the tensor instead")
                ctx.report(keyword.value, f"`{keyword.arg}=` of {func.attr}() must be a Python number: given a "
                                          f"tensor, Dynamo reads its value and breaks the graph (GB0033); {advice}",
                           start_node=ctx.moved_to(node, keyword.value))
                return

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rtol = 1e-3

    def forward(self, x, y):
        return torch.add(x, y, alpha=self.rtol)      # a Python float: no break


def factory():
    return Net(), (torch.randn(3), torch.randn(3))
"""),
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("rtol", torch.tensor(1e-3))

    def forward(self, x, y):
        return torch.add(x, y * self.rtol)           # the tensor is an operand: stays in the graph


def factory():
    return Net(), (torch.randn(3), torch.randn(3))
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("rtol", torch.tensor(1e-3))

    def forward(self, x, y):
        return torch.add(x, y.abs(), alpha=self.rtol)


def factory():
    return Net(), (torch.randn(3), torch.randn(3))
""", at=((12, 44),)),
        Example("""
import torch


@torch.compile
def step(m, a, b):
    beta = m.mean()
    return m.addmm(a, b, beta=beta)


def factory():
    return step, (torch.randn(3, 3), torch.randn(3, 3), torch.randn(3, 3))
""", at=((8, 31),)),
    ]
