"""Standalone (torch only, no breaklint, no network): total time of N calls, compile included, of the
two recompile composites before and after their fix, each in a fresh process with a fresh Inductor
cache. The models are copies of fixtures/recompile_training_step.py (after = BL601's fix as
`breaklint check --fix --unsafe-fixes` writes it) and fixtures/recompile_diffusion_sampler.py
(after = tensor timestep, by hand).

    python bench/recompile_gpu_timing.py --device cuda --out "$OUT/recompile_gpu_timing.json"
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

STEPS = 20


def models():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class TrainStep(nn.Module):
        def __init__(self, buffer: bool, dim=64, hidden=256):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
            self.norm = nn.LayerNorm(dim)
            if buffer:
                self.register_buffer("step", torch.zeros((), dtype=torch.long), persistent=False)
            else:
                self.step = 0

        def forward(self, x, target):
            self.step += 1
            pred = self.norm(x + self.net(x))
            return F.mse_loss(pred, target)

    class Denoiser(nn.Module):
        def __init__(self, dim=64, hidden=256):
            super().__init__()
            self.inp, self.time, self.out = nn.Linear(dim, hidden), nn.Linear(2, hidden), nn.Linear(hidden, dim)

        def forward(self, x, t: float):
            angle = t * math.pi / 2
            emb = torch.tensor([math.cos(angle), math.sin(angle)], dtype=x.dtype, device=x.device).expand(x.shape[0], 2)
            return x - (1.0 / STEPS) * self.out(F.silu(self.inp(x) + self.time(emb)))

    class TensorTimeDenoiser(Denoiser):
        def forward(self, x, t):
            angle = t * torch.pi / 2
            emb = torch.stack([torch.cos(angle), torch.sin(angle)]).to(x.dtype).expand(x.shape[0], 2)
            return x - (1.0 / STEPS) * self.out(F.silu(self.inp(x) + self.time(emb)))

    return TrainStep, Denoiser, TensorTimeDenoiser


def child(case, variant, calls, device, mode):
    import torch
    import torch._inductor.config

    torch._inductor.config.fx_graph_cache = False
    TrainStep, Denoiser, TensorTimeDenoiser = models()
    torch.manual_seed(0)
    dev = torch.device(device)
    if case == "training_step":
        model = TrainStep(buffer=variant == "after").to(dev)
        sets = [(torch.randn(32, 64, device=dev), torch.randn(32, 64, device=dev)) for _ in range(calls)]
    else:
        model = (TensorTimeDenoiser() if variant == "after" else Denoiser()).to(dev)
        ts = [1.0 - i / STEPS for i in range(calls)]
        sets = [(torch.randn(16, 64, device=dev), torch.tensor(t, device=dev) if variant == "after" else t) for t in ts]
    compiled = torch.compile(model, mode=mode)
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    sync()
    start = time.perf_counter()
    for args in sets:
        out = compiled(*args)
        if case == "training_step":
            out.backward()
    sync()
    total = time.perf_counter() - start
    return {"case": case, "variant": variant, "calls": calls, "mode": mode or "default", "device": device,
            "device_name": torch.cuda.get_device_name() if dev.type == "cuda" else "cpu", "torch": torch.__version__,
            "total_s": round(total, 3), "compiles": int(torch._dynamo.utils.counters["stats"].get("unique_graphs", 0))}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=20)
    p.add_argument("--device", default="cuda")
    p.add_argument("--mode", default=None)
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "recompile_gpu_timing.json"))
    p.add_argument("--child")
    o = p.parse_args()
    if o.child:
        case, variant = o.child.split(",")
        print(json.dumps(child(case, variant, o.calls, o.device, o.mode)))
        return 0
    rows = []
    for _ in range(o.repeats):
        for case in ("training_step", "diffusion_sampler"):
            for variant in ("before", "after"):
                env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=tempfile.mkdtemp(prefix="bl-rc-"))
                cmd = [sys.executable, __file__, "--calls", str(o.calls), "--device", o.device, "--child", f"{case},{variant}"]
                if o.mode:
                    cmd += ["--mode", o.mode]
                r = subprocess.run(cmd, env=env, capture_output=True, text=True)
                row = json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else \
                    {"case": case, "variant": variant, "error": r.stderr[-800:]}
                rows.append(row)
                print(json.dumps(row), flush=True)
                os.makedirs(os.path.dirname(os.path.abspath(o.out)), exist_ok=True)
                with open(o.out, "w") as fh:
                    json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
