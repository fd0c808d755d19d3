"""What every rule declares: its code, its Dynamo registry ids, where it breaks, its examples.

A rule is one class in one file (Fixit's style): the node types it looks at, a `check` that reports
through the context, its fix, and VALID / INVALID examples that the test suite runs.
"""
from __future__ import annotations

import ast
import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, ClassVar, Hashable, Literal, Optional, TypeVar

from ..analysis.astwalk import TRY_STATEMENTS, walk
from ..analysis.guards import breaks_when
from ..analysis.names import ImportMap
from ..analysis.narrowing import narrowed_non_tensors, narrowing_inside
from ..analysis.new_objects import sure_rows, walk_outside_defs
from ..analysis.scope import ModuleScopes, Scope, self_parameter
from ..model import Applicability, Edit, Finding, Fix, Location
from ..versions import parse_version

if TYPE_CHECKING:
    from ..analysis.tensors import TensorEnv

FixAvailability = Literal["always", "sometimes", "never"]


@dataclass(frozen=True)
class Example:
    """A whole module. A runnable one defines `factory()` -> (model_or_fn, args[, kwargs])
    so that the verdict tests and `breaklint calibrate` can run it through Dynamo.

    A recompile example (calls > 0) is compiled once and called `calls` times; its module may
    define `inputs(i)` -> (args, kwargs) for call i, else the factory's inputs are reused. Its
    verdict is the number of compiles (confirm/recompiles.py), not graph breaks."""

    code: str
    runnable: bool = True
    # For INVALID examples with a fix: the expected source after `--fix --unsafe-fixes`.
    fixed: Optional[str] = None
    # For INVALID examples, Fixit-style: (row, column) of every finding the rule must report, rows
    # counted in `code` from 1 and columns from 1, as reported. The count is pinned with them.
    at: tuple[tuple[int, int], ...] = ()
    calls: int = 0


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, like ruff's rule names
    summary: ClassVar[str]  # one line for `breaklint rules`
    gb_ids: ClassVar[tuple[str, ...]] = ()
    # As ruff splits them: whether a finding comes with a fix ("always", "sometimes", "never"), and
    # whether the fixes it offers keep what the program computes ("safe": applied by --fix; "unsafe":
    # only with --unsafe-fixes). tests/test_rule_examples.py checks both against the INVALID examples.
    fix_availability: ClassVar[FixAvailability] = "never"
    fix_applicability: ClassVar[Optional[Applicability]] = None
    node_types: ClassVar[tuple[type[ast.AST], ...]] = ()
    # Measured: torch minor version -> does the pattern break the graph there? For a rule whose
    # verdict_kind is "recompiles": does it recompile on every call until Dynamo's recompile limit?
    # For "cudagraphs": does mode="reduce-overhead" skip CUDA graphs (measured on a GPU, not in CI)?
    verdicts: ClassVar[dict[str, bool]] = {}
    verdict_kind: ClassVar[str] = "breaks"
    # What a verdict means, per kind: (short yes, short no) for `breaklint rules` (at most 10
    # characters: the table must fit 80 columns), and the page's
    # long forms, which the facts line follows with "torch <versions>".
    VERDICT_WORDS: ClassVar[dict[str, tuple[str, str, str, str]]] = {
        "breaks": ("breaks", "no break", "breaks on", "no break on"),
        "recompiles": ("recompiles", "stable", "recompiles every call on", "no recompile storm on"),
        "cudagraphs": ("cg skipped", "captured", "skips CUDA graphs on", "captured by CUDA graphs on"),
        "cudagraph-outputs": ("overwrites", "kept", "the next replay overwrites it on",
                              "kept values survive replays on"),
    }
    VALID: ClassVar[list[Example]] = []
    INVALID: ClassVar[list[Example]] = []

    def file_node_types(self, file: "FileInfo") -> tuple[type[ast.AST], ...]:
        """More node types to look at in this file only (BL504 reads every name, but only where sparse
        tensors may be: a name is the commonest node, and a call per name cost 5% of a cold run)."""
        return ()

    def check(self, node: ast.AST, ctx: "NodeContext") -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def after_file(self, ctx: "NodeContext", effects) -> None:
        """Called once every traced function of the file is walked, with what the other findings imply
        there (analysis.built_modules.BuiltInitEffects, computed once by the engine); for a rule that
        depends on what else breaks. The engine calls only the rules that override it."""

    @classmethod
    def breaks_on(cls, version: str) -> Optional[bool]:
        """The verdict for a torch version: the nearest measured version at or below it, else
        the oldest measured one; None when nothing was measured."""
        if not cls.verdicts:
            return None
        target = parse_version(version)
        measured = sorted((parse_version(v), b) for v, b in cls.verdicts.items())
        verdict = measured[0][1]
        for v, b in measured:
            if v <= target:
                verdict = b
        return verdict

    @classmethod
    def verdict_word(cls, verdict: Optional[bool]) -> str:
        """The `breaklint rules` column: what a verdict means for this rule's kind."""
        if verdict is None:
            return "unmeasured"
        yes, no = cls.VERDICT_WORDS[cls.verdict_kind][:2]
        return yes if verdict else no

    @classmethod
    def url(cls) -> str:
        return f"https://breaklint.dev/rules/{cls.code}"


