"""-j/--jobs, the results cache, --no-cache, and the progress bar's logic."""
import json

import pytest

import breaklint
import breaklint.lint.config
import breaklint.lint.engine
import breaklint.lint.runner
from breaklint.cli import Progress
from cli_helpers import CLEAN, HAZARD, invoke, write


@pytest.fixture
def big_tree(project):
    """40 files (> runner.PARALLEL_THRESHOLD) in nested folders, every third one with a hazard."""
    for i in range(40):
        text = HAZARD if i % 3 == 0 else CLEAN
        write(project / "src" / f"pkg{i % 4}" / f"mod{i}.py", text.replace("class Net", f"class Net{i}"))
    return project


@pytest.fixture
def lint_calls(monkeypatch):
    """Count files actually linted (cache misses) in this process."""
    calls = []
    real = breaklint.lint.engine.lint_file

    def counting(path, settings, *args):
        calls.append(path)
        return real(path, settings, *args)

    monkeypatch.setattr(breaklint.lint.engine, "lint_file", counting)
    return calls


def test_parallel_gives_the_same_results_as_serial(big_tree, monkeypatch):
    pools = []
    real_pool = breaklint.lint.runner._Pool

    def spy(settings, jobs):
        pools.append(jobs)
        return real_pool(settings, jobs)

    monkeypatch.setattr(breaklint.lint.runner, "_Pool", spy)
    serial = invoke("check", "--no-cache", "-j", "1", "--output-format", "json", "src")
    assert pools == []
    parallel = invoke("check", "--no-cache", "--jobs", "2", "--output-format", "json", "src")
    assert pools == [2]  # the pool really ran
    assert serial.exit_code == parallel.exit_code == 1
    assert json.loads(serial.stdout) == json.loads(parallel.stdout)
    assert len(json.loads(serial.stdout)) == 14
    assert invoke("check", "-j", "0", "src").exit_code == 2  # usage error


def test_unchanged_tree_is_served_from_cache(big_tree, lint_calls):
    first = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert len(lint_calls) == 40
    lint_calls.clear()
    second = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert lint_calls == []  # nothing re-linted
    assert json.loads(first.stdout) == json.loads(second.stdout) and second.exit_code == 1
    assert (big_tree / ".breaklint_cache").is_dir()


def test_edited_file_is_relinted(big_tree, lint_calls):
    invoke("check", "-j", "1", "src")
    lint_calls.clear()
    edited = big_tree / "src" / "pkg1" / "mod1.py"
    edited.write_text(HAZARD.replace("x * 2", "x * 3"))
    result = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert lint_calls == [str(edited)]
    assert str(edited) in {f["filename"] for f in json.loads(result.stdout)}


def test_same_size_edit_is_relinted(big_tree, lint_calls):
    """Size and mtime are only a shortcut: content decides (an edit within one mtime tick)."""
    target = big_tree / "src" / "pkg0" / "mod0.py"
    invoke("check", "-j", "1", "src")
    lint_calls.clear()
    import os

    stat = os.stat(target)
    target.write_text(HAZARD.replace("x * 2", "x * 5").replace("class Net", "class Net0"))
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    invoke("check", "-j", "1", "src")
    assert lint_calls == [str(target)]


def test_cache_is_keyed_by_settings_and_version(big_tree, lint_calls, monkeypatch):
    invoke("check", "-j", "1", "src")
    lint_calls.clear()
    invoke("check", "-j", "1", "--select", "BL201", "src")   # other rules: other results
    assert len(lint_calls) == 40
    lint_calls.clear()
    invoke("check", "-j", "1", "--target-torch", "2.11", "src")
    assert len(lint_calls) == 40
    lint_calls.clear()
    monkeypatch.setattr(breaklint, "__version__", "99.0")
    invoke("check", "-j", "1", "src")
    assert len(lint_calls) == 40


