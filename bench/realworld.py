"""Real-world precision and recall of breaklint against Dynamo's own break log.

    python bench/realworld.py                       # dev split: observe what is missing, fix, score
    python bench/realworld.py --rescore             # dev split, static side only (a minute)
    python bench/realworld.py --rescore --split test   # the frozen test split (bench/SPLITS.md), aggregates only
    python bench/realworld.py --rescore --split both   # both, and the side-by-side table (results/splits.md)

1. Each model of bench/models/* runs in its own child process (bench/realworld_observe.py)
   under a benchmark venv: once eagerly with line tracing over the library's files, once
   under torch.compile(backend="eager") with the `graph_breaks` log captured.
   The ground truth is cached in bench/results/realworld_truth.json.
2. `breaklint check` runs over every library file that a model executed; findings are
   scored against the break sites (bench/realworld_score.py), beside a grep baseline.
3. Breaks removed: `breaklint check --fix --unsafe-fixes` on a copy of each library, put
   first on PYTHONPATH; the models that broke run again, and their eager outputs are
   compared with the original ones (allclose). Cached in bench/results/realworld_fixed.json.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections import Counter

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

from realworld_score import (SourceLines, breaklint_env, compare_traced, dynamo_traced_functions,  # noqa: E402
                             grep_findings, merge_truth, overall, pattern_groups, run_breaklint, scope_recall,
                             score_library, traced_functions)
from realworld_truth import TruthError, make_portable, resolve, summarise  # noqa: E402
from realworld_observe import grad_path  # noqa: E402

SPECS = [
    "models.pyg_models",
    "models.e3nn_models",
    "models.diffusers_models",
    "models.timm_models",
    "models.torchvision_models",
    "models.kornia_models",
    "models.torchdiffeq_models",
    "models.lucidrains_models",
    "models.xtransformers_models",
    "models.monai_models",
    "models.pyg_old_models",
    "models.diffusers_old_models",
    "models.timm_old_models",
    # New dev libraries (bench/SPLITS.md, "Dev split growth with new libraries (2026-11-26)").
    "models.torchdist_models",
    "models.pml_models",
    "models.torchmetrics_models",
    # Two more (bench/SPLITS.md, "Dev split growth: normflows and torchode").
    "models.normflows_models",
    "models.torchode_models",
    # Three more (bench/SPLITS.md, "Dev split growth: flowtorch, geoopt and torchquad").
    "models.flowtorch_models",
    "models.geoopt_models",
    "models.torchquad_models",
    # Two more (bench/SPLITS.md, "Dev split growth: entmax and asteroid-filterbanks").
    "models.entmax_models",
    "models.asteroid_fb_models",
    # Two more (bench/SPLITS.md, "Dev split growth: FrEIA and auraloss", stop 27).
    "models.freia_models",
    "models.auraloss_models",
    # Three more (bench/SPLITS.md, "Dev split growth: pytorch-crf, torch-struct and reformer-pytorch", stop 27).
    "models.torchcrf_models",
    "models.torchstruct_models",
    "models.reformer_models",
    # Three more (bench/SPLITS.md, "Dev split growth: torch-kmeans, ptwt and bayesian-torch", stop 28).
    "models.torchkmeans_models",
    "models.ptwt_models",
    "models.bayesian_torch_models",
    # One more, since bayesian-torch gave no break (bench/SPLITS.md, "Dev split growth: effdet", stop 28).
    "models.effdet_models",
    # Two more (bench/SPLITS.md, "Dev split growth: openai-whisper and gluonts", stop 28, third round).
    "models.whisper_models",
    "models.gluonts_models",
    # Two more (bench/SPLITS.md, "Dev split growth: encodec and asteroid", stop 32).
    "models.encodec_models",
    "models.asteroid_models",
    # Two more (bench/SPLITS.md, "Dev split growth: k-diffusion and torch-audiomentations", stop 32, second round).
    "models.kdiffusion_models",
    "models.audiomentations_models",
    # Two more (bench/SPLITS.md, "Dev split growth: torchcde and nnAudio", stop 32, third round).
    "models.torchcde_models",
    "models.nnaudio_models",
    # One more (bench/SPLITS.md, "Dev split growth: torchaudio", stop 35).
    "models.torchaudio_models",
    # Two more (bench/SPLITS.md, "Dev split growth: geomloss and blitz-bayesian-pytorch", stop 39).
    "models.geomloss_models",
    "models.blitz_models",
    # Two more (bench/SPLITS.md, "Dev split growth: POT and piq", stop 41).
    "models.pot_models",
    "models.piq_models",
    # Two more (bench/SPLITS.md, "Dev split growth: deepinv and torchlibrosa", stop 41).
    "models.deepinv_models",
    "models.torchlibrosa_models",
]
# The frozen test split (bench/SPLITS.md): never tuned on; only its aggregates are ever reported.
TEST_SPECS = [
    "models.pyro_models",
    "models.zuko_models",
    "models.openclip_models",
    "models.speechbrain_models",
    "models.demucs_models",
    "models.torchsde_models",
]
RESULTS = os.path.join(BENCH, "results")
SPLITS = {
    "dev": {"specs": SPECS, "truth": os.path.join(RESULTS, "realworld_truth.json"),
            "out": os.path.join(RESULTS, "realworld.json"), "fix": True, "details": True},
    # The test split's per-site JSON goes outside the repo (the cache dir) so that nobody tuning rules
    # reads its misses; only its aggregates (results/test_split.md) are committed.
    "test": {"specs": TEST_SPECS, "truth": os.path.join(RESULTS, "test_truth.json"),
             "out": None, "fix": False, "details": False},
}
# Benchmark venvs live outside the repo; see bench/README-realworld.md for how to build them.
ENV_PYTHON = {
    "benchenv": os.environ.get("BENCHENV_PYTHON", "/work/benchenv/bin/python"),
    "benchenv-tv": os.environ.get("BENCHENV_TV_PYTHON", "/work/benchenv-tv/bin/python"),
}


def fail(message: str) -> None:
    """One line on stderr and a non-zero exit: a figure that cannot be measured is never written."""
    print(f"bench/realworld.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def load_truth(path: str) -> dict:
    """The cached truth in its portable form (an older cache with absolute paths is converted)."""
    return {key: make_portable(model) for key, model in load_json(path, {}).items()}


LOCATE = """
import importlib.metadata, importlib.util, json, os, sys
found = {"packages": {}, "versions": {}}
for name in sys.argv[1].split(","):
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.submodule_search_locations:
        found["packages"][name] = os.path.realpath(list(spec.submodule_search_locations)[0])
