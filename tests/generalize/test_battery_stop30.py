"""Shapes from stop 29's registry sweep that breaklint still missed, mended in stop 30; each marked row is where
Dynamo 2.13 (CPU, eager backend) reports the break, and the unmarked classes are near misses that do not break.

- BL502: numpy.random functions torch._numpy lacks (np.random.beta, GB0294), torch.is_inference_mode_enabled
  (GB0046), torch.get_default_device (GB0208), an attribute of grad_fn (GB0104), `f"{t!r}"` and repr() of a dict
  holding a tensor (GB0569), the text of a string formatted from a tensor used (len GB0088, `in` GB4411), an
  attribute-style dict made in forward (GB0256), deepcopy of a module kept on self and dataclasses.astuple of
  tensors (GB4198, raised inside copy.py).
- BL503: calling a submodule with a full backward hook (GB0083, raised inside module.py).
- BL101: torch._assert on a tensor condition (GB0033).
- BL106: `(a, 1) < (b, 2)` and a tuple held by a local compared (GB6622).
- BL107: list.sort() of tensors (GB0207); max() over a generator with default= (GB0193, before 2.14).
- BL105: `self.alphas[self.timesteps[k]]` with k a range() variable (GB0033).
- BL401: a bool buffer or a literal list of bools as an index, F.ctc_loss (GB0036).
"""
import pytest

from .helpers import codes_by_row, dynamo_break_rows, dynamo_innermost_rows

SOURCE = '''import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttrDict(dict):
    __getattr__ = dict.get


class P18B01(nn.Module):
    """Mixup coefficient from a numpy draw torch._numpy lacks."""
    def forward(self, x):
        lam = np.random.beta(0.4, 0.4)  # Dynamo 2.13: GB0294
        return lam * x + (1 - lam) * x.flip(0)


class P18N01(nn.Module):
    def forward(self, x):
        noise = np.random.normal(0.0, 1.0, size=(4,))  # traced: torch._numpy has normal
        return x * torch.as_tensor(noise).float()


class P19B01(nn.Module):
    def forward(self, x):
        if torch.is_inference_mode_enabled():  # Dynamo 2.13: GB0046
            return x
        return x * 2


class P19B02(nn.Module):
    def forward(self, x):
        return x.to(torch.get_default_device())  # Dynamo 2.13: GB0208


class P19N02(nn.Module):
    def forward(self, x):
        if torch.is_grad_enabled():
            return x.to(torch.get_default_dtype())
        return x


class P19B03(nn.Module):
    def forward(self, x):
        torch._assert(x.abs().sum() >= 0, "negative")  # Dynamo 2.13: GB0033
        return x * 2


class P19N03(nn.Module):
    def forward(self, x):
        torch._assert(x.dim() == 2, "2-d only")
        return x * 2


class P19B04(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        h = self.lin(x)
        return h * len(h.grad_fn.name())  # Dynamo 2.13: GB0104


class P07B01(nn.Module):
    def forward(self, x):
        msg = f"{x.mean()!r}"  # Dynamo 2.13: GB0569
        return x, msg


class P07B02(nn.Module):
    def forward(self, x):
        d = {"a": x}
        return x, repr(d)  # Dynamo 2.13: GB0569


class P07B03(nn.Module):
    def forward(self, x):
        msg = f"{x.sum():.3f}"
        return x * len(msg)  # Dynamo 2.13: GB0088


class P07B04(nn.Module):
    def forward(self, x):
        msg = "v={}".format(x.max())
        if "nan" in msg:  # Dynamo 2.13: GB4411
            return x.nan_to_num()
        return x


class P07N01(nn.Module):
    def forward(self, x):
        kept = f"{x.sum()}"
        shape = f"{x.shape!r}"
        return x * len(shape), {kept: 1}


class P15B01(nn.Module):
    def forward(self, x):
        a, b = x[0, 0], x[1, 1]
        if (a, 1) < (b, 2):  # Dynamo 2.13: GB6622
            return x
        return -x


class P15B02(nn.Module):
    def forward(self, x):
        key = (x.shape[0], x.sum())
        if key == (4, 0):  # Dynamo 2.13: GB6622
            return x
        return -x


class P15N01(nn.Module):
    def forward(self, x):
        a, b = x[0, 0], x[1, 1]
        size = (x.shape[0], x.shape[1])
        if (1, a) < (2, b) and size >= (2, 2):
            return x
        return -x


class P16B01(nn.Module):
    def forward(self, x):
        vals = [x[i].sum() for i in range(4)]
        vals.sort(reverse=True)  # Dynamo 2.13: GB0207
        return vals[0] * x


class P16B02(nn.Module):
    def forward(self, x):
        w = max((t.shape[-1] for t in [x, x[:, :2]]), default=0)  # Dynamo 2.13: GB0193
        return x[:, :w]


class P16N01(nn.Module):
    def forward(self, x):
        rows = [x[i] for i in range(4)]
        rows.sort(key=lambda t: t.shape[0])
        order, _ = x.sum(1).sort()
        w = max(t.shape[-1] for t in rows)
        return rows[0] * w + order


class P01B01(nn.Module):
    """Diffusion sampler stepping through its timestep buffer by position."""
    def __init__(self):
        super().__init__()
        self.register_buffer("timesteps", torch.arange(9, -1, -3))
        self.register_buffer("alphas", torch.linspace(0.99, 0.9, 10))

    def forward(self, x):
        for k in range(len(self.timesteps)):
            t = self.timesteps[k]
            x = x * self.alphas[t]  # Dynamo 2.13: GB0033
        return x


class P01N01(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("alphas", torch.linspace(0.99, 0.9, 10))

    def forward(self, x):
        for k in range(4):
            x = x * self.alphas[k]
        return x


class P09B01(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("keep", torch.tensor([True, False, True, True]))

    def forward(self, x):
        return x[self.keep]  # Dynamo 2.13: GB0036


class P09B02(nn.Module):
    def forward(self, x):
        return x[[True, False, True, True]]  # Dynamo 2.13: GB0036


class P09N01(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("idx", torch.tensor([0, 2]))
        self.register_buffer("keep", torch.ones(4, dtype=torch.bool))

    def forward(self, x):
        y = x[:, self.idx]
        return y.sum() + torch.where(self.keep, x, 0.0) + x.masked_fill(~self.keep, 0.0)


class P05B01(nn.Module):
    def forward(self, x):
        o = AttrDict(y=x * 2)
        return o.y  # Dynamo 2.13: GB0256


class P05N01(nn.Module):
    def forward(self, x):
        o = AttrDict(y=x * 2)
        return o["y"] + len(o.keys())


class P20B01(nn.Module):
    def forward(self, x):
        logp = x.log_softmax(-1)[:, None].expand(4, 2, 4)
        targets = torch.tensor([[1, 2], [1, 1]])
        return F.ctc_loss(logp, targets, [4, 4], [2, 2])  # Dynamo 2.13: GB0036
'''

