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
