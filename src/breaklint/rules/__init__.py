"""The rule registry. Add a rule by importing its class here; order is by code."""
from __future__ import annotations

from .base import Example, Rule, parse_version
from .bl201_print import PrintInCompiledCode

_RULES: list[type[Rule]] = [
    PrintInCompiledCode,
]


def all_rules() -> list[type[Rule]]:
    return sorted(_RULES, key=lambda r: r.code)


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in _RULES:
        if rule.code == code.upper():
            return rule
    return None


__all__ = ["Example", "Rule", "all_rules", "rule_by_code", "parse_version"]
