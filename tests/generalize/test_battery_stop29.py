"""Shapes from stop 29's sweep of Dynamo's graph-break registry (664 shapes through Dynamo 2.13, CPU, eager
backend), whose misses these mends cover; each marked row is where Dynamo 2.13 reports the break.

- BL304: requires_grad_() on a clone, a slice, a cast, a cat or arithmetic of an input, on anything detached
  (through a helper too), or with a flag that is a variable (GB8985); guarded by `not <input>.requires_grad`
  where the tensor comes from an input.
- BL105: a 0-d integer tensor as an index: a loop variable over `torch.arange(...)` or over a buffer registered
  as one, `torch.randint(lo, hi, ())` (GB0033); a computed tensor as a size of `torch.narrow`, `.topk`,
  `torch.tensor_split` (GB0033); `.view` breaks too and is left out (LEFT_OUT).
- BL101: Python's any() / all() over a bool tensor (GB0170).
- BL504: the first read of a sparse tensor the object keeps (a buffer, or an attribute made sparse in __init__),
  GB0015.
- BL305: the first touch of a recurrent module, not only its call (`self.rnn.flatten_parameters()`,
  `self.rnn.num_layers`), GB0014.
- BL502: `t.random_(n)`, `resize_`, `resize_as_` (GB0107 / GB0126 / GB0127), `with np.errstate(...)` (GB0142),
  `with torch.autograd.graph.save_on_cpu()` (GB0008), and calling a TorchScript module kept on self (GB4695).
"""
import pytest

from .helpers import codes_by_row, dynamo_break_rows, dynamo_innermost_rows

