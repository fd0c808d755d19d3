"""One confirm phase in a fresh process: `python -m breaklint.confirm.worker REQUEST.json`.

The parent (runner.py) owns timeouts. Here we only turn every failure into a one-line message that
names its phase, written to the result file; a crash or hang leaves the progress file behind so the
parent can still name the phase.
"""
from __future__ import annotations

import json
import os
import sys
import traceback


class PhaseFailure(Exception):
    def __init__(self, phase: str, message: str):
        super().__init__(message)
        self.phase = phase


class Progress:
    def __init__(self, path: str | None):
        self.path = path
        self.phase = "start"

    def enter(self, phase: str) -> None:
        self.phase = phase
        if self.path:
            with open(self.path, "w", encoding="utf-8") as fh:
                fh.write(phase)


def describe_exception(exc: BaseException) -> str:
    name = type(exc).__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if "out of memory" in str(exc).lower() or name == "OutOfMemoryError":
        return f"CUDA out of memory: {text}" if "CUDA" not in text else text
    return f"{name}: {text}" if text else name


def resolve_device(requested: str) -> str:
    import torch

    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return requested


def to_device(obj, device: str):
    import torch

    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, tuple):
        return tuple(to_device(o, device) for o in obj)
    if isinstance(obj, list):
        return [to_device(o, device) for o in obj]
    if isinstance(obj, dict):
        return {k: to_device(v, device) for k, v in obj.items()}
    return obj


def build(req: dict, progress: Progress):
    """Import the target, call its factory (seeded), move it to the device."""
    from .breaklog import UserCode
    from .target import TargetError, call_factory, import_target_module, parse_target, target_top

    progress.enter("import")
    try:
        spec = parse_target(req["target"], req.get("cwd"))
        module = import_target_module(spec, req.get("shadows"))
        progress.enter("factory")
        if "torch" in sys.modules:  # the target imported it; seed so original and fixed build alike
            sys.modules["torch"].manual_seed(req.get("seed", 0))
        model, args, kwargs = call_factory(module, spec)
    except TargetError as exc:
        raise PhaseFailure(exc.phase, str(exc)) from exc
    progress.enter("import torch")
    import torch
    device = resolve_device(req.get("device", "auto"))
    if device != "cpu":
        progress.enter(f"move to {device}")
        if isinstance(model, torch.nn.Module):
            model = model.to(device)
        args, kwargs = to_device(args, device), to_device(kwargs, device)
    top = target_top(spec, module)
    # The target's own package is the user's code even when installed (site-packages).
    user = UserCode(user_roots=[top] if top else [])
    info = {
        "module_file": os.path.abspath(getattr(module, "__file__", "") or ""),
        "target_top": top,
        "device": device,
        "device_name": torch.cuda.get_device_name() if device == "cuda" else "cpu",
        "torch_version": torch.__version__,
        # One target per GPU (cli._run_all): log which device each worker really saw.
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        # The physical GPU, so that a run can check that no two concurrent targets shared one.
        "gpu_uuid": str(torch.cuda.get_device_properties(torch.cuda.current_device()).uuid) if device == "cuda" else None,
    }
    return model, args, kwargs, info, user


def load_reference(req: dict, model, progress: Progress) -> dict:
    """Inputs, outputs and weights the original model saved, with the weights loaded into `model`."""
    import torch

    progress.enter("load reference")
    ref = torch.load(req["artifacts"], weights_only=False, map_location="cpu")
    device = resolve_device(req.get("device", "auto"))
    ref["args"], ref["kwargs"] = to_device(ref["args"], device), to_device(ref["kwargs"], device)
    transfer = {"loaded": 0, "skipped": [], "missing": []}
    if ref.get("state_dict") is not None and isinstance(model, torch.nn.Module):
        progress.enter("state_dict transfer")
        own = model.state_dict()
        # Keep only what the fix did not change: same name, same shape.
        usable = {k: v for k, v in ref["state_dict"].items() if k in own and own[k].shape == v.shape}
        transfer["skipped"] = sorted(set(ref["state_dict"]) - set(usable))
        transfer["missing"] = sorted(set(own) - set(usable))
        model.load_state_dict(usable, strict=False)
        transfer["loaded"] = len(usable)
    ref["transfer"] = transfer
    return ref


def _eager(req: dict, progress: Progress):
    """Build, take the reference inputs (and weights) when verifying, run once eagerly."""
    from .linetrace import executed_user_lines

    model, args, kwargs, info, user = build(req, progress)
    reference = None
    if req.get("reference_from"):
        reference = load_reference(req, model, progress)
        args, kwargs = reference["args"], reference["kwargs"]
    progress.enter("eager")
    try:
        output, executed = executed_user_lines(lambda: model(*args, **kwargs), user)
    except BaseException as exc:  # noqa: BLE001
        raise PhaseFailure("eager", f"model failed in eager mode: {describe_exception(exc)}") from exc
    return model, args, kwargs, info, user, reference, output, executed


