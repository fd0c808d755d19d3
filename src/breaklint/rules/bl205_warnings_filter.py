"""BL205: changing the warning filters in traced code: `warnings.simplefilter`,
`warnings.filterwarnings`, `warnings.resetwarnings`.

Measured on torch 2.13 CPU: each breaks the graph with GB0007 (Dynamo will not trace the builtin
`_warnings._filters_mutated`). `with warnings.catch_warnings():` alone does NOT break there.
"""
from __future__ import annotations

import ast

from .base import Example, Rule

FILTER_FUNCTIONS = {"warnings.simplefilter", "warnings.filterwarnings", "warnings.resetwarnings"}


class WarningsFilter(Rule):
    code = "BL205"
    name = "warnings-filter"
    summary = "warnings.simplefilter / filterwarnings / resetwarnings break the graph"
    gb_ids = ("GB0007",)
    fix_availability = "never"
    node_types = (ast.Call,)
    # 2.13: measured on CPU (simplefilter, filterwarnings, resetwarnings; catch_warnings does not break).
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        name = ctx.qualify(node.func)
        if name not in FILTER_FUNCTIONS:
            return
        if isinstance(node.func, ast.Name) and not ctx.file.imports.is_bound(node.func.id):
            return  # a local function of the same name
        ctx.report(node, f"{name}() changes the warning filters, which Dynamo does not trace: it breaks "
                         "the graph (GB0007); set the filters once, outside the compiled region")

    VALID = [
        Example("""
import warnings

import torch
from torch import nn

warnings.filterwarnings("ignore", category=UserWarning)   # at import time: fine


class Net(nn.Module):
    def forward(self, x):
        with warnings.catch_warnings():                    # does not break on 2.13
            y = x * 2
        return y + 1


def factory():
    return Net(), (torch.randn(3),)
"""),
    ]
    INVALID = [
        Example("""
import warnings

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        warnings.simplefilter("ignore")
        return y + 1


def factory():
    return Net(), (torch.randn(3),)
""", at=((11, 9),)),
        Example("""
import warnings

import torch


@torch.compile
def step(x):
    h = x.relu()
    warnings.filterwarnings("ignore", message="slow path")
    return h * 2


def factory():
    return step, (torch.randn(3),)
""", at=((10, 5),)),
    ]
