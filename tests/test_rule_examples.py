"""Every rule's VALID and INVALID examples, Fixit-style, plus the fix contract for each example:
fixed code parses, matches the recorded `fixed` text, and a second fix changes nothing."""
import ast

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.lint.fixloop import fix_source
from breaklint.rules import all_rules


def _settings(rule):
    return LintSettings(rules=[rule()])


CASES = [(rule, i, ex) for rule in all_rules() for i, ex in enumerate(rule.VALID)]
INVALID = [(rule, i, ex) for rule in all_rules() for i, ex in enumerate(rule.INVALID)]


def test_every_rule_has_examples():
    for rule in all_rules():
        assert rule.INVALID, f"{rule.code} has no INVALID example"
        assert rule.VALID, f"{rule.code} has no VALID example"


def test_every_invalid_example_pins_its_findings():
    """Fixit-style: an INVALID example says where (row, column) and how many findings it gives, so a
    finding that moves or multiplies fails, not only one that vanishes."""
    unpinned = [f"{rule.code} INVALID {i}" for rule, i, ex in INVALID if not ex.at]
    assert unpinned == []


@pytest.mark.parametrize("rule,index,example", CASES, ids=[f"{r.code}-valid-{i}" for r, i, _ in CASES])
def test_valid_example_has_no_finding(rule, index, example):
    findings, _ = lint_source(example.code, "example.py", _settings(rule))
    assert not findings, f"{rule.code} flags its VALID example {index}: " + \
        "; ".join(f"line {f.row}: {f.message}" for f in findings)


@pytest.mark.parametrize("rule,index,example", INVALID, ids=[f"{r.code}-invalid-{i}" for r, i, _ in INVALID])
def test_invalid_example_is_flagged_and_fixes_hold(rule, index, example):
    settings = _settings(rule)
    findings, _ = lint_source(example.code, "example.py", settings)
    assert any(f.code == rule.code for f in findings), f"{rule.code} misses its INVALID example {index}"
    if example.at:
        found = sorted((f.row, f.col) for f in findings if f.code == rule.code)
        assert found == sorted(example.at), f"{rule.code} INVALID example {index}: findings at {found}"
    outcome = fix_source(example.code, "example.py", settings, unsafe=True)
    assert outcome.error is None, outcome.error
    ast.parse(outcome.source)
    if example.fixed is not None:
        assert outcome.source.strip() == example.fixed.strip()
    again = fix_source(outcome.source, "example.py", settings, unsafe=True)
    assert again.source == outcome.source, "a second fix run changed the code again"
    if rule.fix_availability == "never":
        assert not outcome.changed, f"{rule.code} declares no fix but changed the code"


RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_emitted_fixes_match_what_the_rule_declares(rule):
    """Fix availability (always / sometimes / never) and applicability (safe / unsafe), as ruff
    splits them, checked over the rule's INVALID examples."""
    assert rule.fix_availability in ("always", "sometimes", "never")
    assert (rule.fix_applicability is None) == (rule.fix_availability == "never")
    assert rule.fix_applicability in (None, "safe", "unsafe")
    findings = [f for example in rule.INVALID for f in lint_source(example.code, "example.py", _settings(rule))[0]]
    fixes = [f.fix for f in findings if f.fix is not None]
    if rule.fix_availability == "never":
        assert fixes == [], f"{rule.code} declares no fix but offers one"
    else:
        assert fixes, f"{rule.code} declares fixes but no INVALID example gets one"
        assert {fix.applicability for fix in fixes} == {rule.fix_applicability}
    if rule.fix_availability == "always":
        assert len(fixes) == len(findings), f"{rule.code} declares a fix always, but some findings have none"


@pytest.mark.parametrize("rule,index,example", INVALID, ids=[f"{r.code}-invalid-{i}" for r, i, _ in INVALID])
def test_every_fix_is_a_libcst_transform_that_agrees_with_its_preview(rule, index, example):
    """Issue #12: fixes are LibCST transformations. The text edits of a fix are only the preview that
    JSON, SARIF and --diff show; applying the transform alone must give the same text."""
    from breaklint.fix.cst import apply_transforms
    from breaklint.fix.edits import apply_edits

    findings, _ = lint_source(example.code, "example.py", _settings(rule))
    for finding in findings:
        fix = finding.fix
        if fix is None:
            continue
        assert fix.transform is not None, f"{rule.code} INVALID {index}: a text-edit fix ({fix.message})"
        preview, _ = apply_edits(example.code, [fix])
        transformed, applied = apply_transforms(example.code, [fix])
        assert applied == [fix] and transformed == preview, (preview, transformed)
