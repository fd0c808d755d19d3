"""BL201: print() in traced code."""
from __future__ import annotations

import ast

from ..fix.rewrite import report_with_guard
from .base import Example, Rule


# print's twins: writing to the standard streams directly.
STREAM_WRITES = {"sys.stdout.write", "sys.stderr.write"}


class PrintInCompiledCode(Rule):
    code = "BL201"
    name = "print-in-compiled-code"
    summary = "print() (or sys.stdout / sys.stderr .write()) inside traced code breaks the graph"
    gb_ids = ("GB0059", "GB0156")
    fix_availability = "sometimes"
    fix_applicability = "safe"
    node_types = (ast.Call,)
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        if (ctx.qualify(node.func) or "") in STREAM_WRITES:
            # measured on 2.13: GB0156 "Unsupported method call" on the stream object
            report_with_guard(ctx, node, f"{ctx.qualify(node.func)}() breaks the graph like print(); guard it "
                              "with `if not torch.compiler.is_compiling():` or remove it", "the write")
            return
        if not (isinstance(node.func, ast.Name) and node.func.id == "print"):
            return
        if ctx.file.imports.is_bound("print"):
            return  # a print imported from somewhere else is not the builtin
        report_with_guard(ctx, node, "print() breaks the graph; guard it with "
                          "`if not torch.compiler.is_compiling():` or remove it", "print()")

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling():
            print("shape", x.shape)
        return x * 2


def train(model, x):
    print("training")  # outside traced code: fine
    return model(x)


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
        y = x * 2
        print("y", y.shape)  # debug
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", fixed="""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        if not torch.compiler.is_compiling():
            print("y", y.shape)  # debug
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", at=((9, 9),)),
        Example("""
import torch


@torch.compile
def step(x):
    print(x.sum())
    return x.relu()


def factory():
    return step, (torch.randn(8),)
""", at=((7, 5),)),
        Example("""
import sys

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        sys.stderr.write("step\\n")
        return y + 1


def factory():
    return Net(), (torch.randn(4),)
""", at=((11, 9),), fixed=None),
    ]
