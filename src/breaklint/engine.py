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

from .astwalk import children, walk
from .compiling import compile_test_kind, operands_evaluated_when_compiling
from .model import Edit, FileError, Finding, Fix, Location
from .files import read_source, read_source_with_encoding  # noqa: F401 - callers import them from here
from .names import ImportMap
from .rules import Rule
from .scope import ModuleScopes, Scope, ScopeSettings
from .project import FileContext
from .summary import ModuleSummary, summarize
from .filefacts import FileFacts
from .tensors import TensorEnv

NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]+(?:\s*,\s*[A-Za-z]+[0-9]+)*))?", re.IGNORECASE)
FILE_NOQA = re.compile(r"^\s*#\s*breaklint:\s*noqa\b", re.IGNORECASE | re.MULTILINE)

# Node types without children worth walking.
_LEAVES = frozenset({ast.Name, ast.Constant})
# Context managers Dynamo traces through: a break inside them is one split, not a frame skip.
TORCH_CONTEXT_MANAGERS = (
    "torch.no_grad", "torch.enable_grad", "torch.set_grad_enabled", "torch.inference_mode",
    "torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast",
    "contextlib.nullcontext", "torch.nn.attention.sdpa_kernel", "torch.backends.cuda.sdp_kernel",
    "torch.autograd.profiler.record_function", "torch.profiler.record_function",
    "torch.random.fork_rng", "torch.device",
)


@dataclass
class LintSettings:
    rules: list[Rule] = field(default_factory=list)
    scope: ScopeSettings = field(default_factory=ScopeSettings)


@dataclass
class FileInfo:
    path: str
    source: str
    lines: list[str]
    tree: ast.Module
    imports: ImportMap
    scopes: ModuleScopes


class NodeContext:
    """What a rule sees while it looks at one node inside a traced function."""

    def __init__(self, file: FileInfo, linter: "FileLinter"):
        self.file = file
        self._linter = linter
        self.scope: Optional[Scope] = None
        self.env: Optional[TensorEnv] = None
        self.parents: list[ast.AST] = []
        self.node: Optional[ast.AST] = None  # the node the rules are looking at
        self.loop_depth = 0
        self.user_with_depth = 0
        self.rule: Optional[Rule] = None
        # id(node) -> its qualified name: most rules qualify every call they see (BENCHMARKS.md).
        self._qualified: dict[int, Optional[str]] = {}

    # -- facts ------------------------------------------------------------------------------------
    def is_tensor(self, node: ast.AST) -> bool:
        if self.env is None or not self.env.is_tensor(node):
            return False
        narrowed = narrowed_non_tensors(self.parents, self.node or node, self.scope.func, self.qualify)
        if narrowed:
            names = [n for n in walk(node) if isinstance(n, ast.Name)]
            used = {n.id for n in names if n.id in narrowed}
            # `adj_t = edge_index` under `isinstance(edge_index, SparseTensor)`: the alias is narrowed too.
            for name in names:
                if name.id not in narrowed and any(isinstance(value, ast.Name) and value.id in narrowed
                                                   for _, value in self.env.definitions.get(name.id, ())):
                    value = self.env.reaching_value(name)
                    if isinstance(value, ast.Name) and value.id in narrowed:
                        used.add(name.id)
            if used:
                return self.env.is_tensor_without(node, used | narrowed)
        return True

    def is_known_non_tensor(self, node: ast.AST) -> bool:
        return self.env is not None and self.env.is_known_non_tensor(node)

    def qualify(self, node: ast.AST) -> Optional[str]:
        key = id(node)
        try:
            return self._qualified[key]
        except KeyError:
            name = self._qualified[key] = self.file.imports.qualify(node)
            return name

    @property
    def parent(self) -> Optional[ast.AST]:
        return self.parents[-1] if self.parents else None

    @property
    def statement(self) -> Optional[ast.stmt]:
        """The innermost statement that holds the current node."""
        for node in reversed(self.parents):
            if isinstance(node, ast.stmt):
                return node
        return None

    @property
    def frame_skip(self) -> bool:
        return self.loop_depth > 0 or self.user_with_depth > 0

    @property
    def in_forward(self) -> bool:
        return self.scope is not None and self.scope.func.name == "forward" and self.scope.cls is not None

    def segment(self, node: ast.AST) -> str:
        """The node's original text. ast.get_source_segment re-splits the whole file on every call
        (a quarter of the lint time on large files); the lines are already split here."""
        lines = self.file.lines
        first, last = node.lineno - 1, node.end_lineno - 1
        if not (0 <= first <= last < len(lines)):
            return ast.unparse(node)
        if first == last:
            return _byte_slice(lines[first], node.col_offset, node.end_col_offset)
        parts = [_byte_slice(lines[first], node.col_offset, None)]
        parts.extend(lines[first + 1:last])
        parts.append(_byte_slice(lines[last], 0, node.end_col_offset))
        return "\n".join(parts)

    # -- positions ---------------------------------------------------------------------------------
    def start(self, node: ast.AST) -> Location:
        return Location(node.lineno, self._char_col(node.lineno, node.col_offset) + 1)

    def end(self, node: ast.AST) -> Location:
        return Location(node.end_lineno, self._char_col(node.end_lineno, node.end_col_offset) + 1)

    def _char_col(self, row: int, byte_col: int) -> int:
        line = self.file.lines[row - 1] if 0 < row <= len(self.file.lines) else ""
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def replace(self, node: ast.AST, content: str) -> Edit:
        return Edit(self.start(node), self.end(node), content)

    # -- reporting -----------------------------------------------------------------------------------
    def report(self, node: ast.AST, message: str, fix: Optional[Fix] = None) -> None:
        rule = self.rule
        chain = self.scope.chain if self.scope else ()
        text = message
        if len(chain) > 1:
            text += f" (called from {' -> '.join(chain[:-1])})"
        if self.frame_skip:
            where = "a loop" if self.loop_depth else "a user-defined context manager"
            gb = "GB7000" if self.loop_depth else "GB0066"
            text += f"; inside {where}, so Dynamo skips the whole frame ({gb})"
        self._linter.add(Finding(
            code=rule.code, message=text, path=self.file.path, start=self.start(node), end=self.end(node),
            fix=fix, frame_skip=self.frame_skip, gb_ids=tuple(rule.gb_ids), noqa_row=node.lineno, chain=chain,
        ))


