"""BL104: `.tolist()` of a tensor in traced code."""
from __future__ import annotations

import ast

from .base import Example, Rule

NON_TORCH_ROOTS = ("numpy.", "np.")


class TolistCall(Rule):
    code = "BL104"
    name = "tolist-call"
    summary = ".tolist() copies tensor values into Python and breaks the graph"
    # int tensors: GB0033 (data-dependent operator); float tensors: GB0109. Both measured on 2.13.
    gb_ids = ("GB0033", "GB0109")
    fix_availability = "never"
    node_types = (ast.Call,)
    # 2.13: measured on CPU, int and float tensors. 2.11 and 2.15: from the team catalogue (outside this repository).
    verdicts = {"2.11": True, "2.13": True, "2.15": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "tolist") or node.args or node.keywords:
            return
        receiver = func.value
        if ctx.is_known_non_tensor(receiver) or isinstance(receiver, (ast.Constant, ast.JoinedStr)):
            return
        if (ctx.qualify(receiver) or "").startswith(NON_TORCH_ROOTS):
            return
        ctx.report(node, ".tolist() copies tensor values into Python and breaks the graph; keep a "
                         "tensor, or build the list before the compiled region and pass it in; for an "
                         "integer tensor, torch._dynamo.config.capture_scalar_outputs = True absorbs the "
                         "break (not for a float tensor)")

    VALID = [
        Example("""
import torch
from torch import nn


class Pool(nn.Module):
    def forward(self, x):
        sizes = list(x.shape)          # a Python list of sizes, no tensor data
        chunks = x.split(sizes[0] // 2)
        return torch.stack([c.mean(0) for c in chunks])


def lengths_of(batch):
    return batch.sum(1).tolist()       # outside traced code: fine


def factory():
    return Pool(), (torch.randn(4, 3),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class SegmentPool(nn.Module):
    def forward(self, packed, lengths):
        h = packed * 2
        parts = torch.split(h, lengths.tolist())
        return torch.stack([p.mean(0) for p in parts])


def factory():
    return SegmentPool(), (torch.randn(6, 3), torch.tensor([2, 4]))
""", at=((9, 32),)),
        Example("""
import torch


@torch.compile
def top_scores(x):
    y = x.softmax(-1)
    scores = y.tolist()
    return y * len(scores)


def factory():
    return top_scores, (torch.randn(5),)
""", at=((8, 14),)),
    ]
