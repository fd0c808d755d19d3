"""Which patterns make torch.compile(mode="reduce-overhead") skip CUDA graphs, and why (issue #15).

Needs CUDA, torch and triton only; no network, no breaklint import. Each pattern is compiled fresh
(torch._dynamo.reset()), called CALLS times, and recorded:
- skips: the "skipping cudagraphs due to ..." messages (the `cudagraphs` log artifact, logger
  torch._inductor.cudagraph_utils.__cudagraphs) and counters["inductor"]["cudagraph_skips"];
- every other `cudagraphs` / `perf_hints` message (re-recordings for new shapes, overwritten outputs);
- compiles (Dynamo's unique_graphs), graph breaks, recompiles (the `recompiles` artifact);
- an exception, when the pattern raises (reading an output a later replay overwrote);
- wall time of all calls with compile, and of the last calls alone, reduce-overhead vs default mode.

    python bench/cudagraph_probe.py --out "$OUT/cudagraph_probe.json"
"""
from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
import time
import traceback

import torch
from torch import nn

CALLS = 12
LOGGERS = {
    "cudagraphs": "torch._inductor.cudagraph_utils.__cudagraphs",
    "perf_hints": "torch._inductor.compile_fx.__perf_hints",
    "recompiles": "torch._dynamo.guards.__recompiles",
    "graph_breaks": "torch._dynamo.__graph_breaks",
}


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, str]] = []

    def emit(self, record):
        self.records.append((record.name, record.getMessage()))


@contextlib.contextmanager
def collecting():
    handler = _Collect()
    torch._logging.set_logs(cudagraphs=True, perf_hints=True, recompiles=True, graph_breaks=True)
    # Messages from other inductor modules reach the artifact loggers by name; listen on all of them.
    loggers = [logging.getLogger(n) for n in LOGGERS.values()] + [logging.getLogger("torch._inductor")]
    for log in loggers:
        log.addHandler(handler)
    try:
        yield handler.records
    finally:
        for log in loggers:
            log.removeHandler(handler)
        torch._logging.set_logs()


def sync():
    torch.cuda.synchronize()


# --- patterns: build(device) -> (callable, list of (args, kwargs) per call, after(outputs) or None) ---

def input_mutation(dev):
    def f(x):
        x.add_(1.0)
        return x * 2
    return f, [((torch.randn(64, 64, device=dev),), {}) for _ in range(CALLS)], None


def input_mutation_index_put(dev):
    def f(x):
        x[0] = 0.0
        return x * 2
    return f, [((torch.randn(64, 64, device=dev),), {}) for _ in range(CALLS)], None


def input_out_of_place(dev):
    """The BL701 fix: `x = x + 1.0`."""
    def f(x):
        x = x + 1.0
        return x * 2
    return f, [((torch.randn(64, 64, device=dev),), {}) for _ in range(CALLS)], None


def buffer_mutation(dev):
    """A registered buffer updated in place (BL601's fix for an int counter)."""
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(64, 64)
            self.register_buffer("step", torch.zeros((), dtype=torch.long), persistent=False)

        def forward(self, x):
            self.step += 1
            return self.lin(x)
    x = torch.randn(8, 64, device=dev)
    return M().to(dev), [((x,), {})] * CALLS, None


def int_counter_attr(dev):
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(64, 64)
            self.step = 0

        def forward(self, x):
            self.step += 1
            return self.lin(x)
    x = torch.randn(8, 64, device=dev)
    return M().to(dev), [((x,), {})] * CALLS, None


def item_in_graph(dev):
    def f(x):
        return x * x.sum().item()
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, None


def item_in_graph_captured(dev):
    """.item() kept in the graph (capture_scalar_outputs): a device-to-host sync inside it."""
    def f(x):
        return x * x.sum().item()
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, {"capture_scalar_outputs": True}


def cpu_call(dev):
    def f(x):
        y = (x * 2).cpu()
        return y + 1
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, None


def tolist_call(dev):
    def f(x):
        values = x.sum(0).tolist()
        return x * values[0]
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, None


def cpu_tensor_input(dev):
    def f(x, y):
        return x + y.to(x.device)
    return f, [((torch.randn(64, 64, device=dev), torch.randn(64, 64)), {})] * CALLS, None


def cpu_scalar_input(dev):
    def f(x, s):
        return x * s
    return f, [((torch.randn(64, 64, device=dev), torch.tensor(0.5)), {})] * CALLS, None


def cpu_constant_in_forward(dev):
    def f(x):
        return x * torch.tensor(1.0) + torch.arange(64).float().to(x.device)
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, None


