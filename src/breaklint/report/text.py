"""The terminal report: a rich table of findings, then a summary line."""
from __future__ import annotations

import os
from collections import Counter

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..model import CheckResult


def fix_label(finding) -> str:
    if finding.fix is None:
        return ""
    return "[*]" if finding.fix.applicability == "safe" else "[unsafe]"


def render(result: CheckResult, console: Console, show_fixes: bool = False, statistics: bool = False,
           applied: int = 0, quiet: bool = False) -> None:
    for error in result.errors:
        console.print(Text(f"{os.path.relpath(error.path)}: error: {error.message}", style="red"),
                      soft_wrap=True)
    if statistics:
        render_statistics(result, console)
    elif result.findings and not quiet:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("location", style="cyan", no_wrap=True)
        table.add_column("code", style="bold red", no_wrap=True)
        table.add_column("message")
        table.add_column("fix", style="green", no_wrap=True)
        for f in result.findings:
            table.add_row(f"{os.path.relpath(f.path)}:{f.start.row}:{f.start.column}", f.code,
                          f.message + (" [frame skip]" if f.frame_skip and "skips the whole" not in f.message else ""),
                          fix_label(f))
        console.print(table)
        if show_fixes:
            for f in result.findings:
                if f.fix is not None:
                    console.print(f"  {f.code} {os.path.relpath(f.path)}:{f.start.row}: {f.fix.message} "
                                  f"({f.fix.applicability})")
    if not quiet or result.findings:
        console.print(summary(result, applied))


def summary(result: CheckResult, applied: int = 0) -> str:
    n = len(result.findings)
    safe = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability == "safe")
    unsafe = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability == "unsafe")
    parts = []
    if applied:
        parts.append(f"Fixed {applied} {'problem' if applied == 1 else 'problems'}.")
    if n == 0 and not result.errors:
        parts.append(f"All checks passed ({result.files_checked} files).")
    else:
        parts.append(f"Found {n} {'problem' if n == 1 else 'problems'} in {result.files_checked} files"
                     + (f", {len(result.errors)} unreadable" if result.errors else "") + ".")
        if safe:
            parts.append(f"{safe} fixable with --fix.")
        if unsafe:
            parts.append(f"{unsafe} more with --unsafe-fixes.")
    return " ".join(parts)


def render_statistics(result: CheckResult, console: Console) -> None:
    from ..rules import rule_by_code

    counts = Counter(f.code for f in result.findings)
    fixable = Counter(f.code for f in result.findings if f.fix is not None)
    table = Table(show_header=True, header_style="bold", box=None)
    for column in ("count", "code", "name", "fixable"):
        table.add_column(column)
    for code, count in counts.most_common():
        rule = rule_by_code(code)
        table.add_row(str(count), code, rule.name if rule else "", str(fixable[code]) if fixable[code] else "")
    console.print(table)
