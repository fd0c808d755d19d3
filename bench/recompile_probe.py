"""Measure, on the installed torch (CPU), how many times each recompile pattern compiles over N calls.

A counting backend counts graphs handed to the backend (one per compiled frame entry); the
`recompiles` log artifact (logger torch._dynamo.guards.__recompiles) gives each recompile's reason.
Usage: PYTHONPATH=src python bench/recompile_probe.py [--calls 12] [--json out.json]
"""
from __future__ import annotations

import argparse
import functools
import json
import logging
import sys

import torch
from torch import nn

RECOMPILES_LOGGER = "torch._dynamo.guards.__recompiles"


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _measure(build, calls: int, backend_name: str = "counting") -> dict:
    """build() -> step(i, backend) that performs call number i with the given backend."""
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    compiles = []

    def counting(gm, example_inputs):
        compiles.append(len(list(gm.graph.nodes)))
        return gm.forward

    handler = _Collect()
    logger = logging.getLogger(RECOMPILES_LOGGER)
    torch._logging.set_logs(recompiles=True)
    logger.addHandler(handler)
    try:
        step = build()
        for i in range(calls):
            step(i, counting if backend_name == "counting" else backend_name)
    finally:
        logger.removeHandler(handler)
        torch._logging.set_logs()
    stats = dict(torch._dynamo.utils.counters["stats"])
    reasons = [m.split("guard failure(s):")[-1].strip().splitlines()[0].strip(" -")
               for m in handler.messages]
    limit_hit = any("recompile_limit" in k or "cache_size" in k for k in torch._dynamo.utils.counters["frames"]) \
        or bool(torch._dynamo.utils.counters.get("recompile_limit"))
    graphs = len(compiles) if backend_name == "counting" else torch._dynamo.utils.counters["stats"]["unique_graphs"]
    return {"compiles": graphs, "frames_ok": torch._dynamo.utils.counters["frames"]["ok"], "recompile_logs": len(handler.messages),
            "first_reason": reasons[0] if reasons else None, "stats": stats}


# --- patterns: each build() returns step(i, backend) --------------------------------------------

def counter_attr():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.step = 0

        def forward(self, x):
            self.step += 1
            return self.lin(x) * 2
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def counter_attr_fixed():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.register_buffer("step", torch.zeros((), dtype=torch.long), persistent=False)

        def forward(self, x):
            self.step += 1
            return self.lin(x) * 2
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def counter_attr_read():
    """The counter is read in forward (used in math), mutated outside."""
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.step = 0

        def forward(self, x):
            return x * self.step
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        m.step += 1
        cm(x)
    return step


def float_attr():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = 1.0

        def forward(self, x):
            self.scale = self.scale * 0.9
            return x * self.scale
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def _scalar_arg(kind):
    def f(x, t):
        return x * t + 1
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x, kind(i) * 0.5 if kind is float else i)
    return step


def int_arg():
    return _scalar_arg(int)


def float_arg():
    return _scalar_arg(float)


def float_arg_branch():
    """The scalar steers Python control flow: automatic dynamic cannot help."""
    def f(x, t):
        if t > 5:
            return x * 2
        return x + t
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x, float(i))
    return step


def compile_in_loop():
    def f(x):
        return torch.sin(x) + 1
    x = torch.randn(2, 4)

    def step(i, backend):
        torch.compile(f, backend=backend)(x)
    return step


def compile_in_loop_lambda():
    x = torch.randn(2, 4)

    def step(i, backend):
        torch.compile(lambda y: torch.sin(y) + 1, backend=backend)(x)
    return step


def compile_module_in_loop():
    m, x = nn.Linear(4, 4), torch.randn(2, 4)

    def step(i, backend):
        torch.compile(m, backend=backend)(x)
    return step


def lambda_per_call():
    def f(x, fn):
        return fn(x) + 1
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x, lambda y: y * 2)
    return step


def closure_per_call():
    def f(x, fn):
        return fn(x) + 1
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        scale = float(i)

        def g(y):
            return y * scale
        cf(x, g)
    return step


def closure_per_call_const():
    def f(x, fn):
        return fn(x) + 1
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf

        def g(y):
            return y * 2
        cf(x, g)
    return step


