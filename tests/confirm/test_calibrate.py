"""Every rule's runnable examples against the installed torch, through calibrate's machinery."""
import pytest

torch = pytest.importorskip("torch")

from breaklint.confirm.calibrate import (  # noqa: E402
    calibrate_examples, expected_verdict, runnable_examples, verdicts_from)
from breaklint.rules import all_rules  # noqa: E402

pytestmark = pytest.mark.torch


@pytest.fixture(scope="module")
def results():
    return calibrate_examples(all_rules(), in_process=True)


def test_every_runnable_example_runs(results):
    assert len(results) == len(runnable_examples(all_rules()))
    assert [(r.code, r.kind, r.index, r.error) for r in results if r.error] == []


def test_invalid_examples_break_exactly_where_the_catalogue_says(results):
    observed = verdicts_from(results)
    wrong = {}
    for rule in all_rules():
        expected = expected_verdict(rule, torch.__version__)
        if rule.code in observed and expected is not None and observed[rule.code] != expected:
            wrong[rule.code] = (expected, observed[rule.code])
    assert wrong == {}, f"catalogue verdict vs torch {torch.__version__} (expected, observed): {wrong}"


def test_valid_examples_never_break(results):
    assert [(r.code, r.index, r.gb_ids) for r in results if r.kind == "VALID" and r.breaks] == []


def test_calibrate_runs_in_a_worker_process_too():
    rules = [r for r in all_rules() if r.code == "BL201"]
    if not rules:
        pytest.skip("BL201 not present")
    [result, *_] = [r for r in calibrate_examples(rules) if r.kind == "INVALID"]
    assert result.breaks is True and "GB0059" in result.gb_ids


def test_calibrate_counts_compiles_for_recompile_examples():
    """A recompile rule's examples are judged by compiles over their calls, not by graph breaks."""
    from breaklint.rules import rule_by_code

    results = calibrate_examples([rule_by_code("BL601")], in_process=True)
    invalid = [r for r in results if r.kind == "INVALID"]
    assert invalid and all(r.breaks is True and r.calls == 12 and r.compiles == 8 for r in invalid), invalid
    valid = [r for r in results if r.kind == "VALID"]
    assert valid and all(r.breaks is False and r.compiles <= 2 for r in valid), valid
