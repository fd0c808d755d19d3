"""CUDA-graph hazards under torch.compile(mode="reduce-overhead"), second round (issue #15).

bench/cudagraph_probe.py measured which patterns *skip* CUDA graphs. This one also asks whether a
pattern gives *wrong results*: every output is cloned right after its call and compared with eager
on the same inputs, and for outputs kept without a clone (returned to the caller, or kept on `self`
by forward) the kept reference is compared after the next replay with what it held before it.
Patterns: kept outputs (and the fixes users try: clone inside forward, cudagraph_mark_step_begin,
clone outside), a previous output read by the next call (recurrent state on `self`),
`.item()`/`.cpu()`/`.tolist()`/`nonzero` inside the graph, CPU tensors as real inputs (with and
without Inductor's graph partitioning), and RNG (fresh numbers per replay, a user generator).

Recorded per pattern: skips ("skipping cudagraphs due to ...", the `cudagraphs` log artifact and
counters["inductor"]["cudagraph_skips"]), other cudagraph messages, compiles, graph breaks,
recompiles, an exception if the pattern raises, and the comparisons. Needs torch (+ triton) only;
no network, no breaklint import. Without CUDA it writes a record that says so and exits 0.

    python3 bench/cudagraph_probe2.py --out "$OUT/cudagraph_probe2.json"      # H100: about 1-2 minutes
    python3 bench/cudagraph_probe2.py --cpu-smoke --out /tmp/x.json           # CPU: checks the script itself
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
import torch._inductor.config
from torch import nn

CALLS = 5  # call 1 warms up, call 2 records the CUDA graph, calls 3-5 replay it
TIME_BOX_S = 130  # no new pattern starts after this (the lead's run must end within 3 minutes)
LOGGERS = ("torch._inductor.cudagraph_utils.__cudagraphs", "torch._inductor.compile_fx.__perf_hints",
           "torch._dynamo.guards.__recompiles", "torch._dynamo.__graph_breaks", "torch._inductor")


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, str]] = []

    def emit(self, record):
        try:
            self.records.append((record.name, record.getMessage()))
        except Exception:  # noqa: BLE001  a broken record must not stop the probe
            pass


@contextlib.contextmanager
def collecting():
    handler = _Collect()
    torch._logging.set_logs(cudagraphs=True, perf_hints=True, recompiles=True, graph_breaks=True)
    loggers = [logging.getLogger(n) for n in LOGGERS]
    for log in loggers:
        log.addHandler(handler)
    try:
        yield handler.records
    finally:
        for log in loggers:
            log.removeHandler(handler)
        torch._logging.set_logs()


class Case:
    """One pattern: `fn` (a function or module), the inputs of each call, Dynamo/Inductor config to
    patch, and `kept`: where an uncloned reference to a result lives between calls ("return": the
    returned tensor; "self.NAME": an attribute forward sets; None: nothing kept)."""

    def __init__(self, fn, inputs, kept=None, dynamo=None, inductor=None, mark_step=False, clone_outside=False,
                 random=False):
        self.fn, self.inputs, self.kept = fn, inputs, kept
        self.dynamo, self.inductor = dynamo or {}, inductor or {}
        self.mark_step, self.clone_outside, self.random = mark_step, clone_outside, random


def _xs(dev, shape=(64, 64), n=CALLS):
    g = torch.Generator().manual_seed(0)
    return [torch.randn(*shape, generator=g).to(dev) for _ in range(n)]


class _Keeps(nn.Module):
    """forward keeps its output on self (`self.last = y`), as loggers, hooks and caches do."""

    def __init__(self, how="plain"):
        super().__init__()
        self.lin = nn.Linear(64, 64)
        self.how = how
        self.last = None

    def forward(self, x):
        y = self.lin(x).relu()
        self.last = y.clone() if self.how == "clone" else (y.detach() if self.how == "detach" else y)
        return y * 2


# --- patterns: build(dev) -> Case ------------------------------------------------------------------

def kept_on_self(dev):
    """forward sets self.last = y; the caller reads model.last after the next call."""
    return Case(_Keeps("plain").to(dev), [((x,), {}) for x in _xs(dev)], kept="self.last")


def kept_on_self_clone_inside(dev):
    """The fix users try first: self.last = y.clone() inside forward (still a graph output)."""
    return Case(_Keeps("clone").to(dev), [((x,), {}) for x in _xs(dev)], kept="self.last")


def kept_on_self_detach(dev):
    return Case(_Keeps("detach").to(dev), [((x,), {}) for x in _xs(dev)], kept="self.last")


def kept_on_self_mark_step(dev):
    """torch.compiler.cudagraph_mark_step_begin() before each call, as the error message suggests."""
    return Case(_Keeps("plain").to(dev), [((x,), {}) for x in _xs(dev)], kept="self.last", mark_step=True)


def kept_on_self_clone_outside(dev):
    """The caller clones model.last right after each call (the documented fix)."""
    return Case(_Keeps("plain").to(dev), [((x,), {}) for x in _xs(dev)], kept="self.last", clone_outside=True)


def returned_kept_by_caller(dev):
    """The caller keeps the returned tensor (no clone) and reads it after the next call."""
    def f(x):
        return torch.sin(x) * 2
    return Case(f, [((x,), {}) for x in _xs(dev)], kept="return")


def returned_kept_mark_step(dev):
    def f(x):
        return torch.sin(x) * 2
    return Case(f, [((x,), {}) for x in _xs(dev)], kept="return", mark_step=True)


class _Recurrent(nn.Module):
    """forward reads the state the previous call left on self (an RNN cell or EMA kept as a plain
    attribute), so each call's input is the previous replay's output."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(64, 64)
        self.state = None

    def forward(self, x):
        h = x if self.state is None else x + 0.5 * self.state
        self.state = torch.tanh(self.lin(h))
        return self.state * 1.0


