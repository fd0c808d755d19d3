"""Plot bench/results/speed.json: lines per second per tool, one panel per corpus.

    python bench/speed_plot.py bench/results/speed.json   # writes speed.svg beside it

Kept apart from speed.py so that the timing venv does not need matplotlib.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display on CI or the bench machine
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"breaklint_cold": "#d62728", "breaklint_warm": "#ff9896", "ruff": "#1f77b4",
           "ruff_all": "#aec7e8", "torchfix": "#2ca02c", "fixit": "#9467bd"}


def plot(results: dict, out: Path) -> None:
    corpora = [c for c in ("subset", "full")
               if any(m["corpus"] == c for m in results["measurements"])]
    fig, axes = plt.subplots(len(corpora), 1, figsize=(8, 2.2 + 1.6 * len(corpora)),
                             squeeze=False)
    for ax, corpus in zip(axes[:, 0], corpora):
        rows = sorted((m for m in results["measurements"] if m["corpus"] == corpus),
                      key=lambda m: m["lines_per_s"])
        ys = range(len(rows))
        ax.barh(ys, [m["lines_per_s"] for m in rows],
                color=[COLOURS.get(m["tool"], "grey") for m in rows])
        ax.set_yticks(list(ys), [m["label"] for m in rows], fontsize=8)
        ax.set_xscale("log")
        for y, m in zip(ys, rows):
            ax.text(m["lines_per_s"], y, f"  {m['lines_per_s']:,} lines/s ({m['wall_best_s']:.2f} s)",
                    va="center", fontsize=7)
        info = results["corpora"][corpus]
        ax.set_title(f"{info['description']} ({info['lines']:,} lines)", fontsize=9)
        speeds = [m["lines_per_s"] for m in rows]
        ax.set_xlim(left=min(speeds) / 4, right=max(speeds) * 40)  # log bars need a left edge
        ax.grid(axis="x", which="major", alpha=0.3)
    axes[-1, 0].set_xlabel(f"lines per second (log scale), {results['jobs']} core(s), "
                           "best wall time; higher is faster")
    fig.suptitle(f"breaklint check vs peers, {results['date']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main() -> int:
    json_path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "results" / "speed.json"
    out = json_path.with_suffix(".svg")
    plot(json.loads(json_path.read_text()), out)
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
