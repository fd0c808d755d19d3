"""Plot what the fixes are worth on a GPU: compiled fixed over compiled original, one bar per model.

    python bench/speedups_plot.py   # reads bench/results/gpu_confirm*.json and gpu_realworld_*.json

Writes bench/results/speedups.svg. The composite fixtures come from `breaklint confirm`
(bench/gpu_confirm.sh), the real-world models from bench/gpu_realworld.py; a model whose original
failed to compile is drawn as a note, not a bar.
"""
from __future__ import annotations

import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display on CI or the bench machine
import matplotlib.pyplot as plt  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def rows() -> list[tuple[str, str, float | None, str]]:
    """(group, label, speedup or None, breaks before -> after)."""
    found = []
    for path in sorted(glob.glob(os.path.join(RESULTS, "gpu_confirm*.json"))):
        for target in json.load(open(path, encoding="utf-8"))["targets"]:
            ratio = (target.get("speedups") or {}).get("compiled_fixed_vs_compiled_original")
            before = len(target["before"]["breaks"]) if target.get("before") else "?"
            after = len((target.get("after") or {}).get("breaks", [])) if target.get("after") else "?"
            name = target["target"].split(":")[0].replace("fixtures.", "")
            found.append(("fixtures (breaklint confirm)", name, ratio, f"{before} -> {after}"))
    for path in sorted(glob.glob(os.path.join(RESULTS, "gpu_realworld_*.json"))):
        for row in json.load(open(path, encoding="utf-8"))["rows"]:
            original, fixed = row["original"], row["fixed"]
            name = row["model"].split(":")[1] + f" ({row['model'].split('.')[1].split('_models')[0]})"
            if "error" in fixed:
                continue
            if "error" in original:
                found.append(("real-world libraries", name, None, f"? -> {fixed['breaks']}"))
                continue
            found.append(("real-world libraries", name, original["compiled_ms"] / fixed["compiled_ms"],
                          f"{original['breaks']} -> {fixed['breaks']}"))
    return found


def plot(data, out: str) -> None:
    fig, ax = plt.subplots(figsize=(8, 0.9 + 0.32 * len(data)))
    labels, values, colours = [], [], []
    for group, name, ratio, breaks in reversed(data):
        labels.append(f"{name}  [{breaks} breaks]")
        values.append(ratio or 0.0)
        colours.append("#d62728" if group.startswith("fixtures") else "#1f77b4")
    ys = range(len(data))
    ax.barh(ys, values, color=colours)
    ax.set_yticks(list(ys), labels, fontsize=7)
    for y, value in zip(ys, values):
        text = f" {value:.2f}x" if value else "  original fails to compile with Inductor; fixed runs"
        ax.text(value, y, text, va="center", fontsize=7)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlim(0, max(values) * 1.25)
    ax.set_xlabel("compiled fixed / compiled original speed (Inductor, CUDA); right of 1.0 is faster")
    ax.set_title("What breaklint's fixes are worth on a GPU (red: fixtures, blue: real-world models)", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main() -> int:
    data = rows()
    out = os.path.join(RESULTS, "speedups.svg")
    plot(data, out)
    print(f"wrote {out} ({len(data)} bars)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
