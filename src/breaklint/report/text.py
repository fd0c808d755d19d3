"""The terminal report: one line per finding (ruff's `path:row:col: CODE [*] message`), then a summary."""
from __future__ import annotations

import os
from collections import Counter
from typing import Optional

from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from ..model import CheckResult, Finding


def fix_label(finding: Finding) -> str:
    """ruff's marks: [*] a safe fix exists, [unsafe] only an unsafe one, nothing when there is none."""
    if finding.fix is None:
        return ""
    return "[*]" if finding.fix.applicability == "safe" else "[unsafe]"


def _line_parts(finding: Finding, relpath=os.path.relpath) -> list[tuple[str, Optional[str]]]:
    """A finding's line as (text, style) pieces."""
    parts = [(relpath(finding.path), "bold")]
    if finding.cell is not None:  # ruff's notebook form: path:cell N:row:col
        parts.append((f":cell {finding.cell}", "cyan"))
    parts += [(f":{finding.start.row}:{finding.start.column}: ", "cyan"), (finding.code, "bold red")]
    label = fix_label(finding)
    if label:
        parts += [(" ", None), (label, "green" if label == "[*]" else "yellow")]
    parts += [(" ", None), (finding.message, None)]
    return parts


def finding_line(finding: Finding) -> Text:
    line = Text()
    for text, style in _line_parts(finding):
        line.append(text, style=style)
    return line


def render(result: CheckResult, console: Console, show_fixes: bool = False, statistics: bool = False,
           applied: int = 0, quiet: bool = False, fixed: Optional[dict] = None) -> None:
    for error in result.errors:
        console.print(Text(f"{os.path.relpath(error.path)}: error: {error.message}", style="red"))
    if statistics:
        render_statistics(result, console)
    elif console.color_system is None:
        relpath = _memo(os.path.relpath)  # once per file, not once per finding
        _print_plain(["".join(text for text, _ in _line_parts(f, relpath)) for f in result.findings], console)
    else:
        for finding in result.findings:
            console.print(finding_line(finding))
    if show_fixes:
        render_fixes(result, console, fixed)
    if not quiet:
        console.print(summary(result, applied))


def _print_plain(lines: list[str], console: Console) -> None:
    """Finding lines on a console without colour, where the styles print nothing: the bytes a print
    per line gave (a third of a warm run over transformers), in one print. Lines that rich prints as
    they are (printable, no trailing space) go to it as ready segments; otherwise one text of them
    all, which rich treats line by line as it treated one text a line (control codes, tabs)."""
    if not lines:
        return
    if all(line.isprintable() and not line[-1:].isspace() for line in lines):
        console.print(_Segments(lines))
    else:
        console.print(Text("\n".join(lines)))


def _memo(function):
    answers: dict = {}

    def memoised(argument):
        answer = answers.get(argument)
        if answer is None:
            answer = answers[argument] = function(argument)
        return answer
    return memoised


class _Segments:
    """Lines handed to rich as they are, each with its newline."""

    def __init__(self, lines: list[str]):
        self.lines = lines

    def __rich_console__(self, console: Console, options):
        newline = Segment.line()
        for line in self.lines:
            yield Segment(line)
            yield newline


def render_fixes(result: CheckResult, console: Console, fixed: Optional[dict]) -> None:
    """With --fix: what was applied, per file. Without: what --fix / --unsafe-fixes would do."""
    if fixed is not None:
        if not fixed:
            return
        console.print(f"\nFixed {sum(len(v) for v in fixed.values())} problems:")
        for path, fixes in sorted(fixed.items()):
            console.print(f"- {os.path.relpath(path)}:")
            for message, count in Counter(f.message for f in fixes).most_common():
                console.print(f"    {count} x {message}")
        return
    available = [f for f in result.findings if f.fix is not None]
    if available:
        console.print("\nAvailable fixes:")
        for f in available:
            console.print(f"- {os.path.relpath(f.path)}:{f.start.row}:{f.start.column}: {f.code} "
                          f"{f.fix.message} ({f.fix.applicability})")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary(result: CheckResult, applied: int = 0) -> str:
    n = len(result.findings)
    safe = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability == "safe")
    unsafe = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability == "unsafe")
    parts = []
    if applied:
        parts.append(f"Fixed {_plural(applied, 'problem')}.")
    if n == 0 and not result.errors:
        parts.append(f"All checks passed ({_plural(result.files_checked, 'file')}).")
    else:
        parts.append(f"Found {_plural(n, 'problem')} in {_plural(result.files_checked, 'file')}"
                     + (f"; {_plural(len(result.errors), 'error')}" if result.errors else "") + ".")
        if safe:
            parts.append(f"{safe} fixable with --fix.")
        if unsafe:
            parts.append(f"{unsafe} more with --unsafe-fixes.")
    return " ".join(parts)


def statistics_rows(result: CheckResult) -> list[dict]:
    from ..rules import rule_by_code

    counts = Counter(f.code for f in result.findings)
    fixable = Counter(f.code for f in result.findings if f.fix is not None)
    rows = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        rule = rule_by_code(code)
        rows.append({"code": code, "name": rule.name if rule else "", "count": count,
                     "fixable": fixable[code] > 0, "fixable_count": fixable[code]})
    return rows


def render_statistics(result: CheckResult, console: Console) -> None:
    from rich.table import Table

    table = Table(show_header=True, header_style="bold", box=None)
    for column in ("count", "code", "name", "fixable"):
        table.add_column(column)
    for row in statistics_rows(result):
        table.add_row(str(row["count"]), row["code"], row["name"],
                      str(row["fixable_count"]) if row["fixable_count"] else "")
    console.print(table)
