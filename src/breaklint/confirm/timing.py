"""Time a callable: warm-up then many runs, reported as median, min, quartiles and max.

GPU: triton.testing.do_bench when triton is importable, else CUDA events. CPU: a monotonic clock
(time.perf_counter) with repeats until both a minimum count and a minimum total time are reached.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass


NOISY_IQR = 0.10  # an interquartile range wider than 10% of the median: too noisy to compare closely


@dataclass
class Timing:
    median_ms: float
    runs: int
    method: str  # "do_bench", "cuda_events" or "perf_counter"
    first_call_ms: float | None = None  # includes compilation for a compiled model
    min_ms: float | None = None
    q1_ms: float | None = None
    q3_ms: float | None = None
    max_ms: float | None = None

    @property
    def iqr_ms(self) -> float | None:
        return None if self.q1_ms is None or self.q3_ms is None else self.q3_ms - self.q1_ms

    @property
    def noisy(self) -> bool:
        return self.iqr_ms is not None and self.median_ms > 0 and self.iqr_ms / self.median_ms > NOISY_IQR

    def to_dict(self) -> dict:
        return {**asdict(self), "iqr_ms": self.iqr_ms, "noisy": self.noisy}


def from_samples(samples: list[float], method: str) -> Timing:
    """Median, min, quartiles and max of the per-call times (ms)."""
    ordered = sorted(samples)
    if len(ordered) >= 2:
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    else:
        q1 = q3 = ordered[0]
    return Timing(median_ms=statistics.median(ordered), runs=len(ordered), method=method, min_ms=ordered[0],
                  q1_ms=q1, q3_ms=q3, max_ms=ordered[-1])


def describe(t: dict | None) -> str:
    """`1.234 ms (min 1.200, IQR 0.021, 40 runs)`, with `noisy` when the spread is wide."""
    if not t:
        return "-"
    text = f"{t['median_ms']:.3f} ms"
    spread = []
    if t.get("min_ms") is not None:
        spread.append(f"min {t['min_ms']:.3f}")
    if t.get("iqr_ms") is not None:
        spread.append(f"IQR {t['iqr_ms']:.3f}")
    if t.get("runs"):
        spread.append(f"{t['runs']} runs")
    text += f" ({', '.join(spread)})" if spread else ""
    return text + (" NOISY" if t.get("noisy") else "")


def _sync(device: str) -> None:
    if device == "cuda":
        import torch

        torch.cuda.synchronize()


def time_first_call(fn, device: str) -> float:
    _sync(device)
    start = time.perf_counter()
    fn()
    _sync(device)
    return (time.perf_counter() - start) * 1000.0


def time_callable(fn, device: str, warmup: int = 3, min_runs: int = 20, min_seconds: float = 0.3,
                  max_runs: int = 10_000) -> Timing:
    if device == "cuda":
        return _time_cuda(fn, warmup, min_runs)
    for _ in range(warmup):
        fn()
    samples: list[float] = []
    begin = time.perf_counter()
    while len(samples) < max_runs and (len(samples) < min_runs or time.perf_counter() - begin < min_seconds):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000.0)
    return from_samples(samples, "perf_counter")


def _time_cuda(fn, warmup: int, min_runs: int) -> Timing:
    try:
        from triton.testing import do_bench
    except ImportError:
        do_bench = None
    if do_bench is not None:
        try:
            times = do_bench(fn, warmup=max(25, warmup), rep=100, return_mode="all")
            return from_samples([float(t) for t in times], "do_bench")
        except (TypeError, ValueError, AssertionError):  # an older triton without return_mode="all"
            ms = do_bench(fn, warmup=max(25, warmup), rep=100, return_mode="median")
            return Timing(median_ms=float(ms), runs=0, method="do_bench")
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(max(min_runs, 50)):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    return from_samples(samples, "cuda_events")
