"""BL507: a method that breaks, called on an object built in the same traced function.

Found through the dev split's misses (torchdiffeq's `solution = solver.integrate(t)`, torchode's
`adjoint.solve(...)`: "Reconstruction failure"). Measured on torch 2.13 (CPU, backend="eager"):
`solver = Solver(y0); solver.integrate(t)` in a compiled function, where `Solver.integrate` breaks,
reports that break and then GB0092 at the call ("Dynamo has no bytecode reconstruction implemented
for sourceless variable UserMethodVariable(...)": the bound method of an object Dynamo made has no
source to rebuild it from). Dynamo then gives up on the whole function ("Failed to handle graph break
gracefully. Skipping the function and falling back to eager"), and on each function up the chain.
The same object kept on self, passed to a helper that calls the method, or a break elsewhere in the
function while the object lives, does not do this. A module built there does it too.
"""
from __future__ import annotations

from .base import Example, Rule


class BreakingMethodOfNewObject(Rule):
    code = "BL507"
    name = "breaking-method-of-new-object"
    summary = "a method that breaks, called on an object built in the same traced function: the function runs eagerly"
    gb_ids = ("GB0092",)
    fix_availability = "never"
    verdicts = {"2.13": True}

    def after_file(self, ctx, effects) -> None:
        for found in effects.calls:
            ctx.scope = found.scope
            ctx.report(found.call, f"`{found.method}` breaks the graph ({found.where}) and is called on an object of "
                                   f"{found.class_name} built in this function: Dynamo cannot rebuild that bound "
                                   f"method to resume (GB0092, \"Reconstruction failure\"), so it gives up on the "
                                   f"whole function, which runs eagerly; build the object outside the compiled "
                                   f"code (in __init__), or remove the break in `{found.method}`", guard=found.guard or None)

    VALID = [
        Example("""
import torch
from torch import nn


class Solver:
    def __init__(self, y0):
        self.y0 = y0

    def integrate(self, t):
        return torch.where(t.sum() > 0, self.y0 * 2, self.y0)    # no break in the method


class Net(nn.Module):
    def forward(self, x):
        solver = Solver(x)                      # built here: fine while its methods trace
        return solver.integrate(x) + 1


def factory():
    return Net(), (torch.randn(4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Solver:
    def __init__(self, y0):
        self.y0 = y0

    def integrate(self, t):
        if t.sum() > 0:
            return self.y0 * 2
        return self.y0


class Net(nn.Module):
    def forward(self, x):
        solver = Solver(x)
        out = solver.integrate(x)
        return out * 3


def factory():
    return Net(), (torch.randn(4),)
""", at=((19, 15),)),
    ]
