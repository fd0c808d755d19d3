"""`breaklint confirm` end to end: subprocess phases, join, shadow fixes, bad targets, exit codes."""
import json

import pytest

torch = pytest.importorskip("torch")
from click.testing import CliRunner  # noqa: E402

from breaklint.confirm.cli import confirm  # noqa: E402

from . import targets  # noqa: E402

pytestmark = pytest.mark.torch
TARGETS = targets.__file__


def line_of(marker):
    with open(TARGETS, encoding="utf-8") as fh:
        for i, text in enumerate(fh, 1):
            if text.rstrip().endswith(f"# BREAK:{marker}"):
                return i
    raise LookupError(marker)


def run(*args):
    result = CliRunner().invoke(confirm, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_print_break_is_confirmed_fixed_and_outputs_stay_equal(tmp_path):
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    before = open(TARGETS, encoding="utf-8").read()
    code, text = run(f"{TARGETS}:print_net", "--no-bench", "--json", str(out_json), "--markdown", str(out_md))
    assert code == 0, text
    data = json.loads(out_json.read_text())["targets"][0]
    [confirmed] = data["join"]["confirmed"]
    assert confirmed["break"]["line"] == line_of("print") and confirmed["break"]["gb_id"] == "GB0059"
    assert [f["code"] for f in confirmed["findings"]] == ["BL201"]
    assert data["join"]["missed"] == []
    assert data["before"]["graphs"] == 2 and data["after"]["graphs"] == 1
    assert data["after"]["breaks"] == [] and data["fixes_applied"] == 1
    assert data["outputs_equal"] is True and data["state_dict_transfer"]["loaded"] == 4
    assert "| target |" in out_md.read_text() and "confirmed" in out_md.read_text()
    assert open(TARGETS, encoding="utf-8").read() == before  # shadow copy only: the file is untouched


def test_missed_break_exits_1_and_is_reported(tmp_path):
    out_json = tmp_path / "r.json"
    code, text = run(f"{TARGETS}:missed_net", "--no-bench", "--json", str(out_json))
    assert code == 1
    assert "MISSED" in text
    data = json.loads(out_json.read_text())["targets"][0]
    [missed] = data["join"]["missed"]
    assert missed["break"]["line"] == line_of("missed") and missed["break"]["gb_id"] == "GB0124"
    assert "torch/nn/init.py" in missed["break"]["reported_at"]


def test_kwargs_target_without_breaks_passes(tmp_path):
    code, text = run(f"{TARGETS}:with_kwargs", "--no-bench")
    assert code == 0, text
    assert "0 -> 0" in text


@pytest.mark.parametrize("factory, phase, words", [
    ("raises", "factory", "FileNotFoundError: weights.pt"),
    ("returns_junk", "factory", "(model, args)"),
    ("no_such_factory", "factory", "no attribute 'no_such_factory'"),
    ("eager_fails", "eager", "model failed in eager mode: RuntimeError"),
    ("oom", "eager", "CUDA out of memory"),
    ("crashes", "factory", "worker crashed (exited with status 7)"),
])
def test_bad_targets_exit_2_with_one_line_naming_the_phase(factory, phase, words):
    code, text = run(f"{TARGETS}:{factory}", "--no-bench")
    assert code == 2, text
    flat = " ".join(text.split())
    assert f"failed in phase '{phase}'" in flat and " ".join(words.split()) in flat
    assert "Traceback (most recent call last)" not in text


def test_verbose_shows_the_traceback():
    code, text = run(f"{TARGETS}:raises", "--no-bench", "--verbose")
    assert code == 2 and "Traceback (most recent call last)" in text


def test_missing_file_and_bad_target_string_exit_2():
    assert run("does/not/exist.py:factory", "--no-bench")[0] == 2
    code, text = run("not a target", "--no-bench")
    assert code == 2 and "bad target" in text


def test_hang_is_killed_by_timeout(tmp_path):
    # No torch import in this target, so a short timeout is reached inside the factory.
    target = tmp_path / "hang.py"
    target.write_text("import time\n\ndef factory():\n    time.sleep(120)\n")
    code, text = run(f"{target}:factory", "--no-bench", "--timeout", "6")
    flat = " ".join(text.split())
    assert code == 2 and "failed in phase 'factory'" in flat and "timed out after 6s" in flat


@pytest.mark.slow
def test_inductor_compile_error_names_the_phase(monkeypatch):
    # No working C++ compiler: Inductor on CPU fails at compile time, eager and Dynamo do not.
    monkeypatch.setenv("CXX", "/bin/false")
    code, text = run(f"{TARGETS}:with_kwargs", "--min-runs", "3")
    flat = " ".join(text.split())
    assert code == 2 and "failed in phase 'inductor compile'" in flat and "InvalidCxxCompiler" in flat


def test_write_applies_fixes_to_the_users_file_after_verification(tmp_path):
    src = open(TARGETS, encoding="utf-8").read()
    target = tmp_path / "model.py"
    target.write_text(src)
    code, text = run(f"{target}:print_net", "--no-bench", "--write")
    assert code == 0, text
    fixed = target.read_text()
    assert fixed != src and "torch.compiler.is_compiling()" in fixed
    # The written file now compiles into one graph with no break.
    code, text = run(f"{target}:print_net", "--no-bench", "--json", str(tmp_path / "again.json"))
    data = json.loads((tmp_path / "again.json").read_text())["targets"][0]
    assert code == 0 and data["before"]["breaks"] == [] and data["fixes_applied"] == 0


@pytest.mark.slow
def test_bench_times_eager_compiled_and_fixed_on_cpu(tmp_path):
    out = tmp_path / "r.json"
    code, text = run(f"{TARGETS}:print_net", "--min-runs", "5", "--json", str(out))
    assert code == 0, text
    data = json.loads(out.read_text())["targets"][0]
    t = data["timings"]
    assert set(t) == {"eager", "compiled_original", "compiled_fixed"}
    assert all(v["method"] == "perf_counter" and v["median_ms"] > 0 and v["runs"] >= 5 for v in t.values())
    assert t["compiled_original"]["first_call_ms"] > 0 and t["compiled_fixed"]["first_call_ms"] > 0
    assert t["eager"]["first_call_ms"] is None
    sp = data["speedups"]
    assert sp["compiled_fixed_vs_compiled_original"] == pytest.approx(
        t["compiled_original"]["median_ms"] / t["compiled_fixed"]["median_ms"])
    assert data["timing_device"] == "cpu" and "CPU timings" in " ".join(text.split())
