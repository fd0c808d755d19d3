"""Where does `breaklint check` spend its time? cProfile over the speed corpus.

    /work/venv/bin/python bench/speed_profile.py [--subset] [--top 30]

Runs one cold, single-job check in-process under cProfile (one job, so the
work is not hidden in worker processes), then prints the top functions by own
time and by cumulative time, and own time summed per source file. The raw
profile goes to bench/results/tmp/ (ignored by git) for snakeviz or pstats.
"""

from __future__ import annotations

import argparse
import io
import re
import os
import pstats
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed_corpus import DEFAULT_CORPUS_ROOT, ensure_corpus, modeling_subset  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "bench" / "results" / "tmp"


def short(filename: str) -> str:
    """Trim a path to the part a reader recognises (package/module.py)."""
    for marker in ("/site-packages/", "/src/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    stdlib = re.search(r"/lib/python3\.\d+/(.*)", filename)
    return f"stdlib {stdlib.group(1)}" if stdlib else filename


def per_file(stats: pstats.Stats) -> list[tuple[float, str]]:
    totals: dict[str, float] = defaultdict(float)
    for (filename, _line, name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():
        # C functions have no file ("~"): name them, as compile() (the parser) is one of them.
        totals[name if filename == "~" else short(filename)] += tottime
    return sorted(((t, f) for f, t in totals.items()), reverse=True)


def top(stats: pstats.Stats, key: str, n: int) -> str:
    buf = io.StringIO()
    stats.stream = buf
    stats.sort_stats(key).print_stats(n)
    # Drop pstats' preamble; keep the table.
    text = buf.getvalue()
    return text[text.find("   ncalls"):]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--subset", action="store_true", help="profile the 50-file subset only")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--report-only", action="store_true",
                   help="re-read the last raw profile instead of profiling again")
    p.add_argument("--breaklint-python", default="/work/venv/bin/python")
    p.add_argument("--breaklint-src", default="",
                   help="profile this source dir (e.g. src) instead of the installed breaklint")
    p.add_argument("--corpus-root", type=Path, default=DEFAULT_CORPUS_ROOT)
    args = p.parse_args()

    package_dir = ensure_corpus(args.corpus_root)
    paths = ([str(f) for f in modeling_subset(package_dir).files] if args.subset
             else [str(package_dir)])
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    prof = OUT_DIR / ("breaklint-subset.prof" if args.subset else "breaklint-full.prof")
    argv = [args.breaklint_python, "-m", "cProfile", "-o", str(prof), "-m", "breaklint",
            "check", *paths, "-j", "1", "--no-cache", "--exit-zero", "--quiet"]
    start = time.perf_counter()
    if args.report_only:
        return report(prof, None, args.top)
    env = {**os.environ, "PYTHONPATH": str(Path(args.breaklint_src).resolve())} if args.breaklint_src else None
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    return report(prof, time.perf_counter() - start, args.top)


def report(prof: Path, wall: float | None, n: int) -> int:
    stats = pstats.Stats(str(prof))
    if wall is not None:
        print(f"profiled wall time (with cProfile overhead): {wall:.2f} s")
    print(f"total profiled {stats.total_tt:.2f} s; raw profile: {prof}\n")
    print("== own time per source file ==")
    for seconds, filename in per_file(stats)[:n]:
        print(f"{seconds:8.2f} s  {100 * seconds / stats.total_tt:5.1f}%  {filename}")
    print("\n== top functions by own time ==")
    print(top(stats, "tottime", n))
    print("== top functions by cumulative time ==")
    print(top(stats, "cumulative", n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
