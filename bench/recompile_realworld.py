"""Recall and precision of the recompile rules (BL601-BL604) on real model code (issue #15).

    python bench/recompile_realworld.py --per-library 8      # observe (cached per model) and score
    python bench/recompile_realworld.py --rescore            # static side only, from the cached observations

Dev split only (bench/SPLITS.md): the test split's libraries and transformers are never run here.
Each model runs in a child (bench/recompile_observe.py, niced, one thread, time-boxed): compiled
once with a counting backend and called 3 times (same shapes; new tensor values on calls 2 and 3,
and a new value on each of them for Python float arguments and int `timestep`-like ones). A recompile *site* is the library line that the
failing guard's user stack ends in (recompiles_verbose); a recompile whose guard comes from no
library line (an input's shape, torch internals) is counted apart.
Score, per library version, with `breaklint check --select BL601,BL602,BL603,BL604` on the files the
models executed (executed lines from the dev truth, bench/results/realworld_truth.json):
  a site counts only when its guard still fails on the third call (a recompile per call, what the
  rules claim); failures during the first call (one helper met with two dtypes) or only on the second
  (automatic dynamic's one retry) are counted apart, by call;
  recall    = sites with a BL60x finding in the same function / sites;
  precision = findings on executed lines whose function holds a site / findings on executed lines.
Writes bench/results/recompile_realworld.json (observations + score) and prints a markdown block.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

from realworld import ENV_PYTHON, RESULTS, SPECS, library_key, load_truth, resolve_truth  # noqa: E402
from realworld_score import covered_lines, enclosing_function, run_breaklint  # noqa: E402
from realworld_truth import expand_lines  # noqa: E402

OUT = os.path.join(RESULTS, "recompile_realworld.json")
RULES = "BL601,BL602,BL603,BL604"


def run_child(spec, model: str, timeout: int, calls: int) -> dict:
    command = ["nice", "-n", "10", ENV_PYTHON[spec.ENV], os.path.join(BENCH, "recompile_observe.py"),
               "--spec", spec.__name__, "--model", model, "--calls", str(calls)]
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", HF_HUB_OFFLINE="1",
               PYTHONPATH=os.pathsep.join(getattr(spec, "EXTRA_PATH", [])))
    started = time.perf_counter()
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"model": model, "status": "timeout", "error": f"over {timeout}s"}
    lines = [line for line in completed.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"model": model, "status": "crash", "error": f"rc={completed.returncode}: {completed.stderr[-800:]}"}
    result = json.loads(lines[-1])
    result["wall_s"] = round(time.perf_counter() - started, 1)
    return result


def observe(specs, observed: dict, per_library: int, timeout: int, calls: int, budget_s: float) -> None:
    started = time.perf_counter()
    for spec in specs:
        for model in spec.MODELS[:per_library] if per_library else spec.MODELS:
            key = f"{spec.__name__}:{model}"
            if key in observed:
                continue
            if time.perf_counter() - started > budget_s:
                print(f"time box of {budget_s:.0f}s reached; {key} and the rest not observed", flush=True)
                return
            result = run_child(spec, model, timeout, calls)
            result["spec"] = spec.__name__
            observed[key] = result
            recompiles = len(result.get("recompiles", []))
            print(f"{key:60s} {result['status']:8s} recompiles={recompiles} {result.get('error', '')[:100]}",
                  flush=True)
            save(observed)


def save(observed: dict, score: dict | None = None) -> None:
    data = {"observed": observed}
    if os.path.exists(OUT):
        with open(OUT, encoding="utf-8") as handle:
            data = dict(json.load(handle), observed=observed)
    if score is not None:
        data["score"] = score
    with open(OUT + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
    os.replace(OUT + ".tmp", OUT)


LAST_CALL = 2  # 0-based: a guard that still fails on the third call is a recompile per call, what BL60x name


def with_call_index(result: dict):
    """(0-based call, recompile) for each recompile, from the per-call counts (the log is in order)."""
    records = iter(result.get("recompiles", []))
    for call, counts in enumerate(result.get("per_call", [])):
        for _ in range(counts["recompiles"]):
            record = next(records, None)
            if record is not None:
                yield call, record


def guard_kind(guard: str) -> str:
    if "size mismatch" in guard or "stride mismatch" in guard or "tensor '" in guard:
        return "tensor shape/stride/dtype"
    if "___check_obj_id" in guard or "ID_MATCH" in guard or "id(" in guard:
        return "object identity"
    if "==" in guard:
        return "Python value"
    return "other"


def function_of(file: str, line: int):
    span = enclosing_function(file, line)
    return (file, span[0]) if span else (file, line)


def score(observed: dict, truth: dict, breaklint_python: str) -> dict:
    by_library: dict[str, list[tuple[dict, dict]]] = defaultdict(list)
    for key, result in observed.items():
        if result.get("status") != "ok" or truth.get(key, {}).get("status") != "ok":
            continue
        by_library[library_key(truth[key])].append((result, truth[key]))
    libraries, totals = {}, Counter()
    unattributed: Counter = Counter()
    when: Counter = Counter()  # guard failures by the call (0-based) they happened in
    for library, pairs in sorted(by_library.items()):
        sites: dict[tuple[str, int], dict] = {}
        executed: dict[str, set[int]] = defaultdict(set)
        for result, model in pairs:
            for file, ranges in model["executed"].items():
                executed[os.path.realpath(file)].update(expand_lines(ranges))
            for call, recompile in with_call_index(result):
                for failure in recompile["failures"]:
                    when[call] += 1
                    if call < LAST_CALL:
                        continue  # within the first call (a helper met twice) or automatic dynamic's one retry
                    if failure.get("site"):
                        site = sites.setdefault(tuple(failure["site"]), {"guards": set(), "models": set()})
                        site["guards"].add(failure["guard"])
                        site["models"].add(result["model"])
                    else:
                        unattributed[guard_kind(failure["guard"])] += 1
        files = sorted(f for f in executed if f.endswith(".py") and os.path.exists(f))
        findings = run_breaklint(breaklint_python, files, ("--select", RULES)) if files else []
        site_functions = {function_of(f, line) for f, line in sites}
        judged = [f for f in findings if any(line in executed.get(os.path.realpath(f["filename"]), ())
                                             for line in covered_lines(f))]
        finding_functions = {function_of(os.path.realpath(f["filename"]), f["location"]["row"]) for f in findings}
        found = [s for s in sites if function_of(*s) in finding_functions]
        confirmed = [f for f in judged
                     if function_of(os.path.realpath(f["filename"]), f["location"]["row"]) in site_functions]
        libraries[library] = {
            "models": len(pairs),
            "models_recompiling": sum(1 for r, _ in pairs if r.get("recompiles")),
            "models_recompiling_on_call_3": sum(1 for r, _ in pairs
                                                if any(c >= LAST_CALL for c, _ in with_call_index(r))),
            "sites": len(sites), "sites_found": len(found),
            "findings_on_executed_lines": len(judged), "findings_confirmed": len(confirmed),
            "site_detail": [{"file": f, "line": line, "guards": sorted(s["guards"])[:3], "models": sorted(s["models"]),
                             "found": (f, line) in found} for (f, line), s in sorted(sites.items())],
            "findings": [{"file": f["filename"], "line": f["location"]["row"], "code": f["code"],
                          "executed": f in judged, "confirmed": f in confirmed} for f in findings],
        }
        for name in ("models", "models_recompiling", "models_recompiling_on_call_3", "sites", "sites_found", "findings_on_executed_lines",
                     "findings_confirmed"):
            totals[name] += libraries[library][name]
    ratio = (lambda a, b: round(a / b, 3) if b else None)
    return {"rules": RULES, "libraries": libraries, "totals": dict(totals),
            "recall": ratio(totals["sites_found"], totals["sites"]),
            "precision": ratio(totals["findings_confirmed"], totals["findings_on_executed_lines"]),
            "recompiles_without_library_site": dict(unattributed),
            "guard_failures_by_call": {f"call {c + 1}": n for c, n in sorted(when.items())}}


def markdown(observed: dict, result: dict) -> str:
    statuses = Counter(r.get("status") for r in observed.values())
    calls = Counter()
    for r in observed.values():
        for i, c in enumerate(r.get("per_call", [])):
            calls[f"call {i + 1} graphs"] += c["graphs"]
            calls[f"call {i + 1} recompiles"] += c["recompiles"]
    floats = sum(1 for r in observed.values() if r.get("floats_changed"))
    lines = [f"Models: {len(observed)} observed ({dict(statuses)}); {floats} had a Python float or step-like int argument to vary.",
             f"Graphs and recompiles per call, summed: {dict(calls)}.",
             "", "| library | models | recompiling (any call) | recompiling on call 3 | sites | found | "
             "findings on executed lines | confirmed |", "|---|---|---|---|---|---|---|---|"]
    for library, row in result["libraries"].items():
        lines.append(f"| {library} | {row['models']} | {row['models_recompiling']} | "
                     f"{row['models_recompiling_on_call_3']} | {row['sites']} | "
                     f"{row['sites_found']} | {row['findings_on_executed_lines']} | {row['findings_confirmed']} |")
    lines.append(f"\nrecall {result['recall']}, precision {result['precision']}; guard failures by call: "
                 f"{result['guard_failures_by_call']}; on the third call with no library line: "
                 f"{result['recompiles_without_library_site']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-library", type=int, default=0, help="only the first N models of each spec (0: all)")
    parser.add_argument("--spec", action="append", help="only these dev specs")
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--timeout", type=int, default=180)
    parser.add_argument("--budget-s", type=float, default=3600, help="stop observing after this many seconds")
    parser.add_argument("--rescore", action="store_true", help="no model runs: score the cached observations")
    parser.add_argument("--breaklint-python", default=os.environ.get("BREAKLINT_PYTHON", "/work/venv/bin/python"))
    options = parser.parse_args()
    import importlib
    names = options.spec or SPECS
    if any(name not in SPECS for name in names):
        print("dev split only (bench/SPLITS.md)", file=sys.stderr)
        return 2
    specs = [importlib.import_module(name) for name in names]
    observed = {}
    if os.path.exists(OUT):
        with open(OUT, encoding="utf-8") as handle:
            observed = json.load(handle).get("observed", {})
    if not options.rescore:
        observe(specs, observed, options.per_library, options.timeout, options.calls, options.budget_s)
    specs_by_name = {s.__name__: s for s in (importlib.import_module(n) for n in SPECS)}
    truth_all = load_truth(os.path.join(RESULTS, "realworld_truth.json"))
    wanted = {k: v for k, v in truth_all.items() if k in observed}
    truth = resolve_truth(wanted, specs_by_name)
    result = score(observed, truth, options.breaklint_python)
    save(observed, result)
    text = markdown(observed, result)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