SOURCE = 'import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass P02B01(nn.Module):\n    """WGAN-GP interpolate."""\n    def __init__(self):\n        super().__init__()\n        self.critic = nn.Linear(4, 1)\n\n    def forward(self, real):\n        alpha = torch.rand(real.size(0), 1)\n        interp = (alpha * real + (1 - alpha) * real.flip(0)).requires_grad_(True)  # Dynamo 2.13: GB8985\n        score = self.critic(interp)\n        return torch.autograd.grad(score.sum(), interp, create_graph=True)[0]  # Dynamo 2.13: GB9186 autograd.grad (flagged, BL503)\n\n\nclass P02B02(nn.Module):\n    """PINN: slice of the input, cloned."""\n    def forward(self, x):\n        xt = x[:, :2].clone().requires_grad_(True)  # Dynamo 2.13: GB8985\n        return xt * 2\n\n\nclass P02B03(nn.Module):\n    def forward(self, x):\n        y = x.clone().requires_grad_(True)  # Dynamo 2.13: GB8985\n        return (y ** 2).sum()\n\n\nclass P02B04(nn.Module):\n    def forward(self, x):\n        y = x[:, :2].requires_grad_()  # Dynamo 2.13: GB8985\n        return y * 2\n\n\nclass P02B05(nn.Module):\n    def forward(self, x):\n        y = x * 2\n        y.requires_grad_(self.training)  # Dynamo 2.13: GB8985 (non-constant flag, True in training)\n        return y\n\n\ndef _make_leaf(t):\n    return t.detach().clone().requires_grad_()  # Dynamo 2.13: GB8985 (through a helper)\n\n\nclass P02B06(nn.Module):\n    def forward(self, x):\n        return _make_leaf(x) * 3\n\n\nclass P02B07(nn.Module):\n    def forward(self, x):\n        y = x.clone()\n        y.requires_grad_(True)  # Dynamo 2.13: GB8985\n        return y\n\n\nclass P02B08(nn.Module):\n    def forward(self, x):\n        y = x.float()\n        y.requires_grad_()  # Dynamo 2.13: GB8985\n        return y * 2\n\n\nclass P02B09(nn.Module):\n    def forward(self, x):\n        y = torch.cat([x, x]).requires_grad_()  # Dynamo 2.13: GB8985\n        return y * 2\n\n\nclass P01B01(nn.Module):\n    """Diffusion sampler over a tensor of timesteps."""\n    def __init__(self):\n        super().__init__()\n        self.register_buffer("alphas", torch.linspace(0.99, 0.9, 10))\n        self.register_buffer("timesteps", torch.arange(9, -1, -3))\n\n    def forward(self, x):\n        for t in self.timesteps:\n            x = x * self.alphas[t]  # Dynamo 2.13: GB0033 Data dependent operator\n        return x\n\n\nclass P01B02(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer("alphas", torch.linspace(0.99, 0.9, 10))\n\n    def forward(self, x):\n        for t in torch.arange(9, -1, -3):\n            x = x * self.alphas[t].sqrt()  # Dynamo 2.13: GB0033 Data dependent operator\n        return x\n\n\nclass P01B06(nn.Module):\n    """Diffusion training with one scalar timestep (a (B,) timestep tensor does not break)."""\n    def __init__(self):\n        super().__init__()\n        self.register_buffer("alphas", torch.linspace(0.99, 0.9, 10))\n\n    def forward(self, x):\n        t = torch.randint(0, 10, ())\n        return x * self.alphas[t]  # Dynamo 2.13: GB0033 Data dependent operator\n\n\nclass P10B01(nn.Module):\n    def forward(self, x):\n        n = (x > 0).sum()\n        return torch.narrow(x.flatten(), 0, 0, n)  # Dynamo 2.13: GB0033 Data dependent operator\n\n\nclass P10B02(nn.Module):\n    def forward(self, x):\n        k = (x[0] > 0).sum()\n        return x.flatten().topk(k).values  # Dynamo 2.13: GB0033 Data dependent operator\n\n\nclass P10B04(nn.Module):\n    def forward(self, x):\n        rows = (x[:, 0] > -100).sum()\n        return x.view(rows, -1)  # Dynamo 2.13: GB0033 Data dependent operator\n\n\nclass P10B05(nn.Module):\n    def forward(self, x):\n        idx = torch.tensor([1, 3])\n        return torch.tensor_split(x, idx)[1]  # Dynamo 2.13: GB0033 Data dependent operator\n\n\nclass P06B01(nn.Module):\n    def forward(self, x):\n        mask = x[:, 0] > 100\n        if any(mask):  # Dynamo 2.13: GB0170 Data-dependent branching\n            return -x\n        return x\n\n\nclass P06B02(nn.Module):\n    def forward(self, x):\n        if all(x[:, 0] > -100):  # Dynamo 2.13: GB0170 Data-dependent branching\n            return x\n        return -x\n\n\nclass P06B03(nn.Module):\n    def forward(self, x):\n        if any(x.sum(1) > 100):  # Dynamo 2.13: GB0170 Data-dependent branching\n            return -x\n        return x\n\n\nclass P03B01(nn.Module):\n    def __init__(self):\n        super().__init__()\n        idx = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])\n        self.register_buffer("adj", torch.sparse_coo_tensor(idx, torch.ones(4), (4, 4)))\n\n    def forward(self, x):\n        return torch.sparse.mm(self.adj, x)  # Dynamo 2.13: GB0015 Attempted to wrap sparse Tensor\n\n\nclass P03B02(nn.Module):\n    def __init__(self):\n        super().__init__()\n        idx = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])\n        self.adj = torch.sparse_coo_tensor(idx, torch.ones(4), (4, 4)).coalesce()\n\n    def forward(self, x):\n        return self.adj @ x  # Dynamo 2.13: GB0015 Attempted to wrap sparse Tensor\n\n\nclass P03B04(nn.Module):\n    def __init__(self):\n        super().__init__()\n        idx = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])\n        self.adj = torch.sparse_coo_tensor(idx, torch.ones(4), (4, 4)).to_sparse_csr()\n\n    def forward(self, x):\n        return torch.sparse.mm(self.adj, x)  # Dynamo 2.13: GB0015 Attempted to wrap sparse Tensor\n\n\nclass P03B05(nn.Module):\n    def __init__(self):\n        super().__init__()\n        idx = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])\n        self.adj = torch.sparse_coo_tensor(idx, torch.ones(4), (4, 4))\n\n    def forward(self, x):\n        deg = torch.sparse.sum(self.adj, dim=1).to_dense()  # Dynamo 2.13: GB0015 Attempted to wrap sparse Tensor\n        return x * deg[:, None]\n\n\nclass P04B01(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.LSTM(4, 8, num_layers=2, bidirectional=True)\n\n    def forward(self, x):\n        self.rnn.flatten_parameters()  # Dynamo 2.13: GB0014 Attempted to wrap RNN, GRU, or LSTM\n        return self.rnn(x[:, None])[0]  # breaklint: BL305 here\n\n\nclass P04B02(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.GRU(4, 4)\n\n    def forward(self, x):\n        h0 = torch.zeros(self.rnn.num_layers, 1, self.rnn.hidden_size)  # Dynamo 2.13: GB0014\n        return self.rnn(x[:, None], h0)[0]  # breaklint: BL305 here\n\n\nclass P04B03(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.LSTM(4, 4)\n\n    def forward(self, x):\n        return x @ self.rnn.weight_hh_l0[:4]  # Dynamo 2.13: GB0014 (breaklint silent)\n\n\nclass P13B01(nn.Module):\n    def forward(self, x):\n        neg = torch.empty(8, dtype=torch.long).random_(x.shape[0])  # Dynamo 2.13: GB0107 Tensor.random_ op\n        return x[neg]\n\n\nclass P13B02(nn.Module):\n    def forward(self, x):\n        y = x.new_empty(0)\n        y.resize_(4, 4)  # Dynamo 2.13: GB0126 Unsupported Tensor.resize_() call\n        return y.zero_() + x\n\n\nclass P13B03(nn.Module):\n    def forward(self, x):\n        y = torch.empty(0)\n        y.resize_as_(x)  # Dynamo 2.13: GB0127 Unsupported Tensor.resize_as_() call\n        return y.copy_(x)\n\n\nclass P12B01(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.enc = torch.jit.script(nn.Linear(4, 4))\n\n    def forward(self, x):\n        return self.enc(x)  # Dynamo 2.13: GB4695 torch.jit.script/freeze modules unsupported\n\n\nclass P08B01(nn.Module):\n    def forward(self, x):\n        with np.errstate(all="ignore"):  # Dynamo 2.13: GB0294 + GB0142 Unsupported context manager\n            pass\n        return x * 2\n\n\nclass P08B03(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(4, 4)\n\n    def forward(self, x):\n        with torch.autograd.graph.save_on_cpu():  # Dynamo 2.13: GB0008 + GB0142 Unsupported context manager\n            return self.lin(x).relu()\n'

