"""The facts line under each rule page's title, made from the rule class so that the page cannot
drift from it: registry ids, fix availability and applicability, and the measured torch verdicts.

    python -m breaklint.rules.pages          # rewrite the line in every rules/BLxxx.md
    python -m breaklint.rules.pages --check  # exit 1 when a page's line is stale

tests/test_rule_pages.py fails when a page's line differs from `facts_line(rule)`.
"""
from __future__ import annotations

import argparse
import os
import sys

from . import all_rules
from .base import Rule
from ..versions import parse_version

PAGES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                     "rules")


def facts_line(rule: type[Rule]) -> str:
    ids = ", ".join(rule.gb_ids) if rule.gb_ids else "none"
    if rule.fix_availability == "never":
        fix = "no fix"
    else:
        fix = f"{rule.fix_availability} available, {rule.fix_applicability}"
    versions = sorted(rule.verdicts, key=parse_version)
    breaks = [v for v in versions if rule.verdicts[v]]
    holds = [v for v in versions if not rule.verdicts[v]]
    # What a True verdict means depends on the rule's kind (recompile and CUDA-graph rules, #15).
    yes, no = rule.VERDICT_WORDS[rule.verdict_kind][2:]
    torch = "; ".join(part for part in (
        f"{yes} torch {', '.join(breaks)}" if breaks else "",
        f"{no} torch {', '.join(holds)}" if holds else "") if part) or "no verdict"
    return f"**Registry ids:** {ids} · **Fix:** {fix} · **Torch:** {torch}"


def page_path(rule: type[Rule]) -> str:
    return os.path.join(PAGES, f"{rule.code}.md")


def with_facts(text: str, rule: type[Rule]) -> str:
    """The page with its facts line (the third line, under the title and a blank line) made current."""
    lines = text.split("\n")
    line = facts_line(rule)
    if len(lines) > 2 and lines[2].startswith("**Registry ids:**"):
        lines[2] = line
    else:
        lines[1:1] = ["", line]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Write each rule page's facts line from its rule class.")
    parser.add_argument("--check", action="store_true", help="exit 1 when a page is stale, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for rule in all_rules():
        with open(page_path(rule), encoding="utf-8") as handle:
            text = handle.read()
        new = with_facts(text, rule)
        if new != text:
            stale.append(rule.code)
            if not args.check:
                with open(page_path(rule), "w", encoding="utf-8") as handle:
                    handle.write(new)
    if args.check and stale:
        print("stale rule pages: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
