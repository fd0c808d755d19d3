"""Lint and fix one text until nothing changes: the loop that joins the engine (lint) and the edits (fix)."""
from __future__ import annotations

from typing import Optional

from ..analysis.project import FileContext
from ..fix.edits import FixOutcome, apply_fixes, ensure_imports, libcst_error, parse_error, wanted
from ..model import Finding, Fix
from .engine import LintSettings, lint_source

MAX_ROUNDS = 10


def fix_source(source: str, path: str, settings: LintSettings, unsafe: bool = False,
               context: Optional[FileContext] = None, findings: Optional[list[Finding]] = None) -> FixOutcome:
    """Lint and fix until nothing changes (bounded); the result always parses, or nothing changes.
    `context` is what the rest of the tree told this file when it was checked (project.py);
    `findings`, when given, are the check's findings for exactly this source and context, and spare
    the first round's lint."""
    current = source
    applied_total = 0
    all_fixes: list[Fix] = []
    original_findings: Optional[list[Finding]] = None
    seed = findings
    findings = []
    for _ in range(MAX_ROUNDS):
        if seed is not None:
            findings, seed = seed, None
        else:
            findings, _ = lint_source(current, path, settings, context)
        if original_findings is None:
            original_findings = findings  # what is left if a later round fails
        fixes = [f.fix for f in findings if wanted(f.fix, unsafe)]
        if not fixes:
            break
        new, applied = apply_fixes(current, fixes)
        new = ensure_imports(new, {m for fix in applied for m in fix.imports})
        error = parse_error(new, libcst_too=False)
        if error is not None:
            return FixOutcome(source=source, error=f"a fix produced code that does not parse ({error}); "
                                                   f"file left unchanged", remaining=original_findings)
        if new == current:
            break
        current = new
        applied_total += len(applied)
        all_fixes.extend(applied)
    else:
        # Still changing after MAX_ROUNDS: keep what was done (it parses) and say so, as ruff does.
        findings, _ = lint_source(current, path, settings, context)
        if not any(wanted(f.fix, unsafe) for f in findings):
            return _checked(source, FixOutcome(source=current, applied=applied_total, remaining=findings,
                                               fixes=all_fixes), original_findings)
        return _checked(source, FixOutcome(
            source=current, applied=applied_total, remaining=findings, fixes=all_fixes,
            error=f"fixes did not converge after {MAX_ROUNDS} rounds; please report it"), original_findings)
    return _checked(source, FixOutcome(source=current, applied=applied_total, remaining=findings, fixes=all_fixes),
                    original_findings)


def _checked(source: str, outcome: FixOutcome, original_findings) -> FixOutcome:
    """The final text must parse for LibCST too (each round checked Python's parser)."""
    if outcome.applied:
        error = libcst_error(outcome.source)
        if error is not None:
            return FixOutcome(source=source, error=f"a fix produced code that does not parse ({error}); "
                                                   f"file left unchanged", remaining=original_findings or [])
    return outcome
