"""BL603: a Python float argument of compiled code turned into a tensor (`torch.tensor(t)`,
`torch.full(shape, t)`, `x.new_tensor(t)`, `.fill_(t)`), directly or through values computed from it.

Measured on torch 2.13 CPU, 12 calls with a new float each (bench/recompile_probe.py): used in
arithmetic only (`x * t`, `math.cos(t)`), the float becomes symbolic after one recompile (2
compiles); turned into a tensor, it is specialized again on every call: 8 compiles under inductor
and aot_eager, then `recompile_limit`, then eager. A diffusion sampler passing its timestep as a
float is the common case. An int argument into torch.tensor compiles twice and is not flagged.
"""
from __future__ import annotations

import ast

from ..analysis.flow import parameter_defaults
from .base import Example, Rule

TENSOR_FACTORIES = {"torch.tensor", "torch.as_tensor", "torch.full", "torch.full_like", "torch.scalar_tensor"}
VALUE_METHODS = {"new_tensor", "new_full", "fill_"}  # tensor methods that take the value to store


def float_parameters(func: ast.AST) -> set[str]:
    """Parameters annotated `float` and without a default: a default marks a setting that callers
    usually leave alone (diffusers' `ref_fixed_timestep: float = 0.0`), not a value that changes
    every call."""
    args = func.args
    positional = args.posonlyargs + args.args
    defaults = {a.arg: d for a, d in parameter_defaults(args) if d is not None}
    found = set()
    for arg in positional + args.kwonlyargs:
        annotated = isinstance(arg.annotation, ast.Name) and arg.annotation.id == "float" or \
            isinstance(arg.annotation, ast.Constant) and arg.annotation.value == "float"
        if annotated and arg.arg not in defaults:
            found.add(arg.arg)
    return found


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def derived_from(func: ast.AST, params: set[str]) -> dict[str, str]:
    """Local name -> the float parameter it is computed from (`angle = t * math.pi / 2`), following
    plain assignments in source order; a name also assigned from anything else is dropped."""
    origin = {p: p for p in params}
    clean: set[str] = set()
    for node in sorted((n for n in ast.walk(func) if isinstance(n, ast.Assign)), key=lambda n: n.lineno):
        targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        sources = [origin[n] for n in _names(node.value) if n in origin]
        for name in targets:
            if name in params:
                continue
            if sources:
                origin[name] = sources[0]
            else:
                clean.add(name)
    return {n: o for n, o in origin.items() if n not in clean}


class FloatArgumentToTensor(Rule):
    code = "BL603"
    name = "float-argument-to-tensor"
    summary = "a Python float argument turned into a tensor in compiled code recompiles on every new value"
    gb_ids = ()
    fix_availability = "never"
    node_types = (ast.Call,)
    verdict_kind = "recompiles"
    # Measured on 2.13 CPU: 8 compiles in 12 calls under inductor and aot_eager (2 under backend="eager").
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        if not ctx.scope.is_entry:
            return
        values = self._tensor_data(node, ctx)
        if not values:
            return
        origin = self._origins(ctx)
        if not origin:
            return
        hits = sorted({origin[n] for v in values for n in _names(v) if n in origin})
        if not hits:
            return
        p = hits[0]
        ctx.report(node, f"the float argument `{p}` becomes a tensor here, so Dynamo specializes on its value: a "
                         f"new `{p}` recompiles on every call; after 8 compiles (recompile_limit) it runs eagerly; "
                         f"pass `{p}` as a 0-dim tensor and compute with torch ops (torch.cos, torch.stack)")

    @staticmethod
    def _tensor_data(node: ast.Call, ctx) -> list[ast.AST]:
        """The arguments that become tensor data (not shapes or dtypes)."""
        qual = ctx.qualify(node.func) or ""
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if qual in ("torch.tensor", "torch.as_tensor", "torch.scalar_tensor"):
            return node.args[:1] + [kw[k] for k in ("data", "s") if k in kw]
        if qual in ("torch.full", "torch.full_like"):
            return node.args[1:2] + ([kw["fill_value"]] if "fill_value" in kw else [])
        if isinstance(node.func, ast.Attribute) and node.func.attr in VALUE_METHODS and not qual.startswith("torch."):
            if node.func.attr == "new_full":
                return node.args[1:2] + ([kw["fill_value"]] if "fill_value" in kw else [])
            return node.args[:1] + ([kw["value"]] if "value" in kw else [])
        return []

    @staticmethod
    def _origins(ctx) -> dict[str, str]:
        func = ctx.scope.func

        def origins() -> dict[str, str]:
            params = float_parameters(func)
            return derived_from(func, params) if params else {}

        return ctx.file.memo(("BL603 origins", id(func)), origins)

    VALID = [
        Example("""
import torch


@torch.compile
def step(x, t: float):
    return x * t + 1  # arithmetic only: symbolic after one recompile


def factory():
    return step, (torch.randn(4), 1.0)


def inputs(i):
    return (torch.randn(4), 1.0 - i / 20), {}
""", calls=12),
        Example("""
import torch


@torch.compile
def step(x, t: torch.Tensor):
    return x + torch.stack([torch.cos(t), torch.sin(t)]).sum()  # a 0-dim tensor: one graph


def factory():
    return step, (torch.randn(4), torch.tensor(1.0))


def inputs(i):
    return (torch.randn(4), torch.tensor(1.0 - i / 20)), {}
""", calls=12),
    ]
    INVALID = [
        Example("""
import torch


@torch.compile
def step(x, t: float):
    return x + torch.full((4,), t)


def factory():
    return step, (torch.randn(4), 1.0)


def inputs(i):
    return (torch.randn(4), 1.0 - i / 20), {}
""", calls=12, at=((7, 16),)),
        Example("""
import math

import torch
from torch import nn


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.time = nn.Linear(2, 4)

    def forward(self, x, t: float):
        angle = t * math.pi / 2
        emb = torch.tensor([math.cos(angle), math.sin(angle)])
        return x + self.time(emb)


def factory():
    return Denoiser(), (torch.randn(4), 1.0)


def inputs(i):
    return (torch.randn(4), 1.0 - i / 20), {}
""", calls=12, at=((15, 15),)),
    ]