for dist in sys.argv[2].split(","):
    try:
        found["versions"][dist] = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        pass
print(json.dumps(found))
"""


def locate(spec) -> dict:
    """Where the spec's benchmark venv (with the spec's EXTRA_PATH first, as its models run) has the
    library, and which versions it has; imports nothing but importlib."""
    python = ENV_PYTHON[spec.ENV]
    if not os.path.exists(python):
        raise TruthError(f"{spec.__name__}: benchmark venv {python} is missing "
                         f"(build it with the commands in bench/README-realworld.md)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(getattr(spec, "EXTRA_PATH", [])))
    completed = subprocess.run([python, "-c", LOCATE, ",".join(spec.PACKAGES), ",".join(spec.DISTRIBUTIONS)],
                               capture_output=True, text=True, env=env, timeout=120)
    if completed.returncode != 0:
        raise TruthError(f"{spec.__name__}: {python} failed: {completed.stderr.strip()[-300:]}")
    return json.loads(completed.stdout)


def resolve_truth(truth: dict, specs_by_name: dict) -> dict:
    """Portable truth -> absolute paths against the libraries installed here. Raises TruthError when a
    library is missing, is another version than the truth's, or lacks a file the truth names."""
    located: dict[str, dict] = {}
    resolved = {}
    for key, model in truth.items():
        if model.get("status") != "ok":
            resolved[key] = model
            continue
        spec = specs_by_name[model["spec"]]
        if spec.__name__ not in located:
            located[spec.__name__] = locate(spec)
        found = located[spec.__name__]
        for dist, version in model["versions"].items():
            if dist == "torch" and not is_torch_subpackage(spec):
                continue  # the static side reads library source only (torch's own, for torch.distributions)
            if found["versions"].get(dist) != version:
                raise TruthError(f"{key}: the truth was recorded on {dist}=={version}, the benchmark venv "
                                 f"{ENV_PYTHON[spec.ENV]} has {found['versions'].get(dist, 'none')} "
                                 f"(bench/README-realworld.md pins it)")
        resolved[key] = resolve(model, root_locations(found["packages"]))
    return resolved


def root_locations(packages: dict[str, str]) -> dict[str, str]:
    """Package name -> its folder, keyed as the portable truth names a root: by the folder's own name
    (make_portable keeps `os.path.basename(root)`), so that a sub-package given as a library root
    (`torch.distributions`, stored as `distributions/normal.py`) resolves like a top-level one."""
    return {name.rsplit(".", 1)[-1]: path for name, path in packages.items()}


def is_subpackage(spec) -> bool:
    """A library root that is a sub-package of another distribution (`torch.distributions`)."""
    return any("." in package for package in spec.PACKAGES)


def is_torch_subpackage(spec) -> bool:
    return any(package.split(".")[0] == "torch" for package in spec.PACKAGES)


def src_commit(repo: str) -> str:
    """The last commit that touched src/ (what a figure was measured on), `+dirty` with local changes."""
    def git(*args):
        completed = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
        return completed.stdout.strip() if completed.returncode == 0 else ""
    commit = git("log", "-1", "--format=%h", "--", "src") or "unknown"
    return commit + ("+dirty" if git("status", "--porcelain", "--", "src") else "")


def load_json(path: str, default):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    return default


def save_json(path: str, data) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
    os.replace(temporary, path)


