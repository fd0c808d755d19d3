"""The rule registry: the Rule class of every rules/blNNN_*.py module, found by file name, so that
adding a rule needs no edit here. all_rules() orders them by code."""
from __future__ import annotations

import importlib
import pkgutil
import re

from .base import Example, Rule, parse_version

_RULE_MODULE = re.compile(r"bl\d{3}_\w+")


def _discover() -> list[type[Rule]]:
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not _RULE_MODULE.fullmatch(info.name):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        rules = [value for value in vars(module).values()
                 if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__]
        if len(rules) != 1 or rules[0].code.lower() != info.name[:5]:
            raise ImportError(f"rules/{info.name}.py must define one Rule, with code {info.name[:5].upper()}")
        found.append(rules[0])
    return found


_RULES: list[type[Rule]] = _discover()


def all_rules() -> list[type[Rule]]:
    return sorted(_RULES, key=lambda r: r.code)


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in _RULES:
        if rule.code == code.upper():
            return rule
    return None


__all__ = ["Example", "Rule", "all_rules", "rule_by_code", "parse_version"]
