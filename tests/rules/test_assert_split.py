"""`assert a and b` split into one assert per operand (rules/bl101_tensor_branch.py, fix/cst_assert.py),
from torchdiffeq's solvers.py:104, where `&` is refused: `time_grid` comes from a user-passed grid
constructor, so `time_grid[-1]` might raise where `and` skipped it. The split runs exactly what `and`
ran. Measured on 2.13 CPU: the original breaks once, the split traces with none, the result is
equal and a failing check still raises."""
import textwrap

import pytest

from breaklint.lint.config import Settings
from breaklint.lint.fixloop import fix_source
from breaklint.lint.runner import lint_settings

SETTINGS = lint_settings(Settings())

SOLVER = """
import torch


@torch.compile
def integrate(grid_constructor, t: torch.Tensor):
    time_grid = grid_constructor(t)
    # the grid must start and end where t does
    assert time_grid[0] == t[0] and time_grid[-1] == t[-1]  # endpoints
    return time_grid * 2
"""
SPLIT = """    # the grid must start and end where t does
    assert time_grid[0] == t[0]
    assert time_grid[-1] == t[-1]  # endpoints
"""


def _fix(source: str) -> str:
    outcome = fix_source(textwrap.dedent(source), "case.py", SETTINGS, unsafe=True)
    assert outcome.error is None, outcome.error
    return outcome.source


def test_split_keeps_comments_and_a_second_fix_changes_nothing():
    fixed = _fix(SOLVER)
    assert SPLIT in fixed
    compile(fixed, "fixed.py", "exec")
    assert _fix(fixed) == fixed


def test_multiline_operands_and_the_message_keep_their_parentheses():
    source = SOLVER.replace(
        "assert time_grid[0] == t[0] and time_grid[-1] == t[-1]  # endpoints",
        'assert (time_grid[0] == t[0] and\n            time_grid[-1]\n            == t[-1]), "grid ends"')
    fixed = _fix(source)
    compile(fixed, "fixed.py", "exec")
    assert 'assert time_grid[0] == t[0], "grid ends"\n' in fixed
    assert 'assert (time_grid[-1]\n            == t[-1]), "grid ends"\n' in fixed
    assert _fix(fixed) == fixed


def test_no_split_when_an_operand_is_an_or():
    source = SOLVER.replace("time_grid[-1] == t[-1]  # endpoints", "(time_grid[-1] == t[-1] or t.any())")
    assert "assert time_grid[0] == t[0]\n" not in _fix(source)


def test_through_dynamo_no_break_same_value_still_raises():
    torch = pytest.importorskip("torch")
    import torch._dynamo as dynamo

    def load(source):
        namespace: dict = {}
        exec(compile(source.replace("@torch.compile\n", ""), "case.py", "exec"), namespace)
        return namespace["integrate"]

    original, fixed = load(textwrap.dedent(SOLVER)), load(_fix(SOLVER))
    t = torch.tensor([0.0, 0.5, 2.0])
    for fn, expected in ((original, 1), (fixed, 0)):
        dynamo.reset()
        assert dynamo.explain(fn)(torch.clone, t).graph_break_count == expected
    dynamo.reset()
    assert torch.equal(torch.compile(fixed, backend="eager")(torch.clone, t), original(torch.clone, t))
    dynamo.reset()
    with pytest.raises(RuntimeError):  # compiled, the in-graph assert raises RuntimeError
        torch.compile(fixed, backend="eager")(lambda t: t + 1, t)
