"""One source of truth for torch knowledge (issue #16): analysis/torch_api.py, written by
analysis/gen_torch_api.py from the installed torch, is the only module that holds it."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from breaklint.analysis import gen_torch_api, torch_api

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "breaklint"


def test_the_data_module_imports_nothing():
    tree = ast.parse((PACKAGE / "analysis" / "torch_api.py").read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    code = "import sys, breaklint.analysis.torch_api, breaklint.analysis.tensors; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_generated_data_matches_the_installed_torch():
    torch = pytest.importorskip("torch")
    import platform

    made_from = (torch_api.TORCH_VERSION, torch_api.PYTHON_VERSION)
    installed = (torch.__version__, platform.python_version())
    if made_from != installed:
        pytest.skip(f"torch_api.py was made from torch {made_from[0]} on Python {made_from[1]}; "
                    f"this is torch {installed[0]} on Python {installed[1]}: regenerate to compare")
    text = (PACKAGE / "analysis" / "torch_api.py").read_text(encoding="utf-8")
    assert gen_torch_api.render(torch) == text, "stale: run python -m breaklint.analysis.gen_torch_api"


def test_the_generator_refuses_a_curated_fact_that_torch_contradicts(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(gen_torch_api, "BOOL_UNARY", frozenset({"isnan", "sum", "no_such_op"}))
    monkeypatch.setattr(gen_torch_api, "FLOAT_RESULT", gen_torch_api.FLOAT_RESULT | {"argmax"})
    monkeypatch.setattr(gen_torch_api, "KEEP_SHAPE", gen_torch_api.KEEP_SHAPE | {"sum"})
    problems = "\n".join(gen_torch_api._check_curated(torch))
    assert "BOOL_UNARY: sum gives torch.float32 ()" in problems
    assert "BOOL_UNARY: no_such_op is neither" in problems
    assert "FLOAT_RESULT: argmax gives torch.int64 ()" in problems
    assert "KEEP_SHAPE: sum gives shape (2,), not (2, 3)" in problems
    assert "isnan" not in problems
    with pytest.raises(ValueError):
        gen_torch_api.render(torch)


def test_no_other_module_defines_torch_facts():
    """The sets used to live in eight modules, two of them with different BOOL_RESULTs."""
    facts = {name for name in vars(torch_api) if name.isupper()}
    redefined = []
    for path in PACKAGE.rglob("*.py"):
        if path.name in ("torch_api.py", "gen_torch_api.py"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                redefined += [f"{path.name}: {t.id}" for t in node.targets
                              if isinstance(t, ast.Name) and t.id in facts]
    assert redefined == []


def test_the_bool_op_sets_nest():
    """Three modules used to keep their own lists of bool-returning ops (fix/branch, fix/cond, BL401)."""
    assert torch_api.BOOL_UNARY < torch_api.BOOL_ELEMENTWISE < torch_api.BOOL_RESULT
    assert {"any", "eq", "bool"}.isdisjoint(torch_api.BOOL_UNARY)  # a reduction, a comparison, a cast
