"""bench/realworld*.py: portable truth, loud failures, and the scores the tables print (no torch)."""
import json
import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.insert(0, BENCH)

import realworld  # noqa: E402
from realworld_score import score_library, scope_recall, traced_functions  # noqa: E402
from realworld_truth import TruthError, make_portable, resolve  # noqa: E402

LIB = '''\
import torch


def helper(x):
    return x.item()


class Net(torch.nn.Module):
    def forward(self, x):
        for i in range(3):
            x = x + helper(x)
            print(x)
        return x


@torch.compiler.disable
def hidden(x):
    return x
'''


@pytest.fixture
def site(tmp_path):
    """A fake site-packages with one library, and a model observed there (absolute paths)."""
    package = tmp_path / "site-packages" / "lib"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "net.py").write_text(LIB)
    net = str(package / "net.py")
    model = {"model": "Net", "library": "lib", "status": "ok", "torch": "2.13", "versions": {"lib": "1.0"},
             "roots": [str(package)], "executed": {net: ["5", "10-12", "18"]},
             "sites": [{"file": net, "line": 5, "gb_types": ["item"], "frame_skipped": True, "via": None,
                        "skip_stack": [[net, 11], [net, 5]]},
                       {"file": "/x/site-packages/torch/_dynamo/eval.py", "line": 3, "gb_types": [],
                        "outside_library": True}]}
    return package, net, model


def test_truth_is_stored_relative_to_the_package_and_resolved_back(site):
    package, net, model = site
    portable = make_portable(model)
    text = json.dumps(portable)
    assert str(package) not in text  # nothing absolute is cached
    assert portable["roots"] == ["lib"] and list(portable["executed"]) == ["lib/net.py"]
    assert portable["sites"][0]["skip_stack"] == [["lib/net.py", 11], ["lib/net.py", 5]]
    assert portable["sites"][1]["file"] == "torch/_dynamo/eval.py"
    resolved = resolve(portable, {"lib": str(package)})
    assert resolved["executed"] == {os.path.realpath(net): ["5", "10-12", "18"]}
    assert resolved["sites"][0]["file"] == os.path.realpath(net)
    assert make_portable(portable) == portable  # idempotent: an already portable cache is left alone


def test_resolving_fails_loudly_on_a_missing_library_or_file(site):
    package, net, model = site
    portable = make_portable(model)
    with pytest.raises(TruthError, match="'lib' is not installed"):
        resolve(portable, {})
    os.remove(net)
    with pytest.raises(TruthError, match="1 executed file"):
        resolve(portable, {"lib": str(package)})


def test_precision_counts_findings_after_a_frame_skip_both_ways(site):
    package, net, model = site
    resolved = resolve(make_portable(model), {"lib": str(package)})
    from realworld_score import SourceLines, merge_truth

    sites, executed = merge_truth([resolved])

    def finding(row):
        return {"code": "BL", "filename": net, "location": {"row": row, "column": 1},
                "end_location": {"row": row, "column": 9}}

    # a hit on the site, one finding after the skip (print in the skipped loop frame), one plain miss
    result = score_library(sites, executed, [finding(5), finding(12), finding(10)], SourceLines(), str(package))
    assert result["recall"] == 1.0
    assert result["after_skip"] == 1
    assert result["precision"] == 0.5  # the finding after the skip is left out
    assert result["precision_counting_after_skip"] == round(1 / 3, 4)  # ... or counted as wrong


def test_guarded_false_positives_are_counted_apart(site):
    package, net, model = site
    resolved = resolve(make_portable(model), {"lib": str(package)})
    from realworld_score import SourceLines, merge_truth, overall

    sites, executed = merge_truth([resolved])

    def finding(row, guard=None):
        found = {"code": "BL", "filename": net, "location": {"row": row, "column": 1},
                 "end_location": {"row": row, "column": 9}}
        if guard:
            found["breaks_when"] = guard
        return found

    # a hit, a false positive behind a condition this run did not meet, a plain false positive
    result = score_library(sites, executed, [finding(5), finding(10, "x.dtype == torch.float16"), finding(18)],
                           SourceLines(), str(package))
    assert result["precision"] == round(1 / 3, 4)  # the headline counts both as wrong
    assert result["guarded_false_positives"] == 1
    assert overall({"lib": dict(result, models=1)})["guarded_false_positives"] == 1


