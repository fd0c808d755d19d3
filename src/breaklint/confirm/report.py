"""Render confirm results: a rich table for the terminal, JSON, and Markdown for a CI step summary."""
from __future__ import annotations

import json
import os

from .pipeline import TargetReport


def _ms(t: dict | None) -> str:
    return "-" if not t else f"{t['median_ms']:.3f} ms"


def _x(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}x"


def _rel(path: str) -> str:
    try:
        rel = os.path.relpath(path)
        return rel if not rel.startswith("..") else path
    except ValueError:
        return path


def summary_row(r: TargetReport) -> dict:
    sp = r.speedups()
    before, after = r.before, r.after
    final = after or before
    return {
        "target": r.target,
        "status": "error" if not r.loaded else ("ok" if r.exit_code == 0 else "fail"),
        "breaks": "-" if before is None else f"{before.break_count} -> {final.break_count}",
        "skipped": "-" if before is None else f"{len(before.skipped_frames)} -> {len(final.skipped_frames)}",
        "join": "-" if not r.joined else f"{len(r.joined.confirmed)}/{len(r.joined.missed)}/{len(r.joined.not_breaking)}",
        "fixes": str(r.fixes_applied),
        "equal": {None: "-", True: "yes", False: "NO"}[r.outputs_equal],
        "eager": _ms(r.timings.get("eager")),
        "compiled": _ms(r.timings.get("compiled_original")),
        "fixed": _ms(r.timings.get("compiled_fixed")),
        "speedup": _x(sp.get("compiled_fixed_vs_compiled_original")),
    }


COLUMNS = [("target", "target"), ("status", "status"), ("breaks", "breaks"), ("skipped", "skipped"),
           ("join", "c/m/n"), ("fixes", "fixes"), ("equal", "equal"), ("eager", "eager"),
           ("compiled", "compiled"), ("fixed", "fixed"), ("speedup", "speedup")]
WIDE = 130
NARROW_TITLES = {"breaks": "breaks (before -> after fixes)", "skipped": "frames skipped (before -> after)",
                 "join": "confirmed/missed/not breaking", "equal": "outputs equal after fixes",
                 "eager": "eager (median)", "compiled": "compiled original (median)",
                 "fixed": "compiled fixed (median)", "speedup": "speedup fixed vs compiled"}
LEGEND = ("breaks, skipped (frames): before -> after the fixes; c/m/n: breaks confirmed by a rule / missed by "
          "the rules / findings not breaking on this torch; equal: fixed model's outputs allclose to the "
          "original's; eager, compiled, fixed: median time per call; speedup: compiled fixed vs compiled original")


