"""Rewrite branches on tensors into branch-free code: torch.where, torch.cond, `&` / `|` / `~`.

Shared by BL101 (tensor-branch) and BL102 (scalar-in-condition). Every rewrite is refused (None)
unless it can be checked from the source alone: both sides of a torch.where must be free of side
effects, and torch.cond branches must provably return tensors of the same shape and dtype.
"""
from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from ..model import Edit, Fix, Location, Transform
from ..analysis.torch_api import BOOL_RESULT, RANDOM_NAMES
from .rewrite import statement_lines, torch_imports, torch_name, torch_never_rebound, torch_prefix
from .safety import condition_is_tensor, is_scalar_extraction, may_be_none, numpy_free, same_shape, singular_ops

if TYPE_CHECKING:
    from ..rules.base import NodeContext

MAX_LINE = 88  # ruff and black default line length: a fix must not add E501
PURE_BUILTINS = {"abs", "min", "max", "len", "round"}
# Pure on constants (`float("-inf")`); on a tensor they would read its value (.item()).
CONSTANT_BUILTINS = {"float", "int", "bool", "complex"}
ATOMIC = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)


# -- small helpers ---------------------------------------------------------------------------------
def _paren(text: str, node: Optional[ast.AST]) -> str:
    return text if isinstance(node, ATOMIC) else f"({text})"


def is_elif(ctx: "NodeContext", node: ast.If) -> bool:
    line = ctx.file.lines[node.lineno - 1]
    return line.encode("utf-8")[node.col_offset:].decode("utf-8", "ignore").startswith("elif")


def known_bool(node: ast.AST, ctx: "NodeContext") -> bool:
    """A tensor expression whose dtype is surely torch.bool."""
    if isinstance(node, ast.Compare):
        return not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops)
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else None
        qual = ctx.qualify(node.func) or ""
        if qual.startswith("torch."):
            name = qual.rsplit(".", 1)[-1]
            if name in ("any", "all"):
                # `torch.all(t)`: the tensor is the first argument, a dim the second; the result is
                # bool only for a bool input (uint8 gives uint8), so the argument decides.
                return len(node.args) == 1 and not node.keywords and known_bool(node.args[0], ctx)
        return name in BOOL_RESULT and not (name in ("any", "all") and _has_dim(node))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return known_bool(node.operand, ctx)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return True  # rewritten as `~t.bool()`, a bool tensor
    if isinstance(node, ast.BoolOp):
        return all(known_bool(v, ctx) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return known_bool(node.left, ctx) and known_bool(node.right, ctx)
    return False


def _has_dim(call: ast.Call) -> bool:
    return bool(call.keywords) or (len(call.args) > (0 if isinstance(call.func, ast.Attribute) else 1))


def is_pure(node: ast.AST, ctx: "NodeContext") -> bool:
    """No side effects and no RNG: evaluating it in the branch not taken changes nothing."""
    self_name = ctx.env.self_name if ctx.env is not None else None
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda,
                            ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Starred)):
            return False
        if not isinstance(sub, ast.Call):
            continue
        func = sub.func
        qual = ctx.qualify(func) or ""
        short = qual.rsplit(".", 1)[-1] if qual else getattr(func, "attr", getattr(func, "id", ""))
        if short in RANDOM_NAMES or short.endswith("_") and not short.endswith("__"):
            return False
        if any(kw.arg in ("out", "inplace") for kw in sub.keywords):
            return False
        if qual.startswith("torch.") and isinstance(func, (ast.Attribute, ast.Name)) \
                and not qual.startswith(("torch.nn.modules.", "torch.nn.Module")) and short[:1].islower():
            continue  # torch functions: pure apart from RNG, in-place and out= (refused above)
        if isinstance(func, ast.Attribute) and ctx.is_tensor(func.value):
            continue  # tensor methods
        if isinstance(func, ast.Name) and not ctx.file.imports.is_bound(func.id) and (
                func.id in PURE_BUILTINS or func.id in CONSTANT_BUILTINS
                and all(isinstance(a, ast.Constant) for a in sub.args) and not sub.keywords):
            continue  # abs(t), max(a, b), float("-inf"): no effects (arguments are walked too)
        return False  # layers (running stats), user functions, self methods: unknown effects
    if self_name is not None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == self_name:
                return False
    return True


