"""BL505: `pickle.dumps` / `pickle.loads` / `pickle.dump` / `pickle.load` in traced code (memoising
decorators pickle their arguments to make a cache key).

Measured on torch 2.13 CPU: each breaks the graph with GB0007 (the builtin `_pickle.dumps` is
marked as skipped), whatever is pickled (a tensor, a tuple holding one, an int).
"""
from __future__ import annotations

import ast

from .base import Example, Rule

PICKLE_FUNCTIONS = {"pickle.dumps", "pickle.loads", "pickle.dump", "pickle.load",
                    "_pickle.dumps", "_pickle.loads", "_pickle.dump", "_pickle.load"}


class PickleCall(Rule):
    code = "BL505"
    name = "pickle-call"
    summary = "pickle.dumps / loads in compiled code call a C builtin Dynamo skips, breaking the graph"
    gb_ids = ("GB0007",)
    fix_availability = "never"
    node_types = (ast.Call,)
    # 2.13: measured on CPU (dumps of a tensor, of a tuple holding one and of an int; loads; dump and
    # load on a BytesIO).
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        name = ctx.qualify(node.func)
        if name not in PICKLE_FUNCTIONS:
            return
        if isinstance(node.func, ast.Name) and not ctx.file.imports.is_bound(node.func.id):
            return
        ctx.report(node, f"{name}() is a C builtin that Dynamo does not trace: it breaks the graph "
                         "(GB0007); build cache keys from shapes and Python values, or pickle outside "
                         "the compiled region")

    VALID = [
        Example("""
import pickle

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        key = (tuple(x.shape), str(x.dtype))     # a cache key without pickling
        return x * len(key)


def save(model):
    return pickle.dumps(model.state_dict())    # outside traced code: fine


def factory():
    return Net(), (torch.randn(3),)
"""),
    ]
    INVALID = [
        Example("""
import pickle

import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = x * 2
        key = pickle.dumps((y, 3))
        return y + len(key)


def factory():
    return Net(), (torch.randn(3),)
""", at=((11, 15),)),
    ]
