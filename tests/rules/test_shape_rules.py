"""Static precision and recall cases for BL301/BL302/BL303/BL401/BL402/BL503: each snippet is a
forward body; the test lints it inside a module class and compares flagged lines to `# hit` marks.
Every positive case here was measured to break on torch 2.13 CPU, every negative one not to."""
import textwrap

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import rule_by_code

HEADER = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, idx, m):
"""


def _flagged(code: str, body: str) -> tuple[set[int], set[int]]:
    source = HEADER + textwrap.indent(textwrap.dedent(body), " " * 8)
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code(code)()]))
    expected = {i for i, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# hit")}
    return {f.row for f in findings}, expected


CASES = [
    # BL401: dynamic output shapes (GB0036)
    ("BL401", "y = x.nonzero()  # hit"),
    ("BL401", "y = torch.argwhere(x > 0)  # hit"),
    ("BL401", "y = torch.nonzero(x, as_tuple=True)  # hit"),
    ("BL401", "y = torch.where(x > 0)  # hit"),
    ("BL401", "y = torch.where(condition=x > 0)  # hit"),
    ("BL401", "y = torch.where(x > 0, x, 0.0)"),
    ("BL401", "y = torch.unique(x)  # hit\nz = x.unique_consecutive()  # hit"),
    ("BL401", "y = x.masked_select(x > 0)  # hit"),
    ("BL401", "y = x.masked_fill(x > 0, 0.0)"),
    ("BL401", "y = torch.bincount(idx, minlength=4)  # hit"),
    ("BL401", "counts = m.long()\ny = torch.repeat_interleave(x, counts)  # hit\nz = x.repeat_interleave(counts)  # hit"),
    # `idx` reads as a size-like name (an int), so int repeats are assumed
    ("BL401", "y = torch.repeat_interleave(x, idx)"),
    ("BL401", "y = torch.repeat_interleave(idx)  # hit"),
    ("BL401", "y = torch.repeat_interleave(x, 2)\nz = torch.repeat_interleave(x, idx, output_size=8)"),
    ("BL401", "y = torch.nonzero_static(x, size=4)"),
    ("BL401", "y = x[x > 0]  # hit"),
    ("BL401", "y = x[:, m > 0]  # hit"),
    ("BL401", "keep = m > 0\ny = x[~keep]  # hit"),
    # a parameter rebound to a mask: its reaching definition decides under `~` too (torchmetrics' hinge)
    ("BL401", "m = m.bool()\ny = x[m]  # hit\nz = x[~m]  # hit"),
    # `a < t if inverted else a > t` (pytorch-metric-learning's PairMarginMiner)
    ("BL401", "keep = (x < 0.5 if x.dim() > 1 else x > 0.5)\ny = x[keep]  # hit"),
    # `m &= cond` keeps a mask a mask, on every path (TripletMarginMiner)
    ("BL401", "if x.dim() > 1:\n    k = x > 0\nelse:\n    k = x <= 0\n    k &= x > -1\ny = x[k]  # hit"),
    ("BL401", "k = x > 0\nk += 1\ny = x[k]"),
    # a comparison of values of unknown kind indexing a tensor (pytorch-metric-learning's
    # TripletMarginMiner: the margin comes from a distance module passed in)
    ("BL401", "d = self.dist(x)\ncond = d > self.margin\ny = x.view(-1)[cond]  # hit"),
    ("BL401", "y = x[len(x) > 4]"),
    # settings compared (attributes, parameters), or an attribute indexed: no data, no guess
    ("BL401", "lo, hi = self.lo, self.hi\ny = x[lo > hi]\nd = self.dist(x)\nz = self.acts[d > self.k]"),
    ("BL401", "bad = x.isnan()\ny = x[bad]  # hit"),
    ("BL401", "y = x[(x > 0) & (m > 0)]  # hit"),
    ("BL401", "y = x[m.bool()]  # hit"),
    ("BL401", "x = x.clone()\nx[x > 0] += 1.0  # hit"),
    # a masked write is an index_put of static shape; integer indexing is static too
    ("BL401", "x = x.clone()\nx[x > 0] = 0.0"),
    ("BL401", "y = x[idx]"),
    # the assignment that reaches the use decides: a name reused for an index map, then a mask
    ("BL401", "k = x.new_full((4,), -1)\nk[idx] = 0\nk = (k >= 0) & (x > 0)\ny = x[k]  # hit"),
    ("BL401", "k = x > 0\nk = idx\ny = x[k]"),
    ("BL401", "a, b = x > 0, x < 1\ny, z = x[a], x[b]  # hit"),
    # what is indexed need not be known: only a tensor takes a mask
    ("BL401", "h = helper(x)\ny = h[x > 0]  # hit"),
    # a tensor named mask, of unknown dtype, used as an index is a boolean mask (measured: PyG's
    # to_dense_batch mask); beside a slice, whatever is known of it
    ("BL401", "h, mask = helper(x)\nkeep = mask.logical_not()\ny = h[mask]  # hit"),
    # ... but the assignment that reaches it decides when there is one, and positions are no masks
    ("BL401", "mask = idx.long()\ny = x[mask]"),
    ("BL401", "h, mask_idx = helper(x)\nkeep = mask_idx.logical_not()\ny = h[:, mask_idx]"),
    ("BL401", "edge_mask, h = helper(x)\ny = h[:, edge_mask]  # hit"),
    ("BL401", "keep, h = helper(x)\ny = h[:, keep]"),
    # nonzero is a tensor's method: the receiver need not be known
    ("BL401", "deg = helper(x)\ny = (deg == 2).nonzero()  # hit"),
    ("BL401", "deg = [1, 2]\ny = deg.nonzero()"),
    ("BL401", "y = x[(m > 0).long()]"),
    # an unknown-dtype mask stays silent (it may be an index tensor)
    ("BL401", "y = x[m]"),
    # ... unless the definition that reaches the use makes it boolean (as x[m.bool()] above)
    ("BL401", "m = m.bool()\ny = x[m]  # hit"),
    ("BL401", "y = x[x.shape[0] > 2]"),
    ("BL401", "items = [1, 2, 3]\ny = items[len(items) > 1]"),
    # BL402: one_hot (GB0246 / GB0033)
    ("BL402", "y = F.one_hot(idx)  # hit"),
    ("BL402", "y = F.one_hot(idx, -1)  # hit"),
    ("BL402", "y = F.one_hot(idx, 4)\nz = F.one_hot(idx, num_classes=self.n)"),
    ("BL402", "y = F.one_hot(idx, **self.kw)"),
    # BL301: layers with parameters (GB0264); parameter-free layers trace fine
    ("BL301", "y = nn.Linear(4, 4)(x)  # hit"),
    ("BL301", "norm = nn.LayerNorm(4)  # hit"),
    ("BL301", "norm = nn.BatchNorm1d(4)  # hit\nemb = nn.Embedding(10, 4)  # hit"),
    ("BL301", "seq = nn.Sequential(nn.Conv1d(2, 2, 1))  # hit"),
    ("BL301", "act = nn.ReLU()\ndrop = nn.Dropout(0.1)\nseq = nn.Sequential(nn.GELU())"),
    ("BL301", "norm = nn.LayerNorm(4, elementwise_affine=False)\nbn = nn.BatchNorm1d(4, affine=False)"),
    ("BL301", "inorm = nn.InstanceNorm1d(4)\nnorm = nn.GroupNorm(2, 4, affine=self.affine)"),
    ("BL301", "inorm = nn.InstanceNorm1d(4, affine=True)  # hit"),
    # BL302
    ("BL302", "w = nn.Parameter(torch.ones(4))  # hit"),
    ("BL302", "w = torch.ones(4)\nw.requires_grad_(True)"),
    # BL303: grad-mode switches (verdict False on 2.13, but the rule still finds them when selected)
    ("BL303", "with torch.no_grad():  # hit\n    y = x * 2"),
    ("BL303", "torch.set_grad_enabled(False)  # hit"),
    ("BL303", "enabled = torch.is_grad_enabled()"),
    # BL503
    ("BL503", "loss = (x * 2).sum()\nloss.backward()  # hit"),
    ("BL503", "g = torch.autograd.grad(x.sum(), x)  # hit"),
    ("BL503", "torch.autograd.backward(x.sum())  # hit"),
    ("BL503", "y = MyFunction.backward(None, x)\nz = self.backward()"),
]


@pytest.mark.parametrize("code,body", CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_flagged_lines(code, body):
    flagged, expected = _flagged(code, body)
    assert flagged == expected


def test_module_in_helper_called_from_forward_is_reported_without_fix():
    source = HEADER + "        return self.helper(x)\n\n    def helper(self, x):\n        lin = nn.Linear(4, 4)\n        return lin(x)\n"
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code("BL301")()]))
    assert len(findings) == 1 and findings[0].fix is None
    assert "called from M.forward" in findings[0].message


def test_hoist_fix_needs_literal_or_self_arguments():
    source = HEADER.replace("    def forward", "    def __init__(self):\n        super().__init__()\n\n    def forward") \
        + "        a = nn.Linear(4, self.out)\n        b = nn.Linear(x.shape[-1], 4)\n        return b(a(x))\n"
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code("BL301")()]))
    fixable = {f.row: f.fix is not None for f in findings}
    assert list(fixable.values()) == [True, False]


def test_an_output_size_no_caller_passes_is_none():
    # `ptr2index(ptr)` never passes output_size: its default None stays, the size is data-dependent.
    source = textwrap.dedent("""
        import torch


        def expand(ptr, output_size=None):
            index = torch.arange(ptr.numel() - 1)
            return index.repeat_interleave(ptr.diff(), output_size=output_size)


        def expand_sized(ptr, output_size=None):
            index = torch.arange(ptr.numel() - 1)
            return index.repeat_interleave(ptr.diff(), output_size=output_size)


        @torch.compile
        def step(ptr, n: int):
            return expand(ptr) + expand_sized(ptr, output_size=n)
    """)
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code("BL401")()]))
    assert [f.row for f in findings] == [7]