def test_no_cache_neither_reads_nor_writes(big_tree, lint_calls):
    invoke("check", "--no-cache", "-j", "1", "src")
    assert not (big_tree / ".breaklint_cache").exists()
    invoke("check", "-j", "1", "src")
    lint_calls.clear()
    invoke("check", "--no-cache", "-j", "1", "src")
    assert len(lint_calls) == 40


def test_corrupt_cache_is_ignored(big_tree, lint_calls):
    invoke("check", "-j", "1", "src")
    for pickle_file in (big_tree / ".breaklint_cache").glob("results-*"):
        pickle_file.write_bytes(b"garbage")
    lint_calls.clear()
    result = invoke("check", "-j", "1", "src")
    assert result.exit_code == 1 and len(lint_calls) == 40


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_appears_only_on_a_terminal_after_a_moment():
    clock = FakeClock()
    progress = Progress(enabled=True, is_terminal=True, clock=clock)
    assert not progress.should_show(1, 100)          # too early
    clock.now += Progress.DELAY
    assert progress.should_show(1, 100)
    assert not progress.should_show(100, 100)        # already done (e.g. all cached)
    assert not progress.should_show(0, 0)            # nothing to lint
    assert not Progress(enabled=True, is_terminal=False, clock=clock).should_show(1, 100)
    late = Progress(enabled=False, is_terminal=True, clock=clock)  # --quiet or a machine format
    clock.now += 10
    assert not late.should_show(1, 100)


def test_progress_bar_starts_and_stops(monkeypatch):
    clock = FakeClock()
    progress = Progress(enabled=True, is_terminal=True, clock=clock)
    events = []

    class Bar:
        def start(self): events.append("start")
        def add_task(self, name, total): events.append(("task", total)); return 1
        def update(self, task, completed, total): events.append(("update", completed))
        def stop(self): events.append("stop")

    monkeypatch.setattr(progress, "_make_bar", lambda: Bar())
    progress.update(0, 50)
    assert events == []
    clock.now += 1
    progress.update(10, 50)
    progress.update(50, 50)
    progress.stop()
    assert events == ["start", ("task", 50), ("update", 10), ("update", 50), "stop"]


def test_no_progress_output_when_not_a_terminal(big_tree, monkeypatch):
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    result = invoke("check", "--no-cache", "-j", "1", "src")
    assert "linting" not in result.stderr


CALLER = """import torch
from torch import nn
from pkg.helpers import helper


class Net(nn.Module):
    def forward(self, x):
        return helper(x) * 2
"""
HELPER = """def helper(x):
    print("in helper")
    return x + 1
"""


@pytest.fixture
def cross_file(project):
    """A finding that exists only through the call graph: helper() is traced from Net.forward."""
    write(project / "src" / "pkg" / "__init__.py", "")
    write(project / "src" / "pkg" / "model.py", CALLER)
    write(project / "src" / "pkg" / "helpers.py", HELPER)
    write(project / "src" / "pkg" / "other.py", "X = 1\n")
    return project


def _codes(result):
    return sorted((f["filename"].rsplit("/", 1)[-1], f["code"], f["location"]["row"]) for f in json.loads(result.stdout))


def test_unchanged_tree_never_decodes_the_call_graph_summaries(cross_file, monkeypatch):
    cold = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert ("helpers.py", "BL201", 2) in _codes(cold)

    def refuse(summary):
        raise AssertionError("a summary was decoded on an unchanged tree")

    monkeypatch.setattr(breaklint.lint.runner, "load_summary", refuse)
    warm = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert type(warm.exception) is SystemExit and warm.exit_code == 1 and _codes(warm) == _codes(cold)