def run_child(spec, model: str, timeout: int, extra_path: list[str] = (), save_output: str | None = None,
              compare_output: str | None = None) -> dict:
    """One model in one child process, niced and single-threaded; never raises."""
    python = ENV_PYTHON[spec.ENV]
    command = ["nice", "-n", "10", python, os.path.join(BENCH, "realworld_observe.py"),
               "--spec", spec.__name__, "--model", model]
    if save_output:
        command += ["--save-output", save_output]
    if compare_output:
        command += ["--compare-output", compare_output]
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", HF_HUB_OFFLINE="1", BENCH_GRADIENTS="1",
               PYTHONPATH=os.pathsep.join([*extra_path, *getattr(spec, "EXTRA_PATH", [])]))
    started = time.perf_counter()
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"model": model, "status": "timeout", "error": f"over {timeout}s"}
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"model": model, "status": "crash", "error": f"rc={completed.returncode}: {completed.stderr[-1500:]}"}
    result = json.loads(lines[-1])
    result["wall_s"] = round(time.perf_counter() - started, 1)
    return result


def observe_all(specs, truth_path: str, outputs_dir: str, timeout: int, refresh: bool, only_models) -> dict:
    truth = load_truth(truth_path)
    os.makedirs(outputs_dir, exist_ok=True)
    for spec in specs:
        for model in spec.MODELS:
            key = f"{spec.__name__}:{model}"
            if only_models and model not in only_models:
                continue
            if key in truth and not refresh:
                continue
            observation = run_child(spec, model, timeout, save_output=os.path.join(outputs_dir, _safe(key) + ".pt"))
            truth[key] = summarise(observation) | {"spec": spec.__name__, "wall_s": observation.get("wall_s")}
            summary = truth[key]
            print(f"[observe] {key}: {summary['status']} "
                  f"{len(summary.get('sites', []))} sites {summary.get('error') or ''}"[:300], flush=True)
            # Merge into what is on disk: another run may have added models meanwhile.
            save_json(truth_path, load_truth(truth_path) | {key: truth[key]})
    return load_truth(truth_path) | truth


def _safe(key: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in key)


def library_key(model: dict) -> str:
    versions = model["versions"]
    # A sub-package of torch (torch.distributions) has no distribution of its own: torch's version is its.
    # A library whose import name is its distribution's with "-" for "_" (k_diffusion, k-diffusion) is labelled with
    # that distribution's version, not with the first other distribution its spec records (dctorch).
    version = (versions.get(model["library"]) or versions.get(model["library"].replace("_", "-"))
               or next((v for k, v in versions.items() if k != "torch"), versions.get("torch")))
    return f"{model['library']}=={version} (torch {model['torch']})"


def target_torch(models: list[dict]) -> str:
    """"major.minor" of the torch a library's truth was observed on (`breaklint check --target-torch`)."""
    return ".".join(models[0]["torch"].split("+")[0].split(".")[:2])


def group_by_library(truth: dict) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for model in truth.values():
        if model.get("status") == "ok":
            groups.setdefault(library_key(model), []).append(model)
    return groups


def supports_show_scope(breaklint_python: str) -> bool:
    completed = subprocess.run([breaklint_python, "-m", "breaklint", "check", "--help"], capture_output=True,
                               text=True, env=breaklint_env())
    return "--show-scope" in completed.stdout


def score(truth: dict, breaklint_python: str) -> dict:
    source = SourceLines()
    per_library, grep_per_library = {}, {}
    with_scope = supports_show_scope(breaklint_python)
    for library, models in sorted(group_by_library(truth).items()):
        sites, executed = merge_truth(models)
        files = sorted(f for f in executed if os.path.exists(f))
        if len(files) != len(executed):  # resolve_truth checked this already: never score a partial library
            fail(f"{library}: {len(executed) - len(files)} executed files are missing")
        prefix = os.path.dirname(models[0]["roots"][0])
        # The whole library in one run, as a user lints a tree: the cross-file call graph needs
        # the files that re-export and define what the executed ones call. The spec file is the
        # user code that calls into the library (its model classes); its own findings are not scored.
        roots = sorted({root for model in models for root in model["roots"]})
        specs = sorted({os.path.join(BENCH, *model["spec"].split(".")) + ".py" for model in models})
        # Judged against the torch the truth was observed on: some sub-patterns break on one release only.
        target = ("--target-torch", target_torch(models))
        findings = run_breaklint(breaklint_python, roots + specs, target)
        per_library[library] = score_library(sites, executed, findings, source, prefix)
        per_library[library]["models"] = len(models)
        per_library[library]["files"] = len(files)
        if with_scope:
            scope = run_breaklint(breaklint_python, roots + specs, ("--show-scope", *target))
            traced = traced_functions(executed)
            per_library[library]["scope"] = scope_recall(traced, scope, prefix)
            if all("dynamo_code" in model for model in models):
                # The same against the code objects Dynamo traced (recorded on the test split only).
                by_dynamo = dynamo_traced_functions(models)
                per_library[library]["scope_dynamo"] = scope_recall(by_dynamo, scope, prefix)
                per_library[library]["traced_agreement"] = compare_traced(traced, by_dynamo)
        grep_per_library[library] = score_library(sites, executed, grep_findings(files), source, prefix)
    return {
        "overall": overall(per_library),
        "per_library": per_library,
        "patterns": pattern_groups(per_library),
        "grep_baseline": {"overall": overall(grep_per_library),
                          "per_library": {k: {x: v[x] for x in ("recall", "precision", "break_sites",
                                                                "findings_on_executed_lines",
                                                                "precision_counting_after_skip")}
                                          for k, v in grep_per_library.items()}},
    }


