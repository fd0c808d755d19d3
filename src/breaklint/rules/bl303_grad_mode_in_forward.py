"""BL303: switching grad mode (no_grad, enable_grad, set_grad_enabled, inference_mode) in traced code.

Measured: Dynamo traces all four on torch 2.13 (as a context manager, a decorator of a called helper,
and a plain set_grad_enabled(False) call) without a break, so the verdict is False and the config
leaves the rule off unless it is selected by its exact code.
"""
from __future__ import annotations

import ast

from .base import Example, Rule

GRAD_MODE_CALLS = {
    "torch.no_grad", "torch.enable_grad", "torch.set_grad_enabled", "torch.inference_mode",
    "torch.autograd.no_grad", "torch.autograd.enable_grad", "torch.autograd.set_grad_enabled",
    "torch.autograd.inference_mode", "torch.autograd.grad_mode.no_grad",
    "torch.autograd.grad_mode.enable_grad", "torch.autograd.grad_mode.set_grad_enabled",
    "torch.autograd.grad_mode.inference_mode",
}


class GradModeInForward(Rule):
    code = "BL303"
    name = "grad-mode-in-forward"
    summary = "torch.no_grad()/enable_grad/set_grad_enabled/inference_mode inside traced code"
    gb_ids = ()
    fix_availability = "never"
    node_types = (ast.Call,)
    # Dynamo handles grad-mode switches on the versions we measured; off by default there.
    # 2.13 measured here; 2.11 and 2.15 from the team catalogue (outside this repository). Older: unmeasured.
    verdicts = {"2.11": False, "2.13": False, "2.15": False}

    def check(self, node: ast.Call, ctx) -> None:
        qual = ctx.qualify(node.func) or ""
        if qual not in GRAD_MODE_CALLS:
            return
        short = qual.rsplit(".", 1)[-1]
        ctx.report(node, f"torch.{short}() inside traced code: Dynamo on torch >= 2.13 traces it, but an older "
                         f"torch may break the graph here; move the grad-mode switch outside the compiled region")

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


def evaluate(model, x):
    with torch.no_grad():  # outside traced code
        return model(x)


def factory():
    return Net(), (torch.randn(2, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        with torch.no_grad():
            scale = self.lin(x).abs().mean()
        return x * scale


def factory():
    return Net(), (torch.randn(2, 4),)
""", at=((12, 14),)),
        Example("""
import torch


@torch.compile
def step(x):
    with torch.inference_mode():
        y = x * 2
    with torch.set_grad_enabled(False):
        z = y + 1
    return z


def factory():
    return step, (torch.randn(4),)
""", at=((7, 10), (9, 10))),
    ]
