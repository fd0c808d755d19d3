"""The fixtures in fixtures/ against breaklint and against Dynamo.

Each fixture marks the lines that must be flagged with `# expect: BLxxx[, BLyyy]`. Three checks:

1. static: `breaklint check` (target torch 2.13) reports exactly the expected (code, line) pairs;
2. torch: Dynamo (backend="eager", fullgraph=False, graph_breaks log) breaks on exactly the
   expected lines, so an expectation is never a guess and no real break goes unmarked;
3. fix proof: `fix_source(..., unsafe=True)` on a copy gives the same eager outputs and gradients
   on the same inputs and weights, Dynamo sees fewer breaks, and every break left is on a line still flagged.
"""
from __future__ import annotations

import copy
import importlib.util
import io
import os
import re
import tokenize

import pytest

from proofs import assert_same_gradients, gradients

from breaklint.lint.config import Settings
from breaklint.lint.fixloop import fix_source
from breaklint.lint.runner import check_paths, lint_settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures")
TARGET_TORCH = "2.13"
HAS_TORCH = importlib.util.find_spec("torch") is not None
FILES = sorted(f for f in os.listdir(FIXTURES) if f.endswith(".py") and f != "__init__.py")
EXPECT = re.compile(r"#\s*expect:\s*(BL\d{3}(?:\s*,\s*BL\d{3})*)")
# Rules whose pattern does not break on TARGET_TORCH are off by default: never expected.
OFF_BY_DEFAULT = {"BL303"}
# Composites are built so that breaklint's fixes remove their breaks (they are timed fixed vs original).
COMPOSITES = {"attention_padding.py", "greedy_decoder.py", "moe_router.py", "norm_rescale.py", "varlen_pooling.py"}
# Rule bugs the fixtures expose, each entry with its reason: (kind, fixture) -> why. Strict xfail: once the
# rule is fixed the test passes, fails as XPASS, and the entry must go. Fixtures are never bent to a bug.
KNOWN_RULE_BUGS = {
}


