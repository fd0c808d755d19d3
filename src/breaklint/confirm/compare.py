"""Compare two model outputs (tensors in any nesting of tuples, lists, dicts) with allclose."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class Comparison:
    equal: bool
    rtol: float
    atol: float
    max_abs_diff: float
    detail: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def _leaves(obj, path="out"):
    if isinstance(obj, dict):
        for k in sorted(obj, key=str):
            yield from _leaves(obj[k], f"{path}[{k!r}]")
    elif isinstance(obj, (tuple, list)):
        for i, v in enumerate(obj):
            yield from _leaves(v, f"{path}[{i}]")
    elif hasattr(obj, "to_tuple") and callable(obj.to_tuple):  # ModelOutput-like containers
        yield from _leaves(obj.to_tuple(), path)
    else:
        yield path, obj


def compare_outputs(expected, actual, rtol: float = 1e-4, atol: float = 1e-5) -> Comparison:
    import torch

    exp, act = list(_leaves(expected)), list(_leaves(actual))
    if [p for p, _ in exp] != [p for p, _ in act]:
        return Comparison(False, rtol, atol, float("inf"), "outputs have different structure")
    worst = 0.0
    for (path, e), (_, a) in zip(exp, act):
        if isinstance(e, torch.Tensor) or isinstance(a, torch.Tensor):
            if not (isinstance(e, torch.Tensor) and isinstance(a, torch.Tensor)):
                return Comparison(False, rtol, atol, float("inf"), f"{path}: tensor vs {type(a).__name__}")
            if e.shape != a.shape or e.dtype != a.dtype:
                return Comparison(False, rtol, atol, float("inf"), f"{path}: {tuple(e.shape)}/{e.dtype} vs {tuple(a.shape)}/{a.dtype}")
            e_cpu, a_cpu = e.detach().cpu(), a.detach().cpu()
            if e_cpu.is_floating_point() or e_cpu.is_complex():
                diff = (e_cpu.double() - a_cpu.double()).abs()
                both_nan = e_cpu.isnan() & a_cpu.isnan()
                diff = diff.masked_fill(both_nan, 0.0)
                if diff.numel():
                    worst = max(worst, float(diff.max()))
                if not torch.allclose(e_cpu, a_cpu, rtol=rtol, atol=atol, equal_nan=True):
                    return Comparison(False, rtol, atol, worst, f"{path}: values differ")
            elif not torch.equal(e_cpu, a_cpu):
                return Comparison(False, rtol, atol, worst, f"{path}: values differ")
        elif e != a:
            return Comparison(False, rtol, atol, worst, f"{path}: {e!r} != {a!r}")
    return Comparison(True, rtol, atol, worst)
