"""The recompile fixtures (fixtures/recompile_*.py) against Dynamo's recompiles log.

Graph-break fixtures are proven by the breaks of one call (test_fixtures.py); these are proven over a
call sequence: each factory's model is compiled once (counting backend) and called CALLS times, on
the module's `inputs(i)` when it has them.
1. every line whose guard keeps failing until the recompile limit carries an `# expect: BL6xx`, and
   every such expectation is such a line;
2. `--fix --unsafe-fixes` keeps the outputs of the whole call sequence and compiles fewer times.
"""
from __future__ import annotations

import os

import pytest

from breaklint.lint.fixloop import fix_source
from breaklint.lint.runner import lint_settings
from test_fixtures import FILES, assert_close, build, cpu_factories, expectations, fixture_path, load_module, \
    read, settings

pytestmark = pytest.mark.torch

CALLS = 12
RECOMPILE_FILES = [n for n in FILES if n.startswith("recompile_")]


def count(module, factory_name: str, path: str):
    from breaklint.confirm.recompiles import count_compiles, input_sets

    model, args, kwargs = build(module, factory_name)
    return count_compiles(model, input_sets(args, kwargs, CALLS, module))


def storm_lines(obs, path: str) -> set[int]:
    """Guard lines of a frame that recompiled until the limit (one extra compile is not a storm)."""
    return obs.guard_lines(path) if obs.limit_hit else set()


def static_refs(name: str):
    from breaklint.confirm.join import FindingRef
    from breaklint.lint.engine import lint_source

    found, _ = lint_source(read(name), fixture_path(name), lint_settings(settings()))
    return [FindingRef.from_finding(f) for f in found if f.code.startswith("BL6")]


def test_there_are_recompile_fixtures():
    assert {"recompile_counters.py", "recompile_training_step.py", "recompile_diffusion_sampler.py"} \
        <= set(RECOMPILE_FILES)


@pytest.mark.parametrize("name", RECOMPILE_FILES)
def test_every_recompile_storm_is_explained_by_an_expected_finding(name):
    """confirm's own join is the oracle: no storm missed, every BL6xx expectation confirmed."""
    from breaklint.confirm.recompiles import join_recompiles

    path = fixture_path(name)
    module = load_module(path, f"_recompile_{name[:-3]}")
    refs = static_refs(name)
    confirmed: set[int] = set()
    details = []
    for factory_name in cpu_factories(module):
        obs = count(module, factory_name, path)
        joined = join_recompiles(obs.to_dict(), refs)
        assert joined["missed"] == [], f"{name}:{factory_name}: {obs.describe()}"
        confirmed.update(row for c in joined["confirmed"] for row in c["rows"])
        details.append(f"{factory_name}: {obs.describe()}")
    expected = {line for code, line in expectations(read(name)) if code.startswith("BL6")}
    assert confirmed == expected, f"{name}: confirmed {sorted(confirmed)}, expected {sorted(expected)}\n" + \
        "\n".join(details)


@pytest.mark.parametrize("name", [n for n in RECOMPILE_FILES if "BL601" in read(n)])
def test_fix_keeps_outputs_and_cuts_compiles(name, tmp_path):
    import torch

    from breaklint.confirm.recompiles import input_sets

    outcome = fix_source(read(name), fixture_path(name), lint_settings(settings()), unsafe=True)
    assert outcome.error is None and outcome.changed, outcome.error
    fixed_path = tmp_path / f"{name[:-3]}_fixed.py"
    fixed_path.write_text(outcome.source, encoding="utf-8")
    original = load_module(fixture_path(name), f"_recompile_orig_{name[:-3]}")
    fixed = load_module(str(fixed_path), f"_recompile_fixed_{name[:-3]}")
    before = after = 0
    for factory_name in cpu_factories(original):
        model0, args, kwargs = build(original, factory_name)
        model1, _, _ = build(fixed, factory_name)
        for i, (a, k) in enumerate(input_sets(args, kwargs, CALLS, original)):
            torch.manual_seed(i)
            out0 = model0(*a, **k)
            torch.manual_seed(i)
            out1 = model1(*a, **k)
            assert_close(out0, out1, f"{name}:{factory_name} call {i}")
        obs0 = count(original, factory_name, fixture_path(name))
        obs1 = count(fixed, factory_name, str(fixed_path))
        assert obs1.compiles <= obs0.compiles, obs1.describe()
        before, after = before + obs0.compiles, after + obs1.compiles
        # What still recompiles until the limit must still be flagged.
        assert storm_lines(obs1, str(fixed_path)) <= {f.row for f in outcome.remaining}, obs1.describe()
    assert after < before, f"{name}: the fix did not cut compiles ({before} -> {after})"
    # A second fix changes nothing.
    again = fix_source(outcome.source, str(fixed_path), lint_settings(settings()), unsafe=True)
    assert not again.changed


def test_cudagraph_decoder_fix_keeps_the_returned_values():
    """BL701's fix stops mutating the caller's tensor; what the step returns must not change."""
    import torch

    from breaklint.confirm.recompiles import input_sets

    name = "recompile_cudagraph_decoder.py"
    outcome = fix_source(read(name), fixture_path(name), lint_settings(settings()), unsafe=True)
    assert outcome.error is None and outcome.changed
    assert "position = position.add(1)" in outcome.source
    module0 = load_module(fixture_path(name), "_decoder_orig")
    namespace: dict = {}
    exec(compile(outcome.source, "decoder_fixed.py", "exec"), namespace)  # noqa: S102  our own fixture
    model0, args, kwargs = build(module0, "factory")
    model1 = namespace["factory"]()[0]
    for i, (a, k) in enumerate(input_sets(args, kwargs, 4, module0)):
        out0 = model0(*[t.clone() for t in a], **k)
        out1 = model1(*[t.clone() for t in a], **k)
        assert_close(out0, out1, f"call {i}")
