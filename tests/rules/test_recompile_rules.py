"""BL601, BL602, BL701 beyond their examples: the cases that must stay quiet, and the fixes' limits."""
from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import rule_by_code


def findings(code: str, source: str):
    found, _ = lint_source(source, "example.py", LintSettings(rules=[rule_by_code(code)()]))
    return found


MODULE_HEAD = """
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
"""


def test_bl601_counter_tested_in_a_condition_gets_no_fix():
    """A buffer would turn `if self.step % 10 == 0` into a tensor condition (a graph break)."""
    source = MODULE_HEAD + """        self.step = 0

    def forward(self, x):
        self.step += 1
        if self.step % 10 == 0:
            x = x * 0.5
        return x
"""
    [finding] = findings("BL601", source)
    assert finding.fix is None


def test_bl601_reset_float_reassignment_and_tensor_attributes_are_quiet():
    source = MODULE_HEAD + """        self.scale = 1.0
        self.norm = torch.ones(())
        self.step = 0

    def forward(self, x):
        self.scale = self.scale * 0.9  # 2-3 compiles in 12 calls under inductor: not flagged
        self.norm += 1
        self.step = 0
        return x * self.scale
"""
    assert findings("BL601", source) == []


def test_bl601_global_counter_needs_the_global_statement_and_an_int():
    source = """
import torch

CALLS = 0
RATE = 0.5


@torch.compile
def step(x):
    global CALLS, RATE
    CALLS += 1
    RATE *= 0.9
    return x * 2


@torch.compile
def local(x):
    CALLS = 0
    CALLS += 1
    return x * CALLS
"""
    assert [f.start.row for f in findings("BL601", source)] == [11]


def test_bl602_a_list_reset_every_call_or_cleared_is_quiet():
    source = MODULE_HEAD + """        self.taps = []
        self.seen = []

    def forward(self, x):
        self.seen.append(x)
        self.taps = []
        self.taps.append(x)
        return x

    def reset(self):
        self.seen.clear()
"""
    assert findings("BL602", source) == []


def test_bl701_needs_reduce_overhead_and_the_callers_tensor():
    source = """
import torch


def plain(x):
    x.add_(1)
    return x


@torch.compile(mode="max-autotune")
def tuned(x):
    x.add_(1)
    return x


@torch.compile(mode="reduce-overhead")
def cloned(x, n: int, xs: list):
    x = x.clone()
    x.add_(1)
    xs[0] = n
    x.requires_grad_(True)
    return x


@torch.compile(mode="reduce-overhead")
def mutates(x):
    x.mul_(2)
    x += 1
    return x


fast = torch.compile(plain, mode="reduce-overhead")
"""
    rows = sorted(f.start.row for f in findings("BL701", source))
    assert rows == [6, 27, 28]  # plain (compiled by call), mutates' two in-place updates


def test_bl601_float_augmented_assignment_is_flagged_and_fixed_in_float64():
    source = MODULE_HEAD + """        self.decay = 1.0

    def forward(self, x):
        self.decay *= 0.99
        return x * self.decay
"""
    [finding] = findings("BL601", source)
    assert "Python float" in finding.message
    assert 'torch.full((), 1.0, dtype=torch.float64)' in finding.fix.edits[0].content


def test_state_reset_by_an_unseen_base_or_a_bounded_counter_is_quiet():
    """Dev-split false positives: kornia's list is reset by a mixin from another file, its ADA
    counter is reset to 0 every `update_every` (5) calls: at most 5 values, not one per call."""
    source = """
import torch
from torch import nn
from kornia.mixins import TransformMatrixMinIn


class Aug(TransformMatrixMinIn, nn.Module):
    def __init__(self):
        super().__init__()
        self._transform_matrices = []

    def forward(self, x):
        self._transform_matrices.append(x)
        return x


class Ada(nn.Module):
    def __init__(self):
        super().__init__()
        self._num_calls = 0

    def forward(self, x):
        self._num_calls += 1
        if self._num_calls < 5:
            return x
        self._num_calls = 0
        return x * 2
"""
    assert findings("BL602", source) == [] and findings("BL601", source) == []


def test_bl603_skips_float_parameters_with_defaults():
    source = """
import torch


@torch.compile
def embed(x, t: float, ref_fixed_timestep: float = 0.0):
    ref = torch.full_like(x, ref_fixed_timestep * 1000)
    now = torch.full_like(x, t)
    return ref + now
"""
    assert [f.start.row for f in findings("BL603", source)] == [8]
