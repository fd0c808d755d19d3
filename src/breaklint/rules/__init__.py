"""The rule registry. Add a rule by importing its class here; order is by code."""
from __future__ import annotations

from .base import Example, Rule, parse_version
from .bl201_print import PrintInCompiledCode
from .bl301_module_in_forward import ModuleInForward
from .bl302_parameter_in_forward import ParameterInForward
from .bl303_grad_mode_in_forward import GradModeInForward
from .bl401_dynamic_shape_op import DynamicShapeOp
from .bl402_one_hot_without_num_classes import OneHotWithoutNumClasses
from .bl503_autograd_in_compiled import AutogradInCompiled

_RULES: list[type[Rule]] = [
    PrintInCompiledCode,
    ModuleInForward,
    ParameterInForward,
    GradModeInForward,
    DynamicShapeOp,
    OneHotWithoutNumClasses,
    AutogradInCompiled,
]


def all_rules() -> list[type[Rule]]:
    return sorted(_RULES, key=lambda r: r.code)


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in _RULES:
        if rule.code == code.upper():
            return rule
    return None


__all__ = ["Example", "Rule", "all_rules", "rule_by_code", "parse_version"]
