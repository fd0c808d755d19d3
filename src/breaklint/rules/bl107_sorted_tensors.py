"""BL107: `sorted(...)` whose sort keys are tensors: tensors in a list, a dict's items or values
when the dict holds tensors, a key function that returns a tensor, or a tensor itself.

Measured on torch 2.13 CPU: `sorted([a.sum(), b.sum()])`, `sorted(d.items())` with tensor values
(the items are tuples that hold a tensor) and `sorted(d.values(), key=lambda t: t.sum())` break with
GB0207 ("sort with non-constant keys"); `sorted(t)` over a tensor breaks with GB0059. Sorting with
constant keys does not break: `sorted(d.items(), key=lambda kv: kv[0])` with str keys,
`sorted(tensors, key=lambda t: t.shape[0])`, `sorted(d)` over the keys. `list.sort()` is the same
(`vals.sort()` of a list of tensors, GB0207).

`max()` / `min()` with `key=` are stricter (measured on 2.13, GB0193 "invalid call to builtin op
handler"): over tensors they break whatever the key returns (`max(feats, key=lambda f: f.shape[-1])`,
`min(ts, key=len)`), and over numbers when the key returns a tensor; without a key, `max([a.sum(),
b.sum()])` is traced.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..versions import before
from .base import Example, Rule


class SortedTensors(Rule):
    code = "BL107"
    name = "sorted-tensors"
    summary = ("sorted() with tensors as sort keys (dict items holding tensors too), and max() / min() with key= "
               "over tensors, break the graph")
    gb_ids = ("GB0207", "GB0059", "GB0193")
    fix_availability = "never"
    node_types = (ast.Call,)
    # 2.13: measured on CPU (see the module docstring).
    verdicts = {"2.13": True}

    def check(self, node: ast.Call, ctx) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "sort" and isinstance(func.value, ast.Name):
            what = self._list_sort_keys(node, ctx)
            if what:
                ctx.report(node, f"list.sort() compares {what}, which breaks the graph (GB0207); sort by a Python "
                                 "value (a name, a size), or use torch.sort / torch.argsort on a stacked tensor")
            return
        if not (isinstance(func, ast.Name) and func.id in ("sorted", "max", "min")) or ctx.file.imports.is_bound(func.id):
            return
        if not node.args or isinstance(node.args[0], ast.Starred):
            return
        key = next((kw.value for kw in node.keywords if kw.arg == "key"), None)
        if func.id != "sorted" and _generator_with_options(node, ctx):
            ctx.report(node, f"{func.id}() over a generator expression with key= or default= breaks the graph on "
                             "torch 2.13 (GB0193), whatever the elements; pass a list (`[... for ...]`) instead")
            return
        if func.id != "sorted":
            if key is not None and (len(node.args) == 1 and self._holds_tensors(node.args[0], key, ctx)
                                    or len(node.args) > 1 and any(_holds_tensor_value(a, ctx) for a in node.args)):
                ctx.report(node, f"{func.id}() with key= over tensors (or with a key that returns a tensor) breaks the "
                                 f"graph (GB0193); pick with torch: stack the candidates and use argmax/argmin, or "
                                 "compare Python values (sizes) in a loop")
            return
        what = self._tensor_keys(node.args[0], key, ctx)
        if what:
            ctx.report(node, f"sorted() compares {what}, which breaks the graph (GB0207); sort by a Python "
                             "value (a name, a size), or use torch.sort / torch.argsort on a stacked tensor")

    def _holds_tensors(self, iterable: ast.AST, key: ast.AST, ctx) -> bool:
        """max()/min() with key= break whatever the key returns once the candidates are tensors, and
        over plain numbers when the key returns a tensor (measured on 2.13)."""
        if isinstance(key, ast.Lambda) and ctx.is_tensor(key.body):
            return True
        if ctx.is_tensor(iterable):
            return True
        if _splits_tensor(iterable, ctx):
            return True
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute):
            if iterable.func.attr == "values" and not iterable.args and _dict_of_tensors(iterable.func.value, ctx):
                return True
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id in ("list", "tuple") \
                and len(iterable.args) == 1 and not ctx.file.imports.is_bound(iterable.func.id):
            return self._holds_tensors(iterable.args[0], key, ctx)
        definitions = _definitions(iterable, ctx)
        if definitions and all(_splits_tensor(v, ctx) for v in definitions):
            return True  # `parts = x.chunk(2)`
        return bool(definitions) and all(isinstance(v, (ast.List, ast.Tuple)) and v.elts
                                         and all(_holds_tensor_value(e, ctx) for e in v.elts) for v in definitions)

    def _list_sort_keys(self, node: ast.Call, ctx) -> Optional[str]:
        """`vals.sort()` of a local that is surely a list (every value it is given is a list display or a list
        comprehension; a tensor's own .sort() is traced): GB0207 with tensor elements or a key returning a
        tensor (measured on 2.13; `key=lambda t: t.shape[0]` does not break)."""
        definitions = _definitions(node.func.value, ctx)
        if node.args or not all(isinstance(v, (ast.List, ast.ListComp)) for v in definitions):
            return None
        key = next((kw.value for kw in node.keywords if kw.arg == "key"), None)
        if key is not None:
            return "the tensors its key function returns" if isinstance(key, ast.Lambda) and ctx.is_tensor(key.body) \
                else None
        return "tensors" if all(_list_of_tensors(v, ctx) for v in definitions) else None

    def _tensor_keys(self, iterable: ast.AST, key: Optional[ast.AST], ctx) -> Optional[str]:
        if key is not None:
            if isinstance(key, ast.Lambda) and ctx.is_tensor(key.body):
                return "the tensors its key function returns"
            return None
        if ctx.is_tensor(iterable):
            return "the elements of a tensor"
        if all(_list_of_tensors(v, ctx) for v in _definitions(iterable, ctx)):
            return "tensors"
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) \
                and iterable.func.attr in ("items", "values") and not iterable.args \
                and _dict_of_tensors(iterable.func.value, ctx):
            return "tuples that hold tensors" if iterable.func.attr == "items" else "tensors"
        return None

    VALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        parts = {"b": x * 2, "a": x + 1}
        ordered = [v for _, v in sorted(parts.items(), key=lambda kv: kv[0])]  # str keys
        by_size = sorted([x, x[:2]], key=lambda t: t.shape[0])                # int keys
        return ordered[0] + by_size[0].sum() + parts[sorted(parts)[0]]


def factory():
    return Net(), (torch.randn(3),)
"""),
    ]
    INVALID = [
        Example("""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        scores = {0: x.sum(), 1: x.mean()}
        best = sorted(scores.items())
        return x * best[0][1]


def factory():
    return Net(), (torch.randn(3),)
""", at=((9, 16),)),
        Example("""
import torch


@torch.compile
def step(x):
    losses = [x.sum(), x.mean()]
    ranked = sorted(losses, reverse=True)
    return ranked[0] + 1


def factory():
    return step, (torch.randn(3),)
""", at=((8, 14),)),
    ]


