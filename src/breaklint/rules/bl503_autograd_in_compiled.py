"""BL503: `.backward()`, torch.autograd.grad/backward, torch.autograd.functional and `.retain_grad()`
inside traced code.

Measured on torch 2.13: Tensor.backward() breaks with GB0123, torch.autograd.grad with GB9186
(trace_autograd_ops is off), torch.autograd.backward with GB0007 (a skipped function),
torch.autograd.functional's jacobian / hessian / vjp / jvp / hvp / vhp with GB0055, and
Tensor.retain_grad() with GB0108 (the frame is skipped).
"""
from __future__ import annotations

import ast

from .base import Example, Rule

AUTOGRAD_FUNCTIONS = {"torch.autograd.grad", "torch.autograd.backward"}
# torch.autograd.functional runs the autograd engine too (GB0055 on 2.13, each measured with a lambda
# and a named function); torch.func's transforms are traced and stay out.
FUNCTIONAL = {f"torch.autograd.functional.{name}" for name in ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp")}
# Backward hooks on a submodule: calling it breaks (measured on 2.13: the full hooks GB0083 "Module-level backwards
# hooks require compiled autograd", the legacy register_backward_hook GB0104). Forward hooks, and backward hooks
# on the compiled module itself, do not break.
BACKWARD_HOOKS = {"register_full_backward_hook": "GB0083", "register_full_backward_pre_hook": "GB0083",
                  "register_backward_hook": "GB0104"}


class AutogradInCompiled(Rule):
    code = "BL503"
    name = "autograd-in-compiled"
    summary = "loss.backward() / torch.autograd.grad / autograd.functional / retain_grad() inside traced code break the graph"
    gb_ids = ("GB0123", "GB9186", "GB0007", "GB0055", "GB0108", "GB0083", "GB0104")
    fix_availability = "never"
    node_types = (ast.Call,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        qual = ctx.qualify(func) or ""
        if qual in AUTOGRAD_FUNCTIONS or qual in FUNCTIONAL:
            what = qual + "()"
        elif isinstance(func, ast.Attribute) and func.attr == "retain_grad" and not node.args \
                and not ctx.is_known_non_tensor(func.value) \
                and not (isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")):
            # only tensors have retain_grad(): any receiver but a proven non-tensor (`self.cache[-1]` too)
            what = ".retain_grad()"  # GB0108: it does not work with AOTDispatcher; the frame is skipped
        elif isinstance(func, ast.Attribute) and func.attr == "backward" and self._tensor_like(func.value, ctx):
            what = ".backward()"
        else:
            hook = _backward_hooked(func, ctx)
            if hook is not None:
                ctx.report(node, f"{ctx.segment(func)} has a backward hook ({hook}, registered in __init__), and calling "
                                 f"a module with one breaks the graph ({BACKWARD_HOOKS[hook]}); hook the output tensor "
                                 "(`out.register_hook(...)`) or enable compiled autograd")
            return
        if qual in FUNCTIONAL:
            advice = "use torch.func (jacrev, hessian, vjp, jvp), which Dynamo traces"
        elif what == ".retain_grad()":
            advice = "Dynamo skips the whole frame (GB0108); read the gradient outside the compiled function"
        else:
            advice = ("compile the forward and loss only, and call backward outside the compiled function "
                      "(compiled autograd handles the rest)")
        ctx.report(node, f"{what} inside traced code breaks the graph; {advice}")

    @staticmethod
    def _tensor_like(receiver: ast.AST, ctx) -> bool:
        if ctx.is_tensor(receiver):
            return True
        # `loss.backward()`: nothing but a tensor has a zero-argument backward in model code; a class
        # name (MyFunction.backward(ctx, g)) or super() is an autograd.Function, not a tensor.
        if ctx.is_known_non_tensor(receiver):
            return False
        if isinstance(receiver, ast.Name):
            return not receiver.id[:1].isupper() and receiver.id not in ("self", "cls", "ctx")
        return False

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 1)

    def forward(self, x):
        return self.lin(x).sum()


def train_step(model, x):
    loss = torch.compile(model)(x)
    loss.backward()  # outside the compiled region
    return loss


def factory():
    return Net(), (torch.randn(2, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch


@torch.compile
def step(w, x):
    loss = (x @ w).pow(2).mean()
    loss.backward()
    return loss.detach()


def factory():
    return step, (torch.randn(4, 1, requires_grad=True), torch.randn(3, 4))
""", at=((8, 5),)),
        Example("""
import torch
from torch import nn


class Penalty(nn.Module):
    def forward(self, x):
        y = (x * x).sum()
        (g,) = torch.autograd.grad(y, x, create_graph=True)
        return g.norm()


def factory():
    return Penalty(), (torch.randn(3, requires_grad=True),)
""", at=((9, 16),)),
        Example("""
import torch
from torch import nn


def energy(x):
    return (x * x).sum()


class Curvature(nn.Module):
    def forward(self, x):
        h = torch.autograd.functional.hessian(energy, x)
        return h.diagonal()


def factory():
    return Curvature(), (torch.randn(3),)
""", at=((12, 13),)),
        Example("""
import torch
from torch import nn


class Probe(nn.Module):
    def forward(self, x):
        y = x * 2
        y.retain_grad()
        return y


def factory():
    return Probe(), (torch.randn(3, requires_grad=True),)
""", at=((9, 9),)),
    ]


def _backward_hooked(func: ast.AST, ctx):
    """`self.lin(x)` where `__init__` registers a backward hook on `self.lin`: the hook's name, or None."""
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name) or func.value.id != "self" \
            or ctx.scope is None or ctx.scope.cls is None \
            or not ctx.file.memo(("BL503 mentions backward hooks",), lambda: "backward_hook" in ctx.file.source
                                 or "backward_pre_hook" in ctx.file.source):
        return None
    return _hooked_attributes(ctx.scope.cls.node, ctx).get(func.attr)


def _hooked_attributes(class_node: ast.ClassDef, ctx) -> dict:
    """attribute -> the backward-hook method `__init__` calls on `self.<attribute>`, as a statement of its own at
    its top level (a hook registered under an `if`, or in another method such as an opt-in `enable_debug()`,
    may never be: the review of stop 30 measured no break for the latter)."""
    def collect() -> dict:
        found = {}
        for method in class_node.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or method.name != "__init__":
                continue
            for stmt in method.body:
                call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr in BACKWARD_HOOKS and isinstance(call.func.value, ast.Attribute) \
                        and isinstance(call.func.value.value, ast.Name) and call.func.value.value.id == "self":
                    found.setdefault(call.func.value.attr, call.func.attr)
        return found
    return ctx.file.memo(("BL503 hooked attributes", id(class_node)), collect)