def make_fixed_copy(models: list[dict], breaklint_python: str, fixed_root: str) -> tuple[str, dict]:
    """Copy the library's packages and apply every fix, safe and unsafe."""
    target = os.path.join(fixed_root, _safe(library_key(models[0])))
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    for root in models[0]["roots"]:
        shutil.copytree(root, os.path.join(target, os.path.basename(root)),
                        ignore=shutil.ignore_patterns("__pycache__"))
    # The spec file is the user code whose models call into the library: lint a copy beside the
    # library so that what it reaches is fixed too (the copy itself is never imported).
    specs = sorted({os.path.join(BENCH, *model["spec"].split(".")) + ".py" for model in models})
    for spec in specs:
        shutil.copy(spec, os.path.join(target, "_entry_" + os.path.basename(spec)))
    command = [breaklint_python, "-m", "breaklint", "check", target, "--fix", "--unsafe-fixes",
               "--no-cache", "--exit-zero", "--output-format", "json", "--target-torch", target_torch(models)]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=900, env=breaklint_env())
    changed = subprocess.run(["diff", "-rq", *models[0]["roots"][:1], os.path.join(target, os.path.basename(models[0]["roots"][0]))],
                             capture_output=True, text=True).stdout.count("differ")
    return target, {"rc": completed.returncode, "files_changed": changed, "stderr": completed.stderr[-1000:]}


def breaks_removed(truth: dict, specs_by_name: dict, breaklint_python: str, fixed_path: str, outputs_dir: str,
                   timeout: int, fixed_root: str, only_models=None, per_model: bool = True) -> dict:
    """per_model=False (the test split) prints no per-model line: only the aggregates are read."""
    results = {}
    for library, models in sorted(group_by_library(truth).items()):
        broken = [m for m in models if any(not s.get("outside_library") for s in m["sites"])
                  and (not only_models or m["model"] in only_models)]
        if not broken:
            continue
        if is_subpackage(specs_by_name[models[0]["spec"]]):
            # A fixed copy of torch/distributions cannot go first on PYTHONPATH without shadowing all of
            # torch: no breaks-removed figure for a sub-package library.
            print(f"[fix] {library}: skipped (a sub-package cannot be replaced by a copy on PYTHONPATH)", flush=True)
            continue
        target, fix_run = make_fixed_copy(models, breaklint_python, fixed_root)
        print(f"[fix] {library}: {fix_run['files_changed']} files changed", flush=True)
        rows = []
        for model in broken:
            key = f"{model['spec']}:{model['model']}"
            spec = specs_by_name[model["spec"]]
            reference = os.path.join(outputs_dir, _safe(key) + ".pt")
            # Reference outputs and gradients of the original (gradients: issue #12 item 5; a truth
            # made on another machine, or before gradients were compared, has none yet).
            if not os.path.exists(reference) or not os.path.exists(grad_path(reference)):
                os.makedirs(outputs_dir, exist_ok=True)
                run_child(spec, model["model"], timeout, save_output=reference)
            observation = run_child(spec, model["model"], timeout, extra_path=[target],
                                    compare_output=reference)
            after = summarise(observation)
            before_sites = [s for s in model["sites"] if not s.get("outside_library")]
            after_sites = [s for s in after.get("sites", []) if not s.get("outside_library")]
            row = {"model": key, "status": after["status"], "sites_before": len(before_sites),
                   "sites_after": len(after_sites) if after["status"] == "ok" else None,
                   "records_before": model.get("break_records"), "records_after": after.get("break_records"),
                   "outputs_match": observation.get("fixed_matches_original"),
                   "grads_match": observation.get("fixed_grads_match"),
                   "grads_detail": observation.get("fixed_grads_detail"),
                   "match_detail": observation.get("fixed_match_detail") or after.get("error"),
                   # site files are relative to the library already: relpath would make them relative
                   # to the working directory instead (the path then depended on the checkout's place)
                   "remaining": [f"{_library_relative(s['file'], target)}:{s['line']} {s['gb_types'][:1]}"
                                 for s in after_sites]}
            if row["outputs_match"] is False or row["grads_match"] is False:
                # Blame the fix only if the original repeats itself: run it again against its reference.
                again = run_child(spec, model["model"], timeout, compare_output=reference)
                row["original_repeats"] = bool(again.get("fixed_matches_original")) and \
                    again.get("fixed_grads_match") is not False
            if per_model:
                print(f"[fix] {key}: {row['sites_before']} -> {row['sites_after']} sites, "
                      f"outputs match: {row['outputs_match']}", flush=True)
            rows.append(row)
        results[library] = {"fix_run": fix_run, "models": rows}
    save_json(fixed_path, merged_fix_results(load_json(fixed_path, {}), results, bool(only_models)))
    return results