def _numeric_constant(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def where_operands_ok(ctx: "NodeContext", a: ast.AST, b: ast.AST) -> bool:
    """torch.where(c, a, b) keeps the meaning only for pure tensor (or number) operands."""
    if not (ctx.is_tensor(a) or ctx.is_tensor(b)):
        return False
    for side in (a, b):
        if not (ctx.is_tensor(side) or _numeric_constant(side)) or not is_pure(side, ctx):
            return False
    return True


# -- conditions -------------------------------------------------------------------------------------
@dataclass
class Cond:
    text: str
    node: Optional[ast.AST]  # the node the text stands for (None when rebuilt), for parenthesizing
    tensor: bool
    boolean: bool


def _needs_rewrite(node: ast.AST, ctx: "NodeContext", drop_scalars: bool) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.BoolOp) or isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.Not):
            return True
        if drop_scalars and is_scalar_extraction(sub, ctx) is not None:
            return True
    return False


def _convert(node: ast.AST, ctx: "NodeContext", drop_scalars: bool) -> Optional[Cond]:
    if not _needs_rewrite(node, ctx, drop_scalars):
        tensor = ctx.is_tensor(node)
        return Cond(ctx.segment(node), node, tensor, tensor and known_bool(node, ctx))
    inner = is_scalar_extraction(node, ctx) if drop_scalars else None
    if inner is not None:
        got = _convert(inner, ctx, drop_scalars)
        if got is None or not got.tensor:
            return None
        if isinstance(node.func, ast.Name) and node.func.id == "int":
            return Cond(f"{_paren(got.text, got.node)}.long()", node, True, False)  # int() truncates
        return got
    if isinstance(node, ast.BoolOp):
        parts = [_convert(v, ctx, drop_scalars) for v in node.values]
        if any(p is None or not p.tensor for p in parts):
            return None  # a Python operand would be evaluated eagerly by `&` (e.g. `m is not None`)
        op = " & " if isinstance(node.op, ast.And) else " | "
        return Cond(op.join(_bool_operand(p) for p in parts), None, True, True)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        got = _convert(node.operand, ctx, drop_scalars)
        if got is None or not got.tensor:
            return None
        return Cond(f"~{_bool_operand(got)}", None, True, True)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            not isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
        left = _convert(node.left, ctx, drop_scalars)
        right = _convert(node.comparators[0], ctx, drop_scalars)
        if left is None or right is None or not (left.tensor or right.tensor):
            return None
        op = ast.unparse(ast.Compare(left=ast.Name("a"), ops=node.ops, comparators=[ast.Name("b")]))[2:-2]
        return Cond(f"{_paren(left.text, left.node)} {op} {_paren(right.text, right.node)}", None, True, True)
    if isinstance(node, ast.BinOp) and not isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        left = _convert(node.left, ctx, drop_scalars)
        right = _convert(node.right, ctx, drop_scalars)
        if left is None or right is None:
            return None
        op = ast.unparse(ast.BinOp(left=ast.Name("a"), op=node.op, right=ast.Name("b")))[2:-2]
        return Cond(f"{_paren(left.text, left.node)} {op} {_paren(right.text, right.node)}", None,
                    left.tensor or right.tensor, False)
    return None


def as_bool(cond: Cond) -> str:
    """A bool tensor with the condition's truth value (`if t:` means `t != 0`, i.e. `t.bool()`)."""
    return cond.text if cond.boolean else f"{_paren(cond.text, cond.node)}.bool()"


def _bool_operand(cond: Cond) -> str:
    """An operand of `&`, `|` or `~`: these bind tighter than comparisons, so parenthesize."""
    if isinstance(cond.node, ATOMIC):
        return as_bool(cond)
    return f"({as_bool(cond)})"


def tensor_condition(ctx: "NodeContext", test: ast.AST, drop_scalars: bool = False) -> Optional[str]:
    """The condition as a bool tensor expression, or None when it cannot be written as one or may
    be a Python number or bool on some path (torch.where and torch.cond raise TypeError on those)."""
    got = _convert(test, ctx, drop_scalars)
    if got is None or not got.tensor or not condition_is_tensor(test, ctx, drop_scalars) or not numpy_free(test, ctx):
        return None
    return as_bool(got)


