"""Every registered rule has a page rules/<CODE>.md in ruff's shape, whose Example triggers the rule
and whose "Use instead" does not (both blocks linted as whole modules with only that rule on)."""
import os
import re

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import all_rules
from breaklint.rules.pages import facts_line

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ("What it does", "Why does it break the graph", "Example", "Use instead", "Fix safety",
            "Torch versions")
RULES = all_rules()


def _page(rule) -> str:
    path = os.path.join(ROOT, "rules", f"{rule.code}.md")
    assert os.path.isfile(path), f"{rule.code} has no page rules/{rule.code}.md"
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## +(.+?)\s*$", text, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _python_blocks(section: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def _codes(rule, source: str) -> list[str]:
    findings, _ = lint_source(source, f"{rule.code}.md.py", LintSettings(rules=[rule()]))
    return [f.code for f in findings]


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_page_has_title_and_sections(rule):
    text = _page(rule)
    assert text.splitlines()[0].strip() == f"# {rule.code}: {rule.name}"
    sections = _sections(text)
    missing = [s for s in SECTIONS if s not in sections]
    assert not missing, f"rules/{rule.code}.md lacks sections {missing}"
    for name in SECTIONS:
        assert sections[name].strip(), f"rules/{rule.code}.md: section '{name}' is empty"
    for gb in rule.gb_ids:
        assert gb in sections["Why does it break the graph"], f"rules/{rule.code}.md does not name {gb}"


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_page_example_triggers_and_use_instead_does_not(rule):
    sections = _sections(_page(rule))
    example = _python_blocks(sections.get("Example", ""))
    instead = _python_blocks(sections.get("Use instead", ""))
    assert len(example) == 1 and len(instead) == 1, f"rules/{rule.code}.md needs one python block in each"
    assert rule.code in _codes(rule, example[0]), f"rules/{rule.code}.md: the Example does not trigger the rule"
    assert not _codes(rule, instead[0]), f"rules/{rule.code}.md: 'Use instead' triggers the rule"


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_page_facts_come_from_the_rule_class(rule):
    """The facts line under the title is the class's (python -m breaklint.rules.pages writes it), and
    the prose sections do not contradict it."""
    text = _page(rule)
    assert text.splitlines()[2] == facts_line(rule), \
        f"rules/{rule.code}.md is stale: run python -m breaklint.rules.pages"
    sections = _sections(text)
    safety = sections["Fix safety"].strip()
    if rule.fix_availability == "never":
        assert safety.startswith("No fix"), f"rules/{rule.code}.md: the rule has no fix, the page says otherwise"
    else:
        assert not safety.startswith("No fix") and rule.fix_applicability in safety.lower(), \
            f"rules/{rule.code}.md: 'Fix safety' does not say the fix is {rule.fix_applicability}"
    for version in rule.verdicts:
        assert version in sections["Torch versions"], f"rules/{rule.code}.md: 'Torch versions' omits {version}"


def test_facts_line_reads_the_class():
    class Probe(RULES[0]):
        gb_ids = ("GB0001",)
        fix_availability = "always"
        fix_applicability = "safe"
        verdicts = {"2.15": False, "2.9": True, "2.11": True}

    assert facts_line(Probe) == ("**Registry ids:** GB0001 · **Fix:** always available, safe · "
                                 "**Torch:** breaks on torch 2.9, 2.11; no break on torch 2.15")


def test_every_page_has_a_rule_and_every_rule_module_is_registered():
    pages = {name[:-3] for name in os.listdir(os.path.join(ROOT, "rules")) if re.fullmatch(r"BL\d{3}\.md", name)}
    package = os.path.join(ROOT, "src", "breaklint", "rules")
    modules = {name[:5].upper() for name in os.listdir(package) if re.fullmatch(r"bl\d{3}_\w+\.py", name)}
    codes = {rule.code for rule in RULES}
    assert pages == codes == modules
