"""Where `isinstance` proves a name is not a tensor: inside `if isinstance(x, (int, float)):`, in the
`else` of a tensor test, and after an early return from one."""
from __future__ import annotations

import ast
import re

from .astwalk import walk

_NON_TENSOR_TYPES = {"int", "float", "bool", "str", "list", "tuple", "dict", "set", "complex", "bytes",
                     "numbers.Number", "numbers.Real", "numbers.Integral"}


# Sparse containers of other libraries (torch_sparse, MinkowskiEngine, spconv) are no torch.Tensor:
# inside `if isinstance(adj, SparseTensor):`, adj.has_value() is a Python bool.
_FOREIGN_TENSOR = re.compile(r"(^|\.)Sparse\w*Tensor$")


def _isinstance_tests(test: ast.AST, qualify) -> list[tuple[str, bool]]:
    """(name, tests for a tensor type) for each `isinstance(name, T)` that must hold for `test`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [t for value in test.values for t in _isinstance_tests(value, qualify)]
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name)):
        return []
    types = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    names = [qualify(t) or "" for t in types]
    if all(n.endswith("Tensor") and not _FOREIGN_TENSOR.search(n) for n in names):
        return [(test.args[0].id, True)]
    if all(n in _NON_TENSOR_TYPES or _FOREIGN_TENSOR.search(n) for n in names):
        return [(test.args[0].id, False)]
    return []


def _true_narrows(test: ast.AST, qualify) -> set[str]:
    """Names that are no tensor wherever `test` held: `isinstance(x, int)`, `not isinstance(x, Tensor)`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _false_narrows(test.operand, qualify)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        # `isinstance(a, int) or isinstance(a, float)`: what every operand proves
        return set.intersection(*(_true_narrows(value, qualify) for value in test.values))
    return {name for name, tensor in _isinstance_tests(test, qualify) if not tensor}


def _false_narrows(test: ast.AST, qualify) -> set[str]:
    """Names that are no tensor wherever `test` failed: `isinstance(x, Tensor)`, `not isinstance(x, int)`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _true_narrows(test.operand, qualify)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return {name for value in test.values for name in _false_narrows(value, qualify)}
    if isinstance(test, ast.Call):
        tests = _isinstance_tests(test, qualify)
        if len(tests) == 1 and tests[0][1]:
            return {tests[0][0]}
    return set()


def _before_operand(boolop: ast.BoolOp, child: ast.AST, qualify) -> set[str]:
    """What the operands of `a and b` / `a or b` in front of `child` prove when `child` runs:
    `isinstance(adj, SparseTensor) and not adj.has_value()` calls has_value on no tensor."""
    names: set[str] = set()
    for value in boolop.values:
        if value is child:
            break
        names |= _true_narrows(value, qualify) if isinstance(boolop.op, ast.And) else _false_narrows(value, qualify)
    return names


def _expressions(root: ast.AST):
    if isinstance(root, ast.expr):
        yield root
        return
    for _, value in ast.iter_fields(root):
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.expr):
                yield item


def narrowing_inside(root: ast.AST, qualify) -> dict[int, frozenset]:
    """id(node) -> names narrowed by an `and` / `or` operand in front of it, for the nodes of `root`'s
    own expressions (an `if`'s test, not its body): the rules look at whole tests, so the operands
    they judge are below the node the walk stands on."""
    # astwalk's walk (no expression contexts, no deque): what is found is a union, in any order.
    found: dict[int, frozenset] = {}
    for expr in _expressions(root):
        for sub in walk(expr):
            if type(sub) is not ast.BoolOp:
                continue
            for value in sub.values[1:]:
                names = _before_operand(sub, value, qualify)
                if names:
                    for inner in walk(value):
                        found[id(inner)] = found.get(id(inner), frozenset()) | names
    return found


def _terminates(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def narrowed_non_tensors(parents: list[ast.AST], node: ast.AST, func: ast.AST, qualify) -> set[str]:
    """Names that `isinstance` proves are not tensors where `node` stands: inside
    `if isinstance(x, (int, float)):`, in the `else` of `if isinstance(x, Tensor):`, and after an
    `if isinstance(x, Tensor): ... return` in the same block."""
    names: set[str] = set()
    child = node
    for parent in reversed([func] + parents):
        if isinstance(parent, ast.BoolOp) and any(child is v for v in parent.values):
            names |= _before_operand(parent, child, qualify)
        if isinstance(parent, ast.If) and child is not parent.test:
            tests = _isinstance_tests(parent.test, qualify)
            if any(child is stmt for stmt in parent.body):
                names.update(_true_narrows(parent.test, qualify))
            elif len(tests) == 1 and tests[0][1] and any(child is stmt for stmt in parent.orelse):
                names.add(tests[0][0])
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if not isinstance(block, list) or not any(child is stmt for stmt in block):
                continue
            for stmt in block:
                if stmt is child:
                    break
                if isinstance(stmt, ast.If) and not stmt.orelse and _terminates(stmt.body):
                    tests = _isinstance_tests(stmt.test, qualify)
                    if len(tests) == 1 and tests[0][1]:
                        names.add(tests[0][0])
        child = parent
    return names
