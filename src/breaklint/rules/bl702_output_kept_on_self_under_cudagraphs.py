"""BL702: the forward of a module compiled with mode="reduce-overhead" keeps a tensor it computes on
`self` (`self.last = y`, `self.state = torch.tanh(...)`), and something reads it later.

Measured on an H100 with torch 2.11 (bench/cudagraph_probe2.py, bench/results/cudagraph_probe2_h100.json,
5 calls): such a tensor lives in the CUDA graph's memory pool, and the next call overwrites it. Read
after the next call, it raised "accessing tensor output of CUDAGraphs that has been overwritten by a
subsequent run" (after the warm-up and recording calls) or, once the graph replays, silently held the
next call's values (neither its own nor eager's). `self.last = y.clone()` or `.detach()` inside
forward, and torch.compiler.cudagraph_mark_step_begin() before each call, did the same; only a clone
made by the caller after the call kept the values. A forward that reads the state the previous call
left (`h = x + self.state`) raised on its second call. Nothing is skipped: no log line warns of it.
CPU CI cannot measure this, so the examples are not runnable; the verdict comes from that GPU run.
"""
from __future__ import annotations

import ast
from typing import Optional

from .base import Example, Rule
from .bl601_number_state_in_compiled_code import self_attr, self_param
from .bl701_input_mutation_under_cudagraphs import reduce_overhead_entries

# Calls that give a view of their receiver: the kept tensor is then the caller's own input.
VIEWS = {"detach", "view", "view_as", "reshape", "expand", "expand_as", "transpose", "permute", "squeeze",
         "unsqueeze", "flatten", "t", "narrow", "select", "__getitem__"}


# Methods that copy a tensor out of the CUDA graph's memory at once: a read through them is safe
# (measured: a clone made by the caller right after the call kept its values).
COPIES = {"clone", "cpu", "tolist", "item", "numpy"}


def attribute_reads(tree: ast.Module) -> dict[str, list[ast.Attribute]]:
    """attribute name -> every load `<something>.name` in the file, except those copied at once
    (`model.last.clone()`)."""
    copied = {id(node.func.value) for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in COPIES}
    reads: dict[str, list[ast.Attribute]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and id(node) not in copied:
            reads.setdefault(node.attr, []).append(node)
    return reads


class OutputKeptOnSelfUnderCudagraphs(Rule):
    code = "BL702"
    name = "output-kept-on-self-under-cudagraphs"
    summary = "a tensor forward keeps on self under mode=\"reduce-overhead\" is overwritten by the next replay"
    gb_ids = ()
    fix_availability = "never"
    node_types = (ast.Assign,)
    verdict_kind = "cudagraph-outputs"
    # Measured on an H100, torch 2.11 (bench/results/cudagraph_probe2_h100.json); not on 2.13.
    verdicts = {"2.11": True}

    def check(self, node: ast.Assign, ctx) -> None:
        scope = ctx.scope
        if scope.cls is None or not scope.is_entry or len(node.targets) != 1 or scope.qualname not in self._entries(ctx):
            return
        self_name = self_param(scope.func)
        attr = self_attr(node.targets[0], self_name)
        if attr is None or attr in scope.cls.assignments.registered or not ctx.is_tensor(node.value):
            return
        if self._is_callers_tensor(node.value, scope.func):
            return
        if not self._read_elsewhere(attr, node, ctx):
            return  # kept but never read: nothing sees the overwritten values
        ctx.report(node, f"`{self_name}.{attr}` keeps a tensor that this call computes, and under "
                         f"mode=\"reduce-overhead\" it lives in the CUDA graph's memory: the next call overwrites "
                         f"it, so reading it afterwards raises \"accessing tensor output of CUDAGraphs that has "
                         f"been overwritten\" or silently gives the next call's values (a `.clone()` inside "
                         f"forward does not help); copy it outside the compiled call right after it returns "
                         f"(`model.{attr}.clone()`), or pass it in and return it instead of keeping it on {self_name}")

    @staticmethod
    def _entries(ctx) -> set[str]:
        return ctx.file.memo("BL701 reduce-overhead entries", lambda: reduce_overhead_entries(
            ctx.file.tree, ctx.qualify) if "reduce-overhead" in ctx.file.source else set())

    @staticmethod
    def _is_callers_tensor(value: ast.AST, func: ast.AST) -> bool:
        """An argument, or a view of one (`x.detach()`): not graph memory (not measured: not flagged)."""
        params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in VIEWS:
            value = value.func.value
        while isinstance(value, ast.Subscript):
            value = value.value
        if not (isinstance(value, ast.Name) and value.id in params):
            return False
        return not any(isinstance(n, ast.Name) and n.id == value.id and isinstance(n.ctx, ast.Store)
                       for n in ast.walk(func))

    @staticmethod
    def _read_elsewhere(attr: str, assign: ast.Assign, ctx) -> bool:
        """The attribute is read in this file other than inside the assignment itself: by forward on
        the next call (`h = x + self.state`), by another method, or by code holding the module."""
        reads = ctx.file.memo("BL702 attribute reads", lambda: attribute_reads(ctx.file.tree)).get(attr, [])
        func = ctx.scope.func
        here = {id(n) for n in ast.walk(func)}
        inside = {id(n) for n in ast.walk(assign)}
        at = (assign.lineno, assign.col_offset)
        # In the assigning function only a read before the assignment sees a previous call's tensor;
        # one after it reads this call's, which is still intact.
        return any(id(r) not in inside and (id(r) not in here or (r.lineno, r.col_offset) < at) for r in reads)

    VALID = [
        Example("""
import torch
from torch import nn


class Tap(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.last = None

    def forward(self, x):
        y = self.lin(x).relu()
        self.last = y
        return y * 2


model = torch.compile(Tap(), mode="reduce-overhead")
features = []
for batch in torch.randn(3, 4, 8):
    model(batch)
    features.append(model.last.clone())  # copied before the next call overwrites it
""", runnable=False),
        Example("""
import torch
from torch import nn


class Tap(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.last = None

    def forward(self, x):
        self.last = self.lin(x).relu()  # default mode: no CUDA graph memory to overwrite
        return self.last * 2


model = torch.compile(Tap())
""", runnable=False),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Tap(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.last = None

    def forward(self, x):
        y = self.lin(x).relu()
        self.last = y.clone()
        return y * 2


model = torch.compile(Tap(), mode="reduce-overhead")
features = []
for batch in torch.randn(3, 4, 8):
    model(batch)
    features.append(model.last)
""", runnable=False, at=((14, 9),)),
        Example("""
import torch
from torch import nn


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.state = None

    def forward(self, x):
        h = x if self.state is None else x + 0.5 * self.state
        self.state = torch.tanh(self.lin(h))
        return self.state * 1.0


step = torch.compile(Recurrent(), mode="reduce-overhead")
""", runnable=False, at=((14, 9),)),
    ]
