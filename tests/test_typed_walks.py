"""A loop over `function_nodes_of(func, KINDS)` sees only the node types in KINDS (astwalk.py).

A branch added to such a loop for another node type would never run, silently: this test reads
every such loop in src/breaklint and checks that each branch of its if/elif chain tests the loop
variable against types the loop's KINDS holds, and that no `else` catches the rest."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "breaklint"


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def _typed_loops():
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
                    and isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name)
                    and node.iter.func.id == "function_nodes_of"):
                continue
            kinds = node.iter.args[1]
            assert isinstance(kinds, ast.Name), f"{path}:{node.lineno}: pass the node kinds as a module constant"
            yield pytest.param(path, node, kinds.id, id=f"{path.name}:{node.lineno}")


def _tested_types(test: ast.AST, var: str, module) -> set[type]:
    """The types `isinstance(var, T)` at the head of a branch's test requires, else an empty set."""
    while isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        test = test.values[0]
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and isinstance(test.args[0], ast.Name) and test.args[0].id == var):
        return set()
    spelled = test.args[1]
    names = spelled.elts if isinstance(spelled, ast.Tuple) else [spelled]
    return {_resolve(name, module) for name in names}


def _resolve(spelled: ast.AST, module) -> object:
    """`ast.Assign` (or a bare name) as the module's own globals resolve it."""
    if isinstance(spelled, ast.Attribute):
        return getattr(_resolve(spelled.value, module), spelled.attr)
    return getattr(module, spelled.id)


@pytest.mark.parametrize("path, loop, kinds_name", list(_typed_loops()))
def test_each_branch_acts_on_kinds_the_loop_sees(path: Path, loop: ast.For, kinds_name: str) -> None:
    module = importlib.import_module(_module_name(path))
    kinds = getattr(module, kinds_name)
    var = loop.target.id
    assert len(loop.body) == 1 and isinstance(loop.body[0], ast.If), \
        f"{path}:{loop.lineno}: the loop body should be one if/elif chain on the node's type"
    branch = loop.body[0]
    while True:
        wanted = _tested_types(branch.test, var, module)
        assert wanted, f"{path}:{branch.lineno}: each branch should start with isinstance({var}, ...)"
        assert wanted <= kinds, (f"{path}:{branch.lineno}: {sorted(t.__name__ for t in wanted - kinds)} "
                                 f"missing from {kinds_name}; this loop never sees them")
        if not branch.orelse:
            break
        assert len(branch.orelse) == 1 and isinstance(branch.orelse[0], ast.If), \
            f"{path}:{branch.lineno}: an `else` here would miss every kind not in {kinds_name}"
        branch = branch.orelse[0]