def previous_output_fed_back(dev):
    return Case(_Recurrent().to(dev), [((x,), {}) for x in _xs(dev)], kept="self.state")


def item_in_graph_captured(dev):
    def f(x):
        return x * x.sum().item()
    return Case(f, [((x,), {}) for x in _xs(dev)], dynamo={"capture_scalar_outputs": True})


def item_as_size(dev):
    """An .item() that becomes a size (unbacked symint) inside the graph."""
    def f(x):
        n = (x[0, 0] > 0).long().sum().item() + 4
        return torch.arange(n, device=x.device).float().sum() + x.sum()
    return Case(f, [((x,), {}) for x in _xs(dev)], dynamo={"capture_scalar_outputs": True})


def nonzero_in_graph(dev):
    def f(x):
        return x[x > 0].sum() + torch.nonzero(x > 1).shape[0]
    return Case(f, [((x,), {}) for x in _xs(dev)], dynamo={"capture_dynamic_output_shape_ops": True})


def cpu_in_graph(dev):
    def f(x):
        y = (x * 2).cpu()
        return y + 1
    return Case(f, [((x,), {}) for x in _xs(dev)])


def tolist_in_graph(dev):
    def f(x):
        values = x.sum(0).tolist()
        return x * values[0]
    return Case(f, [((x,), {}) for x in _xs(dev)])


def cpu_tensor_input(dev):
    """A CPU tensor argument moved to the GPU inside the graph."""
    def f(x, w):
        return x @ w.to(x.device)
    ws = _xs("cpu")
    return Case(f, [((x, w), {}) for x, w in zip(_xs(dev), ws)])


def cpu_tensor_input_no_partition(dev):
    def f(x, w):
        return x @ w.to(x.device)
    ws = _xs("cpu")
    return Case(f, [((x, w), {}) for x, w in zip(_xs(dev), ws)], inductor={"graph_partition": False})


def cpu_index_input(dev):
    """A CPU index tensor used directly by a GPU indexing kernel."""
    def f(x, idx):
        return x[idx] * 2
    g = torch.Generator().manual_seed(1)
    idx = [torch.randint(0, 64, (16,), generator=g) for _ in range(CALLS)]
    return Case(f, [((x, i), {}) for x, i in zip(_xs(dev), idx)])


def cpu_scalar_input(dev):
    def f(x, s):
        return x * s
    return Case(f, [((x, torch.tensor(0.5 + i)), {}) for i, x in enumerate(_xs(dev))])


def cpu_scalar_input_no_partition(dev):
    def f(x, s):
        return x * s
    return Case(f, [((x, torch.tensor(0.5 + i)), {}) for i, x in enumerate(_xs(dev))],
                inductor={"graph_partition": False})


