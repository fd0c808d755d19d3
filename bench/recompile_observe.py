"""Observe recompiles of one real-world model over a short call sequence (issue #15).

The real-world truth of bench/realworld.py calls each model once, which cannot show a recompile.
Here one compiled model (a counting backend: Dynamo only, like backend="eager") is called
--calls times (default 3):
  call 1: the spec's inputs;
  calls 2 and 3: the same shapes, new values (floating tensors perturbed; {0,1} masks and integer
          tensors kept), and a new value on each call for every Python float argument and every int
          argument named like a sampler's step (`timestep`, `t`, `step`); other ints are left alone:
          in these specs they are sizes and counts, and a new size is a new shape.
A value that changes on calls 2 and 3 and still fails a guard on call 3 recompiles per call; one
retry on call 2 only is automatic dynamic making it symbolic.
Each recompile's guard failures come from the `recompiles_verbose` log artifact, with the user
stack of the guard's source; the site is the innermost frame inside the library's files.
Runs in a child process under a benchmark venv, one model per process; prints one JSON line last.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import re
import sys
import time
import traceback

VERBOSE_LOGGER = "torch._dynamo.guards.__recompiles_verbose"
HEADER = re.compile(r"Recompiling function (\S+) in (.+):(\d+)")
FAILURE = re.compile(r"^\s*- (\d+/\d+): (.*?)(?:\s{2,}#.*)?$")
STEP_NAMES = {"timestep", "timesteps", "t", "step"}  # int arguments that a sampling loop changes every call
STACK_FRAME = re.compile(r'^\s*-\s+File "(.+)", line (\d+), in (.+)$')


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # a broken record must not break the observation
            pass


def parse_recompile(message: str, roots: list[str]) -> dict:
    """One `recompiles_verbose` record -> the frame and the failures of the newest cache entry
    (block "guard 0 failures"), each with its guard text and the library frame it comes from."""
    lines = message.splitlines()
    header = HEADER.search(lines[0]) if lines else None
    record = {"function": header.group(1) if header else None, "file": header.group(2) if header else None,
              "line": int(header.group(3)) if header else None, "failures": []}
    block = None
    for text in lines[1:]:
        stripped = text.strip()
        if stripped.startswith("guard ") and stripped.endswith("failures:"):
            block = stripped.split()[1]
            continue
        if block not in (None, "0"):
            break
        frame = STACK_FRAME.match(text)
        if frame and record["failures"]:
            record["failures"][-1]["stack"].append([frame.group(1), int(frame.group(2)), frame.group(3)])
            continue
        failure = FAILURE.match(text)
        if failure and not stripped.startswith("- User stack"):
            record["failures"].append({"entry": failure.group(1), "guard": failure.group(2).strip(), "stack": []})
    for failure in record["failures"]:
        inside = [f for f in failure["stack"] if _under(f[0], roots)]
        failure["site"] = [os.path.realpath(inside[-1][0]), inside[-1][1]] if inside else None
    return record


def _under(path: str, roots: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real.startswith(root + os.sep) for root in roots)


def varied(value, call: int, torch, generator, changed: list[str], where: str = "arg"):
    """The input of call number `call` (0-based) built from the spec's input `value`."""
    if call == 0:
        return value
    if isinstance(value, torch.Tensor):
        if value.is_floating_point() and value.numel() and not bool(((value == 0) | (value == 1)).all()):
            noise = torch.randn(value.shape, generator=generator, dtype=value.dtype)
            return value + 0.05 * noise * (value.abs().mean() + 1e-3)
        return value
    if isinstance(value, float):
        changed.append(where)
        return value * (1 + 0.5 * call) + 0.1 * call
    if type(value) is int and where.rsplit(".", 1)[-1] in STEP_NAMES:
        changed.append(where)
        return value + call
    if isinstance(value, dict):
        return {k: varied(v, call, torch, generator, changed, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return type(value)(varied(v, call, torch, generator, changed, f"{where}[{i}]") for i, v in enumerate(value))
    return value


def observe(spec_module: str, model_name: str, calls: int) -> dict:
    import torch
    import torch._dynamo

    spec = importlib.import_module(spec_module)
    roots = [os.path.dirname(os.path.realpath(importlib.import_module(p).__file__)) for p in spec.PACKAGES]
    result: dict = {"model": model_name, "library": spec.LIBRARY, "torch": torch.__version__, "roots": roots,
                    "calls": calls}
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model, args, kwargs = spec.build(model_name)
    if hasattr(model, "eval"):
        model.eval()
    generator = torch.Generator().manual_seed(2)
    inputs, changed = [], []
    for call in range(calls):
        inputs.append((varied(list(args), call, torch, generator, changed, "arg"),
                       varied(dict(kwargs), call, torch, generator, changed, "kw")))
    result["floats_changed"] = sorted(set(changed))

    graphs: list[int] = []

    def counting(gm, example_inputs):
        graphs[-1] += 1
        return gm.forward

    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    collector = Collect()
    torch._logging.set_logs(recompiles_verbose=True)
    logger = logging.getLogger(VERBOSE_LOGGER)
    logger.addHandler(collector)
    compiled = torch.compile(model, backend=counting, fullgraph=False)
    started = time.perf_counter()
    per_call = []
    try:
        with torch.no_grad():
            for call, (call_args, call_kwargs) in enumerate(inputs):
                graphs.append(0)
                before = len(collector.messages)
                torch.manual_seed(1)
                try:
                    compiled(*call_args, **call_kwargs)
                    error = None
                except Exception as exc:  # the varied inputs may not suit the model: record, stop
                    error = f"{type(exc).__name__}: {str(exc)[:300]}"
                per_call.append({"graphs": graphs[-1], "recompiles": len(collector.messages) - before,
                                 "error": error})
                if error:
                    break
    finally:
        logger.removeHandler(collector)
        torch._logging.set_logs()
    result["compile_s"] = round(time.perf_counter() - started, 2)
    result["per_call"] = per_call
    result["recompiles"] = [parse_recompile(m, roots) for m in collector.messages]
    counters = torch._dynamo.utils.counters
    result["frames"] = dict(counters.get("frames", {}))
    result["recompile_limit_hit"] = any("limit" in str(k) for k in counters.get("frames", {})) or \
        bool(counters.get("recompile_limit"))
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--calls", type=int, default=3)
    options = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    logging.basicConfig(stream=sys.stderr)
    try:
        result = observe(options.spec, options.model, options.calls)
        result["status"] = "ok"
    except BaseException as error:  # report, never crash the harness
        result = {"model": options.model, "status": "error", "error": f"{type(error).__name__}: {error}"[:1000],
                  "traceback": traceback.format_exc()[-2000:]}
    sys.stdout.write("\n" + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
