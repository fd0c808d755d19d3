"""Run every rule's runnable examples through the installed torch: which patterns really break here?

The rule-verdict tests and `breaklint calibrate` share this. INVALID examples should break where the
rule's verdict says so; VALID examples should never break (a break there means a missed pattern).
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import warnings
from dataclasses import asdict, dataclass, field


@dataclass
class ExampleResult:
    code: str
    kind: str  # "INVALID" or "VALID"
    index: int
    # None when the example could not run. For a recompile example (calls > 0): did it compile on
    # every call until the recompile limit?
    breaks: bool | None
    break_count: int = 0
    gb_ids: list[str] = field(default_factory=list)
    frame_skipped: bool = False
    error: str | None = None
    calls: int = 0
    compiles: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


def runnable_examples(rules, kinds=("INVALID", "VALID")) -> list[dict]:
    items = []
    for rule in rules:
        for kind in kinds:
            for i, ex in enumerate(getattr(rule, kind, []) or []):
                if getattr(ex, "runnable", False):
                    items.append({"code": rule.code, "kind": kind, "index": i, "source": ex.code,
                                  "calls": getattr(ex, "calls", 0)})
    return items


def run_example_sources(items: list[dict], workdir: str | None = None) -> list[ExampleResult]:
    """In this process: each example is written to a file (for real line numbers), imported, observed."""
    import torch

    from .observe import observe
    from .target import TargetSpec, TargetError, normalize_factory_result

    results = []
    with tempfile.TemporaryDirectory(prefix="breaklint-calibrate-", dir=workdir) as tmp:
        for n, item in enumerate(items):
            base = f"{item['code']}_{item['kind'].lower()}_{item['index']}"
            path = os.path.join(tmp, base + ".py")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(item["source"])
            result = ExampleResult(item["code"], item["kind"], item["index"], None)
            try:
                spec = importlib.util.spec_from_file_location(f"breaklint_example_{n}_{base}", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                torch.manual_seed(0)
                model, args, kwargs = normalize_factory_result(module.factory(), TargetSpec(path, None, path, "factory"))
                if item.get("calls"):
                    _count_into(result, module, model, args, kwargs, item["calls"])
                    results.append(result)
                    continue
                # Examples print and warn by design; keep the caller's output clean.
                with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    obs = observe(model, args, kwargs)
                result.breaks = obs.break_count > 0
                result.break_count = obs.break_count
                result.gb_ids = sorted({b.gb_id for b in obs.breaks if b.gb_id})
                result.frame_skipped = any(b.frame_skipped for b in obs.breaks)
            except (Exception, TargetError) as exc:  # noqa: BLE001  report, keep going
                result.error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
            results.append(result)
    return results


def _count_into(result: ExampleResult, module, model, args, kwargs, calls: int) -> None:
    """A recompile example: compiled once, called `calls` times (recompiles.py)."""
    from .recompiles import count_compiles, input_sets

    obs = count_compiles(model, input_sets(args, kwargs, calls, module))
    result.calls, result.compiles = calls, obs.compiles
    result.breaks = obs.compiles >= min(calls, obs.recompile_limit)


def calibrate_examples(rules, in_process: bool = False, timeout: float = 900.0) -> list[ExampleResult]:
    items = runnable_examples(rules)
    if in_process:
        return run_example_sources(items)
    from .runner import run_worker

    with tempfile.TemporaryDirectory(prefix="breaklint-calibrate-run-") as work:
        r = run_worker({"action": "calibrate", "items": items, "cwd": os.getcwd()}, timeout, work)
    if not r.ok:
        raise RuntimeError(f"calibration failed in phase '{r.phase}': {r.error}")
    return [ExampleResult(**d) for d in r.data["results"]]


def verdicts_from(results: list[ExampleResult]) -> dict[str, bool]:
    """A rule's observed verdict: does any of its runnable INVALID examples break on this torch?"""
    out: dict[str, bool] = {}
    for res in results:
        if res.kind != "INVALID" or res.breaks is None:
            continue
        out[res.code] = out.get(res.code, False) or res.breaks
    return out


def calibrate_rules(rules, in_process: bool = False, timeout: float = 900.0) -> dict[str, bool]:
    """{rule code: does the pattern really break on the installed torch}, from its INVALID examples."""
    return verdicts_from(calibrate_examples(rules, in_process=in_process, timeout=timeout))


def expected_verdict(rule, torch_version: str) -> bool | None:
    for name in ("breaks_on", "verdict"):
        fn = getattr(rule, name, None)
        if callable(fn):
            return fn(torch_version)
    return None


def worker_calibrate(req: dict) -> dict:
    return {"results": [r.to_dict() for r in run_example_sources(req["items"])]}


if __name__ == "__main__":  # pragma: no cover - convenience: python -m breaklint.confirm.calibrate
    from ..rules import all_rules

    for code, breaks in sorted(calibrate_rules(all_rules(), in_process=True).items()):
        print(code, breaks)
    sys.exit(0)