def merged_fix_results(saved: dict, results: dict, partial: bool) -> dict:
    """The saved per-library fix results with this run's. A run of some models (`partial`) updates
    their rows and keeps the library's other rows; a whole run replaces the library."""
    merged = dict(saved)
    for library, result in results.items():
        rows = result["models"]
        if partial:
            ran = {r["model"] for r in rows}
            rows = [r for r in saved.get(library, {}).get("models", []) if r["model"] not in ran] + rows
        merged[library] = dict(result, models=rows)
    return merged


def with_dynamo_config(truth: dict, specs_by_name: dict, config: str, timeout: int, path: str) -> dict:
    """Every model that broke, observed again with `config` set on torch._dynamo.config (the
    settings breaklint's messages suggest, not a source fix): break sites before and after."""
    rows = []
    previous = os.environ.get("BENCH_DYNAMO_CONFIG")
    os.environ["BENCH_DYNAMO_CONFIG"] = config
    try:
        for key, model in sorted(truth.items()):
            before = [s for s in model.get("sites", []) if not s.get("outside_library")]
            if model.get("status") != "ok" or not before:
                continue
            after = summarise(run_child(specs_by_name[model["spec"]], model["model"], timeout))
            after_sites = [s for s in after.get("sites", []) if not s.get("outside_library")]
            rows.append({"model": key, "status": after["status"], "sites_before": len(before),
                         "sites_after": len(after_sites) if after["status"] == "ok" else None,
                         "remaining": sorted({f"{s['file']}:{s['line']} {(s['gb_types'] or ['?'])[0]}"
                                              for s in after_sites})})
            print(f"[config] {key}: {rows[-1]['sites_before']} -> {rows[-1]['sites_after']}", flush=True)
    finally:
        if previous is None:
            os.environ.pop("BENCH_DYNAMO_CONFIG", None)
        else:
            os.environ["BENCH_DYNAMO_CONFIG"] = previous
    ok = [r for r in rows if r["status"] == "ok"]
    summary = {"config": config, "models": len(rows), "models_ok": len(ok),
               "sites_before": sum(r["sites_before"] for r in ok), "sites_after": sum(r["sites_after"] for r in ok),
               "rows": rows}
    save_json(path, summary)
    return summary


def removal_summary(fixed: dict) -> dict:
    rows = [r for lib in fixed.values() for r in lib["models"]]
    ok = [r for r in rows if r["status"] == "ok"]
    before = sum(r["sites_before"] for r in ok)
    after = sum(r["sites_after"] for r in ok)
    return {
        "models_with_breaks": len(rows), "models_rerun_ok": len(ok),
        "models_failing_after_fix": [r["model"] for r in rows if r["status"] != "ok"],
        "sites_before": before, "sites_after": after,
        "fraction_removed": round(1 - after / before, 4) if before else None,
        "outputs_match": sum(1 for r in ok if r["outputs_match"]),
        # A difference counts against the fix only when the original, run again, gives its own
        # reference back; an original that differs from itself (an unseeded RNG) is listed apart.
        "outputs_differ": [r["model"] for r in ok if r["outputs_match"] is False and r.get("original_repeats", True)],
        "original_nondeterministic": [r["model"] for r in ok if r.get("original_repeats") is False],
        # Gradients (issue #12 item 5): models whose original gives some, compared after the fix.
        "grads_compared": sum(1 for r in ok if r.get("grads_match") is not None),
        "grads_match": sum(1 for r in ok if r.get("grads_match")),
        "grads_differ": [r["model"] for r in ok if r.get("grads_match") is False and r.get("original_repeats", True)],
        "remaining_by_gb_type": remaining_by_gb_type(fixed),
    }


def _library_relative(path: str, target: str) -> str:
    """A site's file relative to the library copy it was observed in."""
    return os.path.relpath(path, target) if os.path.isabs(path) else path


def remaining_by_gb_type(fixed: dict) -> dict:
    """Distinct break sites left after the fixes, per Dynamo gb_type: why the removal figure misses."""
    seen, counts = set(), Counter()
    for library, result in fixed.items():
        for row in result["models"]:
            for site in row.get("remaining") or []:
                where, _, kind = site.partition(" ")
                if (library, where) not in seen:
                    seen.add((library, where))
                    counts[kind.strip("[]'\"") or "unknown"] += 1
    return dict(counts.most_common())


def truth_stats(truth: dict) -> dict:
    statuses = Counter(m.get("status") for m in truth.values())
    ok = [m for m in truth.values() if m.get("status") == "ok"]
    gb_types, unique_sites, outside = Counter(), set(), set()
    for model in ok:
        for site in model["sites"]:
            key = (site["file"], site["line"])
            if site.get("outside_library"):
                outside.add(key)
            elif key not in unique_sites:
                unique_sites.add(key)
                gb_types[(site["gb_types"] or ["unknown"])[0]] += 1
    return {
        "models_attempted": len(truth), "statuses": dict(statuses), "models_ok": len(ok),
        "models_with_breaks": sum(1 for m in ok if any(not s.get("outside_library") for s in m["sites"])),
        "unique_break_sites": len(unique_sites), "sites_outside_library": len(outside),
        "by_gb_type": dict(gb_types.most_common()),
        "failed_models": {k: m.get("error", "")[:200] for k, m in truth.items() if m.get("status") != "ok"},
    }