def rng_randn_like(dev):
    """Replays must draw new numbers: compared for being different on every call, not with eager."""
    def f(x):
        return x + torch.randn_like(x)
    x = _xs(dev)[0]
    return Case(f, [((x,), {})] * CALLS, random=True)


def rng_dropout(dev):
    m = nn.Sequential(nn.Linear(64, 64), nn.Dropout(0.5)).to(dev).train()
    x = _xs(dev)[0]
    return Case(m, [((x,), {})] * CALLS, random=True)


def rng_user_generator(dev):
    g = torch.Generator(device=dev).manual_seed(0)

    def f(x):
        return x + torch.randn(x.shape, generator=g, device=x.device)
    x = _xs(dev)[0]
    return Case(f, [((x,), {})] * CALLS, random=True)


PATTERNS = [kept_on_self, kept_on_self_clone_inside, kept_on_self_detach, kept_on_self_mark_step,
            kept_on_self_clone_outside, returned_kept_by_caller, returned_kept_mark_step, previous_output_fed_back,
            item_in_graph_captured, item_as_size, nonzero_in_graph, cpu_in_graph, tolist_in_graph, cpu_tensor_input,
            cpu_tensor_input_no_partition, cpu_index_input, cpu_scalar_input, cpu_scalar_input_no_partition,
            rng_randn_like, rng_dropout, rng_user_generator]


# --- running one pattern -------------------------------------------------------------------------

def _tensor(out):
    return out if isinstance(out, torch.Tensor) else torch.as_tensor(out)


def _kept_ref(case: Case, fn, out):
    if case.kept == "return":
        return out
    if case.kept and case.kept.startswith("self."):
        return getattr(fn, case.kept[5:])
    return None


def _same(a, b) -> bool:
    return a.shape == b.shape and bool(torch.allclose(a.float().cpu(), b.float().cpu(), rtol=1e-3, atol=1e-3))


def _eager(build, dev):
    """Eager results of the same pattern built afresh (same seeds): per-call outputs and kept values."""
    torch.manual_seed(0)
    case = build(dev)
    outs, kept = [], []
    with torch.no_grad():
        for args, kwargs in case.inputs:
            out = _tensor(case.fn(*args, **kwargs))
            outs.append(out.clone())
            ref = _kept_ref(case, case.fn, out)
            kept.append(None if ref is None else ref.clone())
    return outs, kept