def print_terminal(reports: list[TargetReport], console=None, verbose: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console(emoji=False)
    if console.width >= WIDE:
        table = Table(title="breaklint confirm", caption=LEGEND, show_lines=False)
        for key, title in COLUMNS:
            table.add_column(title, overflow="fold", min_width=14 if key == "target" else None)
        for r in reports:
            row = summary_row(r)
            table.add_row(*[row[k] for k, _ in COLUMNS])
        console.print(table)
    else:
        # Narrow terminal: one small key/value table per target instead of a crushed wide one.
        for r in reports:
            row = summary_row(r)
            table = Table(title=row["target"], show_header=False, title_justify="left")
            table.add_column("what", style="bold")
            table.add_column("value", overflow="fold")
            for key, title in COLUMNS[1:]:
                table.add_row(NARROW_TITLES.get(key, title), row[key])
            console.print(table)
    for r in reports:
        _print_details(console, r, verbose)


def _print_details(console, r: TargetReport, verbose: bool) -> None:
    from rich.markup import escape

    if not r.loaded:
        console.print(f"[red]{escape(r.target)}[/]: {escape(r.failure.one_line())}")
        if verbose and r.failure.traceback:
            console.print(escape(r.failure.traceback))
        return
    info = r.info
    console.print(f"[bold]{escape(r.target)}[/] on {escape(info.get('device_name', '?'))}, torch {escape(info.get('torch_version', '?'))}"
                  + ("" if info.get("device") == "cuda" else " (timings are CPU timings)"))
    if r.joined:
        for j in r.joined.missed:
            b = j.brk
            console.print(f"  [bold red]MISSED[/] {escape(_rel(b.file))}:{b.line}: {escape(b.gb_type)} [{b.gb_id}]"
                          + (" (whole frame skipped)" if b.frame_skipped else ""))
        for j in r.joined.confirmed:
            b = j.brk
            codes = ",".join(sorted({f.code for f in j.findings}))
            console.print(f"  [green]confirmed[/] {escape(_rel(b.file))}:{b.line}: {codes} = {escape(b.gb_type)} [{b.gb_id}]"
                          + (" (whole frame skipped)" if b.frame_skipped else ""))
        for f in r.joined.not_breaking:
            console.print(f"  [yellow]not breaking on this torch[/] {escape(_rel(f.path))}:{f.row}: {f.code}")
    if r.after is not None:
        for b in r.after.breaks:
            console.print(f"  [magenta]after fix[/] {escape(_rel(b.file))}:{b.line} (line in the fixed text): "
                          f"{escape(b.gb_type)} [{b.gb_id}]")
    if r.comparison:
        c = r.comparison
        console.print(f"  outputs {'equal' if c['equal'] else '[red]DIFFER[/]'} (rtol={c['rtol']:g}, atol={c['atol']:g}, "
                      f"max abs diff {c['max_abs_diff']:.3g}){' ' + escape(c['detail']) if c['detail'] else ''}")
    if r.timings.get("compiled_original"):
        t = r.timings
        first = ", ".join(f"{k.replace('_', ' ')} {v['first_call_ms'] / 1000:.2f}s" for k, v in t.items()
                          if v and v.get("first_call_ms") is not None)
        console.print(f"  first call (compile): {first}")
    for failure in (r.bench_failure, r.failure):
        if failure and verbose and failure.traceback:
            console.print(escape(failure.traceback))
    if r.static_error:
        console.print(f"  [yellow]static check failed: {escape(r.static_error)}[/]")
    for p in r.written:
        console.print(f"  wrote {escape(_rel(p))}")
    for problem in r.problems():
        console.print(f"  [red]✗[/] {escape(problem)}")


def to_json(reports: list[TargetReport]) -> str:
    return json.dumps({"targets": [r.to_dict() for r in reports],
                       "exit_code": overall_exit(reports)}, indent=2, default=str)


def to_markdown(reports: list[TargetReport]) -> str:
    lines = ["## breaklint confirm", ""]
    lines.append("| " + " | ".join(t for _, t in COLUMNS) + " |")
    lines.append("|" + "---|" * len(COLUMNS))
    for r in reports:
        row = summary_row(r)
        lines.append("| " + " | ".join(row[k].replace("|", "\\|") for k, _ in COLUMNS) + " |")
    lines.append("")
    lines.append(f"_{LEGEND}_")
    lines.append("")
    for r in reports:
        if not r.loaded:
            lines.append(f"- **{r.target}**: {r.failure.one_line()}")
            continue
        device = r.info.get("device_name", "?")
        lines.append(f"### `{r.target}` ({device}, torch {r.info.get('torch_version', '?')})")
        if r.joined:
            for j in r.joined.missed:
                lines.append(f"- **missed** `{_rel(j.brk.file)}:{j.brk.line}` {j.brk.gb_type} ({j.brk.gb_id})")
            for j in r.joined.confirmed:
                codes = ", ".join(sorted({f.code for f in j.findings}))
                lines.append(f"- confirmed `{_rel(j.brk.file)}:{j.brk.line}` {codes}: {j.brk.gb_type} ({j.brk.gb_id})")
            for f in r.joined.not_breaking:
                lines.append(f"- not breaking on this torch `{_rel(f.path)}:{f.row}` {f.code}")
        for problem in r.problems():
            lines.append(f"- :x: {problem}")
        lines.append("")
    return "\n".join(lines) + "\n"


def overall_exit(reports: list[TargetReport]) -> int:
    return max((r.exit_code for r in reports), default=0)
