"""Shapes from stop 31's battery of gradient code inside a compiled forward (96 shapes, each run through
Dynamo 2.13 with the input requiring grad and not): the misses it found that a rule could take without a
guess, now flagged.

- BL304: `requires_grad_()` on a tensor made by `x.new_zeros / new_ones / new_empty / new_full / new_tensor`
  (never requires grad, whatever x is) or filled in place (`torch.empty_like(x).fill_(1.0)`): GB8985.
  `x.new_zeros(..., requires_grad=True)` stays silent: Dynamo traces it.
- BL304 no longer flags `z.requires_grad_()` as a statement outside loops when `z` is never read after it:
  Dynamo drops the call with the tensor (C6, a false positive of the battery).
- BL503: `retain_grad()` on any receiver not proven a non-tensor (`self.cache[-1].retain_grad()`): only
  tensors have it (GB0108, the frame is skipped).
"""

import pytest

from .helpers import codes_by_row, dynamo_break_rows

SOURCE = 'import torch\nfrom torch import nn\n\n\nclass C1(nn.Module):\n    def forward(self, x):\n        z = x.new_zeros(4, 3).requires_grad_()\n        return z * x\n\n\nclass C2(nn.Module):\n    def forward(self, x):\n        z = torch.empty_like(x).fill_(1.0).requires_grad_()\n        return z * x\n\n\nclass C3(nn.Module):\n    def forward(self, x):\n        w = x.new_ones(3)\n        w.requires_grad_(True)\n        return w * x\n\n\nclass C4(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.cache = []\n\n    def forward(self, x):\n        self.cache.append(x * 2)\n        self.cache[-1].retain_grad()\n        return self.cache[-1] + 1\n\n\nclass C5(nn.Module):\n    def forward(self, x):\n        z = x.new_zeros(4, 3, requires_grad=True)\n        return z * x\n\n\nclass C6(nn.Module):\n    def forward(self, x):\n        z = torch.zeros(4, 3)\n        z.requires_grad_()\n        return x * 2\n'

EXPECTED = {(7, "BL304"), (13, "BL304"), (20, "BL304"), (31, "BL503")}


def test_each_shape_is_flagged_on_its_row():
    found = {(row, code) for row, code in codes_by_row(SOURCE) if code in ("BL304", "BL503")}
    assert found == EXPECTED


def test_dynamo_breaks_on_exactly_those_rows(tmp_path):
    torch = pytest.importorskip("torch")
    rows = dynamo_break_rows(SOURCE, ["C1", "C2", "C3", "C4", "C5", "C6"], tmp_path, inputs=lambda: (torch.randn(4, 3, requires_grad=True),))
    assert rows == {row for row, _ in EXPECTED}