def test_scope_recall_from_executed_lines(site):
    package, net, model = site
    resolved = resolve(make_portable(model), {"lib": str(package)})
    from realworld_score import merge_truth

    _sites, executed = merge_truth([resolved])
    traced = traced_functions(executed)
    # helper (line 5) and Net.forward (10-12); hidden (18) runs eagerly under torch.compiler.disable
    assert sorted(traced.values()) == ["Net.forward", "helper"]
    real = os.path.realpath(net)
    result = scope_recall(traced, [{"file": real, "qualname": "Net.forward", "line": 9, "reason": "forward"}],
                          str(package.parent))
    assert (result["traced"], result["in_scope"], result["recall"]) == (2, 1, 0.5)
    assert result["not_in_scope"] == ["lib/net.py:4 helper"]


def test_rescore_refuses_a_missing_venv_and_writes_nothing(tmp_path):
    out = tmp_path / "out.json"
    env = dict(os.environ, BENCHENV_PYTHON=str(tmp_path / "no" / "python"))
    completed = subprocess.run([sys.executable, os.path.join(BENCH, "realworld.py"), "--rescore", "--no-fix",
                                "--spec", "models.torchdiffeq_models", "--out", str(out)],
                               capture_output=True, text=True, env=env, timeout=120)
    assert completed.returncode == 2
    assert "benchmark venv" in completed.stderr and "is missing" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_the_committed_truth_is_portable():
    for name in ("realworld_truth.json", "heldout_truth.json", "test_truth.json"):
        with open(os.path.join(BENCH, "results", name), encoding="utf-8") as handle:
            truth = json.load(handle)
        for model in truth.values():
            if model.get("status") == "ok":
                assert not any(os.path.isabs(p) for p in [*model["roots"], *model["executed"]]), model["model"]


def test_the_test_split_is_the_frozen_one():
    """bench/SPLITS.md names six libraries; the harness must score exactly those as `test`."""
    assert [name.split(".")[1].removesuffix("_models") for name in realworld.TEST_SPECS] == [
        "pyro", "zuko", "openclip", "speechbrain", "demucs", "torchsde"]
    assert not set(realworld.TEST_SPECS) & set(realworld.SPECS)


def test_import_check_counts_a_torch_import_the_fix_added(tmp_path, monkeypatch):
    """bench/import_check.py: a guard that added `import torch` to a torch-free module is counted."""
    import import_check

    original = tmp_path / "site" / "lib"
    fixed = tmp_path / "fixed" / "lib__1.0" / "lib"
    for root in (original, fixed):
        root.mkdir(parents=True)
        (root / "same.py").write_text("import torch\nx = torch.ones(1)\n")
    (original / "tok.py").write_text("import logging\nlogger = logging.getLogger()\nlogger.info('x')\n")
    (fixed / "tok.py").write_text("import logging\nimport torch\nlogger = logging.getLogger()\n"
                                  "if not torch.compiler.is_compiling():\n    logger.info('x')\n")
    (original / "cond.py").write_text("try:\n    import torch\nexcept ImportError:\n    pass\nprint(1)\n")
    (fixed / "cond.py").write_text("try:\n    import torch\nexcept ImportError:\n    pass\nprint(2)\n")
    monkeypatch.setattr(import_check, "SITE_PACKAGES", (str(tmp_path / "site"),))
    counts = import_check.check_library(str(tmp_path / "fixed" / "lib__1.0"))
    assert counts["changed"] == 2 and counts["unparsable"] == 0
    assert counts["added_top_level_torch"] == 1 and counts["added_any_torch"] == 1


def test_gradients_tell_a_nan_from_the_unselected_side_of_where():
    """Issue #12 item 5: outputs can match while backward differs (torch.where runs both sides)."""
    torch = pytest.importorskip("torch")
    from realworld_observe import gradients, outputs_match

    class Guarded(torch.nn.Module):
        def __init__(self, rewritten):
            super().__init__()
            self.scale = torch.nn.Parameter(torch.ones(3))
            self.rewritten = rewritten

        def forward(self, x, count):
            total = (x * self.scale).sum()
            if self.rewritten:  # both sides run: 0/0 poisons the gradient
                return torch.where(count == 0, total * 0, total / count)
            return total * 0 if count == 0 else total / count

    class Spec:
        def __init__(self, rewritten):
            self.rewritten = rewritten

        def build(self, name):
            return Guarded(self.rewritten), (torch.ones(3), torch.tensor(0.0)), {}

    original, fixed = gradients(Spec(False), "m", torch), gradients(Spec(True), "m", torch)
    assert original is not None and len(original) == len(fixed) == 3  # scale, x, count
    ok, detail = outputs_match(original, fixed, torch)
    assert not ok and "tensor" in detail
    assert outputs_match(original, gradients(Spec(False), "m", torch), torch)[0]


