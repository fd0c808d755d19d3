"""Fixes made with LibCST: the compile guard around side-effect statements, and added imports.

Detection reads the stdlib `ast` (about 5x faster to parse than LibCST); a file is parsed with
LibCST only when it has a fix to apply. LibCST keeps every byte it does not change: comments,
blank lines, and the relative indentation of a multi-line statement that moves into a new block.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

from ..model import Fix


class _GuardStatements(cst.CSTTransformer):
    """Wrap the statements that start on `rows` in `if not <torch>.compiler.is_compiling():`;
    neighbours in one block share one `if`. `torch_name` is how the module names torch (`th` after
    `import torch as th`); where the file may rebind that name, ScopedGuardStatements checks with
    LibCST's scope metadata that it means the module-level torch where each statement runs (a local
    `torch = ...` shadows it: left alone).
    With `add_import`, the module binds no `torch` yet and the caller adds `import torch`."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, rows: frozenset, torch_name: str, add_import: bool = False):
        super().__init__()
        self.rows = rows
        self.torch_name = torch_name
        self.add_import = add_import
        self.done: set[int] = set()
        self._module: Optional[cst.Module] = None

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def _row(self, stmt: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, stmt).start.line

    def _wanted(self, stmt: cst.BaseStatement) -> bool:
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 \
                or not isinstance(stmt.body[0], cst.Expr) or self._row(stmt) not in self.rows:
            return False
        if "\\\n" in self._module.code_for_node(stmt).replace("\r\n", "\n"):
            return False  # a backslash continuation keeps its absolute indentation: would misalign
        return self._means_torch(stmt.body[0])

    def _means_torch(self, node: cst.CSTNode) -> bool:
        raise NotImplementedError

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        body: list[cst.BaseStatement] = []
        run: list[cst.BaseStatement] = []
        for before, after in zip(original.body, updated.body):
            if self._wanted(before):
                self.done.add(self._row(before))
                run.append(after)
                continue
            body.extend(self._guard(run))
            run = []
            body.append(after)
        body.extend(self._guard(run))
        if not self.done.intersection(self._row(s) for s in original.body):
            return updated
        return updated.with_changes(body=body)

    def _guard(self, run: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        if not run:
            return []
        first = run[0]
        # Comments and blank lines above the first statement stay where they were, above the `if`.
        inner = [first.with_changes(leading_lines=()), *run[1:]]
        test = cst.parse_expression(f"not {self.torch_name}.compiler.is_compiling()")
        return [cst.If(test=test, body=cst.IndentedBlock(body=inner), leading_lines=first.leading_lines)]


# Two siblings, not a class and its subclass: LibCST caches a class's metadata dependencies on the
# class, and a subclass would read its parent's cache (libcst 1.9, get_inherited_dependencies).
class GuardStatements(_GuardStatements):
    """For a file whose ast shows that nothing rebinds the torch name (fix/rewrite.py,
    torch_never_rebound): every use means the module's torch."""

    def _means_torch(self, node: cst.CSTNode) -> bool:
        return True


class ScopedGuardStatements(_GuardStatements):
    """GuardStatements for a file that rebinds the torch name somewhere: LibCST's scope metadata says
    what the name means where each statement runs. Resolving scopes is most of the transform's time,
    so a file whose ast shows no rebinding (fix/rewrite.py, torch_never_rebound) skips it."""

    METADATA_DEPENDENCIES = (ScopeProvider,)

    def _means_torch(self, node: cst.CSTNode) -> bool:
        return scope_means_torch(self, node)


def scope_means_torch(transformer, node: cst.CSTNode) -> bool:
    """Whether `transformer.torch_name` at `node` is the module's torch, by LibCST's scope metadata
    (the transformer declares ScopeProvider). When `import torch` is being added, nothing else may
    be bound to that name there."""
    scope = transformer.get_metadata(ScopeProvider, node, None)
    if scope is None:
        return False
    names = scope.get_qualified_names_for(transformer.torch_name)
    if transformer.add_import:
        return not names and transformer.torch_name not in scope
    return bool(names) and all(q.name == "torch" for q in names)


def apply_transforms(source: str, fixes: list[Fix]) -> tuple[str, list[Fix]]:
    """Run the LibCST transform of one group of `fixes` (those sharing a factory and a key, so that
    neighbours merge); return the text and the fixes it applied. Rows are those of the text the
    fixes were found in: a second group would find them moved by the first, so it waits for the
    next round of the fix loop, which re-lints and finds it again at its new place."""
    groups: dict[tuple, list[Fix]] = {}
    for fix in sorted(fixes, key=lambda f: min(f.transform.rows, default=0)):
        groups.setdefault((fix.transform.factory, fix.transform.key), []).append(fix)
    if not groups:
        return source, []
    try:
        module = cst.parse_module(source)
    except Exception:  # LibCST's ParserSyntaxError, or syntax newer than it knows: no change
        return source, []
    for (factory, key), group in groups.items():
        rows = frozenset(row for fix in group for row in fix.transform.rows)
        specs = [fix.transform.spec for fix in group if fix.transform.spec]
        transformer = factory(rows, *key, specs=specs) if specs else factory(rows, *key)
        # The module was parsed here and nothing mutates a LibCST node: no defensive deep copy
        # (a tenth of the transform's time).
        changed = MetadataWrapper(module, unsafe_skip_copy=True).visit(transformer)
        if specs:
            applied = [f for f in group if f.transform.spec in transformer.done_specs]
        else:
            done = set(getattr(transformer, "done", rows))
            applied = [f for f in group if f.transform.rows <= done]
        if applied:
            return changed.code, applied
    return source, []


def add_imports(source: str, modules: list[str]) -> str:
    """`import X` for each module, placed by LibCST's AddImportsVisitor (after the module's
    docstring, `__future__` imports and its leading import block), or the source unchanged if
    LibCST cannot parse it."""
    try:
        module = cst.parse_module(source)
    except Exception:
        return source
    rest = []
    for name in modules:
        placed = _into_import_group(module, name)
        if placed is None:
            rest.append(name)
        else:
            module = placed
    if rest:
        context = CodemodContext()
        for name in rest:
            AddImportsVisitor.add_needed_import(context, name)
        module = AddImportsVisitor(context).transform_module(module)
    return module.code


def _imports_module(stmt: cst.CSTNode, name: str) -> bool:
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    if isinstance(small, cst.Import):
        return any(_dotted(a.name).split(".")[0] == name for a in small.names)
    if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
        return _dotted(small.module).split(".")[0] == name
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


def _sort_key(stmt: cst.CSTNode) -> Optional[tuple]:
    """isort's (and ruff's) default order inside a section: `import x` lines, then `from x import`."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Import):
        return (0, _dotted(small.names[0].name).lower())
    if isinstance(small, cst.ImportFrom):
        dots = "." * len(small.relative)
        return (1, dots + (_dotted(small.module).lower() if small.module is not None else ""))
    return None


def _into_import_group(module: cst.Module, name: str) -> Optional[cst.Module]:
    """`import torch` into the group of module-level imports (lines without a blank between them)
    that already imports from torch, at its sorted place; None when no such group exists."""
    body = list(module.body)
    home = next((i for i, s in enumerate(body) if _imports_module(s, name)), None)
    if home is None:
        return None
    start = home
    while start > 0 and _sort_key(body[start - 1]) is not None and not body[start].leading_lines:
        start -= 1
    end = home + 1
    while end < len(body) and _sort_key(body[end]) is not None and not body[end].leading_lines:
        end += 1
    key = (0, name.lower())
    at = next((i for i in range(start, end) if _sort_key(body[i]) > key), end)
    new = cst.parse_statement(f"import {name}{module.default_newline}")
    if at == start:
        new = new.with_changes(leading_lines=body[at].leading_lines)
        body[at] = body[at].with_changes(leading_lines=())
    body.insert(at, new)
    return module.with_changes(body=body)
