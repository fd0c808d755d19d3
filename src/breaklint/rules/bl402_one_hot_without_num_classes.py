"""BL402: F.one_hot without num_classes (or with -1): the class count is read from the data (GB0246/GB0033)."""
from __future__ import annotations

import ast

from .base import Example, Rule

ONE_HOT = {"torch.nn.functional.one_hot", "torch._C._nn.one_hot"}


class OneHotWithoutNumClasses(Rule):
    code = "BL402"
    name = "one-hot-without-num-classes"
    summary = "F.one_hot without num_classes has a data-dependent output shape and breaks the graph"
    # GB0246 when num_classes is omitted; an explicit num_classes=-1 hits GB0033 "Data dependent operator".
    gb_ids = ("GB0246", "GB0033")
    fix_availability = "never"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        if (ctx.qualify(node.func) or "") not in ONE_HOT:
            return
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return  # *args / **kwargs may carry num_classes
        num_classes = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg == "num_classes"), None)
        if num_classes is not None and not _is_minus_one(num_classes):
            return
        ctx.report(node, "F.one_hot without num_classes takes the class count from the data (max + 1), "
                         "which breaks the graph; pass num_classes=N")

    VALID = [
        Example("""
import torch
import torch.nn.functional as F


@torch.compile
def encode(labels, n_classes: int = 4):
    return F.one_hot(labels, num_classes=n_classes).float() + F.one_hot(labels, 4).float()


def factory():
    return encode, (torch.randint(0, 4, (8,)),)
"""),
    ]
    INVALID = [
        Example("""
import torch
import torch.nn.functional as F
from torch import nn


class Encoder(nn.Module):
    def forward(self, labels):
        return F.one_hot(labels).float() * 2


def factory():
    return Encoder(), (torch.randint(0, 4, (8,)),)
""", at=((9, 16),)),
        Example("""
import torch
from torch.nn.functional import one_hot


@torch.compile
def encode(labels):
    return one_hot(labels, num_classes=-1).sum(0)


def factory():
    return encode, (torch.randint(0, 4, (8,)),)
""", at=((8, 12),)),
    ]


def _is_minus_one(node: ast.AST) -> bool:
    """num_classes=-1 is the default: infer from the data."""
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
        and isinstance(node.operand, ast.Constant) and node.operand.value == 1