def test_an_output_difference_counts_against_the_fix_only_when_the_original_repeats_itself():
    def row(model, match, repeats=None):
        r = {"model": model, "status": "ok", "sites_before": 2, "sites_after": 1, "outputs_match": match,
             "grads_match": None, "remaining": []}
        if repeats is not None:
            r["original_repeats"] = repeats
        return r

    fixed = {"lib": {"models": [row("a", True), row("b", False, repeats=True), row("c", False, repeats=False),
                                row("d", False)]}}
    summary = realworld.removal_summary(fixed)
    assert summary["outputs_match"] == 1
    assert summary["outputs_differ"] == ["b", "d"]  # d: recorded before the second run existed
    assert summary["original_nondeterministic"] == ["c"]


def test_a_partial_fix_run_keeps_the_rows_of_the_models_it_did_not_run():
    saved = {"lib": {"fix_run": {"rc": 0}, "models": [{"model": "a", "v": 1}, {"model": "b", "v": 1}]},
             "other": {"fix_run": {}, "models": [{"model": "z", "v": 1}]}}
    new = {"lib": {"fix_run": {"rc": 0}, "models": [{"model": "b", "v": 2}, {"model": "c", "v": 2}]}}
    partial = realworld.merged_fix_results(saved, new, partial=True)
    assert [(r["model"], r["v"]) for r in partial["lib"]["models"]] == [("a", 1), ("b", 2), ("c", 2)]
    assert partial["other"] == saved["other"]
    whole = realworld.merged_fix_results(saved, new, partial=False)
    assert [r["model"] for r in whole["lib"]["models"]] == ["b", "c"]


def test_a_sub_package_as_library_root_is_stored_and_resolved(tmp_path):
    """torch.distributions as a library: root torch/distributions only, stored as `distributions/...`."""
    sub = tmp_path / "site-packages" / "pkg" / "sub"
    sub.mkdir(parents=True)
    (sub.parent / "__init__.py").write_text("")
    (sub / "__init__.py").write_text("")
    (sub / "net.py").write_text(LIB)
    net = str(sub / "net.py")
    model = {"model": "Net", "library": "pkg.sub", "status": "ok", "torch": "2.13", "versions": {"torch": "2.13"},
             "roots": [str(sub)], "executed": {net: ["5"]},
             "sites": [{"file": net, "line": 5, "gb_types": ["item"], "frame_skipped": False, "via": None}]}
    portable = make_portable(model)
    assert portable["roots"] == ["sub"] and list(portable["executed"]) == ["sub/net.py"]
    resolved = resolve(portable, realworld.root_locations({"pkg.sub": str(sub)}))
    assert resolved["roots"] == [str(sub)] and resolved["sites"][0]["file"] == os.path.realpath(net)
    assert realworld.library_key(portable) == "pkg.sub==2.13 (torch 2.13)"

    class Spec:
        PACKAGES = ["torch.distributions"]
    assert realworld.is_subpackage(Spec) and realworld.is_torch_subpackage(Spec)
    Spec.PACKAGES = ["kornia"]
    assert not realworld.is_subpackage(Spec) and not realworld.is_torch_subpackage(Spec)


def test_relines_picks_only_models_that_may_have_run_a_resume_function_or_a_duplicate():
    import realworld_relines

    truth = {
        "s:one_break": {"status": "ok", "break_records": 1},
        "s:two_breaks": {"status": "ok", "break_records": 2},
        "s:done": {"status": "ok", "break_records": 5, "break_log_complete": True},
        "s:raw_control": {"status": "ok", "break_records": 5, "break_log_complete": False},
        "s:failed": {"status": "error", "break_records": 3},
    }
    assert realworld_relines.candidates(truth) == ["s:two_breaks"]


def test_a_fresh_observation_with_both_corrections_is_marked_complete():
    from realworld_truth import summarise

    observation = {"status": "ok", "model": "m", "library": "lib", "torch": "2.13.0", "versions": {}, "roots": [],
                   "breaks": [], "executed": {}}
    assert "break_log_complete" not in summarise(observation)  # Dynamo's log as it is (the control run)
    assert summarise(dict(observation, break_stacks_complete=True, resume_lines_corrected=False))["break_log_complete"]


def test_relines_control_run_never_replaces_the_truth():
    done = subprocess.run([sys.executable, os.path.join(BENCH, "realworld_relines.py"), "--split", "test", "--raw"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "--raw requires --out" in done.stderr