def test_a_changed_tree_decodes_cached_summaries_and_a_damaged_one_is_relinted(cross_file, lint_calls):
    invoke("check", "-j", "1", "src")
    cache_file, = (cross_file / ".breaklint_cache").glob("results-*.json")
    lines = cache_file.read_text().split("\n")
    damaged = 0
    for i, line in enumerate(lines):
        fields = line.split("\t")
        if fields[0] == "F" and json.loads(fields[1]) == str(cross_file / "src" / "pkg" / "model.py"):
            assert list(json.loads(fields[7])) == ["ModuleSummary"]  # kept as text beside the outcome
            fields[7] = "{}"  # decodes, but is no summary
            lines[i] = "\t".join(fields)
            damaged += 1
    assert damaged == 1
    cache_file.write_text("\n".join(lines))
    (cross_file / "src" / "pkg" / "other.py").write_text("X = 2\n")  # the tree changed: the graph is rebuilt
    lint_calls.clear()
    warm = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert str(cross_file / "src" / "pkg" / "model.py") in lint_calls  # linted again, not trusted
    cold = invoke("check", "--no-cache", "-j", "1", "--output-format", "json", "src")
    assert _codes(warm) == _codes(cold) and ("helpers.py", "BL201", 2) in _codes(cold)


def test_the_called_from_chain_is_the_same_warm_after_an_edit_as_cold(cross_file):
    """Two callers reach helper(): the chain a finding names must not depend on which files came
    from the cache (they used to come back first, and the graph walked files in that order)."""
    write(cross_file / "src" / "pkg" / "a_model.py", CALLER.replace("class Net", "class NetA"))
    write(cross_file / "src" / "pkg" / "b_model.py", CALLER.replace("class Net", "class NetB"))
    invoke("check", "-j", "1", "src")
    (cross_file / "src" / "pkg" / "a_model.py").write_text(CALLER.replace("class Net", "class NetA") + "# edited\n")
    warm = json.loads(invoke("check", "-j", "1", "--output-format", "json", "src").stdout)
    cold = json.loads(invoke("check", "--no-cache", "-j", "1", "--output-format", "json", "src").stdout)
    helper = [f["message"] for f in cold if f["filename"].endswith("helpers.py")]
    assert helper and "called from" in helper[0], helper
    assert [f["message"] for f in warm] == [f["message"] for f in cold]


def _rewrite_lines(cache_file, change):
    lines = cache_file.read_text().split("\n")
    kept = [line for line in (change(line.split("\t")) for line in lines[1:-1]) if line is not None]
    header = json.loads(lines[0])
    header["entries"] = len(kept)
    cache_file.write_text("\n".join([json.dumps(header)] + kept + [""]))


def test_an_unchanged_tree_serves_the_stored_graph_answer_and_survives_its_damage(cross_file, lint_calls):
    """Warm, the graph's contexts are decoded only for --show-scope (and --fix); a missing variant
    builds the graph again, and contexts that do not decode give no crash."""
    cold = invoke("check", "--no-cache", "-j", "1", "--output-format", "json", "src")
    cold_scope = invoke("check", "--no-cache", "-j", "1", "--show-scope", "--output-format", "json", "src")
    invoke("check", "-j", "1", "src")
    lint_calls.clear()
    warm_scope = invoke("check", "-j", "1", "--show-scope", "--output-format", "json", "src")
    assert lint_calls == [] and warm_scope.stdout == cold_scope.stdout
    cache_file, = (cross_file / ".breaklint_cache").glob("results-*.json")
    _rewrite_lines(cache_file, lambda f: None if f[0] == "X" else "\t".join(f))  # the variants evicted
    warm = invoke("check", "-j", "1", "--output-format", "json", "src")
    assert warm.stdout == cold.stdout and lint_calls  # linted again under a rebuilt graph
    _rewrite_lines(cache_file, lambda f: "\t".join(f[:3] + ["[]"]) if f[0] == "T" else "\t".join(f))
    lint_calls.clear()
    assert invoke("check", "-j", "1", "--output-format", "json", "src").stdout == cold.stdout
    assert lint_calls == []
    assert invoke("check", "-j", "1", "--show-scope", "--output-format", "json", "src").exit_code == 0
