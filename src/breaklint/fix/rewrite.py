"""Build fixes as text edits from `ast` nodes, keeping comments and formatting around them."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from ..analysis.astwalk import walk
from ..analysis.names import import_statements
from ..model import Edit, Fix, Location, Transform

if TYPE_CHECKING:
    from ..rules.base import NodeContext

GUARD = "if not torch.compiler.is_compiling():"
MAX_LINE = 88  # ruff's and black's default: a fix must not add a line too long (E501)


def statement_lines(ctx: "NodeContext", stmt: ast.stmt) -> Optional[tuple[str, list[str]]]:
    """The indentation and the full lines of a statement that owns its lines, else None
    (`if x: print(y)` on one line, or `a = 1; print(a)`, cannot be rewritten line-wise)."""
    lines = ctx.file.lines
    first = lines[stmt.lineno - 1]
    last = lines[stmt.end_lineno - 1]
    prefix = first.encode("utf-8")[: stmt.col_offset].decode("utf-8", errors="ignore")
    if prefix.strip():
        return None
    suffix = last.encode("utf-8")[stmt.end_col_offset:].decode("utf-8", errors="ignore").strip()
    if suffix and not suffix.startswith("#"):
        return None
    return prefix, lines[stmt.lineno - 1: stmt.end_lineno]


def indent_unit(indent: str) -> str:
    return "\t" if "\t" in indent else "    "


def _rows_inside_strings(stmt: ast.stmt) -> set[int]:
    """Rows that continue a multi-line string: re-indenting them would change the string."""
    rows: set[int] = set()
    for node in ast.walk(stmt):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and node.end_lineno and node.end_lineno > node.lineno:
            if isinstance(node, ast.JoinedStr) or isinstance(node.value, (str, bytes)):
                rows.update(range(node.lineno + 1, node.end_lineno + 1))
    return rows


def replace_statement(ctx: "NodeContext", stmt: ast.stmt, new_lines: list[str]) -> Optional[Edit]:
    """An edit that swaps the whole lines of `stmt` for `new_lines` (already indented)."""
    if statement_lines(ctx, stmt) is None:
        return None
    last = ctx.file.lines[stmt.end_lineno - 1]
    return Edit(Location(stmt.lineno, 1), Location(stmt.end_lineno, len(last) + 1), "\n".join(new_lines))


@dataclass(frozen=True)
class TorchName:
    """How fixed code may name torch in this module: `name`, plus whether `import torch` must be added
    (the module imports from torch at its top, unconditionally, but binds no name to torch itself)."""

    name: str
    add_import: bool


NO_TORCH = "the module does not import torch, and a guard would make torch a hard dependency"
CONDITIONAL_TORCH = ("the module imports torch only under a condition (try/except ImportError, "
                     "if is_torch_available()), and a guard would make torch a hard dependency")


def torch_name(ctx: "NodeContext") -> tuple[Optional[TorchName], str]:
    """How a fix may name torch here, else (None, why not). Only an import at the module's top level,
    outside any if/try, counts: adding `import torch` to a module that imports torch optionally (a
    tokenizer that works without torch) would break it for users without torch."""
    return ctx.file.memo("torch name", lambda: _torch_name(ctx.file.tree))


def _torch_name(tree: ast.Module) -> tuple[Optional[TorchName], str]:
    found: Optional[TorchName] = None
    imports_torch = False
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "torch" or alias.name.startswith("torch."):
                    imports_torch = True
                    if alias.asname is None or alias.name == "torch":
                        name = alias.asname or "torch"
                        if found is None or found.add_import or name == "torch":
                            found = TorchName(name, False)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and (node.module == "torch" or node.module.startswith("torch.")):
            imports_torch = True
    if found is None and imports_torch:
        found = TorchName("torch", True)
    if found is not None:
        result = (found, "")
    else:
        # An import is a statement: the statement lists hold every one, no expression does.
        anywhere = any(any(a.name == "torch" or a.name.startswith("torch.") for a in n.names)
                       or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "torch"
                       for n in import_statements(tree.body))
        result = (None, CONDITIONAL_TORCH if anywhere else NO_TORCH)
    return result


def torch_never_rebound(ctx: "NodeContext", name: str) -> bool:
    """Nothing in the file binds `name` but module-level `import torch` / `import torch as name`, so
    every use of it means the module's torch. Then a transform need not resolve LibCST's scope
    metadata to check it (more than half of a small file's transform time); otherwise it does."""
    return ctx.file.memo(("torch never rebound", name),
                         lambda: _only_attribute_reads(ctx.file.source, name) or _never_rebound(ctx.file.tree, name))


def _only_attribute_reads(source: str, name: str) -> bool:
    """True when every occurrence of `name` in the text is `name.<attr>` outside an import line, or
    a whole unindented `import name` / `import name.x` line: none of those binds `name` anew, so the
    tree need not be walked (a walk of a large file cost 26 ms, on every file with a guard fix).
    False only means "walk the tree"."""
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", source):
        line_start = source.rfind("\n", 0, match.start()) + 1
        line_end = source.find("\n", match.end())
        line = source[line_start:line_end if line_end != -1 else len(source)]
        after = source[match.end():line_end if line_end != -1 else len(source)]
        words = line.split()
        if ";" in line or "\\" in line:  # several statements, or one split over lines: walk
            return False
        if words[0] == "import":
            # Only a top-level `import torch` or `import torch.x` (no `as`) keeps the module's torch.
            if line[0].isspace() or " as " in line or not re.match(r"(\.\w+)*\s*(,|#|$)", after):
                return False
        elif words[0] == "from":
            # `from torch import nn` / `from torch.nn import x` names a module and binds no `torch`
            # (a `torch` among the imported names is another occurrence, tested on its own)
            module = re.match(r"\s*from\s+", line)
            if line_start + module.end() != match.start():
                return False
        elif re.search(r"\bimport\b", line) or not re.match(r"\s*\.", after):
            return False
    return True


def _never_rebound(tree: ast.Module, name: str) -> bool:
    # Dispatch on the node's exact type (the parser makes no subclasses) over astwalk's walk, which
    # skips expression contexts: the isinstance chain over ast.walk cost 28 ms on a large file.
    top_level = {id(node) for node in tree.body if type(node) is ast.Import}
    for node in walk(tree):
        kind = type(node)
        if kind is ast.Name:
            if node.id == name and type(node.ctx) is not ast.Load:
                return False
        elif kind not in _BINDERS:
            continue
        elif kind is ast.Import or kind is ast.ImportFrom:
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                is_torch = alias.name == "torch" or alias.name.startswith("torch.") and alias.asname is None
                if bound == name and not (id(node) in top_level and is_torch):
                    return False
        elif kind is ast.arg:
            if node.arg == name:
                return False
        elif kind is ast.Global or kind is ast.Nonlocal:
            if name in node.names:
                return False
        elif kind is ast.MatchMapping:
            if node.rest == name:
                return False
        elif node.name == name:  # def, class, except ... as, match capture
            return False
    return True


_BINDERS = frozenset({ast.Import, ast.ImportFrom, ast.arg, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                      ast.Global, ast.Nonlocal, ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping})


def torch_prefix(ctx: "NodeContext") -> str:
    """The name fixed code calls torch by: the module's own (`th`), or `torch` when it is added."""
    torch, _ = torch_name(ctx)
    return torch.name if torch is not None else "torch"


def torch_imports(ctx: "NodeContext") -> tuple[str, ...]:
    torch, _ = torch_name(ctx)
    return ("torch",) if torch is None or torch.add_import else ()


def guard_fix(ctx: "NodeContext", stmt: Optional[ast.stmt], what: str, applicability: str = "safe") -> Optional[Fix]:
    """Wrap a side-effect statement in `if not torch.compiler.is_compiling():` so eager runs keep it
    and Dynamo never sees it. Applied as a LibCST transform (fix/cst.py), which merges neighbours
    into one block; the text edit is what reports show."""
    if stmt is None:
        return None
    torch, _ = torch_name(ctx)
    if torch is None:
        return None
    found = statement_lines(ctx, stmt)
    if found is None:
        return None
    indent, lines = found
    unit = indent_unit(indent)
    in_string = _rows_inside_strings(stmt)
    body = []
    for offset, line in enumerate(lines):
        row = stmt.lineno + offset
        body.append(line if (row in in_string or not line.strip()) else unit + line)
    edit = replace_statement(ctx, stmt, [indent + f"if not {torch.name}.compiler.is_compiling():"] + body)
    if edit is None:
        return None
    return Fix(message=f"Run {what} only when not compiling", applicability=applicability,
               edits=(edit,), imports=("torch",) if torch.add_import else (),
               transform=Transform(guard_transformer, (torch.name, torch.add_import, torch_never_rebound(ctx, torch.name)),
                                   frozenset({stmt.lineno})))


def guard_transformer(rows: frozenset, torch_name: str, add_import: bool, never_rebound: bool = False):
    """The LibCST transformer for guard fixes, imported only when a fix is applied: checking never
    loads LibCST (a module-level function, so that a Fix pickles across the worker pool). Where the
    file may rebind the torch name, LibCST's scope metadata checks each statement."""
    from .cst import GuardStatements, ScopedGuardStatements

    cls = GuardStatements if never_rebound else ScopedGuardStatements
    return cls(rows, torch_name, add_import)


def hoist_transformer(rows: frozenset, specs=()):
    """The LibCST transformer of BL301's fix (a layer built once in __init__), imported only when a
    fix is applied."""
    from .cst_hoist import HoistToInit

    return HoistToInit(rows, specs)


def replace_fix(message: str, applicability: str, edits: "Sequence[Edit]", imports: tuple = ()) -> Fix:
    """A fix that swaps nodes: its edits are the preview (--diff, JSON), and --fix applies them as a
    LibCST transform (fix/cst_replace.py) that keeps the statement's comments and layout."""
    parts = tuple((e.start.row, e.start.column - 1, e.end.row, e.end.column - 1, e.content) for e in edits)
    return Fix(message, applicability, tuple(edits), imports=imports,
               transform=Transform(replace_transformer, (), frozenset(e.start.row for e in edits), ("replace",) + parts))


def replace_transformer(rows: frozenset, specs=()):
    """The LibCST transformer of replace_fix, imported only when a fix is applied."""
    from .cst_replace import ReplaceNodes

    return ReplaceNodes(specs)


def report_with_guard(ctx: "NodeContext", node: ast.Call, message: str, what: str) -> None:
    """Report a side-effect call, with a guard_fix when the call is a whole statement; a call whose
    value is used (`x = f(...)`) is reported without a fix, since guarding it would change the code."""
    parent = ctx.parent
    fix = None
    if isinstance(parent, ast.Expr) and parent.value is node:
        fix = guard_fix(ctx, parent, what)
        torch, why = torch_name(ctx)
        if torch is None:
            message += f" (no fix: {why})"
    ctx.report(node, message, fix)