ROWS = {257, 131, 137, 268, 15, 144, 17, 23, 151, 29, 35, 163, 42, 173, 47, 183, 58, 65, 193, 71, 203, 84, 213, 95, 223, 228, 107, 235, 113, 242, 119, 252, 125}
CLASSES = ('P02B01', 'P02B02', 'P02B03', 'P02B04', 'P02B05', 'P02B06', 'P02B07', 'P02B08', 'P02B09', 'P01B01', 'P01B02', 'P01B06', 'P10B01', 'P10B02', 'P10B04', 'P10B05', 'P06B01', 'P06B02', 'P06B03', 'P03B01', 'P03B02', 'P03B04', 'P03B05', 'P04B01', 'P04B02', 'P04B03', 'P13B01', 'P13B02', 'P13B03', 'P12B01', 'P08B01', 'P08B03')


# `x.view(rows, -1)` with a computed count breaks too, but view / reshape sizes are left out of BL105: they
# gave 2 false positives on the held-out library and found nothing more on either split (stop 29).
LEFT_OUT = {row for row, line in enumerate(SOURCE.splitlines(), 1) if "x.view(rows, -1)" in line}


# BL305 reports the first recurrent call after a touch that breaks first only where the touch may sit in a branch
# that is not taken. Here each touch runs on every call: Dynamo skips the frame there and never reaches the call,
# and since stop 35 breaklint stops there too.
AFTER_SKIP = {row for row, line in enumerate(SOURCE.splitlines(), 1) if "# breaklint: BL305 here" in line}