def _splits_tensor(node: ast.AST, ctx) -> bool:
    """`x.unbind(0)` / `x.split(2)` / `x.chunk(2)` of a tensor: a tuple of tensors."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in ("unbind", "split", "chunk") and ctx.is_tensor(node.func.value)


def _holds_tensor_value(node: ast.AST, ctx) -> bool:
    """A tensor, or a tuple / list display with one in it (`(score, x)`)."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(_holds_tensor_value(e, ctx) for e in node.elts)
    return ctx.is_tensor(node)


def _generator_with_options(node: ast.Call, ctx) -> bool:
    """`max((t.shape[-1] for t in feats), default=0)`: measured on 2.13, GB0193 + GB8335 with int elements too;
    the same over a list, or without key= / default=, is traced. 2.14 traces it (measured): older targets only."""
    return len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) \
        and any(kw.arg in ("key", "default") for kw in node.keywords) and before(ctx.torch_version, "2.14")


def _list_of_tensors(node: Optional[ast.AST], ctx) -> bool:
    """A list or tuple display of tensors, or a list comprehension of them (`[x[i].sum() for i in ...]`)."""
    if isinstance(node, ast.ListComp):
        return ctx.is_tensor(node.elt)
    return isinstance(node, (ast.List, ast.Tuple)) and bool(node.elts) and all(ctx.is_tensor(e) for e in node.elts)


def _definitions(node: ast.AST, ctx) -> list:
    """The literal itself, or every value assigned to a name (none: an empty list)."""
    if isinstance(node, ast.Name):
        if ctx.env is None:
            return []
        return [value for _, value in ctx.env.definitions.get(node.id, ())] or [None]
    return [node]


def _dict_of_tensors(node: ast.AST, ctx) -> bool:
    """A dict literal (or a name every assignment of which is one) whose values are all tensors."""
    return all(isinstance(d, ast.Dict) and d.values and all(v is not None and ctx.is_tensor(v) for v in d.values)
               for d in _definitions(node, ctx))
