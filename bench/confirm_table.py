"""Turn `breaklint confirm --json` output into the BENCHMARKS.md table (one row per target).

    python bench/confirm_table.py bench/results/gpu_confirm.json [more.json ...]

Several files (one per device call) are read as one run.
"""
import json
import statistics
import sys


def ms(t):
    """median, then the interquartile range and the runs when the run recorded them; * = noisy."""
    if not t:
        return "-"
    text = f"{t['median_ms']:.3f}"
    if t.get("iqr_ms") is not None:
        text += f" ±{t['iqr_ms'] / 2:.3f}" + (f" n={t['runs']}" if t.get("runs") else "")
    return text + ("*" if t.get("noisy") else "")


def secs(t):
    return f"{t['first_call_ms'] / 1000:.1f}" if t and t.get("first_call_ms") is not None else "-"


def main(*paths):
    data = {"targets": [t for path in paths for t in json.load(open(path, encoding="utf-8"))["targets"]]}
    rows = []
    ratios = []
    for t in data["targets"]:
        info, tm, sp = t.get("info") or {}, t.get("timings") or {}, t.get("speedups") or {}
        ratio = sp.get("compiled_fixed_vs_compiled_original")
        if ratio:
            ratios.append(ratio)
        if t.get("info") and t["info"].get("cuda_visible_devices") is not None:
            info = dict(info, device_name=f"{info.get('device_name', '?')} (GPU {info['cuda_visible_devices']})")
        before = len(t["before"]["breaks"]) if t.get("before") else "-"
        after = len((t.get("after") or t.get("before") or {}).get("breaks", [])) if t.get("before") else "-"
        rows.append("| {} | {} -> {} | {} | {} | {} | {} | {} | {} | {} | {} | {} {} |".format(
            t["target"], before, after, ms(tm.get("eager")), ms(tm.get("compiled_original")),
            ms(tm.get("compiled_fixed")),
            f"{sp['compiled_original_vs_eager']:.2f}x" if "compiled_original_vs_eager" in sp else "-",
            f"{sp['compiled_fixed_vs_eager']:.2f}x" if "compiled_fixed_vs_eager" in sp else "-",
            f"{ratio:.2f}x" if ratio else "-", secs(tm.get("compiled_original")), secs(tm.get("compiled_fixed")),
            info.get("device_name", "?"), info.get("torch_version", "?")))
    print("| target | breaks | eager ms | compiled ms | fixed ms | compiled/eager | fixed/eager | fixed vs compiled "
          "| compile s (orig) | compile s (fixed) | device, torch |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\nTimes are medians in ms; ±: half the interquartile range, n: timed runs, *: noisy (IQR over "
          "10% of the median). Breaks are sites (one per line of user code).")
    if ratios:
        print(f"\nMedian speedup of compiled fixed over compiled original: {statistics.median(ratios):.2f}x "
              f"over {len(ratios)} target(s).")


if __name__ == "__main__":
    main(*sys.argv[1:])
