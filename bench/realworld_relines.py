"""Observe again, with Dynamo's resume-function line numbers corrected and no break's user stack suppressed,
every model whose recorded truth could hold a wrong or a lost break site, and replace only its break sites.

Dynamo 2.13/2.14 on Python 3.11 reports a break inside a resume function (code after an earlier break of
the same frame) at a wrong line when a method call chained on its own line comes before it
(src/breaklint/confirm/dynamo_lines.py). And Dynamo logs a second break of the same gb_type at the same
frame location without its user stack ("user stack suppressed due to duplicate graph break"): where that
location is inside torch (a polyfill), the truth could not name the library line behind it, and lost the
site. realworld_observe.py now corrects both while it observes; this script brings truth recorded before
up to date. Only a model with at least two break records can have run a resume function or a duplicate.
Its executed lines, code objects and outputs are kept: they depend on neither fault. A model whose run
fails or times out keeps its old entry.

    python bench/realworld_relines.py --split dev       # results/realworld_truth.json
    python bench/realworld_relines.py --split test      # results/test_truth.json: prints counts only
    python bench/realworld_relines.py --split heldout   # results/heldout_truth.json

Prints how many models and break sites changed, never which (the test split's rule, bench/SPLITS.md).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import importlib
import os
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

import realworld  # noqa: E402
from realworld_truth import summarise  # noqa: E402

TRUTH = {"dev": "realworld_truth.json", "test": "test_truth.json", "heldout": "heldout_truth.json"}


def candidates(truth: dict) -> list[str]:
    return sorted(key for key, model in truth.items()
                  if isinstance(model, dict) and model.get("status") == "ok"
                  and (model.get("break_records") or 0) >= 2 and "break_log_complete" not in model)


def _site_keys(model: dict) -> set:
    return {(site["file"], site["line"]) for site in model.get("sites", [])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=sorted(TRUTH), required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--truth", help="read this truth instead of the split's (a copy kept from before)")
    parser.add_argument("--out", help="write the updated truth here instead of over the split's truth")
    parser.add_argument("--raw", action="store_true",
                        help="control run: observe with Dynamo's log as it is (BENCH_RAW_BREAK_LOG), to measure how "
                             "much a plain re-observation changes (requires --out)")
    options = parser.parse_args()
    if options.raw and not options.out:
        parser.error("--raw requires --out: a control run never replaces the truth")
    if options.raw:
        os.environ["BENCH_RAW_BREAK_LOG"] = "1"
    split_truth = os.path.join(BENCH, "results", TRUTH[options.split])
    truth = realworld.load_truth(options.truth or split_truth)
    path = options.out or split_truth
    todo = candidates(truth)
    print(f"[relines] {options.split}: {len(todo)} models with two or more break records", flush=True)

    def observe(key: str):
        spec_name, _, model = key.partition(":")
        return key, realworld.run_child(importlib.import_module(spec_name), model, options.timeout)

    changed_models = kept = 0
    before_sites = after_sites = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for done, (key, observation) in enumerate(pool.map(observe, todo), 1):
            fresh = summarise(observation)
            if fresh.get("status") != "ok":
                kept += 1
                continue
            old = truth[key]
            updated = dict(old, break_records=fresh["break_records"], sites=fresh["sites"],
                           break_log_complete=not options.raw)
            before_sites += len(_site_keys(old))
            after_sites += len(_site_keys(updated))
            changed_models += _site_keys(old) != _site_keys(updated)
            truth[key] = updated
            if done % 20 == 0:
                print(f"[relines] {done}/{len(todo)}", flush=True)
                realworld.save_json(path, truth)
    realworld.save_json(path, truth)
    print(f"[relines] {options.split}: {changed_models} of {len(todo) - kept} models re-observed have other break "
          f"sites; sites over those models {before_sites} -> {after_sites}; {kept} kept their old entry "
          f"(run failed)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
