"""Total time of N calls (compile included) of the recompile composites, before and after the fix.

The cost of a recompile is compile time, so the whole call sequence is timed from the first call,
each measurement in its own process with a fresh Inductor cache dir and the FX graph cache off (a
graph compiled by an earlier run must not make a later one look cheap).

- training step (fixtures/recompile_training_step.py): forward + backward per call; after =
  `breaklint check --fix --unsafe-fixes` (BL601: the int counter becomes a long buffer).
- diffusion sampler (fixtures/recompile_diffusion_sampler.py): after = the timestep passed as a 0-dim
  tensor and the embedding computed with torch.cos/sin (a hand fix: no rule flags this pattern).

    PYTHONPATH=src python bench/recompile_timing.py [--calls 20] [--backend inductor] [--device cpu]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures")


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fixed_training_step(work: str) -> str:
    from breaklint.lint.config import Settings
    from breaklint.lint.fixloop import fix_source
    from breaklint.lint.runner import lint_settings

    path = os.path.join(FIXTURES, "recompile_training_step.py")
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    outcome = fix_source(source, path, lint_settings(Settings(target_torch="2.13", root=ROOT)), unsafe=True)
    assert outcome.error is None and outcome.changed, outcome.error
    out = os.path.join(work, "recompile_training_step_fixed.py")
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(outcome.source)
    return out


def measure(case: str, variant: str, calls: int, backend: str, device: str, fixed_path: str | None) -> dict:
    """Runs in a child process: one composite, one variant, timed from the first call."""
    import torch
    import torch._dynamo
    import torch._inductor.config

    torch._inductor.config.fx_graph_cache = False
    from breaklint.confirm.recompiles import capture_recompiles

    dev = torch.device(device)
    if case == "training_step":
        path = fixed_path if variant == "after" else os.path.join(FIXTURES, "recompile_training_step.py")
        module = _load(path, f"timing_{case}_{variant}")
        model = module.factory()[0].to(dev)
        sets = [tuple(t.to(dev) for t in module.inputs(i)[0]) for i in range(calls)]

        def call(compiled, args):
            loss = compiled(*args)
            loss.backward()
            return loss
    else:
        module = _load(os.path.join(FIXTURES, "recompile_diffusion_sampler.py"), f"timing_{case}_{variant}")
        model = module.factory()[0].to(dev)
        if variant == "after":
            model.forward = _tensor_timestep_forward(model, module.STEPS)
        sets = []
        for i in range(calls):
            (x, t), _ = module.inputs(i)
            sets.append((x.to(dev), torch.tensor(t, device=dev) if variant == "after" else t))

        def call(compiled, args):
            with torch.no_grad():
                return compiled(*args)
    compiled = torch.compile(model, backend=backend)
    with capture_recompiles() as messages:
        start = time.perf_counter()
        for args in sets:
            call(compiled, args)
        if dev.type == "cuda":
            torch.cuda.synchronize()
        total = time.perf_counter() - start
    limit_hit = any("recompile_limit" in m for m in messages) or len(messages) >= torch._dynamo.config.recompile_limit
    return {"case": case, "variant": variant, "calls": calls, "backend": backend, "device": device,
            "total_s": round(total, 3), "compiles": int(torch._dynamo.utils.counters["stats"].get("unique_graphs", 0)),
            "recompile_logs": len(messages), "limit_hit": limit_hit, "torch": torch.__version__}


def _tensor_timestep_forward(model, steps: int):
    import torch

    def forward(x, t):
        angle = t * torch.pi / 2
        emb = torch.stack([torch.cos(angle), torch.sin(angle)]).to(x.dtype).expand(x.shape[0], 2)
        h = torch.nn.functional.silu(model.inp(x) + model.time(emb))
        return x - (1.0 / steps) * model.out(h)
    return forward


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--backend", default="inductor")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.child:
        case, variant, fixed = opts.child.split(",")
        print(json.dumps(measure(case, variant, opts.calls, opts.backend, opts.device, fixed or None)))
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="breaklint-recompile-timing-") as work:
        fixed = _fixed_training_step(work)
        for _ in range(opts.repeats):
            for case in ("training_step", "diffusion_sampler"):
                for variant in ("before", "after"):
                    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=tempfile.mkdtemp(dir=work))
                    out = subprocess.run([sys.executable, __file__, "--calls", str(opts.calls), "--backend",
                                          opts.backend, "--device", opts.device, "--child",
                                          f"{case},{variant},{fixed}"],
                                         env=env, capture_output=True, text=True, check=True)
                    row = json.loads(out.stdout.strip().splitlines()[-1])
                    rows.append(row)
                    print(f"{case:18s} {variant:6s} {row['total_s']:8.3f}s compiles={row['compiles']} "
                          f"recompile_logs={row['recompile_logs']} limit_hit={row['limit_hit']}", flush=True)
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
