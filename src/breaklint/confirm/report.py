"""Render confirm results: a rich table for the terminal, JSON, and Markdown for a CI step summary."""
from __future__ import annotations

import json

from .observation import display_path
from .pipeline import TargetReport
from .timing import describe


def _ms(t: dict | None) -> str:
    return "-" if not t else f"{t['median_ms']:.3f} ms" + (" noisy" if t.get("noisy") else "")


def _x(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}x"


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
LEGEND = ("breaks (sites), skipped (frames): before -> after the fixes; c/m/n: breaks confirmed by a rule / "
          "missed by the rules / findings not breaking on this torch; equal: fixed model's outputs allclose to the "
          "original's; eager, compiled, fixed: median time per call (noisy: IQR over 10% of the median); "
          "speedup: compiled fixed vs compiled original")


def print_terminal(reports: list[TargetReport], console=None, verbose: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

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
            # The target on a line of its own: a table title would be cut mid-name to the table's width.
            console.print(Text(row["target"], style="bold"), soft_wrap=True)
            table = Table(show_header=False)
            table.add_column("what", style="bold")
            table.add_column("value", overflow="fold")
            for key, title in COLUMNS[1:]:
                table.add_row(NARROW_TITLES.get(key, title), row[key])
            console.print(table)
    for r in reports:
        _print_details(console, r, verbose)


def detail_lines(r: TargetReport) -> list[tuple[str, str]]:
    """(style, text) lines under a target: each break once, what remains after fixing (at the user's
    lines), outputs, timings with their spread, problems and what to do next. Plain text, so that a
    CI log and an 80-column terminal show every GB id and code whole."""
    out: list[tuple[str, str]] = []
    if not r.loaded:
        return [("red", f"{r.target}: {r.failure.one_line()}")]
    info = r.info
    device = info.get("device_name", "?")
    out.append(("bold", f"{r.target} on {device}, torch {info.get('torch_version', '?')}"
                + ("" if info.get("device") == "cuda" else " (timings are CPU timings)")))

    def site(b) -> str:
        skip = " (whole frame skipped)" if b.frame_skipped else ""
        also = "".join(f"; {t}" for t in b.also)
        return f"{display_path(b.file)}:{b.line}  {b.gb_id or 'GB?'}  {b.gb_type}{also}{b.where_note()}{skip}"

    if r.joined:
        for j in r.joined.missed:
            out.append(("bold red", f"  MISSED     {site(j.brk)}"))
        for j in r.joined.confirmed:
            codes = ",".join(sorted({f.code for f in j.findings}))
            out.append(("green", f"  confirmed  {codes}  {site(j.brk)}"))
        for j in r.joined.outside:
            out.append(("yellow", f"  outside your code  {site(j.brk)}"))
        for f in r.joined.not_breaking:
            out.append(("yellow", f"  not breaking on this torch  {display_path(f.path)}:{f.row}  {f.code}"))
    out.extend(recompile_lines(r.recompiles))
    if r.after is not None:
        for b in r.after.breaks:
            fixed = f" [line {b.fixed_line} of the fixed text]" if b.fixed_line and b.fixed_line != b.line else ""
            out.append(("magenta", f"  remains    {site(b)}{fixed}"))
    for error in r.fix_errors:
        out.append(("yellow", f"  fix not applied: {error}"))
    if r.comparison:
        c = r.comparison
        out.append(("", f"  outputs {'equal' if c['equal'] else 'DIFFER'} (rtol={c['rtol']:g}, atol={c['atol']:g}, "
                        f"max abs diff {c['max_abs_diff']:.3g}){' ' + c['detail'] if c['detail'] else ''}"))
    for key, label in (("eager", "eager"), ("compiled_original", "compiled original"), ("compiled_fixed", "compiled fixed")):
        t = r.timings.get(key)
        if t:
            first = f"; first call {t['first_call_ms'] / 1000:.2f} s" if t.get("first_call_ms") is not None else ""
            out.append(("", f"  {label}: {describe(t)}{first}"))
    if r.static_error:
        out.append(("yellow", f"  static check: {r.static_error}"))
    for p in r.written:
        out.append(("", f"  wrote {display_path(p)}"))
    for problem in r.problems():
        out.append(("red", f"  x {problem}"))
    for step in r.next_steps():
        out.append(("cyan", f"  next: {step}"))
    return out


def recompile_lines(rec: dict) -> list[tuple[str, str]]:
    """`confirm --calls N`: compiles over the call sequence, each recompile storm joined to BL6xx."""
    if not rec:
        return []
    parts = [f"{label} {rec[label].get('compiles', '?')} compiles"
             + (" (recompile limit hit)" if rec[label].get("limit_hit") else "")
             for label in ("before", "after") if label in rec and "error" not in rec[label]]
    errors = [f"{label}: {rec[label]['error']}" for label in ("before", "after") if "error" in rec.get(label, {})]
    out = [("", f"  over {rec['calls']} calls: " + ", ".join(parts + errors))]
    join = rec.get("join") or {}
    for m in join.get("missed", []):
        out.append(("bold red", f"  MISSED recompile  {m['file']}:{m['line']}  {m['guard']} (failed {m['guard_failures']}x)"))
    for c in join.get("confirmed", []):
        out.append(("green", f"  confirmed  {','.join(c['codes'])}  {c['file']}:{c['line']}  recompiles on "
                             f"{c['guard']} ({c['guard_failures']}x)"))
    return out


def _print_details(console, r: TargetReport, verbose: bool) -> None:
    from rich.text import Text

    # soft_wrap: one report line is one log line (CI logs, grep); a terminal wraps it by itself.
    for style, line in detail_lines(r):
        console.print(Text(line, style=style or ""), soft_wrap=True)
    for failure in (r.bench_failure, r.failure):
        if failure and verbose and failure.traceback:
            console.print(Text(failure.traceback), overflow="fold")


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
        lines.append("")
        lines.append("```")
        lines.extend(text.rstrip() for _, text in detail_lines(r)[1:])
        lines.append("```")
        lines.append("")
    return "\n".join(lines) + "\n"


def overall_exit(reports: list[TargetReport]) -> int:
    return max((r.exit_code for r in reports), default=0)
