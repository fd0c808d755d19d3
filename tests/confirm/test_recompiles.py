"""confirm/recompiles.py: parsing the recompiles log, joining storms to BL6xx findings, and
`confirm --calls` end to end on the training-step composite."""
import os

import pytest

from breaklint.confirm.join import FindingRef
from breaklint.confirm.recompiles import join_recompiles, parse_recompile, storms

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# As torch 2.13 logs it (torch._dynamo.guards.__recompiles), the path tail as Dynamo prints it.
MESSAGE = """Recompiling function forward in /srv/proj/fixtures/recompile_training_step.py:16
    triggered by the following guard failure(s):
    - 0/0: self.step == 0                                           # self.step += 1  # fixtures/recompile_training_step.py:17 in forward (HINT: torch.compile considers integer attributes of the nn.Module to be static.)"""


def test_parse_recompile_reads_the_frame_and_the_failing_guard():
    rec = parse_recompile(MESSAGE)
    assert (rec.function, rec.line, rec.guard) == ("forward", 16, "self.step == 0")
    assert (rec.guard_file, rec.guard_line, rec.source) == ("fixtures/recompile_training_step.py", 17, "self.step += 1")
    assert parse_recompile("something else") is None


def _finding(code, row, path="/srv/proj/fixtures/recompile_training_step.py"):
    return FindingRef(code=code, message="", path=path, row=row, end_row=row)


def test_join_confirms_storms_misses_the_rest_and_ignores_one_automatic_dynamic_recompile():
    rec = {"guard": "self.step == 0", "guard_file": "fixtures/recompile_training_step.py", "guard_line": 17}
    once = {"guard": "t == 1.0", "guard_file": "fixtures/recompile_training_step.py", "guard_line": 30}
    other = {"guard": "len(G['SEEN']) == 1", "guard_file": "fixtures/recompile_training_step.py", "guard_line": 40}
    observed = {"recompiles": [rec] * 7 + [once] + [other] * 3}
    assert storms(observed["recompiles"]) == {("fixtures/recompile_training_step.py", 17): 7,
                                              ("fixtures/recompile_training_step.py", 40): 3}
    joined = join_recompiles(observed, [_finding("BL601", 17), _finding("BL602", 50), _finding("BL101", 40)])
    assert [(c["line"], c["codes"]) for c in joined["confirmed"]] == [(17, ["BL601"])]
    assert [m["line"] for m in joined["missed"]] == [40]  # a BL101 finding does not confirm a recompile
    assert [u["row"] for u in joined["unobserved"]] == [50]


@pytest.mark.torch
def test_confirm_calls_counts_before_and_after_the_fix(tmp_path):
    pytest.importorskip("torch")
    from breaklint.confirm.pipeline import ConfirmOptions, confirm_target

    target = os.path.join(ROOT, "fixtures", "recompile_training_step.py") + ":factory"
    report = confirm_target(target, ConfirmOptions(unsafe_fixes=True, bench=False, calls=12, device="cpu"))
    assert report.failure is None, report.failure
    rec = report.recompiles
    assert rec["before"]["compiles"] == 8 and rec["before"]["limit_hit"]
    assert rec["after"]["compiles"] == 1 and not rec["after"]["limit_hit"]
    assert [(c["line"], c["codes"]) for c in rec["join"]["confirmed"]] == [(17, ["BL601"])]
    assert rec["join"]["missed"] == []
    assert report.joined.not_breaking == []  # BL601 is not judged as a graph break
    assert report.to_dict()["recompiles"] is rec