CLASSES = ('P18B01', 'P18N01', 'P19B01', 'P19B02', 'P19N02', 'P19B03', 'P19N03', 'P19B04', 'P07B01', 'P07B02', 'P07B03', 'P07B04', 'P07N01', 'P15B01', 'P15B02', 'P15N01', 'P16B01', 'P16B02', 'P16N01', 'P01B01', 'P01N01', 'P09B01', 'P09B02', 'P09N01', 'P05B01', 'P05N01', 'P20B01')

ROWS = {row for row, line in enumerate(SOURCE.splitlines(), 1) if "# Dynamo 2.13:" in line}


def _dynamo_2_13():
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    return torch


def test_breaklint_flags_the_rows_dynamo_breaks_on_and_no_other(tmp_path):
    assert len(ROWS) == 18
    assert {row for row, _code in codes_by_row(SOURCE)} == ROWS
    _dynamo_2_13()
    assert dynamo_break_rows(SOURCE, CLASSES, tmp_path) == ROWS


# deepcopy breaks inside copy.py, a hooked submodule inside module.py: the row is the innermost frame of this source in Dynamo's log.
LIBRARY = '''import copy
import dataclasses
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Out:
    a: torch.Tensor
    b: torch.Tensor


@dataclass
class Cfg:
    n: int


class L1(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        target = copy.deepcopy(self.lin)  # Dynamo 2.13: GB4198 (inside copy.py)
        return target(x)


class L2(nn.Module):
    def forward(self, x):
        o = Out(x, x * 2)
        t = dataclasses.astuple(o)  # Dynamo 2.13: GB4198 (inside copy.py)
        return t[0] + t[1]


class L3(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = {"scale": 2}
        self.small = Cfg(2)

    def forward(self, x):
        cfg = copy.deepcopy(self.cfg)
        return x * cfg["scale"] * dataclasses.asdict(self.small)["n"]


def _grad_hook(module, grad_input, grad_output):
    return None


class L4(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.lin.register_full_backward_hook(_grad_hook)

    def forward(self, x):
        return self.lin(x) * 2  # Dynamo 2.13: GB0083 (inside module.py)


class L5(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.lin.register_forward_hook(lambda module, args, out: None)
        self.register_full_backward_hook(_grad_hook)

    def forward(self, x):
        return self.lin(x) * 2
'''

