"""What every rule declares: its code, its Dynamo registry ids, where it breaks, its examples.

A rule is one class in one file (Fixit's style): the node types it looks at, a `check` that reports
through the context, its fix, and VALID / INVALID examples that the test suite runs.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Optional

if TYPE_CHECKING:
    from ..engine import NodeContext


@dataclass(frozen=True)
class Example:
    """A whole module. A runnable one defines `factory()` -> (model_or_fn, args[, kwargs])
    so that the verdict tests and `breaklint calibrate` can run it through Dynamo."""

    code: str
    runnable: bool = True
    # For INVALID examples with a fix: the expected source after `--fix --unsafe-fixes`.
    fixed: Optional[str] = None


def parse_version(text: str) -> tuple[int, int]:
    parts = text.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        raise ValueError(f"not a torch version: {text!r}") from None


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, like ruff's rule names
    summary: ClassVar[str]  # one line for `breaklint rules`
    gb_ids: ClassVar[tuple[str, ...]] = ()
    # What the rule's fixes are, when it has any: "safe", "unsafe" or "sometimes" (mixed).
    fix_availability: ClassVar[Optional[str]] = None
    node_types: ClassVar[tuple[type[ast.AST], ...]] = ()
    # Measured: torch minor version -> does the pattern break the graph there?
    verdicts: ClassVar[dict[str, bool]] = {}
    VALID: ClassVar[list[Example]] = []
    INVALID: ClassVar[list[Example]] = []

    def check(self, node: ast.AST, ctx: "NodeContext") -> None:  # pragma: no cover - abstract
        raise NotImplementedError

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
    def url(cls) -> str:
        return f"https://breaklint.dev/rules/{cls.code}"
