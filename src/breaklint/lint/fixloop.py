"""Lint and fix one text until nothing changes: the loop that joins the engine (lint) and the edits (fix)."""
from __future__ import annotations

from typing import Optional

from ..analysis.project import FileContext
from ..fix.edits import FixOutcome, apply_fixes, ensure_imports, parse_error, wanted
from ..model import Finding, Fix
from .engine import LintSettings, lint_source

MAX_ROUNDS = 10


def fix_source(source: str, path: str, settings: LintSettings, unsafe: bool = False,
               context: Optional[FileContext] = None) -> FixOutcome:
    """Lint and fix until nothing changes (bounded); the result always parses, or nothing changes.
    `context` is what the rest of the tree told this file when it was checked (project.py)."""
    current = source
    applied_total = 0
    all_fixes: list[Fix] = []
    findings: list[Finding] = []
    original_findings: Optional[list[Finding]] = None
    for _ in range(MAX_ROUNDS):
        findings, _ = lint_source(current, path, settings, context)
        if original_findings is None:
            original_findings = findings  # what is left if a later round fails
        fixes = [f.fix for f in findings if wanted(f.fix, unsafe)]
        if not fixes:
            break
        new, applied = apply_fixes(current, fixes)
        new = ensure_imports(new, {m for fix in applied for m in fix.imports})
        error = parse_error(new)
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
            return FixOutcome(source=current, applied=applied_total, remaining=findings, fixes=all_fixes)
        return FixOutcome(source=current, applied=applied_total, remaining=findings, fixes=all_fixes,
                          error=f"fixes did not converge after {MAX_ROUNDS} rounds; please report it")
    return FixOutcome(source=current, applied=applied_total, remaining=findings, fixes=all_fixes)