LIBRARY_ROWS = {row for row, line in enumerate(LIBRARY.splitlines(), 1) if "# Dynamo 2.13:" in line}


def test_copies_are_flagged_at_the_innermost_frame_of_the_source(tmp_path):
    assert len(LIBRARY_ROWS) == 3
    assert {row for row, _code in codes_by_row(LIBRARY)} == LIBRARY_ROWS
    _dynamo_2_13()
    assert dynamo_innermost_rows(LIBRARY, ("L1", "L2", "L3", "L4", "L5"), tmp_path) == LIBRARY_ROWS


# Libraries of compiled code (BL502): measured on 2.13 with scipy 1.17 and PyWavelets in the bench environment;
# a method of an object such a library made breaks too, an attribute read does not.
COMPILED = '''import pywt
import torch
import torch.nn as nn
from scipy.optimize import linear_sum_assignment
import scipy.special
from scipy import special


class S01(nn.Module):
    def forward(self, x):
        rows, cols = linear_sum_assignment(x.detach().numpy())  # Dynamo 2.13: GB0007 (skipped)
        return x[torch.as_tensor(rows), torch.as_tensor(cols)]


class S02(nn.Module):
    def forward(self, x):
        return x * special.erfinv(0.5)  # Dynamo 2.13: GB0156


class S03(nn.Module):
    def forward(self, x):
        return x * scipy.special.gamma(3.0)  # Dynamo 2.13: GB0156


class S04(nn.Module):
    def forward(self, x):
        return x * torch.special.erfinv(torch.tensor(0.5))  # torch's own: traced


class S05(nn.Module):
    def forward(self, x):
        w = pywt.Wavelet("db2")  # Dynamo 2.13: GB0156 (inside the library)
        y = x * len(w.dec_lo)  # an attribute read: traced
        return y * len(w.wavefun(level=2))  # Dynamo 2.13: GB0156
'''


def test_calls_into_compiled_libraries_are_flagged():
    rows = {row for row, line in enumerate(COMPILED.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert codes_by_row(COMPILED) == {(row, "BL502") for row in rows}


def test_dynamo_breaks_on_calls_into_compiled_libraries(tmp_path):
    _dynamo_2_13()
    pytest.importorskip("scipy")
    pytest.importorskip("pywt")
    rows = {row for row, line in enumerate(COMPILED.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert dynamo_innermost_rows(COMPILED, ("S01", "S02", "S03", "S04", "S05"), tmp_path) == rows


# Stop 30's domain battery (probabilistic code, solvers, audio, separation, CLIP-style; 93 shapes, no false
# positive): its two missed patterns. Near misses: the default validation and validate_args=False are traced.
DOMAIN = '''import torch
import torch.distributions as D
import torch.nn as nn


class V01(nn.Module):
    def forward(self, x):
        d = D.Normal(x.mean(0), x.std(0).clamp(min=1e-3), validate_args=True)  # Dynamo 2.13: GB0007
        return d.log_prob(x).sum()


class V02(nn.Module):
    def forward(self, x):
        return D.Normal(x, 1.0, validate_args=False).log_prob(x)


class V03(nn.Module):
    def forward(self, x):
        return D.Normal(x, 1.0).rsample()


class Z01(nn.Module):
    def forward(self, x):
        top = x[0].topk(2)
        out = []
        for v, i in zip(top.values, top.indices):
            out.append(float(v) + int(i))  # Dynamo 2.13: GB0124
        return torch.tensor(out)


class Z02(nn.Module):
    def forward(self, x):
        top = x[0].topk(2)
        return top.values * top.indices
'''


def test_domain_battery_misses_are_flagged():
    rows = {row for row, line in enumerate(DOMAIN.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert {row for row, _code in codes_by_row(DOMAIN)} == rows


def test_dynamo_breaks_on_the_domain_battery_rows(tmp_path):
    _dynamo_2_13()
    rows = {row for row, line in enumerate(DOMAIN.splitlines(), 1) if "# Dynamo 2.13:" in line}
    # V01 breaks inside torch.distributions (is_dependent, then _validate_sample for log_prob at row 9)
    assert dynamo_innermost_rows(DOMAIN, ("V01", "V02", "V03", "Z01", "Z02"), tmp_path) == rows | {9}
