"""Python's `random` module in traced code (stop 28, a battery through Dynamo 2.13 and 2.14, CPU).

Measured: choice, gauss and the other variates are skipped (GB0007) on both; random(), shuffle, sample
and seed are skipped on 2.13 only. uniform / randint / randrange are traced as graph inputs on both:
scaling a tensor by one is fine, while arithmetic with a number, int() / round() / range(), a tensor
index and a branch on one break (BL110). The rows below are Dynamo's own on 2.13; the test that
compiles the classes checks them again wherever torch 2.13 is installed.
"""
import textwrap

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import all_rules

from .helpers import dynamo_break_rows

SOURCE = textwrap.dedent("""
import random
import torch
from torch import nn


class Choice(nn.Module):
    def forward(self, x):
        return x * random.choice([1.0, 2.0])


class Random(nn.Module):
    def forward(self, x):
        return x * random.random()


class Scale(nn.Module):
    def forward(self, x):
        return x * random.uniform(0.5, 1.5)


class Flip(nn.Module):
    def forward(self, x):
        if random.uniform(0, 1) < 0.5:
            return x.flip(0)
        return x


class Shift(nn.Module):
    def forward(self, x):
        k = random.randint(0, 2)
        return x + k * 2


class Tested(nn.Module):
    def forward(self, x):
        flip = random.uniform(0, 1) < 0.5
        return -x if flip else x


class Width(nn.Module):
    def forward(self, x):
        return x * int(random.uniform(1, 3))


class Index(nn.Module):
    def forward(self, x):
        return x[random.randint(0, 3)]


class Asserted(nn.Module):
    def forward(self, x):
        assert random.randint(0, 3) >= 0
        return x * max(random.uniform(0, 1), 0.1)
""")

# Dynamo 2.13's break rows, and which ones 2.14 keeps (random.random() is traced there).
BREAKS_213 = {9: "BL502", 14: "BL502", 24: "BL110", 32: "BL110", 38: "BL110", 43: "BL110", 48: "BL110"}
BREAKS_214 = {row: code for row, code in BREAKS_213.items() if row != 14}


def _rows(version: str) -> dict:
    settings = LintSettings(rules=[rule() for rule in all_rules()], torch_version=version)
    findings, _ = lint_source(SOURCE, "snippet.py", settings)
    return {f.row: f.code for f in findings if f.code in ("BL110", "BL502")}


def test_random_draws_are_flagged_where_dynamo_213_breaks():
    assert _rows("2.13") == BREAKS_213


def test_random_random_is_not_skipped_from_214():
    assert _rows("2.14") == BREAKS_214
    assert _rows("2.15") == BREAKS_214


def test_a_draw_on_214_is_a_graph_input_whose_branch_breaks():
    source = "import random\nimport torch\n\n\n@torch.compile\ndef f(x):\n    if random.random() < 0.5:\n        return x\n    return -x\n"
    for version, code in (("2.13", "BL502"), ("2.14", "BL110")):
        findings, _ = lint_source(source, "f.py", LintSettings(rules=[r() for r in all_rules()], torch_version=version))
        assert [(f.row, f.code) for f in findings] == [(7, code)]


def test_the_rows_are_dynamos(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    names = ("Choice", "Random", "Scale", "Flip", "Shift", "Tested", "Width", "Index", "Asserted")
    assert dynamo_break_rows(SOURCE, names, tmp_path) == set(BREAKS_213)


# Stop 29: a draw passed to torch as a size or a parameter, or slicing with it, breaks; a torch call that
# takes it as a value does not. Each class's forward draws `d` (uniform) and `k` (randint), then uses one.
ARGUMENT_USES = {
    "Normal": ("torch.normal(0.0, d, (4, 4)) + x", True),
    "NewFull": ("x.new_full((4, 4), d)", True),
    "LeakySlope": ("F.leaky_relu(x, d)", True),
    "Narrow": ("x.narrow(1, 0, k)", True),
    "Randn": ("torch.randn(k, 4).sum() + x", True),
    "Split": ("x.split(k, dim=1)[0]", True),
    "Arange": ("torch.arange(k).sum() + x", True),
    "Alpha": ("x.add(x, alpha=d)", True),
    "Dropout": ("F.dropout(x, p=d)", True),
    "Size": ("x.new_zeros((k, 2)).sum() + x", True),
    "Slice": ("x[:, :k].sum()", True),
    "TupleBound": ("x[:, a:].sum() + b", True),
    "Tensor": ("torch.tensor(d) + x", False),
    "Full": ("torch.full((4, 4), d) + x", False),
    "Clamp": ("x.clamp(max=d)", False),
    "TorchClamp": ("torch.clamp(x, min=d)", False),
    "Add": ("x.add(d)", False),
    "MaskedFill": ("x.masked_fill(x > 0, d)", False),
    "Where": ("torch.where(x > 0, x, d)", False),
    "Fill": ("x.clone().fill_(d)", False),
    "Pow": ("x.pow(d)", False),
    "Lerp": ("torch.lerp(x, x * 2, d)", False),
    "Linspace": ("torch.linspace(0, d, 4) + x", False),
}


def _argument_source() -> tuple[str, set]:
    lines = ["import random", "import torch", "import torch.nn.functional as F", "from torch import nn"]
    rows = set()
    for name, (expression, breaks) in ARGUMENT_USES.items():
        lines += ["", "", f"class {name}(nn.Module):", "    def forward(self, x):",
                  "        d, k = random.uniform(0.1, 0.9), random.randint(1, 3)",
                  "        a, b = random.randint(0, 3), random.randint(0, 3)", f"        return {expression}"]
        if breaks:
            rows.add(len(lines))
    return "\n".join(lines) + "\n", rows


def test_a_draw_passed_to_torch_as_a_size_or_parameter_is_flagged_and_as_a_value_is_not():
    source, rows = _argument_source()
    findings, _ = lint_source(source, "snippet.py", LintSettings(rules=[r() for r in all_rules()], torch_version="2.13"))
    assert {f.row for f in findings if f.code == "BL110"} == rows


def test_the_argument_rows_are_dynamos(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    source, rows = _argument_source()
    assert dynamo_break_rows(source, tuple(ARGUMENT_USES), tmp_path) == rows