class FileLinter:
    def __init__(self, path: str, source: str, settings: LintSettings, context: Optional[FileContext] = None,
                 want_summary: bool = False):
        self.path = path
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
        if FILE_NOQA.search(self.source):
            return []
        tree = ast.parse(self.source, filename=self.path)
        imports = ImportMap(tree)
        scopes = ModuleScopes(tree, imports, self.settings.scope, self.context.entries,
                              may_compile="compile" in self.source)
        if not scopes.scopes and not self.want_summary:
            return []
        # Only a file with traced code gets findings (and needs its lines); most files of a tree
        # are linted for their summary alone.
        lines = source_lines(self.source) if scopes.scopes else []
        file = FileInfo(self.path, self.source, lines, tree, imports, scopes)
        dispatch: dict[type, list[Rule]] = {}
        for rule in self.settings.rules:
            for node_type in rule.node_types:
                dispatch.setdefault(node_type, []).append(rule)
        facts = FileFacts(scopes, imports, self.context)
        try:
            if self.want_summary:
                self.summary = summarize(scopes, imports, facts.env_named, facts.return_kind)
            if not dispatch:
                return []
            ctx = NodeContext(file, self)
            for scope in scopes.scopes.values():
                ctx.scope = scope
                ctx.env = facts.env_of(scope)
                self._walk_body(scope.func.body, ctx, dispatch)
        finally:
            facts.close()
        return self._apply_noqa(lines)

    # -- the walk -------------------------------------------------------------------------------------
    def _walk_body(self, body: Iterable[ast.AST], ctx: NodeContext, dispatch) -> None:
        for node in body:
            self._visit(node, ctx, dispatch)

    def _visit(self, node: ast.AST, ctx: NodeContext, dispatch) -> None:
        node_type = type(node)
        if node_type is ast.ClassDef:
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
            self._walk_body(node.items, ctx, dispatch)
            ctx.user_with_depth += user
            self._walk_body(node.body, ctx, dispatch)
            ctx.user_with_depth -= user
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

    def _is_user_context(self, expr: ast.AST, ctx: NodeContext) -> bool:
        target = expr.func if isinstance(expr, ast.Call) else expr
        name = ctx.qualify(target) or ""
        if name.startswith(TORCH_CONTEXT_MANAGERS) or name.startswith("torch."):
            return False
        # Only what is defined in this file is surely user code; an unknown import may be torch's.
        local = name.split(".")[0]
        return local in ctx.file.scopes.classes or local in ctx.file.scopes.functions

    # -- suppression ----------------------------------------------------------------------------------------
    def _apply_noqa(self, lines: list[str]) -> list[Finding]:
        kept = []
        for finding in self.findings:
            if self._suppressed(finding, lines):
                self.suppressed += 1
            else:
                kept.append(finding)
        return kept

    @staticmethod
    def _suppressed(finding: Finding, lines: list[str]) -> bool:
        for row in {finding.start.row, finding.end.row}:
            if not (0 < row <= len(lines)) or "noqa" not in lines[row - 1].lower():
                continue
            match = NOQA.search(lines[row - 1])
            if match is None:
                continue
            codes = match.group("codes")
            if codes is None:
                return True
            wanted = {c.strip().upper() for c in codes.split(",")}
            if finding.code in wanted:
                return True
        return False


