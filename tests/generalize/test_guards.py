"""Issue #11, item 4: a hazard behind a Python-level guard is still reported, and says when it breaks
(Dynamo resolves `x.dtype == torch.float16` first: the tensor test breaks only for fp16 inputs)."""
import json

from breaklint.model import CheckResult
from breaklint.report.json_format import render

from .helpers import findings_of

SOURCE = """
import torch
from torch import nn
class Net(nn.Module):
    def forward(self, hidden_states, mask=None):
        if hidden_states.dtype == torch.float16 and torch.isinf(hidden_states).any():
            hidden_states = hidden_states.clamp(-1, 1)
        if self.training and hidden_states.sum() > 0:
            hidden_states = hidden_states * 2
        if mask is not None:
            n = mask.sum().item()
        else:
            print("no mask")
        m = hidden_states.max().item()
        return hidden_states
"""


def by_row():
    return {f.row: f for f in findings_of(SOURCE)}


def test_guarded_hazards_are_reported_with_their_condition():
    found = by_row()
    assert found[6].breaks_when == "hidden_states.dtype == torch.float16"
    assert "breaks when `hidden_states.dtype == torch.float16`" in found[6].message
    assert found[8].breaks_when == "self.training"
    assert found[11].breaks_when == "mask is not None"
    assert found[13].breaks_when == "not (mask is not None)"
    assert found[14].breaks_when is None
    assert "breaks when" not in found[14].message


def test_json_has_breaks_when_only_where_there_is_a_guard():
    findings = sorted(findings_of(SOURCE), key=lambda f: f.row)
    rows = {f["location"]["row"]: f for f in json.loads(render(CheckResult(findings=findings)))}
    assert rows[6]["breaks_when"] == "hidden_states.dtype == torch.float16"
    assert "breaks_when" not in rows[14]
    ruff_keys = {"cell", "code", "end_location", "filename", "fix", "location", "message", "name", "noqa_row",
                 "severity", "url"}
    assert set(rows[14]) == ruff_keys
    assert set(rows[6]) == ruff_keys | {"breaks_when"}


NESTED = """
import torch
from torch import nn
class Net(nn.Module):
    def forward(self, x, weight=None):
        if weight is not None:
            if weight.min() < 0:
                raise ValueError("negative weight")
        else:
            if x.sum() > 0:
                x = x * 2
        return x
"""


def test_an_if_nested_in_a_body_is_guarded_by_its_parent_not_by_its_negation():
    # Found reading monai's fixed copy (dice.py): the inner `if`'s test is reported without the
    # inner `if` among the parents, and was taken for the outer `if`'s else branch.
    found = {f.row: f for f in findings_of(NESTED)}
    assert found[7].breaks_when == "weight is not None"
    assert found[10].breaks_when == "not (weight is not None)"
