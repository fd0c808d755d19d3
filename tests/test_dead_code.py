"""Code after a statement that always leaves its block never runs, so Dynamo never traces it and
nothing there is reported (found reading PyG 2.3.1's fixed copy: a tensor `if` after an if/else
whose branches both raise got a finding and an unsafe fix)."""
from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import all_rules

SOURCE = """
import torch
from torch import nn
class Net(nn.Module):
    def forward(self, x, mode: str):
        if mode == "a":
            raise ValueError("a")
        else:
            raise ValueError("b")
        if x.sum() > 0:
            x = x * 2
        return x

class Early(nn.Module):
    def forward(self, x):
        return x
        print(x)

class Live(nn.Module):
    def forward(self, x, mode: str):
        if mode == "a":
            raise ValueError("a")
        if x.sum() > 0:
            x = x * 2
        return x
"""


def test_nothing_is_reported_after_a_block_always_leaves():
    findings, _ = lint_source(SOURCE, "m.py", LintSettings(rules=[r() for r in all_rules()]))
    rows = sorted(f.start.row for f in findings)
    assert rows == [23], rows