_NON_TENSOR_TYPES = {"int", "float", "bool", "str", "list", "tuple", "dict", "set", "complex", "bytes",
                     "numbers.Number", "numbers.Real", "numbers.Integral"}


# Sparse containers of other libraries (torch_sparse, MinkowskiEngine, spconv) are no torch.Tensor:
# inside `if isinstance(adj, SparseTensor):`, adj.has_value() is a Python bool.
_FOREIGN_TENSOR = re.compile(r"(^|\.)Sparse\w*Tensor$")


def _isinstance_tests(test: ast.AST, qualify) -> list[tuple[str, bool]]:
    """(name, tests for a tensor type) for each `isinstance(name, T)` that must hold for `test`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [t for value in test.values for t in _isinstance_tests(value, qualify)]
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name)):
        return []
    types = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    names = [qualify(t) or "" for t in types]
    if all(n.endswith("Tensor") and not _FOREIGN_TENSOR.search(n) for n in names):
        return [(test.args[0].id, True)]
    if all(n in _NON_TENSOR_TYPES or _FOREIGN_TENSOR.search(n) for n in names):
        return [(test.args[0].id, False)]
    return []


def _terminates(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def narrowed_non_tensors(parents: list[ast.AST], node: ast.AST, func: ast.AST, qualify) -> set[str]:
    """Names that `isinstance` proves are not tensors where `node` stands: inside
    `if isinstance(x, (int, float)):`, in the `else` of `if isinstance(x, Tensor):`, and after an
    `if isinstance(x, Tensor): ... return` in the same block."""
    names: set[str] = set()
    child = node
    for parent in reversed([func] + parents):
        if isinstance(parent, ast.If) and child is not parent.test:
            tests = _isinstance_tests(parent.test, qualify)
            if any(child is stmt for stmt in parent.body):
                names.update(name for name, tensor in tests if not tensor)
            elif len(tests) == 1 and tests[0][1] and any(child is stmt for stmt in parent.orelse):
                names.add(tests[0][0])
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if not isinstance(block, list) or not any(child is stmt for stmt in block):
                continue
            for stmt in block:
                if stmt is child:
                    break
                if isinstance(stmt, ast.If) and not stmt.orelse and _terminates(stmt.body):
                    tests = _isinstance_tests(stmt.test, qualify)
                    if len(tests) == 1 and tests[0][1]:
                        names.add(tests[0][0])
        child = parent
    return names


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _byte_slice(line: str, start: int, end) -> str:
    """Slice a line by ast's UTF-8 byte offsets."""
    if line.isascii():
        return line[start:end]
    return line.encode("utf-8")[start:end].decode("utf-8", errors="replace")


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
          want_summary: bool) -> tuple[list[Finding], FileLinter]:
    linter = FileLinter(os.path.abspath(path), source, settings, context, want_summary)
    findings = linter.run()
    findings.sort(key=Finding.sort_key)
    return findings, linter


def lint_file(path: str, settings: LintSettings, context: Optional[FileContext] = None, want_summary: bool = False
              ) -> tuple[list[Finding], Optional[FileError], int, int, Optional[ModuleSummary]]:
    """(findings, error, lines, suppressed, summary) for one path; errors are returned, never raised.
    The summary (for the cross-file call graph) is made only when asked for."""
    try:
        source = read_source(path)
    except (OSError, ValueError) as exc:
        return [], FileError(os.path.abspath(path), _one_line(exc)), 0, 0, None
    try:
        findings, linter = _lint(source, path, settings, context, want_summary)
    except SyntaxError as exc:
        where = f"line {exc.lineno}" if exc.lineno else "unknown line"
        return [], FileError(os.path.abspath(path), f"syntax error at {where}: {exc.msg}"), 0, 0, None
    except (ValueError, RecursionError) as exc:
        return [], FileError(os.path.abspath(path), f"cannot parse: {_one_line(exc)}"), 0, 0, None
    return findings, None, source.count("\n") + 1, linter.suppressed, linter.summary


def _one_line(exc: BaseException) -> str:
    text = str(exc) if not isinstance(exc, OSError) else (exc.strerror or str(exc))
    return text.splitlines()[0] if text else type(exc).__name__


def check_paths(paths, settings=None, **options):
    """Lint files and folders; see runner.check_paths (kept here as the engine's public entry)."""
    from .runner import check_paths as run

    return run(list(paths), settings, **options)
