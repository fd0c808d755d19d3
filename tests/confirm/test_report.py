"""Exit codes and verdicts of a TargetReport, from hand-built observations (no subprocess)."""
from breaklint.confirm.join import FindingRef, join
from breaklint.confirm.observation import GraphBreak, Observation, StackFrame
from breaklint.confirm.pipeline import Failure, TargetReport
from breaklint.confirm.report import to_json, to_markdown


def obs(*breaks):
    return Observation("2.13.0", graphs=len(breaks) + 1, ops_per_graph=[1] * (len(breaks) + 1),
                       breaks=list(breaks), skipped_frames=[])


def brk(line, path="/u/m.py", stack=()):
    return GraphBreak(file=path, line=line, gb_type="t", gb_id="GB0001", reason="t",
                      user_stack=[StackFrame(*s) for s in stack])


def finding(row, path="/u/m.py", end_row=None):
    return FindingRef(code="BL201", message="m", path=path, row=row, end_row=end_row or row, fixable="safe")


def test_join_statuses():
    before = obs(brk(10), brk(20, stack=[("/u/m.py", 5, "forward"), ("/u/m.py", 20, "helper")]), brk(30))
    findings = [finding(9, end_row=11), finding(5), finding(40), finding(50)]
    j = join(before, findings, executed={"/u/m.py": [5, 9, 10, 20, 30, 40]})
    assert [c.brk.line for c in j.confirmed] == [10, 20]  # 20 via the call site on its stack
    assert [m.brk.line for m in j.missed] == [30]
    assert [f.row for f in j.not_breaking] == [40] and [f.row for f in j.not_traced] == [50]


def test_exit_codes():
    ok = TargetReport("t", before=obs(brk(1)), after=obs(), comparison={"equal": True})
    ok.joined = join(ok.before, [finding(1)], {})
    assert ok.exit_code == 0 and ok.problems() == []

    changed = TargetReport("t", before=obs(brk(1)), after=obs(), comparison={"equal": False})
    assert changed.exit_code == 1 and "changed the model's outputs" in changed.problems()[0]

    remaining = TargetReport("t", before=obs(brk(1), brk(2)), max_breaks=1)
    assert remaining.exit_code == 1
    remaining.max_breaks = 2
    assert remaining.exit_code == 0

    missed = TargetReport("t", before=obs(brk(1)), max_breaks=5)
    missed.joined = join(missed.before, [], {})
    assert missed.exit_code == 1 and "missed" in missed.problems()[0]

    unloadable = TargetReport("t", failure=Failure("factory", "boom"))
    assert unloadable.exit_code == 2 and "phase 'factory'" in unloadable.problems()[0]

    fixed_broke = TargetReport("t", before=obs(), failure=Failure("eager", "boom", fixed=True))
    assert fixed_broke.exit_code == 1

    bench_broke = TargetReport("t", before=obs(), bench_failure=Failure("inductor compile", "x"))
    assert bench_broke.exit_code == 2


def test_json_and_markdown_carry_the_verdicts():
    r = TargetReport("pkg.m:f", before=obs(brk(1)), after=obs(), comparison={"equal": True, "rtol": 1e-4,
                     "atol": 1e-5, "max_abs_diff": 0.0, "detail": ""})
    r.joined = join(r.before, [], {})
    r.timings = {"eager": {"median_ms": 2.0}, "compiled_original": {"median_ms": 1.0},
                 "compiled_fixed": {"median_ms": 0.5}}
    import json

    data = json.loads(to_json([r]))
    assert data["exit_code"] == 1 and data["targets"][0]["speedups"]["compiled_fixed_vs_compiled_original"] == 2.0
    md = to_markdown([r])
    assert "| pkg.m:f | fail | 1 -> 0 |" in md and "MISSED" in md and "2.00x" in md


def _full_report():
    before = obs(brk(10), brk(20))
    after = obs(GraphBreak(file="/u/m.py", line=20, gb_type="Data-dependent branching", gb_id="GB0170",
                           reason="x", fixed_line=23))
    r = TargetReport("a_rather_long_package_name.some_module.bench:make_benchmark_model", before=before,
                     after=after, comparison={"equal": True, "rtol": 1e-4, "atol": 1e-5, "max_abs_diff": 0.0,
                                              "detail": ""}, fixes_applied=1, max_breaks=5,
                     fixed_files=[{"path": "/u/m.py", "applied": 1, "diff": ""}])
    r.info = {"device": "cpu", "device_name": "cpu", "torch_version": "2.13.0"}
    r.findings = [FindingRef(code="BL101", message="m", path="/u/m.py", row=20, end_row=20, fixable="unsafe")]
    r.joined = join(before, [finding(10), r.findings[0]], {})
    r.timings = {"eager": {"median_ms": 2.0, "runs": 40, "min_ms": 1.9, "iqr_ms": 0.5, "noisy": True,
                           "first_call_ms": None}}
    return r


def test_next_steps_name_unsafe_fixes_and_write():
    steps = _full_report().next_steps()
    assert steps[0] == "1 break remains; `--unsafe-fixes` has fixes for it: run again with it to verify them"
    assert "--write a_rather_long_package_name.some_module.bench:make_benchmark_model" in steps[1]


def test_terminal_report_at_80_columns_keeps_ids_and_codes_whole():
    import io
    import re

    from rich.console import Console

    from breaklint.confirm.report import print_terminal

    buf = io.StringIO()
    print_terminal([_full_report()], Console(file=buf, width=80, emoji=False, highlight=False))
    lines = buf.getvalue().splitlines()
    # The summary table fits in 80 columns; each detail is one whole line (a terminal wraps it, a CI
    # log keeps it greppable), so no GB id, code or location is ever cut.
    table = [line for line in lines if line[:1] in "┌│└├"]
    assert table and max(len(line) for line in table) <= 80
    assert lines[0] == "a_rather_long_package_name.some_module.bench:make_benchmark_model"
    assert "  remains    /u/m.py:20  GB0170  Data-dependent branching [line 23 of the fixed text]" in lines
    assert "  confirmed  BL101  /u/m.py:20  GB0001  t" in lines
    assert "  eager: 2.000 ms (min 1.900, IQR 0.500, 40 runs) NOISY" in lines
    assert any(re.search(r"│ eager \(median\) +│ 2\.000 ms noisy │", line) for line in lines)
