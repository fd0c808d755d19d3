"""BL203: `warnings.warn(...)` in traced code."""
from __future__ import annotations

import ast

from ..fix.rewrite import report_with_guard
from .base import Example, Rule

WARN_FUNCTIONS = {"warnings.warn", "warnings.warn_explicit"}


class WarningsWarn(Rule):
    code = "BL203"
    name = "warnings-warn"
    summary = "warnings.warn() is skipped by Dynamo and breaks the graph"
    gb_ids = ("GB0007",)  # "Attempted to call function marked as skipped", measured on 2.13
    fix_availability = "sometimes"
    fix_applicability = "safe"
    node_types = (ast.Call,)
    # 2.13: measured on CPU (warnings.warn, `from warnings import warn`, with a category and with
    # stacklevel). 2.11 and 2.15: from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        if ctx.qualify(node.func) not in WARN_FUNCTIONS:
            return
        if isinstance(node.func, ast.Name) and not ctx.file.imports.is_bound(node.func.id):
            return  # a local function that happens to be called `warn`
        report_with_guard(ctx, node, "warnings.warn() breaks the graph; guard it with "
                          "`if not torch.compiler.is_compiling():` or warn before the compiled region",
                          "warnings.warn()")

    VALID = [
        Example("""
import warnings

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling():
            warnings.warn("slow path")
        return x * 2


def build():
    warnings.warn("deprecated constructor", DeprecationWarning)  # outside traced code: fine
    return Net()


def factory():
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
import warnings

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, scale=None):
        y = x * 2
        warnings.warn("`scale` is deprecated", DeprecationWarning)
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", fixed="""
import warnings

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x, scale=None):
        y = x * 2
        if not torch.compiler.is_compiling():
            warnings.warn("`scale` is deprecated", DeprecationWarning)
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", at=((11, 9),)),
        Example("""
from warnings import warn

import torch


@torch.compile
def step(x):
    y = x.relu()
    warn("relu applied", stacklevel=2)
    return y * 2


def factory():
    return step, (torch.randn(4),)
""", fixed="""
from warnings import warn

import torch


@torch.compile
def step(x):
    y = x.relu()
    if not torch.compiler.is_compiling():
        warn("relu applied", stacklevel=2)
    return y * 2


def factory():
    return step, (torch.randn(4),)
""", at=((10, 5),)),
    ]
