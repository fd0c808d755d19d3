"""BL701: a function compiled with mode="reduce-overhead" mutates one of its tensor arguments in place.

Measured on an H100 with torch 2.11 (bench/cudagraph_probe.py, bench/results/cudagraph_probe_h100_torch2.11.json):
`x.add_(1.0)` and `x[0] = 0.0` on an argument give "skipping cudagraphs due to mutated inputs", so the
graph runs without CUDA graphs and reduce-overhead buys nothing; the out-of-place `x = x + 1.0`
is captured. A registered buffer updated in place is not skipped. CPU CI cannot measure this, so the
examples are not runnable; the verdict comes from that GPU run.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..fix.rewrite import replace_fix
from ..model import Fix
from .base import Example, Rule

# In-place methods whose out-of-place twin is the same name without the underscore.
OUT_OF_PLACE_TWIN = {
    "add_", "sub_", "mul_", "div_", "clamp_", "clamp_min_", "clamp_max_", "pow_", "neg_", "abs_", "exp_",
    "log_", "sqrt_", "rsqrt_", "sigmoid_", "tanh_", "relu_", "masked_fill_", "index_add_", "addcmul_",
    "addcdiv_", "lerp_", "mul_", "div_", "floor_", "ceil_", "round_", "reciprocal_", "scatter_", "scatter_add_",
}
# Methods ending in "_" that do not write the tensor's data.
NOT_DATA_MUTATION = {"requires_grad_", "share_memory_", "retain_grad_", "record_stream_", "resize_as_sparse_"}
COMPILE = {"torch.compile", "torch.compiler.compile"}


def _is_reduce_overhead(call: ast.Call) -> bool:
    return any(k.arg == "mode" and isinstance(k.value, ast.Constant) and k.value.value == "reduce-overhead"
               for k in call.keywords)


def reduce_overhead_entries(tree: ast.Module, qualify) -> set[str]:
    """Qualified names ("step", "Decoder.forward") of functions compiled with mode="reduce-overhead":
    a decorator, `torch.compile(fn, ...)`, `torch.compile(Cls(...), ...)`, or `torch.compile(m, ...)` /
    `m.compile(...)` where `m = Cls(...)` in the same body."""
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    entries: set[str] = set()
    instances: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id in classes:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    instances[target.id] = node.value.func.id
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(isinstance(d, ast.Call) and qualify(d.func) in COMPILE and _is_reduce_overhead(d)
                   for d in node.decorator_list):
                entries.add(node.name)
        elif isinstance(node, ast.Call) and _is_reduce_overhead(node):
            if qualify(node.func) in COMPILE and node.args:
                target = node.args[0]
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
                target = node.func.value
            else:
                continue
            if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id in classes:
                entries.add(f"{target.func.id}.forward")
            elif isinstance(target, ast.Name):
                entries.add(f"{instances[target.id]}.forward" if target.id in instances else target.id)
    return entries


class InputMutationUnderCudagraphs(Rule):
    code = "BL701"
    name = "input-mutation-under-cudagraphs"
    summary = "an argument mutated in place under mode=\"reduce-overhead\": CUDA graphs are skipped"
    gb_ids = ()
    fix_availability = "sometimes"
    fix_applicability = "unsafe"
    node_types = (ast.Call, ast.Assign, ast.AugAssign)
    verdict_kind = "cudagraphs"
    # Measured on an H100, torch 2.11 (bench/results/cudagraph_probe_h100_torch2.11.json); not on 2.13.
    verdicts = {"2.11": True}

    def check(self, node: ast.AST, ctx) -> None:
        scope = ctx.scope
        if not scope.is_entry or scope.qualname not in self._entries(ctx):
            return
        mutated = self._mutated_argument(node, ctx)
        if mutated is None:
            return
        ctx.report(node, f"`{mutated.id}` is an argument of a function compiled with mode=\"reduce-overhead\" and "
                         f"is mutated in place: Inductor skips CUDA graphs (\"skipping cudagraphs due to mutated "
                         f"inputs\"), so this graph cannot be captured by CUDA graphs; compute a new tensor and "
                         f"return it, or mutate a registered buffer instead",
                   self._out_of_place_fix(node, mutated, ctx))

    @staticmethod
    def _entries(ctx) -> set[str]:
        return ctx.file.memo("BL701 reduce-overhead entries", lambda: reduce_overhead_entries(
            ctx.file.tree, ctx.qualify) if "reduce-overhead" in ctx.file.source else set())

    def _mutated_argument(self, node: ast.AST, ctx) -> Optional[ast.Name]:
        if isinstance(node, ast.Call):
            func = node.func
            if not (isinstance(func, ast.Attribute) and func.attr.endswith("_") and not func.attr.startswith("_")
                    and func.attr not in NOT_DATA_MUTATION):
                return None
            owner = func.value
        elif isinstance(node, ast.Assign):
            subscripts = [t for t in node.targets if isinstance(t, ast.Subscript)]
            if not subscripts:
                return None
            owner = subscripts[0].value
        else:
            owner = node.target.value if isinstance(node.target, ast.Subscript) else node.target
        if not isinstance(owner, ast.Name) or not self._is_unrebound_argument(owner, node, ctx):
            return None
        return owner if ctx.is_tensor(owner) else None

    @staticmethod
    def _is_unrebound_argument(name: ast.Name, node: ast.AST, ctx) -> bool:
        func = ctx.scope.func
        params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
        if name.id not in params or name.id in ("self", "cls"):
            return False
        # `x = x.clone()` first: what is mutated is no longer the caller's tensor.
        return not any(isinstance(n, ast.Name) and n.id == name.id and isinstance(n.ctx, ast.Store)
                       and (n.lineno, n.col_offset) < (node.lineno, node.col_offset) for n in ast.walk(func))

    @staticmethod
    def _out_of_place_fix(node: ast.AST, name: ast.Name, ctx) -> Optional[Fix]:
        """`x.add_(y)` as a statement -> `x = x.add(y)`: the function computes the same values, but the
        caller's tensor is no longer changed, so the fix is unsafe."""
        stmt = ctx.statement
        if not (isinstance(node, ast.Call) and isinstance(stmt, ast.Expr) and stmt.value is node
                and node.func.attr in OUT_OF_PLACE_TWIN):
            return None
        call = ctx.segment(node)
        method = node.func.attr
        head = ctx.segment(node.func)
        new_call = head[: -len(method)] + method[:-1] + call[len(head):]
        return replace_fix(f"compute `{name.id}` out of place", "unsafe", (ctx.replace(stmt, f"{name.id} = {new_call}"),))

    VALID = [
        Example("""
import torch


@torch.compile(mode="reduce-overhead")
def step(x, y):
    x = x + 1.0  # out of place: captured
    return x * y
""", runnable=False),
        Example("""
import torch


@torch.compile
def step(x):
    x.add_(1.0)  # default mode: no CUDA graphs to skip
    return x * 2
""", runnable=False),
    ]
    INVALID = [
        Example("""
import torch


@torch.compile(mode="reduce-overhead")
def step(x, y):
    x.add_(1.0)
    return x * y
""", runnable=False, fixed="""
import torch


@torch.compile(mode="reduce-overhead")
def step(x, y):
    x = x.add(1.0)
    return x * y
""", at=((7, 5),)),
        Example("""
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, tokens, cache):
        cache[:, 0] = self.proj(tokens)
        return cache.sum(1)


model = torch.compile(Decoder(), mode="reduce-overhead")
""", runnable=False, at=((12, 9),)),
    ]
