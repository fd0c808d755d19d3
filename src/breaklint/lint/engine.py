"""Lint one source text: parse once, find traced scopes, walk them, run the selected rules.

Detection runs on the stdlib `ast` (parsing is about 5x faster than LibCST's, measured in
BENCHMARKS.md); fixes are ruff-style text edits checked by re-parsing, so no CST is built for a
file that needs no fix.
"""
from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

from ..analysis.astwalk import TRY_STATEMENTS, children
from ..analysis.compiling import compile_test_kind, operands_evaluated_when_compiling
from ..model import FileError, FileOutcome, Finding
from ..sources import read_source
from ..versions import DEFAULT_TORCH
from . import notebook
from ..analysis.names import ImportMap
from ..rules import all_rules
from ..rules.base import FileInfo, NodeContext, Rule
from ..analysis.scope import ModuleScopes, ScopeSettings
from ..analysis.project import FileContext, module_name
from ..analysis.summary import ModuleSummary, mark_sparse_arguments, summarize
from ..analysis.built_modules import built_init_effects, is_built_init, sure_finding
from ..analysis.new_objects import constructions, sure_rows
from ..analysis.filefacts import FileFacts
from ..analysis.sparse import may_hold_sparse, sparse_values
from ..analysis.torch_api import TORCH_CONTEXT_MANAGERS, TORCH_VERSION

NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]+(?:\s*,\s*[A-Za-z]+[0-9]+)*))?", re.IGNORECASE)
# breaklint's own comment, which ruff's RUF100 leaves alone (pyright's `# pyright: ignore[rule]` is
# the model): on a line it silences that line; on a `def` line or its decorators, the whole function.
IGNORE = re.compile(r"#\s*breaklint:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
FILE_NOQA = re.compile(r"^\s*#\s*breaklint:\s*noqa\b", re.IGNORECASE | re.MULTILINE)

# Node types without children worth walking.
_LEAVES = frozenset({ast.Name, ast.Constant})


@dataclass
class LintSettings:
    rules: list[Rule] = field(default_factory=list)
    scope: ScopeSettings = field(default_factory=ScopeSettings)
    # The torch whose behaviour a rule with version-dependent sub-patterns reports (--target-torch).
    torch_version: str = DEFAULT_TORCH


_LEAVING = (ast.Return, ast.Raise, ast.Continue, ast.Break)
# Compound statements that may leave when compiled (`if is_compiling(): return`, nested in these).
_MAY_LEAVE = (ast.If, ast.With, ast.AsyncWith, ast.Try)


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _always_leaves(stmt: ast.AST) -> bool:
    """A statement after which the rest of its block is dead: a return/raise/continue/break, or an
    `if` whose branches all end in one."""
    if isinstance(stmt, _LEAVING):
        return True
    if isinstance(stmt, ast.If):
        return bool(stmt.orelse) and _always_leaves(stmt.body[-1]) and _always_leaves(stmt.orelse[-1])
    return False


class FileLinter:
    def __init__(self, path: str, source: str, settings: LintSettings, context: Optional[FileContext] = None,
                 want_summary: bool = False, trees=None):
        self.path = path
        # Where a parsed tree may be kept for the file's next lint in this process (runner.TreeStore):
        # get(path, source) gives what was kept for exactly this text (.tree, .imports, .lines: None
        # until a lint split them), or None; keep(path, source, tree, imports) the same, or None.
        self.trees = trees
        self.source = source
        self.settings = settings
        # What the rest of the tree tells this file (project.py): functions that traced code in
        # other files calls, and imported helpers that return tensors.
        self.context = context or FileContext()
        self.want_summary = want_summary
        self.summary: Optional[ModuleSummary] = None
        self.findings: list[Finding] = []
        self._seen: set[tuple] = set()
        self.suppressed = 0

    def add(self, finding: Finding) -> None:
        key = (finding.code, finding.start, finding.end)
        if key not in self._seen:
            self._seen.add(key)
            self.findings.append(finding)

    def run(self) -> list[Finding]:
        # A kept text passed this test already (it was parsed after it).
        kept = self.trees.get(self.path, self.source) if self.trees is not None else None
        if kept is None and FILE_NOQA.search(self.source):
            return []
        if kept is not None:
            tree, imports = kept.tree, kept.imports
        else:
            tree = ast.parse(self.source, filename=self.path)
            imports = ImportMap(tree, own_root=module_name(self.path)[0].split(".")[0])
            if self.trees is not None:
                kept = self.trees.keep(self.path, self.source, tree, imports)
        scopes = ModuleScopes(tree, imports, self.settings.scope, self.context.entries,
                              may_compile="compile" in self.source)
        if not scopes.scopes and not self.want_summary:
            return []
        # Only a file with traced code gets findings (and needs its lines); most files of a tree
        # are linted for their summary alone.
        lines = []
        if scopes.scopes:
            lines = kept.lines if kept is not None and kept.lines is not None else source_lines(self.source)
            if kept is not None:
                kept.lines = lines
        handed = {qualname: found for qualname, entry in self.context.entries.items()
                  for found in [entry.sparse_parameters()] if found}
        file = FileInfo(self.path, self.source, lines, tree, imports, scopes, self.context.returns_sparse, handed,
                        generic_aliases=self.context.generic_aliases,
                        optional_typeddicts=self.context.optional_typeddicts)
        rules = list(self.settings.rules)
        after = [rule for rule in rules if type(rule).after_file is not Rule.after_file]
        unselected: set[str] = set()
        if after or any(is_built_init(scope) for scope in scopes.scopes.values()):
            # What else breaks decides some findings (BL306, and what a built module's __init__
            # never reaches): every rule runs, and those --select / --ignore leave out are dropped.
            selected = {rule.code for rule in rules}
            # (not a pattern measured not to break: BL303 on 2.13 would look like a break here)
            rules += [rule() for rule in all_rules()
                      if rule.code not in selected and rule.breaks_on(TORCH_VERSION) is not False]
            unselected = {rule.code for rule in rules} - selected
        dispatch: dict[type, list[Rule]] = {}
        for rule in rules:
            for node_type in rule.node_types:
                dispatch.setdefault(node_type, []).append(rule)
            for node_type in rule.file_node_types(file):
                dispatch.setdefault(node_type, []).append(rule)
        facts = FileFacts(scopes, imports, self.context)
        try:
            if self.want_summary:
                self.summary = summarize(scopes, imports, facts.env_named, facts.return_kind, facts.own_tensor_attrs)
                if may_hold_sparse(self.source, bool(self.context.returns_sparse or handed)):
                    sparse = sparse_values(file)
                    self.summary.returns_sparse = frozenset(
                        name for name in scopes.functions if name in scopes.scopes and sparse.returns_sparse(name))
                    mark_sparse_arguments(self.summary, scopes, imports, sparse.is_sparse)
            if not dispatch:
                return []
            ctx = NodeContext(file, self)
            by_scope: dict[str, list[Finding]] = {}
            for scope in scopes.scopes.values():
                ctx.scope = scope
                ctx.env = facts.env_of(scope)
                first = ctx.scope_start = len(self.findings)
                ctx.reset_eager()
                self._walk_body(scope.func.body, ctx, dispatch)
                ctx.reset_eager()  # (the after-file reports come from no walk)
                by_scope[scope.qualname] = self.findings[first:]
            # A module built in traced code whose __init__ breaks runs the rest of it eagerly.
            effects = built_init_effects(scopes, by_scope, self.context.object_breaks, self.context.half_built)
            if effects.dropped:
                self.findings = [f for f in self.findings if id(f) not in effects.dropped]
            for rule in after:
                ctx.rule = rule
                rule.after_file(ctx, effects)
            if self.summary is not None:
                self._summarize_breaks(scopes, by_scope, effects)
        finally:
            facts.close()
        if unselected:
            self.findings = [f for f in self.findings if f.code not in unselected]
        return self._apply_noqa(lines, tree)

    def _summarize_breaks(self, scopes, by_scope: dict, effects) -> None:
        """What the call graph learns once the rules have run (project_breaks.py): each traced
        function's first sure break (a finding with no guard, in a statement that runs on every call),
        the names it calls on every call, those Dynamo runs eagerly, and what those build."""
        dropped = effects.dropped
        breaking, sure_calls = {}, {}
        for qualname, found in by_scope.items():
            func = scopes.scopes[qualname].func
            rows = sure_rows(func)
            hits = [f.start.row for f in found if sure_finding(f) and id(f) not in dropped
                    and f.start.row in rows]
            if hits:
                breaking[qualname] = min(hits)
            names = _called_names(scopes.calls.get(qualname, ()), rows)
            if names:
                sure_calls[qualname] = names
        for call in effects.calls:  # GB0092 is a break of the calling function
            qualname = call.scope.qualname
            if call.guard or call.call.lineno not in sure_rows(call.scope.func):
                continue
            breaking[qualname] = min(breaking.get(qualname, call.call.lineno), call.call.lineno)
        self.summary.breaking = breaking
        self.summary.sure_calls = sure_calls
        self.summary.skipped = dict(effects.skipped)
        self.summary.builds = {qualname: tuple(constructions(scopes.scopes[qualname].func, scopes))
                               for qualname in effects.skipped}

    # -- the walk -------------------------------------------------------------------------------------
    def _walk_body(self, body: Iterable[ast.AST], ctx: NodeContext, dispatch) -> None:
        eager = False  # the rest of this block runs eagerly: only the defs in it are traced (frames of their own)
        for node in body:
            if (eager or ctx.rest_eager) and not isinstance(node, _DEFS):
                continue
            self._visit(node, ctx, dispatch)
            if ctx.block_eager and isinstance(node, ast.stmt):
                ctx.block_eager = False  # the rest of this block runs eagerly where the break comes
                ctx.eager_from = None
                eager = True
                continue
            if _always_leaves(node) or (type(node) in _MAY_LEAVE and self._leaves_when_compiled(node, ctx)):
                break  # what follows never runs: Dynamo never traces it

    def _visit(self, node: ast.AST, ctx: NodeContext, dispatch) -> None:
        node_type = type(node)
        if node_type is ast.ClassDef:
            # a class statement in traced code is one call (BL502); its body is not traced code
            for rule in dispatch.get(node_type, ()):
                ctx.node = node
                ctx.rule = rule
                rule.check(node, ctx)
            return
        if node_type in _DEFS and not ctx.in_nested_def:
            # a nested def is a frame of its own, which Dynamo traces when it is called: a break before it in
            # the enclosing function says nothing of it, nor one in it of what follows it there
            saved = ctx.reset_eager()
            ctx.in_nested_def = True
            try:
                self._visit(node, ctx, dispatch)
            finally:
                ctx.in_nested_def = False
                ctx.restore_eager(saved)
            return
        rules = dispatch.get(node_type)
        if rules:
            ctx.node = node
            for rule in rules:
                ctx.rule = rule
                rule.check(node, ctx)
        if node_type in _LEAVES:
            return
        # No try/finally around the parents stack: an exception ends this file's lint (lint_one).
        ctx.parents.append(node)
        if node_type is ast.If:
            self._visit(node.test, ctx, dispatch)
            traced_body, traced_else = self._traced_branches(node.test, ctx)
            if traced_body:
                self._walk_body(node.body, ctx, dispatch)
            if traced_else:
                self._walk_body(node.orelse, ctx, dispatch)
        elif node_type is ast.For or node_type is ast.AsyncFor or node_type is ast.While:
            head = [node.iter] if node_type is not ast.While else [node.test]
            self._walk_body(head, ctx, dispatch)
            ctx.loop_depth += 1
            self._walk_body(node.body, ctx, dispatch)
            ctx.loop_depth -= 1
            self._walk_body(node.orelse, ctx, dispatch)
        elif node_type is ast.BoolOp:
            # `not torch.compiler.is_compiling() and <check>`: the check never runs when compiled.
            for child in operands_evaluated_when_compiling(node, ctx.qualify):
                self._visit(child, ctx, dispatch)
        elif node_type is ast.With or node_type is ast.AsyncWith:
            user = any(self._is_user_context(item.context_expr, ctx) for item in node.items)
            made = any(self._is_user_context(item.context_expr, ctx, classes_only=True) for item in node.items)
            self._walk_body(node.items, ctx, dispatch)
            ctx.user_with_depth += user
            ctx.user_class_with_depth += made
            self._walk_body(node.body, ctx, dispatch)
            ctx.user_class_with_depth -= made
            ctx.user_with_depth -= user
        elif node_type in TRY_STATEMENTS:
            # each block walked as one: a break in a handler runs the rest of that handler eagerly, not the
            # rest of the block that holds the `try`
            self._walk_body(node.body, ctx, dispatch)
            for handler in node.handlers:
                ctx.parents.append(handler)
                if handler.type is not None:
                    self._visit(handler.type, ctx, dispatch)
                self._walk_body(handler.body, ctx, dispatch)
                ctx.parents.pop()
            self._walk_body(node.orelse, ctx, dispatch)
            self._walk_body(node.finalbody, ctx, dispatch)
        else:
            for child in children(node):
                # Names and constants are half of all nodes: visit them only when a rule wants them.
                if type(child) not in _LEAVES or type(child) in dispatch:
                    self._visit(child, ctx, dispatch)
        ctx.parents.pop()

    def _traced_branches(self, test: ast.AST, ctx: NodeContext) -> tuple[bool, bool]:
        """Which branches of an `if` Dynamo traces: `if not is_compiling():` hides its body."""
        kind = compile_test_kind(test, ctx.qualify)
        if kind == "not_compiling":
            return False, True
        if kind == "compiling":
            return True, False
        return True, True

    def _leaves_when_compiled(self, node: ast.AST, ctx: NodeContext) -> bool:
        """`if torch.jit.is_tracing() or torch.compiler.is_compiling(): return ...`: every branch Dynamo
        takes always leaves, so the rest of the block is never traced. Through `elif`, `with` and a
        `try` whose body leaves too."""
        if _always_leaves(node):
            return True
        if type(node) is ast.If:
            traced_body, traced_else = self._traced_branches(node.test, ctx)
            branches = [b for b, traced in ((node.body, traced_body), (node.orelse, traced_else)) if traced]
            return all(b and self._leaves_when_compiled(b[-1], ctx) for b in branches)
        if type(node) in (ast.With, ast.AsyncWith):
            return bool(node.body) and self._leaves_when_compiled(node.body[-1], ctx)
        if type(node) is ast.Try:
            return bool(node.body) and self._leaves_when_compiled(node.body[-1], ctx) and not node.handlers
        return False

    def _is_user_context(self, expr: ast.AST, ctx: NodeContext, classes_only: bool = False) -> bool:
        """classes_only: a manager this file's class makes (`with Timer():`), not one a function of it may
        return (`def ng(): return torch.no_grad()`: the review of stop 35)."""
        target = expr.func if isinstance(expr, ast.Call) else expr
        name = ctx.qualify(target) or ""
        if name.startswith(TORCH_CONTEXT_MANAGERS) or name.startswith("torch."):
            return False
        # Only what is defined in this file is surely user code; an unknown import may be torch's.
        local = name.split(".")[0]
        return local in ctx.file.scopes.classes or not classes_only and local in ctx.file.scopes.functions

    # -- suppression ----------------------------------------------------------------------------------------
    def _apply_noqa(self, lines: list[str], tree: Optional[ast.AST] = None) -> list[Finding]:
        blocks = _ignored_blocks(tree, lines) if tree is not None and "breaklint" in self.source else []
        kept = []
        for finding in self.findings:
            if self._suppressed(finding, lines) or any(
                    first <= finding.start.row <= last and _covers(codes, finding.code) for first, last, codes in blocks):
                self.suppressed += 1
            else:
                kept.append(finding)
        return kept

    @staticmethod
    def _suppressed(finding: Finding, lines: list[str]) -> bool:
        for row in {finding.start.row, finding.end.row, finding.first_row or finding.start.row}:
            if not (0 < row <= len(lines)):
                continue
            line = lines[row - 1]
            lowered = line.lower()
            if "breaklint" in lowered:
                match = IGNORE.search(line)
                if match is not None and _covers(_codes(match), finding.code):
                    return True
            if "noqa" not in lowered:
                continue
            match = NOQA.search(line)
            if match is None:
                continue
            codes = match.group("codes")
            if codes is None:
                return True
            wanted = {c.strip().upper() for c in codes.split(",")}
            if finding.code in wanted:
                return True
        return False


def _codes(match: re.Match) -> Optional[frozenset[str]]:
    """The codes an ignore comment names; None (every code) when it names none."""
    codes = match.group("codes")
    if codes is None:
        return None
    named = frozenset(c.strip().upper() for c in codes.split(",") if c.strip())
    return named or None


def _covers(codes: Optional[frozenset[str]], code: str) -> bool:
    return codes is None or any(code.startswith(c) for c in codes)


def _ignored_blocks(tree: ast.AST, lines: list[str]) -> list[tuple[int, int, Optional[frozenset[str]]]]:
    """(first row, last row, codes) of each function whose `def` line or decorator lines carry a
    `# breaklint: ignore[...]` comment."""
    blocks = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        header_end = node.body[0].lineno - 1 if node.body else node.lineno
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        for row in range(first, max(header_end, node.lineno) + 1):
            if 0 < row <= len(lines) and "breaklint" in lines[row - 1].lower():
                match = IGNORE.search(lines[row - 1])
                if match is not None:
                    blocks.append((first, node.end_lineno or node.lineno, _codes(match)))
                    break
    return blocks


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(source: str) -> list[str]:
    """Lines as Python numbers them: str.splitlines() also splits at form feeds and other Unicode
    separators, which would shift every row after them."""
    lines = _LINE_BREAK.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def lint_source(source: str, path: str, settings: LintSettings,
                context: Optional[FileContext] = None) -> tuple[list[Finding], int]:
    """Findings for one file, and how many `# noqa` suppressed. Raises SyntaxError/ValueError.
    `context` is what the rest of the tree tells this file (project.py)."""
    findings, linter = _lint(source, path, settings, context, want_summary=False)
    return findings, linter.suppressed


def _lint(source: str, path: str, settings: LintSettings, context: Optional[FileContext],
          want_summary: bool, trees=None) -> tuple[list[Finding], FileLinter]:
    linter = FileLinter(os.path.abspath(path), source, settings, context, want_summary, trees)
    findings = linter.run()
    findings.sort(key=Finding.sort_key)
    return findings, linter


def lint_file(path: str, settings: LintSettings, context: Optional[FileContext] = None, want_summary: bool = False,
              trees=None) -> FileOutcome:
    """One path's outcome; errors are returned, never raised. The summary (for the cross-file call
    graph) is made only when asked for. A notebook's findings carry their cell. `trees` (runner.TreeStore)
    keeps a file's parsed tree for its next lint in this process (the graph rounds lint it again)."""
    book = None
    try:
        if notebook.is_notebook(path):
            # A notebook is no importable module: it takes no part in the call graph.
            with open(path, encoding="utf-8") as handle:
                book = notebook.load(handle.read())
            source, want_summary = book.text, False
        else:
            source = read_source(path)
    except (OSError, ValueError) as exc:
        return FileOutcome(error=FileError(os.path.abspath(path), _one_line(exc)))
    try:
        findings, linter = _lint(source, path, settings, context, want_summary, None if book is not None else trees)
        if book is not None:
            findings = notebook.to_cells(book, findings)
    except SyntaxError as exc:
        where = f"line {exc.lineno}" if exc.lineno else "unknown line"
        return FileOutcome(error=FileError(os.path.abspath(path), f"syntax error at {where}: {exc.msg}"))
    except (ValueError, RecursionError) as exc:
        return FileOutcome(error=FileError(os.path.abspath(path), f"cannot parse: {_one_line(exc)}"))
    return FileOutcome(findings, None, source.count("\n") + 1, linter.suppressed, linter.summary)


def _one_line(exc: BaseException) -> str:
    text = str(exc) if not isinstance(exc, OSError) else (exc.strerror or str(exc))
    return text.splitlines()[0] if text else type(exc).__name__


def _called_names(calls, rows: set) -> frozenset:
    """The names of what a traced function calls (its Call nodes, which the scope search collected) on
    lines that run on every call: `f`, `mod.f`, and `self.m` or `super().m` as `m` (how the call graph
    names those refs)."""
    names = set()
    for node in calls:
        if node.lineno in rows:
            target = node.func
            if isinstance(target, ast.Attribute):
                names.add(target.attr)
            elif isinstance(target, ast.Name):
                names.add(target.id)
    return frozenset(names)
