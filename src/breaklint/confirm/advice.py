"""What the user can do next, in a sentence each: the lines under a target in every report."""
from __future__ import annotations

from .observation import display_path


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _of(m: int, n: int) -> str:
    return {1: "it"}.get(n, "both" if n == 2 else "all of them") if m == n else f"{m} of them"


def unsafe_fixable_sites(report) -> int:
    """Remaining break sites where a rule offers an unsafe fix (which this run did not apply)."""
    obs = report.after or report.before
    if obs is None or report.unsafe_fixes:
        return 0
    unsafe = [f for f in report.findings if f.fixable == "unsafe"]
    return sum(1 for b in obs.breaks if any(f.covers(b.file, b.line) for f in unsafe))


def next_steps(report) -> list[str]:
    if not report.loaded:
        return []
    steps = []
    if report.environment_error:
        steps.append("install libcst (pip install libcst) and run confirm again: fixes need it")
    obs = report.after or report.before
    remaining = obs.break_count if obs else 0
    fixable = unsafe_fixable_sites(report)
    if remaining and fixable:
        steps.append(f"{_count(remaining, 'break remains', 'breaks remain')}; `--unsafe-fixes` has fixes for "
                     f"{_of(fixable, remaining)}: run again with it to verify them")
    c = report.culprit
    if c:
        diff = (c.get("comparison") or {}).get("max_abs_diff")
        how = f" (max abs diff {diff:.3g})" if isinstance(diff, float) else ""
        if c["others_equal"]:
            steps.append(f"fix {c['code']} at {display_path(c['path'])}:{c['line']} changes the outputs{how}; the other "
                         f"{_count(c['others_applied'], 'fix', 'fixes')} keep them equal: `--write` writes those and skips it")
        else:
            steps.append(f"fix {c['code']} at {display_path(c['path'])}:{c['line']} is the first that changes the outputs{how}; "
                         "the others together do not keep them equal either, so nothing is written")
    elif report.fixes_applied and report.outputs_equal and not report.written and report.failure is None:
        flags = " --unsafe-fixes" if report.unsafe_fixes else ""
        files = len([f for f in report.fixed_files if f["applied"]])
        steps.append(f"outputs are equal after {_count(report.fixes_applied, 'fix', 'fixes')}: keep them with "
                     f"`breaklint confirm{flags} --write {report.target}` ({_count(files, 'file')})")
    if report.written:
        steps.append(f"wrote {_count(len(report.written), 'file')}: review with `git diff`")
    if report.joined and report.joined.missed:
        steps.append(f"{_count(len(report.joined.missed), 'break')} no rule reports (MISSED): "
                     "please report them to breaklint")
    return steps