def partial_per_call():
    def scale(y, k):
        return y * k

    def f(x, fn):
        return fn(x) + 1
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x, functools.partial(scale, k=2.0))
    return step


def partial_per_call_varying():
    def scale(y, k):
        return y * k

    def f(x, fn):
        return fn(x) + 1
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x, functools.partial(scale, k=float(i)))
    return step


CONFIG = {"scale": 1.0}
HISTORY: list = []


def global_dict():
    def f(x):
        return x * CONFIG["scale"]
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        CONFIG["scale"] = float(i)
        cf(x)
    return step


def global_list():
    def f(x):
        return x * len(HISTORY)
    x, cf = torch.randn(2, 4), None
    HISTORY.clear()

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        HISTORY.append(i)
        cf(x)
    return step


def global_list_mutated_inside():
    def f(x):
        HISTORY.append(1)
        return x * 2
    x, cf = torch.randn(2, 4), None
    HISTORY.clear()

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x)
    return step


def _toggle(build_forward):
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.drop = nn.Dropout(0.1)

    M.forward = build_forward
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def eval_in_forward():
    def forward(self, x):
        self.eval()
        y = self.drop(self.lin(x))
        self.train()
        return y
    return _toggle(forward)


def train_toggle_inside():
    def forward(self, x):
        self.train(not self.training)
        return self.drop(self.lin(x))
    return _toggle(forward)


def requires_grad_in_forward():
    def forward(self, x):
        self.lin.weight.requires_grad_(False)
        y = self.lin(x)
        self.lin.weight.requires_grad_(True)
        return y
    return _toggle(forward)


def requires_grad_toggle():
    def forward(self, x):
        w = self.lin.weight
        w.requires_grad_(not w.requires_grad)
        return self.lin(x)
    return _toggle(forward)


def train_eval_outside_alternating():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.drop = nn.Dropout(0.1)

        def forward(self, x):
            return self.drop(self.lin(x))
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        m.train(i % 2 == 0)
        cm(x)
    return step


PATTERNS = [counter_attr, counter_attr_fixed, counter_attr_read, float_attr, int_arg, float_arg,
            float_arg_branch, compile_in_loop, compile_in_loop_lambda, compile_module_in_loop,
            lambda_per_call, closure_per_call, closure_per_call_const, partial_per_call,
            partial_per_call_varying, global_dict, global_list, global_list_mutated_inside,
            eval_in_forward, train_toggle_inside, requires_grad_in_forward, requires_grad_toggle,
            train_eval_outside_alternating]


STATS = {"calls": 0}
CALLS = 0


def global_int_counter_inside():
    def f(x):
        global CALLS
        CALLS += 1
        return x * 2
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x)
    return step


def global_dict_counter_inside():
    def f(x):
        STATS["calls"] += 1
        return x * 2
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x)
    return step


def global_dict_int_read():
    def f(x):
        return x * STATS["calls"]
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        STATS["calls"] = i
        cf(x)
    return step


def list_attr_append():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.history = []

        def forward(self, x):
            self.history.append(x.sum())
            return x * 2
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def counter_attr_assign():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, x):
            self.calls = self.calls + 1
            return x * 2
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def counter_attr_unused_mod():
    """Counter only used modulo: still guards on the value."""
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.step = 0

        def forward(self, x):
            self.step += 1
            if self.step % 100 == 0:
                x = x * 0.5
            return x * 2
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


def _sampler(body):
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(body, backend=backend) if cf is None else cf
        cf(x, 1.0 - i / 20)
    return step


def sampler_math_cos():
    import math

    def f(x, t):
        return x * math.cos(t * math.pi / 2)
    return _sampler(f)


def sampler_torch_tensor():
    def f(x, t):
        return x * torch.tensor(t)
    return _sampler(f)


def sampler_full_like():
    def f(x, t):
        return x + torch.full_like(x, t)
    return _sampler(f)


def int_arg_as_shape():
    def f(x, n):
        return x.sum() * torch.arange(n).float().mean()
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(f, backend=backend) if cf is None else cf
        cf(x, i + 2)
    return step


