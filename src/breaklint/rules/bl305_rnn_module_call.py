"""BL305: an nn.LSTM / nn.GRU / nn.RNN held on self and called in traced code.

Found through the dev split (issue #11): timm's Sequencer2d and PyG's GRU / LSTM aggregations broke
there and nothing flagged them. Measured on torch 2.13 (CPU, backend="eager"): calling any of the
three in a compiled forward skips the frame (GB0014 "Attempted to wrap RNN, GRU, or LSTM");
with torch._dynamo.config.allow_rnn = True it traces with no break and allclose outputs.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.astwalk import walk
from ..analysis.names import normalize_torch
from ..analysis.scope import self_parameter
from ..analysis.torch_api import RNN_MODULES, RNN_ONLY_METHODS
from .base import Example, Rule


class RnnModuleCall(Rule):
    code = "BL305"
    name = "rnn-module-call"
    summary = "an nn.LSTM / GRU / RNN module called or touched in traced code"
    gb_ids = ("GB0014",)
    fix_availability = "never"
    node_types = (ast.Attribute,)
    verdicts = {"2.13": True}

    def check(self, node: ast.Attribute, ctx) -> None:
        # every attribute read comes here: a file that names no recurrent module is done at once
        if not ctx.file.memo(("BL305 mentions rnn",), lambda: any(w in ctx.file.source for w in ("LSTM", "GRU", "RNN", *RNN_ONLY_METHODS))):
            return
        scope = ctx.scope
        if not (isinstance(node.value, ast.Name) and scope is not None and scope.cls is not None
                and node.value.id == self_parameter(scope.func)):
            return
        kind = _rnn_attributes(ctx, scope.cls).get(node.attr)
        if kind is None:
            return
        # The first touch of a recurrent module skips the frame, a read of it too (`self.rnn.num_layers`,
        # `self.rnn.flatten_parameters()`, measured on 2.13): Dynamo never reaches a later one in the same
        # function (two LSTM calls in one forward give one break), so only the first is reported.
        # The first recurrent call too: the touch before it may sit in a branch that is not taken (the
        # review of stop 29).
        first, first_call = ctx.file.memo(("BL305 first", id(scope.func)), lambda: _first_rnn_uses(ctx, scope))
        if node is not first and node is not first_call:
            return
        parent = ctx.parent
        use = "called" if isinstance(parent, ast.Call) and parent.func is node else "touched"
        ctx.report(node, f"self.{node.attr} holds an {kind}, {use} here: Dynamo does not trace recurrent modules "
                         f"and skips the whole frame at their first use (GB0014), later recurrent calls in it "
                         f"included; set torch._dynamo.config.allow_rnn = True, or keep the recurrent layer "
                         f"outside the compiled region", rest_eager=True)

    VALID = [
        Example("""
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(4, 8)  # the cells are traced
        self.proj = nn.Linear(8, 2)

    def forward(self, x):
        h, _ = self.cell(x)
        return self.proj(h)


def factory():
    return Tagger(), (torch.randn(3, 4),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 8, batch_first=True)
        self.proj = nn.Linear(8, 2)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.proj(out)


def factory():
    return Tagger(), (torch.randn(2, 3, 4),)
""", at=((13, 18),)),
        Example("""
import torch
from torch.nn import GRU, Module


class Base(Module):
    def forward(self, x):
        return self.rnn(x)[0][:, -1]


class GRUPool(Base):
    def __init__(self):
        super().__init__()
        self.rnn = GRU(4, 4, batch_first=True)  # the subclass decides what the base calls


def factory():
    return GRUPool(), (torch.randn(2, 3, 4),)
""", at=((8, 16),)),
        Example("""
import torch
from torch import nn


class Mixer(nn.Module):
    def __init__(self):
        super().__init__()
        self.rows = nn.LSTM(4, 4, batch_first=True)
        self.cols = nn.LSTM(4, 4, batch_first=True)

    def forward(self, x):
        r, _ = self.rows(x)
        c, _ = self.cols(x.flip(1))  # never reached by Dynamo: the frame was skipped at self.rows
        return r + c


def factory():
    return Mixer(), (torch.randn(2, 3, 4),)
