"""Compare the two runs of bench/gpu_multi.sh (issue #17) and print the BENCHMARKS.md block.

    python bench/gpu_multi.py bench/results/gpu_multi_multi.json bench/results/gpu_multi_single.json

Checks, from each target's report: which physical GPU (UUID) its workers saw, that no two targets
whose wall-clock spans overlap shared one, and whether each target's compiled timings in the
multi-GPU run lie within the single-GPU run's noise (the larger of the two IQRs, or 5% of the median).
Exit 1 when two concurrent targets shared a GPU.
"""
import json
import sys


def load(path):
    return {t["target"]: t for t in json.load(open(path, encoding="utf-8"))["targets"]}


def overlapping(a, b):
    sa, sb = a.get("span") or {}, b.get("span") or {}
    if not all(k in s for s in (sa, sb) for k in ("start", "end")):
        return False
    return sa["start"] < sb["end"] and sb["start"] < sa["end"]


def wall(targets):
    spans = [t["span"] for t in targets.values() if t.get("span", {}).get("end")]
    return max(s["end"] for s in spans) - min(s["start"] for s in spans) if spans else float("nan")


def fmt(t):
    return f"{t['median_ms']:.3f}" if t else "-"


def within_noise(a, b):
    if not a or not b:
        return None
    tolerance = max(a.get("iqr_ms") or 0, b.get("iqr_ms") or 0, 0.05 * b["median_ms"])
    return abs(a["median_ms"] - b["median_ms"]) <= tolerance


def main(multi_path, single_path):
    multi, single = load(multi_path), load(single_path)
    shared = []
    names = sorted(multi)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ua, ub = multi[a]["info"].get("gpu_uuid"), multi[b]["info"].get("gpu_uuid")
            if overlapping(multi[a], multi[b]) and ua and ua == ub:
                shared.append((a, b))
    print(f"wall (first start to last end): both GPUs {wall(multi):.0f} s, one GPU {wall(single):.0f} s")
    print()
    print("| target | GPU (multi run) | span s | compiled orig ms multi / single | fixed ms multi / single | within noise | speedup multi / single |")
    print("|---|---|---|---|---|---|---|")
    first = min(t["span"]["start"] for t in multi.values())  # spans are shown from the first start
    for name in names:
        m, s = multi[name], single.get(name, {})
        tm, ts = m.get("timings") or {}, s.get("timings") or {}
        span = m.get("span") or {}
        ok = [within_noise(tm.get(k), ts.get(k)) for k in ("compiled_original", "compiled_fixed")]
        sm = (m.get("speedups") or {}).get("compiled_fixed_vs_compiled_original")
        ss = (s.get("speedups") or {}).get("compiled_fixed_vs_compiled_original")
        print(f"| {name} | {m['info'].get('cuda_visible_devices')} ({(m['info'].get('gpu_uuid') or '?')[:13]}) "
              f"| {span.get('start', 0) - first:.0f}–{span.get('end', 0) - first:.0f} "
              f"| {fmt(tm.get('compiled_original'))} / {fmt(ts.get('compiled_original'))} "
              f"| {fmt(tm.get('compiled_fixed'))} / {fmt(ts.get('compiled_fixed'))} "
              f"| {'/'.join('yes' if x else ('no' if x is not None else '-') for x in ok)} "
              f"| {sm or 0:.2f}x / {ss or 0:.2f}x |")
    print()
    print("concurrent targets that shared a GPU: " + (", ".join(f"{a} & {b}" for a, b in shared) or "none"))
    return 1 if shared else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