T = TypeVar("T")


@dataclass
class FileInfo:
    path: str
    source: str
    lines: list[str]
    tree: ast.Module
    imports: ImportMap
    scopes: ModuleScopes
    # Dotted names (as this file spells them) the call graph says return a sparse tensor.
    returns_sparse: frozenset = frozenset()
    # Traced functions of this file whose callers in other files hand a sparse tensor: qualname -> positions.
    sparse_parameters: dict = field(default_factory=dict)
    # Names this file imports that another file binds to a builtin generic alias, or that name a TypedDict
    # with optional keys of another file (analysis/type_facts.py).
    generic_aliases: frozenset = frozenset()
    optional_typeddicts: frozenset = frozenset()
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: Hashable, factory: Callable[[], T]) -> T:
        """What `factory()` gives, computed once per file: rules keep per-file facts here (key them by
        rule code, and by id(node) for per-node facts: the file holds its tree, so no id is reused
        while the memo lives) instead of on the rule object or on AST nodes."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = factory()
            return value


_OWN_FRAMES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


class NodeContext:
    """What a rule sees while it looks at one node inside a traced function."""

    def __init__(self, file: FileInfo, linter):
        # linter: the engine's FileLinter; the context only calls its add(finding).
        self.file = file
        self._linter = linter
        self.scope: Optional[Scope] = None
        self.env: Optional["TensorEnv"] = None
        self.parents: list[ast.AST] = []
        self.node: Optional[ast.AST] = None  # the node the rules are looking at
        self.loop_depth = 0
        self.user_with_depth = 0
        self.user_class_with_depth = 0  # inside a `with` of a manager this file's class makes
        self.rule: Optional[Rule] = None
        self.scope_start = 0  # the index of the current scope's first finding in the linter's list
        # Set by a break after which Dynamo runs the rest of the function eagerly: the walk of the function
        # stops there (`rest_eager`: the break comes on every call), or the walk of the block that holds
        # it (`block_eager`: it comes whenever that block runs).
        self.rest_eager = False
        self.block_eager = False
        self.eager_from: Optional[tuple[int, int]] = None  # where, until the statement's walk ends
        self.in_nested_def = False  # (a def inside a nested def shares its state: one level is enough)
        # id(node) -> its qualified name: most rules qualify every call they see (BENCHMARKS.md).
        self._qualified: dict[int, Optional[str]] = {}

    @property
    def torch_version(self) -> str:
        """The torch the run judges against (--target-torch): for sub-patterns that break on some
        versions only."""
        return self._linter.settings.torch_version

    # -- facts ------------------------------------------------------------------------------------
    def is_tensor(self, node: ast.AST) -> bool:
        if self.env is None or not self.env.is_tensor(node):
            return False
        narrowed = narrowed_non_tensors(self.parents, self.node or node, self.scope.func, self.qualify)
        if self.node is not None and node is not self.node:
            # `if isinstance(adj, SparseTensor) and not adj.has_value():` judged from the `if`.
            root = self.node
            inside = self.file.memo(("narrowing inside", id(root)), lambda: narrowing_inside(root, self.qualify))
            if id(node) in inside:
                narrowed = narrowed | inside[id(node)]
        if narrowed:
            names = [n for n in walk(node) if isinstance(n, ast.Name)]
            used = {n.id for n in names if n.id in narrowed}
            # `adj_t = edge_index` under `isinstance(edge_index, SparseTensor)`: the alias is narrowed too.
            for name in names:
                if name.id not in narrowed and any(isinstance(value, ast.Name) and value.id in narrowed
                                                   for _, value in self.env.definitions.get(name.id, ())):
                    value = self.reaching_value(name)
                    if isinstance(value, ast.Name) and value.id in narrowed:
                        used.add(name.id)
            if used:
                return self.env.is_tensor_without(node, used | narrowed)
        return True

    def is_known_non_tensor(self, node: ast.AST) -> bool:
        return self.env is not None and self.env.is_known_non_tensor(node)

    def sized_by_name(self, node: ast.AST) -> bool:
        return self.env is not None and self.env.sized_by_name(node)

    def is_traced_numpy(self, node: ast.AST) -> bool:
        """A numpy function's result over a tensor, a whole shape (`np.prod(x.shape[1:])`) or a sequence
        display, or a name only ever bound to one: Dynamo traces it as a tensor, so int() of it reads its
        value (measured on 2.13: GB0033). numpy over one Python number (`np.sqrt(x.shape[-1])`) is a
        constant to Dynamo and is not one."""
        values = [node]
        if isinstance(node, ast.Name):
            values = [value for _, value in self.env.definitions.get(node.id, ())] if self.env is not None else []
        return bool(values) and all(self._numpy_call_over_traced(v) for v in values)

    def _numpy_call_over_traced(self, value: ast.AST) -> bool:
        if not isinstance(value, ast.Call):
            return False
        qual = self.qualify(value.func) or ""
        if not qual.startswith("numpy.") or qual.startswith("numpy.random."):
            return False
        return any(self._tensor_shape(arg) or self.is_tensor(arg) for arg in value.args)

    @staticmethod
    def _tensor_shape(node: ast.AST) -> bool:
        """`x.shape`, `x.shape[1:]`, `x.size()`, or a tuple / list display: a sequence of ints, which numpy
        turns into an array, a tensor to Dynamo (the review of stop 27 measured `int(np.prod(a.shape))`
        of a numpy array passed in, and of a tuple, breaking too)."""
        if isinstance(node, (ast.Tuple, ast.List)):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            node = node.value
        if isinstance(node, ast.Attribute):
            return node.attr == "shape"
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
            and not node.args and not node.keywords

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

    def _return_follows(self, node: ast.AST) -> bool:
        """A `return` after `node` in the body of the innermost loop that holds it."""
        loop = next((p for p in reversed(self.parents) if isinstance(p, (ast.For, ast.AsyncFor, ast.While))), None)
        if loop is None:
            return False
        row = getattr(node, "lineno", 0)
        return any(isinstance(n, ast.Return) and n.lineno > row for stmt in loop.body for n in walk_outside_defs(stmt))

    def _in_try_body(self, node: ast.AST) -> bool:
        """`node` in the body of a `try` (not a handler, `else` or `finally`): Dynamo cannot resume after a
        break there (measured on 2.13: "Failed to handle graph break gracefully", the frame runs eagerly)."""
        child = node
        for parent in reversed(self.parents):
            if isinstance(parent, _OWN_FRAMES):
                return False
            if isinstance(parent, TRY_STATEMENTS) and any(child is stmt for stmt in parent.body):
                return True
            child = parent
        return False

    def _never_own_frame(self) -> bool:
        """Dynamo never compiles the traced function as a frame of its own: inlined into a traced caller, a
        break in it makes the caller break at the call, and the function then runs eagerly whole, so nothing
        after its first break is traced (measured on 2.13). So it is for a function of torch's own tree (on
        Dynamo's skip list), and for one whose frame holds no tensor: a method of a plain class taking only
        `self`, whose code names no torch or numpy module ("no tensor-related objects found in frame")."""
        scope = self.scope
        return self.file.memo(("never own frame", id(scope.func)), lambda: self.file.imports.own_root == "torch"
                              or _tensorless_frame(scope, self.file.scopes, self.file.imports))

    def _in_assignment_target(self, node: ast.AST) -> bool:
        statement = self.statement
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else []
        return any(node is n for target in targets for n in ast.walk(target))

    def _statement_guard(self, node: ast.AST) -> Optional[str]:
        """The condition under which `node` runs when its statement does (`a if c else x[:k]`), not counting
        the blocks around the statement."""
        inner = [i for i, parent in enumerate(self.parents) if isinstance(parent, ast.stmt)]
        parents = self.parents[inner[-1]:] if inner else self.parents
        return breaks_when(node, parents, self.is_tensor, self.segment, self.qualify)

    def reset_eager(self) -> tuple:
        """Clear what an earlier break said of the rest of the walk (a new function, or a def nested in one, a
        frame of its own); returns the state it cleared, for restore_eager."""
        saved = self.rest_eager, self.block_eager, self.eager_from
        self.rest_eager, self.block_eager, self.eager_from = False, False, None
        return saved

    def restore_eager(self, saved: tuple) -> None:
        self.rest_eager, self.block_eager, self.eager_from = saved

    def scope_findings(self) -> list:
        """The findings of the current traced function so far (those of the nodes before this one)."""
        return self._linter.findings[self.scope_start:]

    @contextlib.contextmanager
    def elsewhere(self):
        """Report at a node of the function away from the current one (an earlier statement): none of
        the current node's surroundings (its branches, loops and `with`s) apply there."""
        saved = self.parents, self.node, self.loop_depth, self.user_with_depth, self.user_class_with_depth
        self.parents, self.node, self.loop_depth, self.user_with_depth, self.user_class_with_depth = [], None, 0, 0, 0
        try:
            yield
        finally:
            self.parents, self.node, self.loop_depth, self.user_with_depth, self.user_class_with_depth = saved

    @property
    def frame_skip(self) -> bool:
        return self.loop_depth > 0 or self.user_with_depth > 0

    @property
    def built_class(self) -> Optional[str]:
        """The class whose __init__ this traced scope is: it is traced because traced code builds one."""
        scope = self.scope
        if scope is not None and scope.cls is not None and scope.func.name == "__init__":
            return scope.cls.name
        return None

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

    def call_site(self, node: ast.AST) -> Location:
        """Where Dynamo reports a break at this node. CPython (3.11+) puts the instructions of a method
        call that spans lines on the line of the method's name (measured: `(x\n .sum()\n .item())`
        breaks on the `.item()` line), so a finding there starts at the name, where `# noqa` goes."""
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(func, ast.Attribute) and func.end_lineno != node.lineno and self._method_call(node):
            column = self._char_col(func.end_lineno, func.end_col_offset) - len(func.attr)
            return Location(func.end_lineno, column + 1)
        return self.start(node)

    def _method_call(self, node: ast.Call) -> bool:
        """Whether CPython compiles the call as a method call (LOAD_METHOD), the only kind it moves to
        the method's line: not on a name the module imports (`(torch\n .nonzero(x))` stays on the
        `torch` line, measured), nor with `*args` / `**kwargs`, nor with 30 arguments or more."""
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and receiver.id in self.file.memo("top-level imports", self._top_imports):
            return False
        if any(isinstance(arg, ast.Starred) for arg in node.args) or any(kw.arg is None for kw in node.keywords):
            return False
        return len(node.args) + len(node.keywords) + bool(node.keywords) < 30

    def _top_imports(self) -> frozenset:
        """Names an import binds at module level (in ifs and trys too), as the compiler's module scope has them."""
        names, stack = set(), list(self.file.tree.body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
            elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                stack.extend(stmt.body + stmt.orelse + getattr(stmt, "finalbody", [])
                             + [s for h in getattr(stmt, "handlers", []) for s in h.body])
        return frozenset(names)

    def moved_to(self, site: ast.AST, part: ast.AST) -> Optional[ast.AST]:
        """`site` when Dynamo reports `part` of it on another row (an argument on its own line: the
        call's row), else None: the finding keeps `part`'s own column."""
        return site if self.call_site(site).row != part.lineno else None

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
    def reaching_value(self, name: ast.Name) -> Optional[ast.AST]:
        """The value of the plain assignment that surely reaches this use of a local name (flow.py),
        else None."""
        value = self.env.reaching_value(name) if self.env is not None else None
        return value if isinstance(value, ast.AST) else None

    def report(self, node: ast.AST, message: str, fix: Optional[Fix] = None,
               start_node: Optional[ast.AST] = None, guard: Optional[str] = None, rest_eager: bool = False) -> None:
        """start_node: where the finding starts when that is not `node` (an `if (` whose test starts on
        the next line: Dynamo reports the `if` line). guard: the condition it breaks under, when the
        node's own surroundings do not say it (a break that follows from another finding's). rest_eager:
        Dynamo cannot resume after this break and runs the rest of the function eagerly: where it breaks
        on every call, nothing after it is traced, and the walk of the function stops."""
        rule = self.rule
        chain = self.scope.chain if self.scope else ()
        text = message
        guard = guard or (breaks_when(node, self.parents, self.is_tensor, self.segment, self.qualify)
                          if self.scope is not None else None)
        if guard:
            text += f"; breaks when `{guard}`"
        if len(chain) > 1:
            text += f" (called from {' -> '.join(chain[:-1])})"
        if self.frame_skip:
            where = "a loop" if self.loop_depth else "a user-defined context manager"
            gb = "GB7000" if self.loop_depth else "GB0066"
            text += f"; inside {where}, so Dynamo skips the whole frame ({gb})"
        start = self.call_site(start_node or node)
        if self.eager_from is not None and (start.row, start.column) > self.eager_from:
            return  # later in the statement whose break runs the rest eagerly: never traced
        # A break inside a loop skips the frame (GB7000): what follows runs eagerly too, unless a `return`
        # follows it in the loop's body (Dynamo looks for the loop's backward jump up to the first return, and
        # resumes when it meets the return first: the review of stop 35); so does one inside the `with` of a
        # manager this file's class makes (GB0066; not one a function returns, which may be torch's), and one
        # in the body of a `try`.
        # (A comprehension or a lambda is a frame of its own: Dynamo inlines it and resumes in this one.)
        rest_eager = (rest_eager or self.loop_depth > 0 and not self._return_follows(node)
                      or self.user_class_with_depth > 0 or self._in_try_body(node)
                      or self.scope is not None and self._never_own_frame()) and bool(rule.gb_ids)
        if rest_eager and self.scope is not None and not any(isinstance(p, _OWN_FRAMES) for p in self.parents):
            if not guard and start.row in sure_rows(self.scope.func):
                self.rest_eager = True
            elif self.node is not None and not self._statement_guard(node):
                self.block_eager = True
            if (self.rest_eager or self.block_eager) and not self._in_assignment_target(node):
                # (a target is evaluated after the value: what the value holds was traced first)
                self.eager_from = (start.row, start.column)
        self._linter.add(Finding(
            code=rule.code, message=text, path=self.file.path, start=start,
            end=self.end(node), fix=fix, frame_skip=self.frame_skip, gb_ids=tuple(rule.gb_ids),
            noqa_row=start.row, chain=chain,
            breaks_when=guard, first_row=(start_node or node).lineno,
        ))


def _tensorless_frame(scope, scopes, imports) -> bool:
    """A method of a plain class (its bases, to any depth, classes of this file or `object`), with `self` its
    only parameter, whose code names nothing of torch or numpy: Dynamo's has_tensor_in_frame() finds no
    tensor in the frame (an object's attributes are not looked into) and skips it. Its code's names are
    attribute names too (`self.nn` with `nn` imported from torch: the frame is compiled)."""
    cls, func = scope.cls, scope.func
    args = func.args
    if cls is None or isinstance(func, ast.Lambda) or args.vararg or args.kwarg \
            or args.kwonlyargs or len(args.posonlyargs + args.args) != 1 or func.decorator_list and not all(
                isinstance(d, ast.Name) and d.id == "property" for d in func.decorator_list) \
            or not _plain_class(cls, scopes):
        return False
    for node in walk_outside_defs(func, root=True):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name is not None and imports.is_bound(name) \
                and imports.aliases[name].split(".")[0] in ("torch", "numpy"):
            return False
    return True


def _plain_class(cls, scopes, depth: int = 0) -> bool:
    """No nn.Module, named tuple or class of another file among its bases: a class of another file may be a
    module (the file's own module detection sees only its own), so it is not taken for plain."""
    if cls.is_module or depth > 8:
        return False
    for base, node in zip(cls.bases, cls.node.bases):
        local = scopes.classes.get(node.id) if isinstance(node, ast.Name) else None
        if base in ("object", "abc.ABC", "typing.Generic"):
            continue
        if local is None or local is cls or not _plain_class(local, scopes, depth + 1):
            return False
    return True


def held_values(expr: ast.AST, ctx) -> list[ast.AST]:
    """The values `self.<attr>` is given by the class (and its bases or subclasses in this file), or a
    module-level name at module level; [] for anything else (a local, a call, a parameter). What a rule
    about an object kept between calls (a context manager, a torch.Generator) needs."""
    scope = ctx.scope
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and scope is not None \
            and scope.cls is not None and expr.value.id == self_parameter(scope.func):
        return ctx.file.scopes.held_by_self(scope.cls, expr.attr)
    if isinstance(expr, ast.Name) and scope is not None:
        if expr.id in local_names(ctx):
            return []
        return list(ctx.file.scopes.bindings(scope, expr.id))
    return []


def local_names(ctx) -> set[str]:
    """Names the traced function binds itself (parameters, assignments, nested defs and classes): a
    local `random`, `copy` or `globals` there is not the module or builtin of that name."""
    func = ctx.scope.func
    return ctx.file.memo(("local names", id(func)), lambda: {
        n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        | {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)}
        | {n.name for n in ast.walk(func) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           and n is not func})


def root_name(node: ast.AST) -> Optional[str]:
    """`random` of `random.uniform`, `copy` of `copy.copy`, `globals` of `globals`."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _byte_slice(line: str, start: int, end) -> str:
    """Slice a line by ast's UTF-8 byte offsets."""
    if line.isascii():
        return line[start:end]
    return line.encode("utf-8")[start:end].decode("utf-8", errors="replace")