def compile_in_loop_default_backend():
    """The backend the user names: a new inductor wrapper each time (counted by frames ok)."""
    def f(x):
        return torch.sin(x) + 1
    x = torch.randn(2, 4)

    def step(i, backend):
        torch.compile(f, backend="aot_eager")(x)
    return step


PATTERNS += [global_int_counter_inside, global_dict_counter_inside, global_dict_int_read, list_attr_append,
             counter_attr_assign, counter_attr_unused_mod, sampler_math_cos, sampler_torch_tensor,
             sampler_full_like, int_arg_as_shape, compile_in_loop_default_backend]


def _scalar_into(body, kind=float):
    x, cf = torch.randn(2, 4), None

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(body, backend=backend) if cf is None else cf
        cf(x, kind(i) * (0.5 if kind is float else 1) + (1 if kind is int else 0))
    return step


def int_arg_torch_tensor():
    return _scalar_into(lambda x, n: x * torch.tensor(n), int)


def float_arg_as_tensor():
    return _scalar_into(lambda x, t: x * torch.as_tensor(t))


def float_arg_new_tensor():
    return _scalar_into(lambda x, t: x * x.new_tensor(t))


def float_arg_torch_full():
    return _scalar_into(lambda x, t: x + torch.full((4,), t))


def float_arg_fill():
    return _scalar_into(lambda x, t: x + torch.ones_like(x).fill_(t))


def float_arg_mul_derived():
    """A value derived from t with math, used in arithmetic only."""
    import math
    return _scalar_into(lambda x, t: x * math.cos(t * math.pi / 2) + t)


def float_arg_tensor_of_derived():
    import math
    return _scalar_into(lambda x, t: x * torch.tensor([math.cos(t), math.sin(t)]).sum())


def float_arg_tensor_fixed():
    """The fix: the caller passes a 0-dim tensor."""
    x, cf = torch.randn(2, 4), None

    def body(x, t):
        return x * torch.stack([torch.cos(t), torch.sin(t)]).sum()

    def step(i, backend):
        nonlocal cf
        cf = torch.compile(body, backend=backend) if cf is None else cf
        cf(x, torch.tensor(0.5 * i))
    return step


def float_attr_read_only_changed_outside():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = 1.0

        def forward(self, x):
            return x * self.scale
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        m.scale = 1.0 + i
        cm(x)
    return step


def float_attr_augassign():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.decay = 1.0

        def forward(self, x):
            self.decay *= 0.99
            return x * 2
    m, cm, x = M(), None, torch.randn(2, 4)

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        cm(x)
    return step


PATTERNS += [int_arg_torch_tensor, float_arg_as_tensor, float_arg_new_tensor, float_arg_torch_full, float_arg_fill,
             float_arg_mul_derived, float_arg_tensor_of_derived, float_arg_tensor_fixed,
             float_attr_read_only_changed_outside, float_attr_augassign]


# --- issue #15 item 2: an attribute changed OUTSIDE forward (a setter, a training loop) ----------

def _outside(forward, init=0, update=lambda m, i: setattr(m, "step", i), x=None, holder=False):
    """A module whose forward is `forward`; before call i the caller runs update(m, i)."""
    class Holder:
        pass

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            if holder:
                self.cfg = Holder()
                self.cfg.step = init
            else:
                self.step = init

        def set_step(self, step):
            self.step = step

        def advance(self):
            self.step += 1
    M.forward = forward
    m, cm, x = M(), None, torch.randn(2, 4) if x is None else x

    def step(i, backend):
        nonlocal cm
        cm = torch.compile(m, backend=backend) if cm is None else cm
        update(m, i)
        cm(x)
    return step


def outside_int_arith():
    return _outside(lambda self, x: self.lin(x) * self.step)


def outside_int_setter_arith():
    return _outside(lambda self, x: self.lin(x) * self.step, update=lambda m, i: m.set_step(i))


def outside_int_advance_arith():
    return _outside(lambda self, x: self.lin(x) * self.step, update=lambda m, i: m.advance())


def outside_int_branch():
    def forward(self, x):
        if self.step < 6:
            return self.lin(x)
        return self.lin(x) * 2
    return _outside(forward)


