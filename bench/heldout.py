"""The held-out check: precision and recall on Hugging Face transformers, measured exactly as
bench/realworld.py measures the other libraries, and never used to tune a rule.

    python bench/heldout.py             # observe every model (cached), then score
    python bench/heldout.py --rescore   # after a change: static side only

Writes bench/results/heldout_transformers.{json,md} and caches Dynamo's truth in
bench/results/heldout_truth.json. Needs transformers in the benchmark venv
(`/work/benchenv/bin/pip install transformers==5.0.0`; see bench/README-realworld.md).
"""
from __future__ import annotations

import os
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

import realworld  # noqa: E402

RESULTS = os.path.join(BENCH, "results")


def main() -> int:
    sys.argv = [sys.argv[0], "--spec", "heldout.transformers_models", "--no-fix",
                "--truth", os.path.join(RESULTS, "heldout_truth.json"),
                "--out", os.path.join(RESULTS, "heldout_transformers.json"), *sys.argv[1:]]
    return realworld.main()


if __name__ == "__main__":
    sys.exit(main())
