"""torch.cond for multi-statement branches, only where the source proves it is sound.

torch.cond on torch 2.13 rejects branches whose outputs differ in dtype, and outputs that alias an
input (measured). So each branch is evaluated symbolically: every value it assigns must be an
elementwise function of one tensor read from outside (its "base"), and each output must have the
same base and the same dtype rule in both branches. Same base + elementwise = same shape; same
dtype rule applied to the same input dtype = same dtype. Anything else (layers, indexing, calls we
do not know, reductions kept as outputs) gets no fix.
"""
from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional, Union

from ..model import Edit, Fix, Location, Transform
from .rewrite import statement_lines, torch_imports, torch_name
from .branch import (bound_before, branch_key, branch_rewriter, comments_in, footer_end, is_elif, minus, read_after,
                     tensor_condition)
from ..analysis.torch_api import (BOOL_UNARY, CASTS, COMPARE_METHODS, FLOAT_RESULT, REDUCE_FLOAT, REDUCE_SAME,
                                  SAME_DTYPE)

if TYPE_CHECKING:
    from ..rules.base import NodeContext

EXPLICIT = set(CASTS.values())


@dataclass(frozen=True)
class Sig:
    """An elementwise function of the tensor `base`: its dtype rule, and whether it is 0-dim."""

    base: str
    kind: str  # "same" | "float" (float-of-base) | "bool" | an explicit dtype
    alias: bool = False  # the base itself, unchanged: torch.cond outputs must not alias inputs
    zero_dim: bool = False


Number = str  # "int" | "float": a Python numeric literal
Value = Union[Sig, Number]


def _join(a: str, b: str) -> Optional[str]:
    if a == b:
        return a
    if {a, b} == {"same", "float"}:
        return "float"
    return None


def _with_literal(kind: str, literal: str) -> Optional[str]:
    if kind == "bool":
        return None  # bool arithmetic promotes to int64: not worth modelling
    if literal == "int":
        return kind
    if kind in ("same", "float"):
        return "float"
    return kind if kind.startswith(("float", "bfloat")) else None


def _float_of(kind: str) -> Optional[str]:
    if kind in ("same", "float"):
        return "float"
    return kind if kind.startswith(("float", "bfloat")) else None