def _text_with(ctx: "NodeContext", node: ast.AST, replacements: list[tuple[ast.AST, str]]) -> str:
    """The source of `node` with some of its sub-expressions replaced."""
    text = ctx.segment(node)
    lines = text.split("\n")
    base = ctx.start(node)

    def offset(row: int, column: int) -> int:
        r = row - base.row
        col = column - base.column if r == 0 else column - 1
        return sum(len(line) + 1 for line in lines[:r]) + col

    spans = []
    for sub, new in replacements:
        start, end = ctx.start(sub), ctx.end(sub)
        spans.append((offset(start.row, start.column), offset(end.row, end.column), new))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def where_arguments(ctx: "NodeContext", cond: str, a: ast.AST, b: ast.AST,
                    statement: Optional[ast.AST] = None) -> Optional[list[str]]:
    """[cond, a, b] for torch.where when it keeps the meaning of `a if cond else b` (safety.py): pure
    tensor operands of one shape, never None, and a side not taken that cannot put NaN into the
    gradient. A divisor `d` in a side becomes `torch.where(cond, d, 1)` (`torch.where(cond, 1, d)` on
    the other side), so the side not taken divides by one; log, sqrt, pow and the like: no rewrite."""
    if not where_operands_ok(ctx, a, b) or may_be_none(a, ctx) or may_be_none(b, ctx) \
            or not same_shape(ctx, [a, b], statement):
        return None
    texts = [cond]
    for side, (taken, other) in ((a, ("{d}", "1")), (b, ("1", "{d}"))):
        denominators, singular = singular_ops(side, ctx)
        if singular:
            return None
        guarded = [(d, torch_prefix(ctx) + ".where({}, {}, {})".format(
            cond, taken.format(d=ctx.segment(d)), other.format(d=ctx.segment(d)))) for d in denominators
            if ctx.is_tensor(d) and not any(d is not o and _inside(d, o) for o in denominators)]
        texts.append(_text_with(ctx, side, guarded) if guarded else ctx.segment(side))
    return texts


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    return any(sub is node for sub in ast.walk(outer))


# -- statements ------------------------------------------------------------------------------------
def _comments(ctx: "NodeContext", first_row: int, last_row: int) -> Optional[list[str]]:
    """Comments on some whole lines, so that a rewrite can keep them above the new code."""
    return comments_in("\n".join(ctx.file.lines[first_row - 1: last_row]) + "\n")


def comments_in(text: str) -> Optional[list[str]]:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return [tok.string for tok in tokens if tok.type == tokenize.COMMENT]


def minus(comments: list[str], kept: list[str]) -> list[str]:
    """`comments` less one occurrence of each of `kept` (those the new code still holds)."""
    left = list(kept)
    out = []
    for comment in comments:
        if comment in left:
            left.remove(comment)
        else:
            out.append(comment)
    return out


def _argument_comments(args: list[str]) -> list[str]:
    return [c for a in args for c in (comments_in(f"({a})") or [])]


def footer_end(ctx: "NodeContext", node: ast.If) -> int:
    """The last row of `node` with the comment lines below its last branch that are indented at
    least as deep as that branch's statements: LibCST counts them as part of the branch (its block's
    footer), so the rewrite moves them above the new code with the rest."""
    block = node.orelse or node.body
    while len(block) == 1 and isinstance(block[0], ast.If) and block is node.orelse and is_elif(ctx, block[0]):
        node = block[0]
        block = node.orelse or node.body
    lines = ctx.file.lines
    first = lines[block[-1].lineno - 1]
    depth = len(first) - len(first.lstrip())
    if first[:depth].strip() or block[-1].col_offset != len(first[:depth].encode("utf-8")):
        return node.end_lineno  # the branch shares the `if` line: no block of its own
    end = node.end_lineno
    for row in range(node.end_lineno + 1, len(lines) + 1):
        line = lines[row - 1]
        text = line.strip()
        if not text:
            continue
        if text.startswith("#") and len(line) - len(line.lstrip()) >= depth:
            end = row
            continue
        break
    return end


def _call_text(indent: str, head: str, args: list[str]) -> list[str]:
    line = f"{indent}{head}({', '.join(args)})"
    if len(line) <= MAX_LINE and "\n" not in line:
        return [line]
    unit = "\t" if "\t" in indent else "    "
    return [f"{indent}{head}("] + [_wrapped_argument(f"{indent}{unit}{a},", indent + unit * 2) for a in args] \
        + [f"{indent})"]


def _wrapped_argument(line: str, inner_indent: str) -> str:
    """An argument line still too long: break it after the `(` of its last `torch.where(` (a guarded
    divisor), where a line break is always allowed. The parse check refuses the rare case where
    that text sits in a string."""
    if len(line) <= MAX_LINE or "\n" in line:
        return line
    at = line.rfind(".where(")
    if at <= len(inner_indent):
        return line
    cut = at + len(".where(")
    return line[:cut] + "\n" + inner_indent + line[cut:]


