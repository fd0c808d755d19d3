"""BL508: a type subscript whose key is a module-level builtin generic alias, evaluated in traced code
(`cast(list[Detail], x)` with `Detail = dict[str, Tensor]`, here or in another file of the tree).

Measured on torch 2.13 CPU: `list[Detail]` breaks the graph with GB4880 ("missing_mp_subscript":
Dynamo does not subscript `type` with a variable key), `Optional[Detail]` / `Tuple[Detail, Detail]`
with GB9137 ("non-constant typing subscript", and the frame recompiles about 18 times first). The same
type spelled inline (`list[dict[str, Tensor]]`), a typing alias (`Dict[str, Tensor]`), a plain class as
the key (`list[Block]`) and a quoted type (`cast("list[Detail]", x)`) do not break.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..analysis.type_facts import alias_key, alias_union, module_bindings, module_generic_aliases
from ..fix.rewrite import replace_fix
from .base import Example, Rule


class GenericAliasSubscript(Rule):
    code = "BL508"
    name = "generic-alias-subscript"
    summary = "a type subscript keyed by a module-level builtin generic alias breaks the graph"
    gb_ids = ("GB4880", "GB9137", "GB0088")
    fix_availability = "sometimes"
    fix_applicability = "safe"
    node_types = (ast.Subscript, ast.BinOp)
    # 2.13: measured on CPU (list[A], dict[str, A], tuple[A, ...], List[A], Optional[A], Tuple[A, A],
    # Union[list[A], list[B]] break; inline generics, typing aliases, class keys and quoted types do not).
    verdicts = {"2.13": True}

    def check(self, node, ctx) -> None:
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            return
        file = ctx.file
        own = file.memo((self.code, "aliases"), lambda: module_generic_aliases(file.tree, file.imports))
        if not own and not file.generic_aliases:
            return
        bindings = file.memo((self.code, "bindings"), lambda: module_bindings(file.tree))

        def is_alias(name: ast.Name) -> bool:
            if name.id in own:
                return not file.imports.is_bound(name.id)
            # imported, and not bound again here (`class Detail(dict)` after the import)
            return name.id in file.generic_aliases and bindings[name.id] == 1

        if isinstance(node, ast.BinOp):
            key = alias_union(node, is_alias)
        else:
            key = alias_key(node, file.imports, is_alias)
        if key is None or ctx.scope is None or _bound_in_function(key.id, ctx.scope.func) or _in_annotation(node, ctx):
            return
        spelled = ctx.segment(node)
        shown = f"`{spelled}`" if "\n" not in spelled and len(spelled) <= 60 else "this type"
        if isinstance(node, ast.BinOp):
            ctx.report(node, f"{shown} makes a union of `{key.id}`, a builtin generic alias held in a variable: "
                             "Dynamo fails on it (GB0088) and runs the whole function eagerly; quote the type "
                             "(`cast(\"...\", x)`) or use Optional[...] of a type spelled inline")
            return
        ctx.report(node, f"{shown} subscripts a type with `{key.id}`, a builtin generic alias held in a "
                         "variable: Dynamo cannot build that type and breaks the graph (GB4880, GB9137); quote the "
                         "type (`cast(\"...\", x)`) or spell it inline", _quote_fix(node, ctx, is_alias))

    VALID = [
        Example("""
from typing import Dict, cast

import torch
from torch import nn

Detail = Dict[str, torch.Tensor]          # a typing alias: traced


class Net(nn.Module):
    def forward(self, x):
        parts = cast(list[Detail], [{"a": x}])
        inline = cast(list[dict[str, torch.Tensor]], parts)
        return inline[0]["a"] * 2


def factory():
    return Net(), (torch.randn(3),)
"""),
        Example("""
from typing import cast

import torch
from torch import nn

Detail = dict[str, torch.Tensor]


class Net(nn.Module):
    def forward(self, x):
        parts = cast("list[Detail]", [{"a": x}])   # a quoted type is never evaluated
        return parts[0]["a"] * 2


def factory():
    return Net(), (torch.randn(3),)
"""),
    ]
    INVALID = [
        Example("""
from typing import cast

import torch
from torch import nn

Detail = dict[str, torch.Tensor]


class Net(nn.Module):
    def forward(self, x):
        parts = cast(list[Detail], [{"a": x}])
        return parts[0]["a"] * 2


def factory():
    return Net(), (torch.randn(3),)
""", at=((12, 22),), fixed="""
from typing import cast

import torch
from torch import nn

Detail = dict[str, torch.Tensor]


class Net(nn.Module):
    def forward(self, x):
        parts = cast("list[Detail]", [{"a": x}])
        return parts[0]["a"] * 2


def factory():
    return Net(), (torch.randn(3),)
"""),
        Example("""
from typing import Optional, cast

import torch

Pair = tuple[torch.Tensor, torch.Tensor]


@torch.compile
def step(x):
    pair = cast(Optional[Pair], (x, x + 1))
    return pair[0] * pair[1]


def factory():
    return step, (torch.randn(3),)
""", at=((11, 17),)),
    ]


def _in_annotation(node: ast.AST, ctx) -> bool:
    """In a variable's annotation (`parts: list[Detail] = []`: never evaluated in a function) or a nested
    function's (evaluated once, where the def runs; not this rule's case)."""
    child = node
    for parent in reversed(ctx.parents):
        if isinstance(parent, ast.AnnAssign) and parent.annotation is child or isinstance(parent, ast.arg) \
                or isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and parent.returns is child:
            return True
        if isinstance(parent, ast.stmt):
            return False
        child = parent
    return False


def _bound_in_function(name: str, func: ast.AST) -> bool:
    """The key names a local of the traced function (a parameter of it, of a lambda or def in it, or a
    name it assigns), not the module's alias."""
    return any(isinstance(n, ast.arg) and n.arg == name
               or isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(func))


def _quote_fix(node: ast.Subscript, ctx, is_alias):
    """`cast(list[Detail], x)` -> `cast("list[Detail]", x)`: typing.cast returns x whatever its first
    argument, and a type checker reads the quoted type as it read the unquoted one. One finding of a
    cast carries it: the first subscript of the type that names an alias."""
    call = _cast_of(node, ctx)
    if call is None:
        return None
    first = next(n for n in ast.walk(call.args[0])
                 if isinstance(n, ast.Subscript) and alias_key(n, ctx.file.imports, is_alias) is not None)
    spelled = ctx.segment(call.args[0])
    if first is not node or "\n" in spelled or '"' in spelled or "\\" in spelled:
        return None
    return replace_fix("Quote the type given to cast()", "safe", (ctx.replace(call.args[0], f'"{spelled}"'),))


def _cast_of(node: ast.Subscript, ctx) -> Optional[ast.Call]:
    """The `typing.cast(...)` call whose type argument is, or holds, this subscript."""
    child = node
    for parent in reversed(ctx.parents):
        if isinstance(parent, ast.Call):
            if ctx.qualify(parent.func) in ("typing.cast", "typing_extensions.cast") and parent.args \
                    and parent.args[0] is child:
                return parent
            return None
        if not isinstance(parent, (ast.Subscript, ast.Tuple)):
            return None
        child = parent
    return None