def _compare(req: dict, progress: Progress, reference, output) -> dict:
    from .compare import compare_outputs

    progress.enter("compare outputs")
    cmp = compare_outputs(reference["output"], to_device(output, "cpu"), req.get("rtol", 1e-4), req.get("atol", 1e-5))
    return {"comparison": cmp.to_dict(), "transfer": reference["transfer"]}


def do_observe(req: dict, progress: Progress) -> dict:
    import torch

    from .observe import observe
    from .target import loaded_modules

    model, args, kwargs, info, user, reference, output, executed = _eager(req, progress)
    result = {"info": info, "executed_lines": executed}
    if req.get("save_artifacts"):
        state = model.state_dict() if isinstance(model, torch.nn.Module) else None
        torch.save({"args": to_device(args, "cpu"), "kwargs": to_device(kwargs, "cpu"),
                    "output": to_device(output, "cpu"), "state_dict": to_device(dict(state), "cpu") if state else None},
                   req["artifacts"])
    if reference is not None:
        result.update(_compare(req, progress, reference, output))
    progress.enter("observe (dynamo)")
    try:
        obs = observe(model, args, kwargs, run_eager_first=False, user=user)
    except BaseException as exc:  # noqa: BLE001
        raise PhaseFailure("observe (dynamo)", f"torch.compile(backend='eager') failed: {describe_exception(exc)}") from exc
    result["observation"] = obs.to_dict()
    # Which file each module of the user's code was imported from: the fixed copy must be the one
    # that ran (the shadow covers the roots these resolve through).
    result["modules"] = loaded_modules(user.is_user)
    return result


def do_compare(req: dict, progress: Progress) -> dict:
    """Outputs only (no Dynamo): one step of the search for the fix that changed them."""
    *_, reference, output, _executed = _eager(req, progress)
    return _compare(req, progress, reference, output)


def do_bench(req: dict, progress: Progress) -> dict:
    import torch

    from .observe import reset_dynamo
    from .timing import time_callable, time_first_call

    model, args, kwargs, info, _ = build(req, progress)
    ref = load_reference(req, model, progress)
    args, kwargs = ref["args"], ref["kwargs"]
    device = info["device"]
    result = {"info": info, "timings": {}}
    knobs = dict(min_runs=req.get("min_runs", 20), min_seconds=req.get("min_seconds", 0.3))
    with torch.no_grad():
        if req.get("bench_eager"):
            progress.enter("bench eager")
            t = time_callable(lambda: model(*args, **kwargs), device, **knobs)
            result["timings"]["eager"] = t.to_dict()
        reset_dynamo()
        progress.enter("inductor compile")
        compiled = torch.compile(model, mode=req.get("mode") or None)
        try:
            first_ms = time_first_call(lambda: compiled(*args, **kwargs), device)
        except BaseException as exc:  # noqa: BLE001
            raise PhaseFailure("inductor compile", f"Inductor failed: {describe_exception(exc)}") from exc
        progress.enter("bench compiled")
        t = time_callable(lambda: compiled(*args, **kwargs), device, **knobs)
        t.first_call_ms = first_ms
        result["timings"]["compiled"] = t.to_dict()
    return result


def do_calibrate(req: dict, progress: Progress) -> dict:
    from .calibrate import worker_calibrate

    progress.enter("calibrate")
    return worker_calibrate(req)


def do_recompiles(req: dict, progress: Progress) -> dict:
    """`confirm --calls N`: call the compiled target N times (its module's `inputs(i)` when defined)."""
    from .recompiles import count_compiles, input_sets

    model, args, kwargs, info, _ = build(req, progress)
    module = next((m for m in list(sys.modules.values())
                   if os.path.abspath(getattr(m, "__file__", None) or "") == info["module_file"]), None)
    progress.enter("recompiles")
    obs = count_compiles(model, input_sets(args, kwargs, int(req.get("calls") or 12), module))
    return {"info": info, "recompiles": obs.to_dict()}


ACTIONS = {"observe": do_observe, "compare": do_compare, "bench": do_bench, "calibrate": do_calibrate,
           "recompiles": do_recompiles}


def main(argv: list[str]) -> int:
    with open(argv[0], encoding="utf-8") as fh:
        req = json.load(fh)
    progress = Progress(req.get("progress"))
    try:
        payload = {"ok": True, **ACTIONS[req["action"]](req, progress)}
    except PhaseFailure as exc:
        payload = {"ok": False, "phase": exc.phase, "error": str(exc), "traceback": traceback.format_exc()}
    except BaseException as exc:  # noqa: BLE001  anything else still gets its phase named
        payload = {"ok": False, "phase": progress.phase, "error": describe_exception(exc), "traceback": traceback.format_exc()}
    with open(req["result"], "w", encoding="utf-8") as fh:
        json.dump(payload, fh)
    return 0 if payload["ok"] else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