class BranchEval:
    def __init__(self, ctx: "NodeContext"):
        self.ctx = ctx
        self.tensors = ctx.env.tensor_names if ctx.env is not None else set()

    def literal(self, node: ast.AST) -> Optional[Number]:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            node = node.operand
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return "int" if type(node.value) is int else "float"
        return None

    def value(self, node: ast.AST, env: dict[str, Sig], reads: list[str]) -> Optional[Value]:
        lit = self.literal(node)
        if lit is not None:
            return lit
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.tensors:
                if node.id not in reads:
                    reads.append(node.id)
                return Sig(node.id, "same", alias=True)
            return None
        if isinstance(node, ast.UnaryOp):
            got = self.value(node.operand, env, reads)
            if not isinstance(got, Sig):
                return None
            if isinstance(node.op, ast.Invert) and got.kind == "bool":
                return replace(got, alias=False)
            if isinstance(node.op, (ast.USub, ast.UAdd)) and got.kind != "bool":
                return replace(got, alias=False)
            return None
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.value(node.left, env, reads), self.value(node.right, env, reads))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
                isinstance(node.ops[0], (ast.Lt, ast.Gt, ast.LtE, ast.GtE, ast.Eq, ast.NotEq)):
            both = self.binop(ast.Add(), self.value(node.left, env, reads),
                              self.value(node.comparators[0], env, reads), compare=True)
            return replace(both, kind="bool") if isinstance(both, Sig) else None
        if isinstance(node, ast.Call):
            return self.call(node, env, reads)
        return None

    def binop(self, op, left: Optional[Value], right: Optional[Value], compare: bool = False) -> Optional[Value]:
        if left is None or right is None:
            return None
        if not isinstance(left, Sig) and not isinstance(right, Sig):
            return None  # Python arithmetic on literals: leave it alone
        if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            if isinstance(left, Sig) and isinstance(right, Sig) and left.base == right.base \
                    and left.kind == right.kind == "bool":
                return Sig(left.base, "bool", zero_dim=left.zero_dim and right.zero_dim)
            return None
        if not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)):
            return None
        if isinstance(left, Sig) and isinstance(right, Sig):
            if left.base != right.base:
                return None  # two inputs may broadcast to a new shape
            if not compare and "bool" in (left.kind, right.kind):
                return None
            kind = left.kind if compare and left.kind == right.kind else _join(left.kind, right.kind)
            if kind is None:
                return None
            if isinstance(op, ast.Div):
                kind = _float_of(kind)
            return Sig(left.base, kind, zero_dim=left.zero_dim and right.zero_dim) if kind else None
        sig, lit = (left, right) if isinstance(left, Sig) else (right, left)
        if compare:
            return replace(sig, alias=False)
        if isinstance(op, ast.Div):
            kind = _float_of(sig.kind) if sig.kind != "bool" else None
        else:
            kind = _with_literal(sig.kind, lit)
        return Sig(sig.base, kind, zero_dim=sig.zero_dim) if kind else None

    def call(self, node: ast.Call, env, reads) -> Optional[Value]:
        func = node.func
        qual = self.ctx.qualify(func) or ""
        if qual.startswith(("torch.nn.functional.", "torch.")) and qual.count(".") <= 3 \
                and isinstance(func, (ast.Name, ast.Attribute)) and node.args:
            name = qual.rsplit(".", 1)[-1]
            receiver, extra = node.args[0], node.args[1:]
        elif isinstance(func, ast.Attribute):
            name, receiver, extra = func.attr, func.value, node.args
        else:
            return None
        sig = self.value(receiver, env, reads)
        if not isinstance(sig, Sig):
            return None
        extras = [self.literal(a) for a in extra] + [self.literal(k.value) for k in node.keywords
                                                    if k.arg not in ("approximate",)]
        if any(e is None for e in extras):
            if name in COMPARE_METHODS and len(extra) == 1 and not node.keywords:
                other = self.value(extra[0], env, reads)
                both = self.binop(ast.Add(), sig, other, compare=True)
                return replace(both, kind="bool") if isinstance(both, Sig) else None
            return None
        plain = Sig(sig.base, sig.kind, zero_dim=sig.zero_dim)
        if name in SAME_DTYPE:
            if sig.kind == "bool" or "float" in extras and _float_of(sig.kind) != sig.kind:
                return None  # clamp(int, 0.5) promotes
            return plain
        if name in FLOAT_RESULT:
            kind = _float_of(sig.kind) if sig.kind != "bool" else None
            return replace(plain, kind=kind) if kind else None
        if name in BOOL_UNARY and not extras:
            return replace(plain, kind="bool")
        if name in COMPARE_METHODS and len(extras) == 1:
            return replace(plain, kind="bool")
        if name in CASTS and not extras and isinstance(func, ast.Attribute) and not qual.startswith("torch."):
            return replace(plain, kind=CASTS[name])
        if (name in REDUCE_SAME or name in REDUCE_FLOAT) and not extras and sig.kind != "bool":
            kind = sig.kind if name in REDUCE_SAME else _float_of(sig.kind)
            return Sig(sig.base, kind, zero_dim=True) if kind else None
        return None

    def branch(self, body: list[ast.stmt]) -> Optional[tuple[dict[str, Sig], list[str]]]:
        """The values a branch assigns, and the outer tensors it reads; None if not provable."""
        env: dict[str, Sig] = {}
        reads: list[str] = []
        for stmt in body:
            if isinstance(stmt, ast.Pass):
                continue
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)):
                return None  # returns, breaks, calls for effect, attribute/subscript stores, x += ...
            got = self.value(stmt.value, env, reads)
            if not isinstance(got, Sig):
                return None
            env[stmt.targets[0].id] = got
        return env, reads