def known_bug(kind: str, name: str):
    reason = KNOWN_RULE_BUGS.get((kind, name))
    return pytest.param(name, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else name


def fixture_path(name: str) -> str:
    return os.path.join(FIXTURES, name)


def read(name: str) -> str:
    with open(fixture_path(name), encoding="utf-8") as fh:
        return fh.read()


def expectations(source: str) -> set[tuple[str, int]]:
    """(code, line) for every `# expect:` comment; only real comments count, not strings."""
    found = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            match = EXPECT.search(tok.string)
            if match:
                found.update((code.strip(), tok.start[0]) for code in match.group(1).split(","))
    return found


def settings() -> Settings:
    return Settings(target_torch=TARGET_TORCH, root=ROOT)


def load_module(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_factories(module) -> list[str]:
    """`factory` and any `factory_<variant>`; `factory_gpu` needs CUDA and is for benchmarks."""
    return sorted(n for n in dir(module) if (n == "factory" or n.startswith("factory_")) and n != "factory_gpu"
                  and callable(getattr(module, n)))


def build(module, factory_name: str):
    made = getattr(module, factory_name)()
    model, args = made[0], made[1]
    kwargs = made[2] if len(made) > 2 else {}
    return model, tuple(args), dict(kwargs)


# -- 1. static ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def static_findings():
    result = check_paths([FIXTURES], settings(), jobs=1, use_cache=False)
    assert not result.errors, [f"{e.path}: {e.message}" for e in result.errors]
    by_file: dict[str, set] = {}
    for f in result.findings:
        by_file.setdefault(os.path.basename(f.path), set()).add((f.code, f.row))
    return by_file


def test_composites_exist_and_have_gpu_sizes():
    for name in COMPOSITES:
        module = load_module(fixture_path(name), f"_composite_{name[:-3]}") if HAS_TORCH else None
        assert name in FILES
        assert "def factory_gpu(" in read(name), f"{name} has no factory_gpu() for the GPU benchmark"
        if module is not None:
            assert callable(module.factory_gpu)


def test_every_rule_code_has_a_fixture():
    from breaklint.rules import all_rules

    expected_codes = {code for name in FILES for code, _ in expectations(read(name))}
    missing = {r.code for r in all_rules()} - expected_codes - OFF_BY_DEFAULT
    assert not missing, f"rules without a fixture line: {sorted(missing)}"
    assert "bl303_no_grad.py" in FILES  # BL303 is covered by a fixture that expects nothing on 2.13


def test_expect_comments_are_not_noqa():
    source = "print(1)  # expect: BL201\n"
    assert expectations(source) == {("BL201", 1)}
    assert "noqa" not in source


@pytest.mark.parametrize("name", [known_bug("static", n) for n in FILES])
def test_static_findings_match_expectations(name, static_findings):
    expected = expectations(read(name))
    assert not {c for c, _ in expected} & OFF_BY_DEFAULT
    found = static_findings.get(name, set())
    missing, extra = sorted(expected - found, key=lambda p: p[1]), sorted(found - expected, key=lambda p: p[1])
    assert not missing and not extra, f"{name}: missing (not flagged) {missing}; extra (false positives) {extra}"


# -- 2. Dynamo breaks exactly where expected ---------------------------------------------------------

def break_lines(observation, path: str) -> set[int]:
    real = os.path.realpath(path)
    return {b.line for b in observation.breaks if os.path.realpath(b.file) == real}


def observe_fresh(module, factory_name: str):
    """Eager run on one instance, Dynamo on a fresh one: lazy init must happen under Dynamo too."""
    from breaklint.confirm.observe import observe

    model, args, kwargs = build(module, factory_name)
    model(*args, **kwargs)
    model, args, kwargs = build(module, factory_name)
    return observe(model, args, kwargs, run_eager_first=False)


@pytest.fixture(autouse=True)
def _no_pdb(monkeypatch):
    # bl204's breakpoint() must not stop the test run.
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")


@pytest.mark.torch
@pytest.mark.parametrize("name", FILES)
def test_dynamo_breaks_exactly_on_expected_lines(name, capsys):
    path = fixture_path(name)
    module = load_module(path, f"_fixture_{name[:-3]}")
    broken: set[int] = set()
    details = []
    for factory_name in cpu_factories(module):
        obs = observe_fresh(module, factory_name)
        broken |= break_lines(obs, path)
        details.append(f"{factory_name}: {obs.describe(relative_to=ROOT)}")
    # Recompile and CUDA-graph rules (BL6xx, BL7xx) do not break the graph: test_recompile_fixtures.py.
    expected_lines = {line for code, line in expectations(read(name)) if code < "BL6"}
    assert broken == expected_lines, (
        f"{name}: Dynamo breaks on lines without `# expect:` {sorted(broken - expected_lines)}; "
        f"expected lines where Dynamo does not break {sorted(expected_lines - broken)}\n" + "\n".join(details))


# -- 3. fixes are proven against torch ---------------------------------------------------------------

def assert_close(a, b, where="output"):
    import torch

    if isinstance(a, torch.Tensor):
        assert isinstance(b, torch.Tensor), f"{where}: tensor vs {type(b).__name__}"
        assert a.shape == b.shape, f"{where}: shape {tuple(a.shape)} vs {tuple(b.shape)}"
        assert torch.allclose(a.detach().float(), b.detach().float(), atol=1e-5, rtol=1e-4, equal_nan=True), \
            f"{where}: values differ (max abs diff {(a.detach().float() - b.detach().float()).abs().max()})"
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), f"{where}: {a!r} vs {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_close(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{where}: keys differ"
        for k in a:
            assert_close(a[k], b[k], f"{where}[{k!r}]")
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


def transfer_weights(original, fixed):
    """Copy the original's weights into the fixed model; only entries the fix added may be missing."""
    import torch.nn as nn

    if not isinstance(original, nn.Module):
        return
    added = set(fixed.state_dict()) - set(original.state_dict())
    result = fixed.load_state_dict(original.state_dict(), strict=False)
    assert not result.unexpected_keys, f"the fix removed state: {result.unexpected_keys}"
    assert set(result.missing_keys) == added


def fixed_copy(name: str, tmp_path):
    outcome = fix_source(read(name), fixture_path(name), lint_settings(settings()), unsafe=True)
    assert outcome.error is None, outcome.error
    return outcome


# The recompile fixtures' fixes cut compiles, not breaks: test_recompile_fixtures.py proves them.
FIXABLE_CANDIDATES = [n for n in FILES if not n.startswith(("clean_", "recompile_"))]


@pytest.mark.torch
@pytest.mark.parametrize("name", [known_bug("fix", n) for n in FIXABLE_CANDIDATES])
def test_fix_preserves_outputs_and_removes_breaks(name, tmp_path, capsys):
    import torch

    outcome = fixed_copy(name, tmp_path)
    if not outcome.changed:
        assert name not in COMPOSITES, f"{name}: a composite must be fixable, but no fix applied"
        pytest.skip(f"{name}: no fixable findings")
    fixed_path = tmp_path / f"{name[:-3]}_fixed.py"
    fixed_path.write_text(outcome.source, encoding="utf-8")
    original = load_module(fixture_path(name), f"_orig_{name[:-3]}")
    fixed = load_module(str(fixed_path), f"_fixed_{name[:-3]}")

    before = after = 0
    for factory_name in cpu_factories(original):
        model0, args, kwargs = build(original, factory_name)
        model1, _, _ = build(fixed, factory_name)
        transfer_weights(model0, model1)
        torch.manual_seed(1)
        out0 = model0(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        torch.manual_seed(1)
        out1 = model1(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        assert_close(out0, out1, f"{name}:{factory_name}")
        assert_same_gradients(gradients(model0, args, kwargs, 1), gradients(model1, args, kwargs, 1),
                              f"{name}:{factory_name}")

        obs0, obs1 = observe_fresh(original, factory_name), observe_fresh(fixed, factory_name)
        assert obs1.break_count <= obs0.break_count, obs1.describe()
        before, after = before + obs0.break_count, after + obs1.break_count
        # What is left must be what breaklint still reports: a fix never adds a break of its own.
        still_flagged = {f.row for f in outcome.remaining}
        unexplained = sorted(break_lines(obs1, str(fixed_path)) - still_flagged)
        assert not unexplained, f"fixed {name}: Dynamo breaks on unflagged lines {unexplained}\n{outcome.source}"
    assert after < before, f"{name}: the fix did not remove a graph break ({before} -> {after})"


@pytest.mark.gpu
@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_gpu_factories_run_and_fixes_hold_on_cuda(name, tmp_path):
    """The benchmark sizes run on CUDA, and the fixed copy agrees with the original there too."""
    import torch

    outcome = fixed_copy(name, tmp_path)
    fixed_path = tmp_path / f"{name[:-3]}_fixed.py"
    fixed_path.write_text(outcome.source, encoding="utf-8")
    original = load_module(fixture_path(name), f"_gorig_{name[:-3]}")
    fixed = load_module(str(fixed_path), f"_gfixed_{name[:-3]}")
    model0, args, kwargs = build(original, "factory_gpu")
    model1, _, _ = build(fixed, "factory_gpu")
    transfer_weights(model0, model1)
    with torch.no_grad():
        assert_close(model0(*args, **kwargs), model1(*args, **kwargs), f"{name}:factory_gpu")