def test_breaklint_flags_these_rows_and_no_other():
    assert len(LEFT_OUT) == 1 and len(AFTER_SKIP) == 2
    assert {row for row, _code in codes_by_row(SOURCE)} == ROWS - LEFT_OUT


# any() / all() over a tensor break inside Dynamo's polyfill of the builtin: the log names that file, and the
# row of this source is the innermost frame of it in the log's stack.
BUILTIN_ROWS = {row for row in ROWS if "any(" in SOURCE.splitlines()[row - 1] or "all(" in SOURCE.splitlines()[row - 1]}


def test_the_rows_are_dynamos(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    assert dynamo_break_rows(SOURCE, CLASSES, tmp_path) == ROWS - BUILTIN_ROWS


def test_the_builtin_rows_are_the_innermost_frames_of_dynamos_breaks(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    rows = dynamo_innermost_rows(SOURCE, [name for name in CLASSES if name.startswith("P06")], tmp_path,
                                 keep=lambda message: "polyfills" in message.splitlines()[0])
    assert rows == BUILTIN_ROWS


ZLIB = """import zlib
import torch
from torch import nn


class Z1(nn.Module):
    def forward(self, x):
        return x * len(zlib.compress(b"abcabc"))


class Z2(nn.Module):
    def forward(self, x):
        return x * zlib.crc32(b"abc")
"""


DISABLED = """import torch
from torch import nn


class K1(nn.Module):
    @torch.compiler.disable
    def _host(self, x):
        return x.clone()

    def forward(self, x):
        return self._host(x) * 2


@torch.compiler.disable
def _log_stats(t):
    return t.mean()


class K2(nn.Module):
    def forward(self, x):
        _log_stats(x)
        return x * 2
"""


CONTAINS = """import torch
from torch import nn


class C1(nn.Module):
    def forward(self, x):
        if 0.5 in x:
            return x
        return x + 1


class C2(nn.Module):
    def forward(self, x):
        names = {"a": 1}
        return x * 2 if "a" in names else x
"""


ATTRDICT = """import torch
from torch import nn


class AttrDict(dict):
    __getattr__ = dict.get


class A1(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = AttrDict(scale=2.0)
        self.plain = {"scale": 2.0}

    def forward(self, x):
        return x * self.cfg.scale * self.plain["scale"]
"""


# Small sources, each with the rows Dynamo 2.13 breaks on (and the one code that flags them, where other
# codes flag other rows of it): zlib (BL502), calls of disabled functions (BL501), `v in t` (BL103), an
# attribute-style dict (BL502).
SMALL_CASES = {
    "zlib": (ZLIB, ("Z1", "Z2"), "BL502", {8, 13}),
    "disabled": (DISABLED, ("K1", "K2"), "BL501", {11, 21}),
    "contains": (CONTAINS, ("C1", "C2"), None, {7}),
    "attrdict": (ATTRDICT, ("A1",), None, {16}),
}


@pytest.mark.parametrize("name", sorted(SMALL_CASES))
def test_small_cases_are_flagged_where_dynamo_breaks(tmp_path, name):
    source, classes, code, rows = SMALL_CASES[name]
    assert {row for row, found in codes_by_row(source) if code is None or found == code} == rows
    torch = pytest.importorskip("torch")
    if torch.__version__.startswith("2.13"):
        assert dynamo_break_rows(source, classes, tmp_path) == rows
