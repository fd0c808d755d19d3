"""Time a callable: warm-up then the median of many runs.

GPU: triton.testing.do_bench when triton is importable, else CUDA events. CPU: a monotonic clock
(time.perf_counter) with repeats until both a minimum count and a minimum total time are reached.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass


@dataclass
class Timing:
    median_ms: float
    runs: int
    method: str  # "do_bench", "cuda_events" or "perf_counter"
    first_call_ms: float | None = None  # includes compilation for a compiled model

    def to_dict(self) -> dict:
        return asdict(self)


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
    return Timing(median_ms=statistics.median(samples), runs=len(samples), method="perf_counter")


def _time_cuda(fn, warmup: int, min_runs: int) -> Timing:
    try:
        from triton.testing import do_bench

        ms = do_bench(fn, warmup=max(25, warmup), rep=100, return_mode="median")
        return Timing(median_ms=float(ms), runs=0, method="do_bench")
    except ImportError:
        pass
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
    return Timing(median_ms=statistics.median(samples), runs=len(samples), method="cuda_events")
