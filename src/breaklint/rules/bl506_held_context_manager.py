"""BL506: `with` on a context manager made before the compiled call: kept on self or at module level.

Found while measuring what runs a class's __enter__ (issue #11). Measured on torch 2.13 (CPU,
backend="eager"): `with self.ctx:` where __init__ made `self.ctx` (a class of the project,
`torch.no_grad()`, `torch.enable_grad()`, `torch.set_grad_enabled(False)`, `torch.inference_mode()`,
`sdpa_kernel(...)`, `torch.device(...)`, `threading.Lock()` / `RLock()`), and `with LOCK:` on a
module-level object, each skip the whole frame with GB0142 ("Unsupported context manager ... created
outside the compiled region"). `contextlib.nullcontext()` and `torch.autocast(...)` kept on self do
not break, and neither does a manager made inside the compiled code (`with Ctx():`, `with
self.make():`, `c = Ctx(); with c:`), except a `torch.device`: `with torch.device("cpu"):` and
`dev = torch.device(x.device); with dev:` in traced code skip the frame with GB0142 too ("Dynamo does
not know how to enter a `device` context manager"; measured on 2.13, stop 27).
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.astwalk import walk
from ..analysis.names import normalize_torch
from ..analysis.torch_api import HELD_CONTEXT_MANAGERS_TRACED
from .base import Example, Rule, held_values


class HeldContextManager(Rule):
    code = "BL506"
    name = "held-context-manager"
    summary = "`with` on a context manager made outside the compiled code (kept on self or at module level), or a torch.device"
    gb_ids = ("GB0142",)
    fix_availability = "never"
    node_types = (ast.With,)
    verdicts = {"2.13": True}

    def check(self, node: ast.With, ctx) -> None:
        for item in node.items:
            expr = item.context_expr
            # The first one skips the frame: Dynamo never reaches a later one in the same function.
            if self._first(ctx) is not expr:
                continue
            made = self._made(expr, ctx)
            if made is not None:
                ctx.report(expr, f"`{ast.unparse(expr)}` holds a context manager made before the compiled "
                                 f"call ({made}): Dynamo cannot enter it and skips the whole frame (GB0142); make it "
                                 f"inside the compiled code (`with Ctx(...):`), or enter it outside")
            elif _device(expr, ctx):
                ctx.report(expr, "`with` on a torch.device: Dynamo cannot enter a device context manager and skips "
                                 "the whole frame (GB0142); pass `device=` to the factory calls instead, or enter it "
                                 "outside the compiled code")

    def _first(self, ctx) -> Optional[ast.AST]:
        """The held manager of the scope's function that comes first in the source."""
        def find():
            held = [item.context_expr for node in walk(ctx.scope.func) if isinstance(node, ast.With)
                    for item in node.items
                    if self._made(item.context_expr, ctx) is not None or _device(item.context_expr, ctx)]
            return min(held, key=lambda n: (n.lineno, n.col_offset), default=None)
        return ctx.file.memo(("BL506 first", id(ctx.scope.func)), find)

    @staticmethod
    def _made(expr: ast.AST, ctx) -> Optional[str]:
        """What the held object was made by, when every value it is given is a call that makes a manager
        Dynamo cannot enter once made; None when any is unknown, traced, or made in this scope."""
        values = held_values(expr, ctx)
        if not values:
            return None
        makers = []
        for value in values:
            if not isinstance(value, ast.Call):
                return None
            qual = normalize_torch(ctx.qualify(value.func)) or ""
            if not qual or qual in HELD_CONTEXT_MANAGERS_TRACED or qual.rsplit(".", 1)[-1] in ("nullcontext", "autocast"):
                return None
            if "." not in qual and qual not in ctx.file.scopes.classes:
                return None  # a local factory or a parameter: what it returns is not known here
            makers.append(ast.unparse(value.func))
        return ", ".join(dict.fromkeys(f"{m}()" for m in makers))

    VALID = [
        Example("""
import contextlib

import torch
from torch import nn


class Ctx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.amp = torch.autocast("cpu", enabled=False)   # entered fine when made outside
        self.null = contextlib.nullcontext()

    def forward(self, x):
        with self.amp, self.null:
            y = x * 2
        with Ctx():                                         # made in the compiled code: traced
            y = y + 1
        return y


def factory():
    return Net(), (torch.randn(3),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Ctx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.ctx = Ctx()

    def forward(self, x):
        with self.ctx:
            return x + 1


def factory():
    return Net(), (torch.randn(3),)
""", at=((20, 14),)),
        Example("""
import threading

import torch
from torch import nn

LOCK = threading.Lock()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.no_grad = torch.no_grad()

    def forward(self, x):
        with self.no_grad:
            y = x * 2
        with LOCK:                     # never reached: the frame was skipped above
            return y + 1


def factory():
    return Net(), (torch.randn(3),)
""", at=((16, 14),)),
    ]


def _device(expr: ast.AST, ctx) -> bool:
    """`torch.device(...)` itself, or a local whose reaching value is one."""
    if isinstance(expr, ast.Name) and ctx.env is not None:
        expr = ctx.reaching_value(expr)
    return isinstance(expr, ast.Call) and normalize_torch(ctx.qualify(expr.func)) == "torch.device"