def _replace(ctx: "NodeContext", first: ast.stmt, last: ast.stmt, head: str, target: str,
             args: list[str]) -> Optional[Fix]:
    """`target = torch.where(*args)` (head "assign") or `return torch.where(*args)` in place of the
    statements `first` to `last`, applied by the LibCST transform of fix/cst_branch.py; the text
    edit built here is the preview that reports show (checking never loads LibCST)."""
    found = statement_lines(ctx, first)
    if found is None or statement_lines(ctx, last) is None:
        return None
    torch, _ = torch_name(ctx)
    if torch is None:
        return None  # no hard torch import of its own to lean on: adding one could break the module
    indent = found[0]
    end_row = footer_end(ctx, first) if last is first else last.end_lineno
    comments = _comments(ctx, first.lineno, end_row)
    if comments is None:
        return None
    comments = minus(comments, _argument_comments(args))
    call_head = f"{target} = {torch.name}.where" if head == "assign" else f"return {torch.name}.where"
    lines = [indent + c for c in comments] + _call_text(indent, call_head, args)
    end_line = ctx.file.lines[end_row - 1]
    edit = Edit(Location(first.lineno, 1), Location(end_row, len(end_line) + 1), "\n".join(lines))
    spec = ("stmt", first.lineno, last.lineno, head, target, tuple(args))
    return Fix(message=WHERE_MESSAGE, applicability="unsafe", edits=(edit,), imports=torch_imports(ctx),
               transform=Transform(branch_rewriter, branch_key(ctx, torch), frozenset({first.lineno}), spec))


def branch_key(ctx: "NodeContext", torch) -> tuple:
    """What all of a file's torch.where / torch.cond transforms share: how torch is named, whether
    `import torch` is added, and whether the name is never rebound (then no scope metadata is needed)."""
    return torch.name, torch.add_import, torch_never_rebound(ctx, torch.name)


def branch_rewriter(rows: frozenset, torch_name: str, add_import: bool, never_rebound: bool = False, specs=()):
    """The LibCST transformer of the torch.where / torch.cond fixes, imported only when a fix is
    applied (a module-level function, so that a Fix pickles across the worker pool and caches)."""
    from .cst_branch import BranchRewrite, ScopedBranchRewrite

    cls = BranchRewrite if never_rebound else ScopedBranchRewrite
    return cls(rows, torch_name, add_import, specs)


def _single_assign(body: list[ast.stmt]) -> Optional[tuple[str, ast.AST]]:
    if len(body) == 1 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1 \
            and isinstance(body[0].targets[0], ast.Name):
        return body[0].targets[0].id, body[0].value
    if len(body) == 1 and isinstance(body[0], ast.AnnAssign) and body[0].value is not None \
            and isinstance(body[0].target, ast.Name) and body[0].simple:
        return body[0].target.id, body[0].value
    return None


def _single_return(body: list[ast.stmt]) -> Optional[ast.AST]:
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def _where_chain(ctx, node: ast.If, cond: str, kind: str, drop_scalars: bool):
    """(target, [cond, a, b], the value nodes) for `if c: x = A else: x = B` (elif chains nest the where)."""
    if kind == "assign":
        got = _single_assign(node.body)
        if got is None:
            return None
        target, a = got
    else:
        target, a = "", _single_return(node.body)
        if a is None:
            return None
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        inner = node.orelse[0]
        inner_cond = tensor_condition(ctx, inner.test, drop_scalars)
        rest = _where_chain(ctx, inner, inner_cond, kind, drop_scalars) if inner_cond else None
        if rest is None or rest[0] != target or not ctx.is_tensor(a) or not is_pure(a, ctx) \
                or may_be_none(a, ctx):
            return None
        # Nested: a side not taken of the outer where is the whole inner one, so no divisor may be
        # guarded by one condition only; every leaf must be free of singular ops and of one shape.
        leaves = [a, *rest[2]]
        if any(singular_ops(leaf, ctx) != ([], False) for leaf in leaves) or not same_shape(ctx, leaves):
            return None
        return target, [cond, ctx.segment(a), torch_prefix(ctx) + ".where(" + ", ".join(rest[1]) + ")"], leaves
    if kind == "assign":
        other = _single_assign(node.orelse)
        if other is None or other[0] != target:
            return None
        b = other[1]
    else:
        b = _single_return(node.orelse)
        if b is None:
            return None
    arguments = where_arguments(ctx, cond, a, b)
    if arguments is None:
        return None
    return target, arguments, [a, b]


WHERE_MESSAGE = "Replace the branch with torch.where (evaluates both sides)"