def outside_int_branch_far():
    """The branch never changes side (step stays below 1000): does the guard still fail?"""
    def forward(self, x):
        if self.step > 1000:
            return self.lin(x) * 2
        return self.lin(x)
    return _outside(forward)


def outside_int_shape():
    def forward(self, x):
        return self.lin(x).sum() * torch.arange(self.step + 1).float().mean()
    return _outside(forward)


def outside_int_slice():
    def forward(self, x):
        return self.lin(x)[:, : (self.step % 4) + 1].sum()
    return _outside(forward, x=torch.randn(2, 4))


def outside_int_unused():
    """Set every call, never read by forward."""
    return _outside(lambda self, x: self.lin(x))


def outside_int_into_tensor():
    return _outside(lambda self, x: self.lin(x) * torch.tensor(self.step))


def outside_int_bounded():
    """Alternates between two values (a phase flag kept as an int)."""
    return _outside(lambda self, x: self.lin(x) * self.step, update=lambda m, i: setattr(m, "step", i % 2))


def outside_int_holder_arith():
    """The int lives on a plain object the module holds (self.cfg.step)."""
    return _outside(lambda self, x: self.lin(x) * self.cfg.step, holder=True,
                    update=lambda m, i: setattr(m.cfg, "step", i))


def outside_int_arith_unspec():
    """The same with torch._dynamo.config.allow_unspec_int_on_nn_module = True."""
    inner = outside_int_arith()

    def step(i, backend):
        with torch._dynamo.config.patch(allow_unspec_int_on_nn_module=True):
            inner(i, backend)
    return step


def outside_int_branch_unspec():
    inner = outside_int_branch()

    def step(i, backend):
        with torch._dynamo.config.patch(allow_unspec_int_on_nn_module=True):
            inner(i, backend)
    return step


def outside_float_arith():
    return _outside(lambda self, x: self.lin(x) * self.step, init=1.0,
                    update=lambda m, i: setattr(m, "step", 1.0 + i / 10))


def outside_float_branch():
    def forward(self, x):
        if self.step < 1.55:
            return self.lin(x)
        return self.lin(x) * 2
    return _outside(forward, init=1.0, update=lambda m, i: setattr(m, "step", 1.0 + i / 10))


def outside_float_into_tensor():
    return _outside(lambda self, x: self.lin(x) * torch.tensor(self.step), init=1.0,
                    update=lambda m, i: setattr(m, "step", 1.0 + i / 10))


def outside_float_math():
    import math
    return _outside(lambda self, x: self.lin(x) * math.cos(self.step), init=1.0,
                    update=lambda m, i: setattr(m, "step", 1.0 + i / 10))


PATTERNS += [outside_int_arith, outside_int_setter_arith, outside_int_advance_arith, outside_int_branch,
             outside_int_branch_far, outside_int_shape, outside_int_slice, outside_int_unused,
             outside_int_into_tensor, outside_int_bounded, outside_int_holder_arith, outside_int_arith_unspec,
             outside_int_branch_unspec, outside_float_arith, outside_float_branch, outside_float_into_tensor,
             outside_float_math]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=12)
    parser.add_argument("--json")
    parser.add_argument("-k", help="only patterns whose name contains this")
    parser.add_argument("--backend", default="counting",
                        help="counting (Dynamo only, like backend='eager') or a real one: aot_eager, inductor")
    opts = parser.parse_args(argv)
    rows = {}
    for build in PATTERNS:
        if opts.k and opts.k not in build.__name__:
            continue
        try:
            rows[build.__name__] = r = _measure(build, opts.calls, opts.backend)
        except Exception as exc:  # noqa: BLE001  record, keep going
            rows[build.__name__] = r = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
        print(f"{build.__name__:32s} compiles={r.get('compiles')} frames_ok={r.get('frames_ok')} recompile_logs={r.get('recompile_logs')} "
              f"{r.get('error') or r.get('first_reason')}", flush=True)
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump({"torch": torch.__version__, "calls": opts.calls, "backend": opts.backend, "patterns": rows},
                      fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
