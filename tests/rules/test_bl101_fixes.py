"""Proof of BL101/BL102's autofixes against torch: for every fixable INVALID example, the fixed
module gives the same outputs and gradients as the original on fresh random inputs (several seeds, so both sides
of the branch run), and Dynamo sees fewer graph breaks after the fix than before."""
import ast
import importlib.util
import os
import sys

import pytest
from proofs import assert_same_gradients, gradients

from breaklint.lint.engine import LintSettings
from breaklint.lint.fixloop import fix_source
from breaklint.rules import rule_by_code

CODES = ("BL101", "BL102", "BL103")
FIXABLE = [(code, i, ex) for code in CODES for i, ex in enumerate(rule_by_code(code).INVALID)
           if ex.fixed is not None and ex.runnable]
SEEDS = range(8)


def _load(source: str, path: str):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    spec = importlib.util.spec_from_file_location("bl101_proof_" + os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(module, seed: int):
    import torch

    torch.manual_seed(seed)
    built = module.factory()
    return built[0], tuple(built[1]), dict(built[2]) if len(built) > 2 else {}


def _flatten(value):
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _assert_same(before, after):
    import torch

    left, right = _flatten(before), _flatten(after)
    assert len(left) == len(right)
    for a, b in zip(left, right):
        a, b = torch.as_tensor(a), torch.as_tensor(b)
        assert a.shape == b.shape, f"shape changed: {a.shape} -> {b.shape}"
        assert torch.allclose(a.double(), b.double(), equal_nan=True), f"{a} != {b}"


def _eager(model):
    """A @torch.compile'd example function, unwrapped: the proof compares eager semantics."""
    return getattr(model, "_torchdynamo_orig_callable", model)


def _lines_run(path: str, call) -> frozenset:
    """The bytecode offsets of `path` that one call executes: which side of each branch it took
    (offsets, not lines, so that a one-line ternary or `a or b` shows its path too)."""
    seen = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != path:
            return None
        frame.f_trace_opcodes = True
        seen.add((frame.f_code.co_name, frame.f_lasti))
        return tracer

    sys.settrace(tracer)
    try:
        result = call()
    finally:
        sys.settrace(None)
    return frozenset(seen), result


def _breaks(model, args, kwargs) -> int:
    from breaklint.confirm.observe import observe

    return observe(model, args, kwargs).break_count


def _branches_outside_asserts(source: str) -> bool:
    """An assert's fix keeps what passes and fails, and so does skipping a check that raises; only
    branches that compute something need both sides run."""
    tree = ast.parse(source)
    checks = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)
              or isinstance(n, ast.If) and n.body and isinstance(n.body[-1], ast.Raise) and not n.orelse]
    inside = {id(n) for check in checks for n in ast.walk(check)}
    return any(isinstance(n, (ast.If, ast.IfExp, ast.While, ast.BoolOp)) and id(n) not in inside
               for n in ast.walk(tree))


def test_every_rule_has_fixes_to_prove():
    assert {code for code, _, _ in FIXABLE} == set(CODES)


@pytest.mark.torch
@pytest.mark.parametrize("code,index,example", FIXABLE, ids=[f"{c}-invalid-{i}" for c, i, _ in FIXABLE])
def test_fix_keeps_outputs_and_removes_breaks(code, index, example, tmp_path):
    import torch

    settings = LintSettings(rules=[rule_by_code(code)()])
    outcome = fix_source(example.code, "example.py", settings, unsafe=True)
    assert outcome.changed and outcome.error is None
    original = _load(example.code, str(tmp_path / f"orig_{code}_{index}.py"))
    fixed = _load(outcome.source, str(tmp_path / f"fixed_{code}_{index}.py"))
    paths = set()
    with torch.no_grad():
        for seed in SEEDS:
            model, args, kwargs = _build(original, seed)
            fixed_model, fixed_args, fixed_kwargs = _build(fixed, seed)
            lines, before = _lines_run(original.__file__, lambda: _eager(model)(*args, **kwargs))
            paths.add(lines)
            _assert_same(before, _eager(fixed_model)(*fixed_args, **fixed_kwargs))
    for seed in SEEDS:  # gradients too: torch.where runs both sides, and 0 * inf in backward is NaN
        model, args, kwargs = _build(original, seed)
        fixed_model, fixed_args, fixed_kwargs = _build(fixed, seed)
        assert_same_gradients(gradients(_eager(model), args, kwargs, seed),
                              gradients(_eager(fixed_model), fixed_args, fixed_kwargs, seed), f"seed {seed}")
    if _branches_outside_asserts(example.code):
        assert len(paths) > 1, "the random inputs never took the other side of the branch: the proof proves nothing"
    model, args, kwargs = _build(original, 0)
    fixed_model, fixed_args, fixed_kwargs = _build(fixed, 0)
    before, after = _breaks(model, args, kwargs), _breaks(fixed_model, fixed_args, fixed_kwargs)
    assert after < before, f"graph breaks did not go down: {before} -> {after}"