def rng_randn_like(dev):
    def f(x):
        return x + torch.randn_like(x)
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, None


def rng_dropout(dev):
    m = nn.Sequential(nn.Linear(64, 64), nn.Dropout(0.1)).to(dev).train()
    return m, [((torch.randn(8, 64, device=dev),), {})] * CALLS, None


def dynamic_batch(dev):
    def f(x):
        return (x * 2).sum(0)
    return f, [((torch.randn(4 + i, 64, device=dev),), {}) for i in range(CALLS)], None


def output_kept_across_calls(dev):
    """The caller keeps every output and reads the first after later replays."""
    def f(x):
        return x * 2
    return f, [((torch.randn(64, 64, device=dev),), {})] * CALLS, "read_first_output"


def output_kept_on_self(dev):
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(64, 64)
            self.last = None

        def forward(self, x):
            y = self.lin(x)
            self.last = y
            return y
    x = torch.randn(8, 64, device=dev)
    return M().to(dev), [((x,), {})] * CALLS, "read_self_last"


PATTERNS = [input_mutation, input_mutation_index_put, input_out_of_place, buffer_mutation, int_counter_attr,
            item_in_graph, item_in_graph_captured, cpu_call, tolist_call, cpu_tensor_input, cpu_scalar_input,
            cpu_constant_in_forward, rng_randn_like, rng_dropout, dynamic_batch, output_kept_across_calls,
            output_kept_on_self]


def run_once(build, dev: str, mode):
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    fn, sets, extra = build(dev)
    config = extra if isinstance(extra, dict) else {}
    check = extra if isinstance(extra, str) else None
    result = {"mode": mode or "default"}
    with torch._dynamo.config.patch(**config), collecting() as records:
        compiled = torch.compile(fn, mode=mode)
        outs, times = [], []
        try:
            for args, kwargs in sets:
                sync()
                t0 = time.perf_counter()
                out = compiled(*args, **kwargs)
                sync()
                times.append(time.perf_counter() - t0)
                outs.append(out)
            if check == "read_first_output":
                result["first_output_still_right"] = bool(torch.allclose(outs[0], sets[0][0][0] * 2))
            elif check == "read_self_last":
                last = fn.last
                result["self_last_readable"] = bool(torch.isfinite(last).all())
        except Exception as exc:  # noqa: BLE001  a pattern may raise: that is a finding
            result["exception"] = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ''}"
            result["traceback_tail"] = traceback.format_exc().splitlines()[-3:]
    counters = torch._dynamo.utils.counters
    messages = [m for _, m in records]
    result.update({
        "skips": [m for m in messages if "skipping cudagraphs" in m],
        "cudagraph_skips_counter": int(counters["inductor"].get("cudagraph_skips", 0)),
        "compiles": int(counters["stats"].get("unique_graphs", 0)),
        "graph_breaks": int(sum(counters["graph_break"].values())),
        "recompiles": sum(1 for n, _ in records if n.endswith("__recompiles")),
        "other_cudagraph_messages": sorted({m[:300] for n, m in records
                                            if "cudagraph" in (n + m).lower() and "skipping cudagraphs" not in m})[:10],
        "calls": len(times),
        "total_s": round(sum(times), 4),
        "last_half_s": round(sum(times[len(times) // 2:]), 6),
    })
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "cudagraph_probe.json"))
    parser.add_argument("-k", help="only patterns whose name contains this")
    parser.add_argument("--no-default", action="store_true", help="skip the default-mode comparison run")
    opts = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("needs CUDA", file=sys.stderr)
        return 2
    report = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "calls": CALLS, "patterns": {}}
    for build in PATTERNS:
        if opts.k and opts.k not in build.__name__:
            continue
        row = {}
        for mode in ("reduce-overhead",) + (() if opts.no_default else (None,)):
            try:
                row[mode or "default"] = run_once(build, "cuda", mode)
            except Exception as exc:  # noqa: BLE001  record, go on to the next pattern
                row[mode or "default"] = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"}
        report["patterns"][build.__name__] = row
        ro = row["reduce-overhead"]
        print(f"{build.__name__:26s} skips={len(ro.get('skips', []))} compiles={ro.get('compiles')} "
              f"{(ro.get('skips') or [''])[0][:90]} {ro.get('exception', '') or ro.get('error', '')}", flush=True)
        os.makedirs(os.path.dirname(os.path.abspath(opts.out)), exist_ok=True)
        with open(opts.out, "w") as fh:  # written after every pattern: a crash keeps what was measured
            json.dump(report, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
