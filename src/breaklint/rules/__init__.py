"""The rule registry. Add a rule by importing its class here; order is by code."""
from __future__ import annotations

from .base import Example, Rule, parse_version
from .bl101_tensor_branch import TensorBranch
from .bl102_scalar_in_condition import ScalarInCondition
from .bl103_item_call import ItemCall
from .bl104_tolist_call import TolistCall
from .bl105_tensor_as_int import TensorAsInt
from .bl201_print import PrintInCompiledCode
from .bl202_logging_call import LoggingCall
from .bl203_warnings_warn import WarningsWarn
from .bl204_debugger_call import DebuggerCall
from .bl301_module_in_forward import ModuleInForward
from .bl302_parameter_in_forward import ParameterInForward
from .bl303_grad_mode_in_forward import GradModeInForward
from .bl401_dynamic_shape_op import DynamicShapeOp
from .bl402_one_hot_without_num_classes import OneHotWithoutNumClasses
from .bl501_explicit_graph_break import ExplicitGraphBreak
from .bl502_untraceable_call import UntraceableCall
from .bl503_autograd_in_compiled import AutogradInCompiled
from .bl504_sparse_tensor import SparseTensor

_RULES: list[type[Rule]] = [
    TensorBranch,
    ScalarInCondition,
    ItemCall,
    TolistCall,
    TensorAsInt,
    PrintInCompiledCode,
    LoggingCall,
    WarningsWarn,
    DebuggerCall,
    ModuleInForward,
    ParameterInForward,
    GradModeInForward,
    DynamicShapeOp,
    OneHotWithoutNumClasses,
    ExplicitGraphBreak,
    UntraceableCall,
    AutogradInCompiled,
    SparseTensor,
]


def all_rules() -> list[type[Rule]]:
    return sorted(_RULES, key=lambda r: r.code)


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in _RULES:
        if rule.code == code.upper():
            return rule
    return None


__all__ = ["Example", "Rule", "all_rules", "rule_by_code", "parse_version"]