def _fresh_name(ctx: "NodeContext", stem: str) -> str:
    used = {n.id for n in ast.walk(ctx.scope.func) if isinstance(n, ast.Name)}
    used |= {n.name for n in ast.walk(ctx.scope.func) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    used |= {a.arg for a in ast.walk(ctx.scope.func) if isinstance(a, ast.arg)}
    name, i = stem, 2
    while name in used:
        name, i = f"{stem}_{i}", i + 1
    return name


def _other_comments(ctx: "NodeContext", node: ast.If, end_row: int, kept: set[int]) -> Optional[list[str]]:
    text = "\n".join(ctx.file.lines[node.lineno - 1: end_row]) + "\n"
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return [t.string for t in tokens if t.type == tokenize.COMMENT and t.start[0] + node.lineno - 1 not in kept]


def cond_fix(ctx: "NodeContext", node: ast.If, drop_scalars: bool = False) -> Optional[Fix]:
    if ctx.scope is None or ctx.env is None or is_elif(ctx, node):
        return None
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        return None  # elif chains: nesting torch.cond is possible but not proven here
    cond = tensor_condition(ctx, node.test, drop_scalars)
    found = statement_lines(ctx, node)
    if cond is None or found is None:
        return None
    evaluator = BranchEval(ctx)
    true_side = evaluator.branch(node.body)
    false_side = evaluator.branch(node.orelse)
    if true_side is None or false_side is None:
        return None
    (true_env, true_reads), (false_env, false_reads) = true_side, false_side
    outputs: list[str] = []
    for name in list(true_env) + [n for n in false_env if n not in true_env]:
        if name in true_env and name in false_env:
            outputs.append(name)
        elif bound_before(ctx, name, node) and name in evaluator.tensors:
            outputs.append(name)
            side = false_env if name in true_env else true_env
            reads = false_reads if name in true_env else true_reads
            side[name] = Sig(name, "same", alias=True)
            if name not in reads:
                reads.append(name)
        elif read_after(ctx, name, node):
            return None  # defined on one side only and used later: not a pure value swap
    if not outputs:
        return None
    for name in outputs:
        a, b = true_env[name], false_env[name]
        if a.base != b.base or a.kind != b.kind or a.zero_dim or b.zero_dim:
            return None
    operands = list(dict.fromkeys(true_reads + false_reads))
    indent = found[0]
    first_body = statement_lines(ctx, node.body[0])
    if first_body is None:
        return None
    body_indent = first_body[0]
    true_fn, false_fn = _fresh_name(ctx, "_true_branch"), _fresh_name(ctx, "_false_branch")
    torch, _ = torch_name(ctx)
    if torch is None:
        return None  # no hard torch import of its own to lean on: adding one could break the module
    kept: set[int] = set()
    lines: list[str] = []
    returned = []
    for fn, body, env in ((true_fn, node.body, true_env), (false_fn, node.orelse, false_env)):
        lines.append(f"{indent}def {fn}({', '.join(operands)}):")
        stmts = [s for s in body if not isinstance(s, ast.Pass)]
        for stmt in stmts:
            if statement_lines(ctx, stmt) is None:
                return None
        if stmts:
            first, last = stmts[0].lineno, stmts[-1].end_lineno
            kept.update(range(first, last + 1))
            lines.extend(ctx.file.lines[first - 1: last])
        results = [f"{n}.clone()" if env[n].alias else n for n in outputs]
        returned.append(tuple(results))
        # The else block may be indented unlike the if block: return at the indent of the lines kept.
        branch_indent = statement_lines(ctx, stmts[0])[0] if stmts else body_indent
        lines.append(f"{branch_indent}return {', '.join(results)}")
    end_row = footer_end(ctx, node)
    comments = _other_comments(ctx, node, end_row, kept)
    if comments is None:
        return None
    comments = minus(comments, comments_in(f"({cond})") or [])
    targets = ", ".join(outputs)
    packed = f"({operands[0]},)" if len(operands) == 1 else f"({', '.join(operands)})"
    call = f"{targets} = {torch.name}.cond({cond}, {true_fn}, {false_fn}, {packed})"
    lines = [indent + c for c in comments] + lines + [indent + call]
    end_line = ctx.file.lines[end_row - 1]
    # The preview that reports show; the LibCST transform of fix/cst_branch.py applies it, keeping
    # the branches' statements as they are written.
    edit = Edit(Location(node.lineno, 1), Location(end_row, len(end_line) + 1), "\n".join(lines))
    spec = ("cond", node.lineno, cond, tuple(operands), tuple(outputs), true_fn, false_fn, *returned)
    return Fix(message="Replace the branches with torch.cond", applicability="unsafe", edits=(edit,),
               imports=torch_imports(ctx),
               transform=Transform(branch_rewriter, branch_key(ctx, torch), frozenset({node.lineno}), spec))