def versions_seen(truth: dict) -> dict:
    seen: dict[str, set] = {}
    for model in truth.values():
        if model.get("status") == "ok":
            for dist, version in model["versions"].items():
                seen.setdefault(dist, set()).add(version)
    return {dist: sorted(v) for dist, v in sorted(seen.items())}


def breaklint_version(python: str) -> str:
    completed = subprocess.run([python, "-m", "breaklint", "--version"], capture_output=True, text=True,
                               env=breaklint_env())
    return (completed.stdout or completed.stderr).strip().splitlines()[-1] if completed.returncode == 0 else "unknown"


def _cell(value) -> str:
    return "–" if value is None else str(value)


def _scope_cell(result: dict) -> str:
    scope = result.get("scope")
    return f"{_cell(scope['recall'])} ({scope['in_scope']}/{scope['traced']})" if scope else "–"


def markdown(report: dict) -> str:
    """The block for BENCHMARKS.md. For the test split it holds aggregates only: no pattern of misses
    or false positives is ever printed (bench/SPLITS.md)."""
    s, g, t, r = report["score"]["overall"], report["score"]["grep_baseline"]["overall"], report["truth"], report.get("removed")
    split = report.get("split", "dev")
    lines = [
        f"### Real-world precision and recall (Dynamo ground truth), {split} split",
        "",
        f"- Date: {report['date']}; machine: {report['machine']}; {report['breaklint']}; "
        f"src/ at commit {report.get('src_commit', 'unknown')}",
        "- torch and libraries: " + ", ".join(f"{k} {'/'.join(v)}" for k, v in report["versions"].items()),
        f"- Command: `{report['command']}` (`--rescore` reruns only the static side)",
        f"- Models: {t['models_ok']} ran ({t['models_attempted']} attempted), {t['models_with_breaks']} with breaks; "
        f"{t['unique_break_sites']} unique break sites in library source",
        "- precision: findings after a frame skip left out; *+skip*: counted as false positives",
        "",
        "| library | models | break sites | recall | grep recall | precision (judged) | +skip (after skip) "
        "| grep precision | scope recall (in scope/traced) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    grep = report["score"]["grep_baseline"]["per_library"]
    for library, result in report["score"]["per_library"].items():
        lines.append(f"| {library} | {result['models']} | {result['break_sites']} | {_cell(result['recall'])} | "
                     f"{_cell(grep[library]['recall'])} | {_cell(result['precision'])} "
                     f"({result['findings_on_executed_lines']}) | {_cell(result.get('precision_counting_after_skip'))} "
                     f"({result.get('after_skip', 0)}) | {_cell(grep[library]['precision'])} | {_scope_cell(result)} |")
    lines.append(f"| **overall** | {t['models_ok']} | {s['break_sites']} | **{_cell(s['recall'])}** | {_cell(g['recall'])} | "
                 f"**{_cell(s['precision'])}** ({s['findings_on_executed_lines']}) | "
                 f"{_cell(s.get('precision_counting_after_skip'))} ({s.get('after_skip', 0)}) | {_cell(g['precision'])} | "
                 f"{_scope_cell({'scope': dict(s['scope'], recall=s['scope_recall'])} if s.get('scope') else {})} |")
    lines += ["", _guarded_line(s)]
    agreement = {k: v for k, v in report["score"]["per_library"].items() if v.get("traced_agreement")}
    if agreement:
        lines += ["", "Really-traced functions two ways: from the lines the eager forward executed (the scope "
                      "recall above) and from the code objects Dynamo started to trace:", "",
                  "| library | executed lines | Dynamo code objects | both | scope recall against Dynamo's code objects |",
                  "|---|---|---|---|---|"]
        for library, result in agreement.items():
            a = result["traced_agreement"]
            lines.append(f"| {library} | {a['executed']} | {a['dynamo']} | {a['both']} | "
                         f"{_scope_cell({'scope': result['scope_dynamo']})} |")
        if s.get("scope_dynamo"):
            lines.append(f"| **overall** | | | | {_scope_cell({'scope': dict(s['scope_dynamo'], recall=s['scope_recall_dynamo'])})} |")
    lines += ["", "Break sites by Dynamo gb_type: " + ", ".join(f"{k} {v}" for k, v in t["by_gb_type"].items())]
    if report.get("details", True):
        patterns = report["score"]["patterns"]
        lines += ["", "Misses by gb_type: " + (", ".join(f"{k} {len(v)}" for k, v in sorted(
            patterns["misses_by_gb_type"].items(), key=lambda item: -len(item[1]))) or "none"),
                  "False positives by code: " + (", ".join(f"{k} {len(v)}" for k, v in sorted(
                      patterns["false_positives_by_code"].items(), key=lambda item: -len(item[1]))) or "none"),
                  "(every miss and false positive, with its source line, is listed in the JSON report)"]
    failed = t.get("failed_models") or {}
    if failed:
        lines += ["", f"Models that did not run ({len(failed)}): " + "; ".join(
            f"{k.split(':', 1)[1]} ({v.split(':')[0] or 'error'})" for k, v in sorted(failed.items()))]
    if r:
        lines += ["", f"Breaks removed by `--fix --unsafe-fixes`: {r['sites_before']} -> {r['sites_after']} break sites "
                      f"on {r['models_rerun_ok']} models that broke (fraction removed {r['fraction_removed']}); "
                      f"outputs allclose on {r['outputs_match']}/{r['models_rerun_ok']} "
                      f"(differ because of the fix: {len(r['outputs_differ'])}; the original differs from "
                      f"itself on a second run: {len(r.get('original_nondeterministic', []))}); "
                      f"gradients allclose on {r.get('grads_match', 0)}/{r.get('grads_compared', 0)} compared; "
                      f"failing after fix: {len(r['models_failing_after_fix'])}"]
        if r.get("remaining_by_gb_type") and report.get("details", True):  # dev only: a hint to tune on
            lines += ["", "Distinct break sites left after the fixes, by gb_type: " + ", ".join(
                f"{k} {v}" for k, v in r["remaining_by_gb_type"].items())]
    return "\n".join(lines) + "\n"


def side_by_side(reports: dict[str, dict]) -> str:
    """Dev and test split in one table: aggregates per library only, grep beside each figure."""
    commits = sorted({report.get("src_commit", "unknown") for report in reports.values()})
    lines = [f"src/ at commit {', '.join(commits)}; "
             + "; ".join(f"{split}: `{report['command']}` on {report['date']}" for split, report in reports.items()),
             "",
             "| split | library | models | break sites | recall | grep recall | precision (judged) | +skip "
             "| grep precision | scope recall |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for split, report in reports.items():
        grep = report["score"]["grep_baseline"]["per_library"]
        for library, result in report["score"]["per_library"].items():
            lines.append(f"| {split} | {library} | {result['models']} | {result['break_sites']} | "
                         f"{_cell(result['recall'])} | {_cell(grep[library]['recall'])} | {_cell(result['precision'])} "
                         f"({result['findings_on_executed_lines']}) | {_cell(result.get('precision_counting_after_skip'))} | "
                         f"{_cell(grep[library]['precision'])} | {_scope_cell(result)} |")
        s, g = report["score"]["overall"], report["score"]["grep_baseline"]["overall"]
        scope = _scope_cell({"scope": dict(s["scope"], recall=s["scope_recall"])} if s.get("scope") else {})
        lines.append(f"| **{split}** | **overall** | {report['truth']['models_ok']} | {s['break_sites']} | "
                     f"**{_cell(s['recall'])}** | {_cell(g['recall'])} | **{_cell(s['precision'])}** "
                     f"({s['findings_on_executed_lines']}) | {_cell(s.get('precision_counting_after_skip'))} | "
                     f"{_cell(g['precision'])} | {scope} |")
    lines.append("")
    lines += [f"- {split}: {_guarded_line(report['score']['overall'])}" for split, report in reports.items()]
    return "\n".join(lines) + "\n"


def _guarded_line(overall: dict) -> str:
    """How many false positives name the condition they break under (`breaks_when`), unmet in this run."""
    guarded = overall.get("guarded_false_positives", 0)
    wrong = overall["findings_on_executed_lines"] - overall["true_positives"]
    return (f"Guarded false positives: {guarded} of {wrong} name the condition they break under "
            f"(`breaks_when`: a dtype, mode or flag test this run's inputs did not meet; reported on purpose, "
            f"issue #11 item 4); precision without them: "
            f"{_cell(round(overall['true_positives'] / (overall['findings_on_executed_lines'] - guarded), 4)) if overall['findings_on_executed_lines'] > guarded else '–'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["dev", "test", "both"], default="dev",
                        help="dev: the libraries tuned on; test: the frozen test split (bench/SPLITS.md); both")
    parser.add_argument("--out", help="report (default: results/realworld.json for dev; for test, "
                                      "$cache/test_split.json, outside the repo, with results/test_split.md; "
                                      "<split>_subset.json with --spec or --model)")
    parser.add_argument("--truth", help="cached truth (default: results/realworld_truth.json, results/test_truth.json)")
    parser.add_argument("--fixed", default=None, help="per-model fix results (dev: results/realworld_fixed.json; "
                        "test: the cache dir's test_fixed.json, never read: bench/SPLITS.md)")
    parser.add_argument("--cache-dir", default=os.environ.get("BREAKLINT_BENCH_CACHE", "/work/benchcache"),
                        help="reference outputs and fixed library copies (outside the repo)")
    parser.add_argument("--rescore", action="store_true", help="reuse cached truth and fix runs; rerun breaklint only")
    parser.add_argument("--refix", action="store_true", help="reuse cached truth; rerun the fix-and-rerun stage")
    parser.add_argument("--refresh", action="store_true", help="observe every model again")
    parser.add_argument("--no-fix", action="store_true", help="skip the breaks-removed stage")
    parser.add_argument("--spec", action="append", help="only these spec modules (e.g. models.pyg_models)")
    parser.add_argument("--model", action="append", help="only these model names")
    parser.add_argument("--observe-only", action="store_true", help="only fill the ground-truth cache")
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--dynamo-config", metavar="NAME=1,...",
                        help="only observe the models that broke again with these torch._dynamo.config settings "
                             "(e.g. capture_scalar_outputs=1,capture_dynamic_output_shape_ops=1)")
    parser.add_argument("--breaklint-python", default=os.environ.get("BREAKLINT_PYTHON", "/work/venv/bin/python"))
    options = parser.parse_args()
    if options.split == "both":
        if options.out or options.truth or options.spec or options.model:
            fail("--split both takes neither --out, --truth, --spec nor --model")
        reports = {split: run_split(options, split) for split in ("dev", "test")}
        table = side_by_side(reports)
        with open(os.path.join(RESULTS, "splits.md"), "w", encoding="utf-8") as handle:
            handle.write(table)
        print(table)
        return 0
    run_split(options, options.split)
    return 0


def run_split(options, split: str) -> dict:
    config = SPLITS[split]
    subset = bool(options.spec or options.model)
    if config["details"]:
        out = options.out or (os.path.join(RESULTS, f"{split}_subset.json") if subset else config["out"])
        summary_path = os.path.splitext(out)[0] + ".md"
    else:
        out = options.out or os.path.join(options.cache_dir, f"{split}_subset.json" if subset else f"{split}_split.json")
        summary_path = (os.path.splitext(out)[0] + ".md" if options.out or subset
                        else os.path.join(RESULTS, f"{split}_split.md"))
    truth_path = options.truth or config["truth"]
    names = options.spec or config["specs"]
    try:
        specs = [importlib.import_module(name) for name in names]
    except ImportError as error:
        fail(f"spec {error.name} not found: {error}")
    specs_by_name = {spec.__name__: spec for spec in specs}
    outputs_dir = os.path.join(options.cache_dir, "outputs")
    if options.rescore or options.refix:
        if not os.path.exists(truth_path):
            fail(f"no cached truth at {truth_path}: run without --rescore to observe the models first")
        truth = load_truth(truth_path)
    else:
        truth = observe_all(specs, truth_path, outputs_dir, options.timeout, options.refresh, options.model)
    # Only models that their spec still lists (a spec may drop or rename one).
    truth = {k: v for k, v in truth.items()
             if v.get("spec") in specs_by_name and k.split(":", 1)[1] in specs_by_name[v["spec"]].MODELS
             and (not options.model or k.split(":", 1)[1] in options.model)}
    if not truth:
        fail(f"the truth at {truth_path} has no model of {', '.join(names)}")
    try:
        truth = resolve_truth(truth, specs_by_name)
    except TruthError as error:
        fail(str(error))
    if options.observe_only:
        print(json.dumps(truth_stats(truth), indent=1))
        return {}
    if options.dynamo_config:
        summary = with_dynamo_config(truth, specs_by_name, options.dynamo_config, options.timeout,
                                     os.path.join(RESULTS, "realworld_dynamo_config.json"))
        print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
        return {}

    started = time.perf_counter()
    report = {
        "split": split,
        "details": config["details"],
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} (CPU only)",
        "command": "python bench/realworld.py " + " ".join(sys.argv[1:]),
        "breaklint": breaklint_version(options.breaklint_python),
        "src_commit": src_commit(os.path.dirname(BENCH)),
        "versions": versions_seen(truth),
        "truth": truth_stats(truth),
        "score": score(truth, options.breaklint_python),
    }
    report["score_seconds"] = round(time.perf_counter() - started, 1)
    if report["score"]["overall"]["break_sites"] != report["truth"]["unique_break_sites"]:
        fail(f"scored {report['score']['overall']['break_sites']} break sites of the truth's "
             f"{report['truth']['unique_break_sites']}: nothing written")
    # The test split's fix proof (#12 item 7) runs only when asked (--refix); its per-model rows stay in
    # the cache dir like its per-site detail, and only the aggregate line reaches results/test_split.md.
    if (config["fix"] or (split == "test" and options.refix)) and not options.no_fix:
        fixed_path = options.fixed or (os.path.join(RESULTS, "realworld_fixed.json") if split == "dev"
                                       else os.path.join(options.cache_dir, "test_fixed.json"))
        fixed = load_json(fixed_path, None) if options.rescore and not options.refix else None
        if fixed is None:
            fixed = breaks_removed(truth, specs_by_name, options.breaklint_python, fixed_path, outputs_dir,
                                   options.timeout, os.path.join(options.cache_dir, "fixed"), options.model,
                                   per_model=config["details"])
        report["removed"] = removal_summary(fixed)
        report["removed_detail"] = fixed
    save_json(out, report)
    summary = markdown(report)
    with open(summary_path, "w", encoding="utf-8") as handle:
        handle.write(summary)
    print(summary)
    return report


if __name__ == "__main__":
    sys.exit(main())
