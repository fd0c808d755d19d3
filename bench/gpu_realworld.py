"""GPU speedups on real-world models whose graph breaks breaklint's fixes removed.

    python bench/gpu_realworld.py --original-root ORIG --fixed-root FIXED \
        --model models.torchdiffeq_models:dopri5 ... --json $OUT/gpu_realworld.json --markdown $OUT/gpu_realworld.md

FIXED is a fixed library copy that `bench/realworld.py --refix` made (a folder with the library's
packages inside), ORIG a copy of the same release as it was (default: the installed one). Each
model runs in two child processes, one with ORIG and one with FIXED first on sys.path: both are built from the same seed, moved to CUDA, observed under
torch.compile(backend="eager") for their graph breaks, run eagerly, then compiled with Inductor and
timed (triton.testing.do_bench median after warm-up, no grad). The parent checks that the two eager
outputs agree (allclose) and writes one row per model.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)


def _to(value, device, torch):
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(_to(v, device, torch) for v in value)
    if isinstance(value, dict):
        return {k: _to(v, device, torch) for k, v in value.items()}
    return value


def _tensors(value, torch) -> list:
    if isinstance(value, torch.Tensor):
        return [value.detach().float().cpu()]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v, torch)]
    if isinstance(value, dict):
        return [t for k in sorted(value) for t in _tensors(value[k], torch)]
    return []


def child(spec_name: str, model_name: str, library_root: str | None, outputs: str, mode: str, device: str) -> dict:
    """One variant of one model (its library from library_root when given); returns its breaks and
    timings, and saves its eager outputs to `outputs`."""
    if library_root:
        sys.path.insert(0, library_root)
    sys.path.insert(0, BENCH)
    sys.path.insert(0, os.path.join(REPO, "src"))
    import torch

    import breaklint
    from breaklint.confirm.timing import time_callable, time_first_call

    spec = importlib.import_module(spec_name)
    library = importlib.import_module(spec.PACKAGES[0])
    torch.manual_seed(0)
    model, args, kwargs = spec.build(model_name)
    model = model.to(device).eval()
    args, kwargs = _to(args, device, torch), _to(kwargs, device, torch)
    with torch.no_grad():
        observation = breaklint.observe(model, args, kwargs)
        eager_out = model(*args, **kwargs)
        torch.save(_tensors(eager_out, torch), outputs)
        eager = time_callable(lambda: model(*args, **kwargs), device)
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=None if mode == "default" else mode)
        first = time_first_call(lambda: compiled(*args, **kwargs), device)
        timed = time_callable(lambda: compiled(*args, **kwargs), device)
    return {
        "library_file": library.__file__,
        "breaks": observation.break_count,
        "graphs": observation.graphs,
        "eager_ms": eager.median_ms,
        "compiled_ms": timed.median_ms,
        "compile_s": first / 1000.0,
        "timing_method": timed.method,
        "device": torch.cuda.get_device_name() if device == "cuda" else "CPU",
        "torch": torch.__version__,
    }


def run_variant(spec_name, model_name, library_root, outputs, mode, device, timeout) -> dict:
    command = [sys.executable, os.path.abspath(__file__), "--child", "--spec", spec_name, "--name", model_name,
               "--outputs", outputs, "--mode", mode, "--device", device]
    if library_root:
        command += ["--library-root", library_root]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout}s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr or done.stdout)[-1500:]}
    result = json.loads(lines[-1])
    result["wall_s"] = round(time.perf_counter() - started, 1)
    return result


def compare(path_a: str, path_b: str) -> tuple[bool, float]:
    import torch

    a, b = torch.load(path_a), torch.load(path_b)
    if len(a) != len(b) or any(x.shape != y.shape for x, y in zip(a, b)):
        return False, float("inf")
    diff = max((float((x - y).abs().max()) if x.numel() else 0.0) for x, y in zip(a, b)) if a else 0.0
    return all(torch.allclose(x, y, rtol=1e-4, atol=1e-5) for x, y in zip(a, b)), diff


def markdown(rows: list[dict]) -> str:
    lines = ["| model | breaks | eager ms | compiled ms | fixed ms | compiled/eager | fixed/eager | fixed vs compiled "
             "| compile s (orig / fixed) | outputs | device, torch |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for row in rows:
        o, f = row["original"], row["fixed"]
        if "error" in o or "error" in f:
            lines.append(f"| {row['model']} | error: {(o.get('error') or f.get('error'))[-120:]!r} |||||||||")
            continue
        ratio = o["compiled_ms"] / f["compiled_ms"]
        ratios.append(ratio)
        lines.append(
            f"| {row['model']} | {o['breaks']} -> {f['breaks']} | {o['eager_ms']:.3f} | {o['compiled_ms']:.3f} | "
            f"{f['compiled_ms']:.3f} | {o['eager_ms'] / o['compiled_ms']:.2f}x | {f['eager_ms'] / f['compiled_ms']:.2f}x | "
            f"{ratio:.2f}x | {o['compile_s']:.1f} / {f['compile_s']:.1f} | "
            f"{'allclose' if row['outputs_match'] else 'DIFFER'} (max diff {row['max_abs_diff']:.1e}) | "
            f"{o['device']} {o['torch']} |")
    if ratios:
        lines.append("")
        lines.append(f"Median speedup of compiled fixed over compiled original: {statistics.median(ratios):.2f}x "
                     f"over {len(ratios)} model(s).")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", action="append", default=[], help="SPEC:NAME, e.g. models.torchdiffeq_models:dopri5")
    parser.add_argument("--fixed-root", help="the fixed copy of the models' library (its packages inside)")
    parser.add_argument("--original-root", help="the same release unfixed (default: the installed library)")
    parser.add_argument("--json", default=os.path.join(BENCH, "results", "gpu_realworld.json"))
    parser.add_argument("--markdown", default=os.path.join(BENCH, "results", "gpu_realworld.md"))
    parser.add_argument("--mode", default="default")
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--device", default="cuda", help="cuda; cpu only to try the script")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--name", help=argparse.SUPPRESS)
    parser.add_argument("--outputs", help=argparse.SUPPRESS)
    parser.add_argument("--library-root", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(child(options.spec, options.name, options.library_root, options.outputs, options.mode,
                               options.device)))
        return 0

    os.makedirs(os.path.dirname(os.path.abspath(options.json)), exist_ok=True)
    scratch = os.path.join(os.path.dirname(os.path.abspath(options.json)), "gpu_realworld_outputs")
    os.makedirs(scratch, exist_ok=True)
    rows = []
    for target in options.model:
        spec_name, model_name = target.split(":", 1)
        safe = "".join(c if c.isalnum() else "_" for c in target)
        paths = {v: os.path.join(scratch, f"{safe}_{v}.pt") for v in ("original", "fixed")}
        row = {"model": target,
               "original": run_variant(spec_name, model_name, options.original_root, paths["original"], options.mode,
                                       options.device, options.timeout),
               "fixed": run_variant(spec_name, model_name, options.fixed_root, paths["fixed"], options.mode,
                                    options.device, options.timeout)}
        if "error" not in row["original"] and "error" not in row["fixed"]:
            row["outputs_match"], row["max_abs_diff"] = compare(paths["original"], paths["fixed"])
            if row["original"]["library_file"] == row["fixed"]["library_file"]:
                row["fixed"]["error"] = "the fixed copy was not imported"
        print(json.dumps({k: (v if not isinstance(v, dict) else {x: v[x] for x in v if x != "library_file"})
                          for k, v in row.items()}), flush=True)
        rows.append(row)
    with open(options.json, "w", encoding="utf-8") as handle:
        json.dump({"rows": rows, "mode": options.mode, "date": time.strftime("%Y-%m-%d")}, handle, indent=1)
    table = markdown(rows)
    with open(options.markdown, "w", encoding="utf-8") as handle:
        handle.write(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