def run_pattern(build, dev: str, mode, backend) -> dict:
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    eager_outs, eager_kept = _eager(build, dev)
    torch.manual_seed(0)
    case = build(dev)
    result: dict = {"kept": case.kept, "mark_step": case.mark_step, "clone_outside": case.clone_outside}
    if case.inductor:
        result["inductor_config"] = case.inductor
    if case.dynamo:
        result["dynamo_config"] = case.dynamo
    outs, checks, started = [], [], time.perf_counter()
    patches = [torch._dynamo.config.patch(**case.dynamo)]
    if case.inductor:
        patches.append(torch._inductor.config.patch(**case.inductor))
    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        records = stack.enter_context(collecting())
        compiled = torch.compile(case.fn, mode=mode, backend=backend)
        held = None  # (call index, uncloned reference, its values right after that call)
        try:
            with torch.no_grad():
                for i, (args, kwargs) in enumerate(case.inputs):
                    if case.mark_step:
                        torch.compiler.cudagraph_mark_step_begin()
                    out = _tensor(compiled(*args, **kwargs))
                    if dev == "cuda":
                        torch.cuda.synchronize()
                    outs.append(out.clone())
                    if held is not None:  # the reference kept from the previous call, after this replay
                        index, ref, snapshot = held
                        check = {"kept_after_call": index + 1, "read_after_call": i + 1}
                        try:
                            check["unchanged"] = bool(torch.equal(ref, snapshot))
                            check["equals_eager"] = _same(ref, eager_kept[index])
                        except Exception as exc:  # noqa: BLE001  reading an overwritten output may raise
                            check["exception"] = f"{type(exc).__name__}: {str(exc).strip()[:240]}"
                        checks.append(check)
                    ref = _kept_ref(case, case.fn if case.kept != "return" else None, out)
                    if ref is not None and case.clone_outside:
                        ref = ref.clone()
                    held = None if ref is None else (i, ref, ref.clone())
        except Exception as exc:  # noqa: BLE001  a pattern may raise: that is a finding
            result["exception"] = f"{type(exc).__name__}: {str(exc).strip()[:300]}"
            result["traceback_tail"] = traceback.format_exc().splitlines()[-3:]
    counters = torch._dynamo.utils.counters
    messages = [m for _, m in records]
    if case.random:
        result["replays_draw_new_numbers"] = all(not torch.equal(a, b) for a, b in zip(outs, outs[1:]))
    else:
        result["outputs_equal_eager"] = [_same(a, b) for a, b in zip(outs, eager_outs)]
    result.update({
        "kept_checks": checks,
        "kept_wrong_or_raises": any(c.get("exception") or not c.get("equals_eager", True) for c in checks),
        "skips": sorted({m.split("Found from")[0].strip()[:300] for m in messages if "skipping cudagraphs" in m}),
        "cudagraph_skips_counter": int(counters["inductor"].get("cudagraph_skips", 0)),
        "compiles": int(counters["stats"].get("unique_graphs", 0)),
        "graph_breaks": int(sum(counters["graph_break"].values())),
        "recompiles": sum(1 for n, _ in records if n.endswith("__recompiles")),
        "other_cudagraph_messages": sorted({m[:200] for n, m in records
                                            if "cudagraph" in (n + m).lower() and "skipping cudagraphs" not in m})[:8],
        "calls": len(outs),
        "wall_s": round(time.perf_counter() - started, 2),
    })
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "cudagraph_probe2.json"))
    parser.add_argument("-k", help="only patterns whose name contains this")
    parser.add_argument("--cpu-smoke", action="store_true",
                        help="no CUDA: run every pattern on CPU with backend='eager' to check the script itself "
                             "(measures nothing about CUDA graphs)")
    opts = parser.parse_args(argv)
    report = {"torch": torch.__version__, "cuda": torch.cuda.is_available(), "calls": CALLS, "patterns": {}}
    os.makedirs(os.path.dirname(os.path.abspath(opts.out)) or ".", exist_ok=True)
    if torch.cuda.is_available():
        dev, mode, backend = "cuda", "reduce-overhead", "inductor"
        report.update(device=torch.cuda.get_device_name(0), mode=mode,
                      graph_partition=bool(getattr(torch._inductor.config, "graph_partition", False)),
                      cudagraph_trees=bool(torch._inductor.config.triton.cudagraph_trees))
    elif opts.cpu_smoke:
        dev, mode, backend = "cpu", None, "eager"
        report.update(device="cpu", mode="cpu smoke test (backend='eager'): checks the script, measures no CUDA graphs")
    else:
        report.update(status="no CUDA", note="torch.cuda.is_available() is False: nothing measured")
        with open(opts.out, "w") as fh:
            json.dump(report, fh, indent=1)
        print(f"no CUDA: nothing measured; wrote {opts.out}")
        return 0
    started = time.perf_counter()
    for build in PATTERNS:
        if opts.k and opts.k not in build.__name__:
            continue
        if time.perf_counter() - started > TIME_BOX_S:
            report["patterns"][build.__name__] = {"error": f"not run: time box of {TIME_BOX_S}s reached"}
            continue
        try:
            row = run_pattern(build, dev, mode, backend)
        except Exception as exc:  # noqa: BLE001  record, go on to the next pattern
            row = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:300] if str(exc) else ''}",
                   "traceback_tail": traceback.format_exc().splitlines()[-3:]}
        report["patterns"][build.__name__] = row
        print(f"{build.__name__:32s} skips={row.get('skips', [])[:1]} wrong_kept={row.get('kept_wrong_or_raises')} "
              f"eq_eager={row.get('outputs_equal_eager', row.get('replays_draw_new_numbers'))} "
              f"{row.get('exception', '') or row.get('error', '')}"[:300], flush=True)
        with open(opts.out, "w") as fh:  # after every pattern: a crash keeps what was measured
            json.dump(report, fh, indent=1)
    report["status"] = "done"
    report["wall_s"] = round(time.perf_counter() - started, 1)
    with open(opts.out, "w") as fh:
        json.dump(report, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
