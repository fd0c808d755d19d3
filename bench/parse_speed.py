"""Why detection runs on stdlib `ast`: parse throughput of ast vs LibCST on the same files.

    python bench/parse_speed.py [DIR]   (default: the installed torch package's nn/ and _dynamo/)
"""
from __future__ import annotations

import ast
import glob
import os
import sys
import time

import libcst


def corpus(root: str | None) -> list[str]:
    if root is None:
        import importlib.util

        torch_dir = os.path.dirname(importlib.util.find_spec("torch").origin)
        files = glob.glob(os.path.join(torch_dir, "nn", "**", "*.py"), recursive=True)
        files += glob.glob(os.path.join(torch_dir, "_dynamo", "*.py"))
    else:
        files = glob.glob(os.path.join(root, "**", "*.py"), recursive=True)
    return sorted(files)


def best_of(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    files = corpus(sys.argv[1] if len(sys.argv) > 1 else None)
    sources = [open(f, encoding="utf-8").read() for f in files]
    lines = sum(s.count("\n") + 1 for s in sources)
    t_ast = best_of(3, lambda: [ast.parse(s) for s in sources])
    t_cst = best_of(1, lambda: [libcst.parse_module(s) for s in sources])
    print(f"{len(files)} files, {lines} lines, one core")
    print(f"ast.parse            {lines / t_ast:>10,.0f} lines/s")
    print(f"libcst.parse_module  {lines / t_cst:>10,.0f} lines/s  ({t_cst / t_ast:.1f}x slower)")


if __name__ == "__main__":
    main()
