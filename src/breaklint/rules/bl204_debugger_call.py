"""BL204: a debugger entry (`breakpoint()`, `pdb.set_trace()`, `ipdb.set_trace()`) in traced code."""
from __future__ import annotations

import ast
from typing import Optional

from ..fix.rewrite import report_with_guard
from .base import Example, Rule

# Measured on 2.13; other debuggers (pudb, IPython.embed) are left out until someone measures them.
DEBUGGER_CALLS = {"pdb.set_trace", "ipdb.set_trace"}


def debugger_name(node: ast.Call, ctx) -> Optional[str]:
    func = node.func
    if isinstance(func, ast.Name) and func.id == "breakpoint" and not ctx.file.imports.is_bound("breakpoint"):
        return "breakpoint()"
    qual = ctx.qualify(func)
    if qual not in DEBUGGER_CALLS:
        return None
    # The name must come from an import: a local variable called `pdb` is not the debugger.
    root = func
    while isinstance(root, ast.Attribute):
        root = root.value
    if isinstance(root, ast.Name) and ctx.file.imports.is_bound(root.id):
        return qual + "()"
    return None


class DebuggerCall(Rule):
    code = "BL204"
    name = "debugger-call"
    summary = "breakpoint() / pdb.set_trace() in traced code breaks the graph"
    # breakpoint(): GB0059 (builtin Dynamo cannot trace); pdb/ipdb.set_trace: GB0007 (skipped function).
    gb_ids = ("GB0059", "GB0007")
    fix_availability = "sometimes"
    fix_applicability = "safe"
    node_types = (ast.Call,)
    # 2.13: measured on CPU for breakpoint() (with PYTHONBREAKPOINT=0), pdb.set_trace() and
    # ipdb.set_trace() (with the debugger stubbed so nothing stops). 2.11 and 2.15: breakpoint()
    # from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        what = debugger_name(node, ctx)
        if what is None:
            return
        report_with_guard(ctx, node, f"{what} breaks the graph; remove it, or guard it with "
                          "`if not torch.compiler.is_compiling():` to debug eager runs only", what)

    VALID = [
        Example("""
import os
import pdb

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling():
            breakpoint()
        return x * 2


def debug_run(model, x):
    pdb.set_trace()                  # outside traced code: fine
    return model(x)


def factory():
    os.environ.setdefault("PYTHONBREAKPOINT", "0")  # the eager run must not stop in pdb
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
import os

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        breakpoint()
        return y + 1


def factory():
    os.environ.setdefault("PYTHONBREAKPOINT", "0")  # the eager run must not stop in pdb
    return Net(), (torch.randn(4),)
""", fixed="""
import os

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        if not torch.compiler.is_compiling():
            breakpoint()
        return y + 1


def factory():
    os.environ.setdefault("PYTHONBREAKPOINT", "0")  # the eager run must not stop in pdb
    return Net(), (torch.randn(4),)
""", at=((11, 9),)),
        # Not runnable: the eager run would stop in pdb. tests/rules/test_calls_truth.py
        # (test_dynamo_breaks_exactly_on_hits) runs pdb.set_trace() through Dynamo with the debugger stubbed.
        Example("""
import pdb

import torch


@torch.compile
def step(x):
    y = x.relu()
    pdb.set_trace()
    return y * 2


def factory():
    return step, (torch.randn(4),)
""", runnable=False, fixed="""
import pdb

import torch


@torch.compile
def step(x):
    y = x.relu()
    if not torch.compiler.is_compiling():
        pdb.set_trace()
    return y * 2


def factory():
    return step, (torch.randn(4),)
""", at=((10, 5),)),
    ]
