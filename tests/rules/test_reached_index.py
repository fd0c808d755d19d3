"""`assert a[0] == b[0] and a[-1] == b[-1]` (torchdiffeq solvers.py:104's time-grid check): `&`
evaluates the second comparison even when the first is false, which is safe only if it cannot raise.
When the first operand, always evaluated, indexed the same tensor by a constant, the tensor has at
least that many items along dim 0, so `a[-1]` (or any constant index needing no more) cannot raise.
Measured on 2.13 CPU: the original breaks once, the rewritten assert traces with none, a failing
check still raises, and the result is equal."""
import textwrap

import pytest

from breaklint.lint.config import Settings
from breaklint.lint.fixloop import fix_source
from breaklint.lint.runner import lint_settings

SETTINGS = lint_settings(Settings())

GRID = """
import torch


@torch.compile
def integrate(t, y0):
    time_grid = torch.linspace(0, 1, 5, dtype=t.dtype) * (t[-1] - t[0]) + t[0]
    assert time_grid[0] == t[0] and time_grid[-1] == t[-1]
    return time_grid[:, None] * y0
"""


def _fix(source: str) -> str:
    outcome = fix_source(textwrap.dedent(source), "case.py", SETTINGS, unsafe=True)
    assert outcome.error is None, outcome.error
    return outcome.source


def test_an_index_the_first_operand_reached_is_rewritten():
    fixed = _fix(GRID)
    assert "assert (time_grid[0] == t[0]) & (time_grid[-1] == t[-1])" in fixed
    compile(fixed, "fixed.py", "exec")
    assert _fix(fixed) == fixed  # a second --fix changes nothing


@pytest.mark.parametrize("test", [
    "t[0] > 0 and t[3] > 0",        # t[0] ran: one item, not four
    "(t > 0).any() and t[0] > 0",   # the first operand never indexed t
    "t[0] > 0 and y0[-1] > 0",      # another tensor
])
def test_an_index_not_reached_is_refused(test):
    source = GRID.replace("time_grid[0] == t[0] and time_grid[-1] == t[-1]", test)
    assert "&" not in _fix(source).split("assert", 1)[1].splitlines()[0]


def test_through_dynamo_no_break_same_value_still_raises():
    torch = pytest.importorskip("torch")
    import torch._dynamo as dynamo

    def load(source):
        namespace: dict = {}
        exec(compile(source.replace("@torch.compile\n", ""), "case.py", "exec"), namespace)
        return namespace["integrate"]

    original, fixed = load(textwrap.dedent(GRID)), load(_fix(GRID))
    t, y0 = torch.tensor([0.0, 0.5, 2.0]), torch.randn(3)
    for fn, expected in ((original, 1), (fixed, 0)):
        dynamo.reset()
        assert dynamo.explain(fn)(t, y0).graph_break_count == expected
    dynamo.reset()
    assert torch.equal(torch.compile(fixed, backend="eager")(t, y0), original(t, y0))
    bad = load(_fix(GRID).replace("+ t[0]\n", "+ t[0] + 1\n"))
    dynamo.reset()
    with pytest.raises(RuntimeError):
        torch.compile(bad, backend="eager")(t, y0)
