"""The data that flows from rules to fixes and reports.

Positions are 1-based rows and 1-based character columns, as ruff reports them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional

if TYPE_CHECKING:
    from .analysis.summary import ModuleSummary

Applicability = Literal["safe", "unsafe"]


@dataclass(frozen=True, order=True)
class Location:
    row: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between two locations (end exclusive) with `content`."""

    start: Location
    end: Location
    content: str


@dataclass(frozen=True)
class Transform:
    """A fix made by a LibCST transformer rather than by text edits (fix/cst.py).

    `factory(rows, *key)` builds one transformer for every fix of one round that shares the factory
    and the key, so that changes to neighbouring statements can merge (one guard block for two
    adjacent print calls). `rows` are the first rows of the statements the fix changes. `spec` is
    what this one fix rewrites, as plain data decided from the `ast` analysis (fix/cst_branch.py);
    when set, the factory also gets every spec of its group, as `specs`."""

    factory: Callable[..., Any]
    key: tuple
    rows: frozenset
    spec: tuple = ()


@dataclass(frozen=True)
class Fix:
    message: str
    applicability: Applicability
    # The change as text: what reports show (JSON, SARIF, diffs), and what is applied when there is
    # no `transform`.
    edits: tuple[Edit, ...]
    # Top-level imports the edited code needs, e.g. ("torch",); added once per file.
    imports: tuple[str, ...] = ()
    # When set, applying the fix runs this LibCST transform instead of the text edits.
    transform: Optional[Transform] = None


@dataclass
class Finding:
    code: str
    message: str
    path: str
    start: Location
    end: Location
    fix: Optional[Fix] = None
    # A hazard inside a loop or a user-defined context manager makes Dynamo skip the whole
    # frame (GB7000 / GB0066), which is far worse than one split.
    frame_skip: bool = False
    gb_ids: tuple[str, ...] = ()
    noqa_row: int = 0
    # "Block.forward -> Block._helper": how the hazard is reached from a compiled entry point.
    chain: tuple[str, ...] = ()
    # The Python-level condition in front of the hazard ("x.dtype == torch.float16"): it breaks
    # only when that holds. None when nothing guards it.
    breaks_when: Optional[str] = None
    # A notebook's cell (1-based, as ruff counts); rows are then inside that cell.
    cell: Optional[int] = None
    # The row the flagged expression starts on, when Dynamo reports another (a method call spanning
    # lines): a `# noqa` there still counts, as it did before findings moved to Dynamo's row.
    first_row: int = 0

    @property
    def row(self) -> int:
        return self.start.row

    @property
    def col(self) -> int:
        return self.start.column

    @property
    def end_row(self) -> int:
        return self.end.row

    @property
    def end_col(self) -> int:
        return self.end.column

    def sort_key(self):
        return (self.path, self.cell or 0, self.start.row, self.start.column, self.code)


@dataclass
class FileError:
    """A file that could not be linted: reported, skipped, never fatal."""

    path: str
    message: str
    # A crash inside breaklint itself (a rule bug), not a problem with the file: exit code 2.
    internal: bool = False


@dataclass
class FileOutcome:
    """What linting one file gave: passed from the engine to the runner and kept in the cache."""

    findings: list[Finding] = field(default_factory=list)
    error: Optional[FileError] = None
    lines: int = 0
    # Findings dropped by `# noqa` comments.
    suppressed: int = 0
    # What the cross-file call graph needs from this file (made only when asked for).
    summary: Optional["ModuleSummary"] = None


@dataclass
class CheckResult:
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files_checked: int = 0
    lines_checked: int = 0
    # Findings dropped by `# noqa` comments, for --statistics.
    suppressed: int = 0
    # path -> project.FileContext: what the rest of the tree told each file, so that fixing a file
    # sees the same scopes and facts as checking it did.
    external: dict = field(default_factory=dict)