def where_fix(ctx: "NodeContext", node: ast.If, drop_scalars: bool = False) -> Optional[Fix]:
    """torch.where for assignment and return branches; see the rule pages for what it changes."""
    cond = tensor_condition(ctx, node.test, drop_scalars)
    if cond is None or is_elif(ctx, node):
        return None
    # if c: x = A / else: x = B   (and elif chains)
    got = _where_chain(ctx, node, cond, "assign", drop_scalars)
    if got is not None:
        return _replace(ctx, node, node, "assign", got[0], got[1])
    got = _where_chain(ctx, node, cond, "return", drop_scalars)
    if got is not None:
        return _replace(ctx, node, node, "return", "", got[1])
    if node.orelse:
        return None
    # if c: x = A   with x bound before
    single = _single_assign(node.body)
    if single is not None and bound_before(ctx, single[0], node):
        target, a = single
        current = ast.Name(target, ast.Load(), lineno=node.lineno, col_offset=node.col_offset,
                           end_lineno=node.lineno, end_col_offset=node.col_offset + len(target.encode()))
        arguments = where_arguments(ctx, cond, a, current, node) if ctx.env is not None \
            and target in ctx.env.tensor_names else None
        if arguments is not None:
            arguments[2] = target
            return _replace(ctx, node, node, "assign", target, arguments)
    # if c: return A   followed by   return B
    a = _single_return(node.body)
    following = _next_statement(ctx, node)
    arguments = where_arguments(ctx, cond, a, following.value) if a is not None and isinstance(
        following, ast.Return) and following.value is not None else None
    if arguments is not None:
        return _replace(ctx, node, following, "return", "", arguments)
    return None


def _next_statement(ctx: "NodeContext", node: ast.stmt) -> Optional[ast.stmt]:
    for parent in reversed(ctx.parents):
        for field_name in ("body", "orelse", "finalbody"):
            block = getattr(parent, field_name, None)
            if isinstance(block, list) and node in block:
                i = block.index(node)
                return block[i + 1] if i + 1 < len(block) else None
        if isinstance(parent, ast.stmt) and parent is not node:
            break
    func = ctx.scope.func if ctx.scope else None
    if func is not None and node in func.body:
        i = func.body.index(node)
        return func.body[i + 1] if i + 1 < len(func.body) else None
    return None


def _function_nodes(func: ast.AST):
    stack = list(ast.iter_child_nodes(func))
    while stack:
        sub = stack.pop()
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield sub
        stack.extend(ast.iter_child_nodes(sub))


def bound_before(ctx: "NodeContext", name: str, node: ast.stmt) -> bool:
    """`name` is a parameter, or assigned in the function on a line before `node`."""
    func = ctx.scope.func if ctx.scope else None
    if func is None:
        return False
    args = func.args
    if any(a.arg == name for a in args.posonlyargs + args.args + args.kwonlyargs):
        return True
    for sub in _function_nodes(func):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Store) \
                and (sub.end_lineno, sub.end_col_offset) <= (node.lineno, node.col_offset):
            return True
    return False


def read_after(ctx: "NodeContext", name: str, node: ast.stmt) -> bool:
    func = ctx.scope.func if ctx.scope else None
    if func is None:
        return True
    for sub in ast.walk(func):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load) \
                and sub.lineno > node.end_lineno:
            return True
    return False


def ternary_fix(ctx: "NodeContext", node: ast.IfExp, drop_scalars: bool = False) -> Optional[Fix]:
    cond = tensor_condition(ctx, node.test, drop_scalars)
    arguments = where_arguments(ctx, cond, node.body, node.orelse) if cond is not None else None
    if arguments is None:
        return None
    torch, _ = torch_name(ctx)
    if torch is None:
        return None  # no hard torch import of its own to lean on: adding one could break the module
    start = ctx.start(node)
    spec = ("expr", start.row, start.column - 1, tuple(arguments))
    edits = [ctx.replace(node, f"{torch.name}.where({', '.join(arguments)})")]
    # A comment between the parts of the expression goes above the statement that holds it.
    inner = comments_in(f"({ctx.segment(node)})")
    if inner is None:
        return None
    moved = minus(inner, _argument_comments(arguments))
    statement = ctx.statement
    if moved and statement is not None:
        line = ctx.file.lines[statement.lineno - 1]
        indent = line[: len(line) - len(line.lstrip())]
        edits.insert(0, Edit(Location(statement.lineno, 1), Location(statement.lineno, 1),
                             "".join(f"{indent}{c}\n" for c in moved)))
    return Fix(message=WHERE_MESSAGE, applicability="unsafe", edits=tuple(edits), imports=torch_imports(ctx),
               transform=Transform(branch_rewriter, branch_key(ctx, torch), frozenset({start.row}), spec))