""", at=((13, 16),)),
    ]


def _first_rnn_uses(ctx, scope) -> tuple[Optional[ast.Attribute], Optional[ast.Attribute]]:
    """The `self.<recurrent module>` reads of `scope` that come first in the source: any read, and the first
    one that is called."""
    self_name = self_parameter(scope.func)
    held = _rnn_attributes(ctx, scope.cls)
    callees = {id(n.func) for n in walk(scope.func) if isinstance(n, ast.Call)}
    touches = sorted((n for n in walk(scope.func) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
                      and isinstance(n.value, ast.Name) and n.value.id == self_name and n.attr in held),
                     key=lambda n: (n.lineno, n.col_offset))
    return (touches[0] if touches else None), next((n for n in touches if id(n) in callees), None)


def _rnn_attributes(ctx, cls) -> dict[str, str]:
    """attribute -> "nn.LSTM" (or "nn.LSTM or nn.GRU") for each `self.<attribute>` that the class, a
    base or a subclass of it in this file assigns a recurrent module to; once per class and file."""
    return ctx.file.memo(("BL305", cls.name), lambda: _find_rnn_attributes(ctx, cls))


def _find_rnn_attributes(ctx, cls) -> dict[str, str]:
    scopes = ctx.file.scopes
    kinds: dict[str, list[str]] = {}
    for info in [cls, *scopes.local_ancestors(cls), *scopes.local_descendants(cls)]:
        for attr, assigned in info.assignments.values.items():
            for value, _self in assigned:
                if isinstance(value, ast.Call):
                    qual = normalize_torch(ctx.qualify(value.func)) or ""
                    kind = "nn." + qual.rsplit(".", 1)[-1]
                    if qual in RNN_MODULES and kind not in kinds.setdefault(attr, []):
                        kinds[attr].append(kind)
    found = {attr: " or ".join(names) for attr, names in kinds.items() if names}
    # `self.rnn = getattr(nn, rnn_type)(...)` (a torch.nn class picked at run time): what the class calls
    # flatten_parameters() on is recurrent, as only nn.RNNBase has that method
    family = [cls, *scopes.local_ancestors(cls), *scopes.local_descendants(cls)]
    picked = {attr for info in family for attr, assigned in info.assignments.values.items()
              for value, _self in assigned if _picked_from_torch_nn(value, ctx)}
    if not picked:
        return found
    for info in family:
        for method in info.methods.values():
            self_name = self_parameter(method)
            for node in walk(method):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in RNN_ONLY_METHODS and isinstance(node.func.value, ast.Attribute) \
                        and isinstance(node.func.value.value, ast.Name) and node.func.value.value.id == self_name \
                        and node.func.value.attr in picked:
                    found.setdefault(node.func.value.attr, f"nn.LSTM, nn.GRU or nn.RNN (it has {node.func.attr})")
                elif isinstance(node, ast.Assign) and _unpacks_a_pair(node) and isinstance(node.value.func, ast.Attribute) \
                        and isinstance(node.value.func.value, ast.Name) and node.value.func.value.id == self_name \
                        and node.value.func.attr in picked:
                    # `out, _ = self.rnn(x)`: of torch.nn's modules, only the recurrent ones give a pair for one or
                    # two inputs (nn.MultiheadAttention takes three)
                    found.setdefault(node.value.func.attr, "nn.LSTM, nn.GRU or nn.RNN (its call gives an (output, "
                                                           "state) pair)")
    return found


def _unpacks_a_pair(node: ast.Assign) -> bool:
    """`a, b = self.m(x)` / `a, (h, c) = self.m(x, hx)`: a call of one or two positional arguments unpacked in two."""
    value = node.value
    return len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and len(node.targets[0].elts) == 2 \
        and isinstance(value, ast.Call) and 1 <= len(value.args) <= 2 and not value.keywords \
        and not any(isinstance(a, ast.Starred) for a in value.args)


def _picked_from_torch_nn(value: ast.AST, ctx) -> bool:
    """`getattr(nn, name)(...)`: a module of a torch.nn class chosen by name (a name spelled out must be a
    recurrent class; `return_indices=True` makes a pooling module give a pair too: the review of stop 35)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and len(value.func.args) >= 2):
        return False
    pick = value.func
    if not (isinstance(pick.func, ast.Name) and pick.func.id == "getattr"
            and normalize_torch(ctx.qualify(pick.args[0]) or "") in ("torch.nn", "torch.nn.modules")):
        return False
    name = pick.args[1]
    if isinstance(name, ast.Constant):
        return name.value in ("RNN", "LSTM", "GRU")
    return not any(k.arg == "return_indices" for k in value.keywords)
