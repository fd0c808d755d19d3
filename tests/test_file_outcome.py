"""One record per file outcome (issue #16): the engine, the runner and the cache pass a FileOutcome,
not a tuple read by position."""
from breaklint.lint.engine import LintSettings, lint_file
from breaklint.lint.runner import lint_one
from breaklint.model import FileOutcome
from breaklint.rules import rule_by_code

HAZARD = """import torch

@torch.compile
def f(x):
    print(x)  # noqa: BL201
    print(x)
    return x
"""


def test_lint_file_returns_a_file_outcome(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(HAZARD)
    outcome = lint_file(str(path), LintSettings(rules=[rule_by_code("BL201")()]), want_summary=True)
    assert isinstance(outcome, FileOutcome)
    assert [f.row for f in outcome.findings] == [6]
    assert (outcome.error, outcome.lines, outcome.suppressed) == (None, 8, 1)
    assert outcome.summary is not None


def test_unreadable_and_broken_files_are_outcomes_with_an_error(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    for path in (broken, tmp_path / "missing.py"):
        outcome = lint_one(str(path), LintSettings())
        assert isinstance(outcome, FileOutcome)
        assert outcome.error is not None and outcome.findings == [] and outcome.summary is None
