"""Version verdicts against the installed torch: every registered rule's runnable INVALID examples
break under Dynamo exactly when the rule's recorded verdict says so, and its VALID examples never
break on a line the rule is about.

Each example is written to a file (so Dynamo reports real line numbers), imported, built with its
factory() and observed in-process with breaklint.confirm.observe (backend="eager", fullgraph=False,
graph_breaks log captured; Dynamo is reset around each observation).
"""
import importlib.util
import os

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import all_rules

pytestmark = pytest.mark.torch

INVALID = [(r, i, ex) for r in all_rules() for i, ex in enumerate(r.INVALID) if ex.runnable and not ex.calls]
VALID = [(r, i, ex) for r in all_rules() for i, ex in enumerate(r.VALID)
         if ex.runnable and not ex.calls and "def factory" in ex.code]
# Recompile examples (Example.calls > 0) are judged by how often they compile over their calls.
RECOMPILE_INVALID = [(r, i, ex) for r in all_rules() for i, ex in enumerate(r.INVALID) if ex.runnable and ex.calls]
RECOMPILE_VALID = [(r, i, ex) for r in all_rules() for i, ex in enumerate(r.VALID) if ex.runnable and ex.calls]


def test_recompile_rules_give_their_examples_calls():
    """A rule judged by recompiles must say how many calls prove it; a break rule must not."""
    for rule in all_rules():
        runnable = [ex for ex in rule.INVALID if ex.runnable]
        if rule.verdict_kind == "recompiles":
            assert runnable and all(ex.calls > 1 for ex in runnable), rule.code
        elif rule.verdict_kind == "breaks":
            assert not any(ex.calls for ex in rule.INVALID + rule.VALID), rule.code


def _installed_torch() -> str:
    import torch

    return torch.__version__


def _observe_example(source: str, path: str):
    """(observation, path) for one example module; breaks outside the example file are dropped."""
    import torch

    from breaklint.confirm.observe import observe

    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    name = "breaklint_verdict_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    torch.manual_seed(0)
    built = module.factory()
    model, args = built[0], built[1]
    kwargs = built[2] if len(built) > 2 else {}
    observation = observe(model, args, kwargs)
    real = os.path.realpath(path)
    return [b for b in observation.breaks if os.path.realpath(b.file) == real]


def _flagged_rows(rule, source: str) -> set[int]:
    findings, _ = lint_source(source, "example.py", LintSettings(rules=[rule()]))
    return {row for f in findings for row in range(f.start.row, f.end.row + 1)}


@pytest.mark.parametrize("rule,index,example", INVALID, ids=[f"{r.code}-invalid-{i}" for r, i, _ in INVALID])
def test_invalid_example_breaks_as_recorded(rule, index, example, tmp_path):
    version = _installed_torch()
    expected = rule.breaks_on(version)
    if expected is None:
        pytest.fail(f"{rule.code} records no verdicts; measure it and set `verdicts`")
    breaks = _observe_example(example.code, str(tmp_path / f"{rule.code.lower()}_invalid_{index}.py"))
    rows = _flagged_rows(rule, example.code)
    on_flagged = [b for b in breaks if b.line in rows]
    described = "; ".join(f"line {b.line}: {b.gb_type} [{b.gb_id}]" for b in breaks) or "no breaks"
    if expected:
        assert on_flagged, (f"{rule.code} INVALID {index}: verdict for torch {version} says it breaks, but Dynamo "
                            f"reports no break on the flagged lines {sorted(rows)} ({described})")
        if rule.gb_ids:
            ids = {b.gb_id for b in on_flagged}
            assert ids & set(rule.gb_ids), (f"{rule.code} INVALID {index}: breaks with {sorted(ids)}, "
                                            f"not the rule's {rule.gb_ids}")
    else:
        assert not on_flagged, (f"{rule.code} INVALID {index}: verdict for torch {version} says no break, but "
                                f"Dynamo breaks there ({described}); update `verdicts`")


@pytest.mark.parametrize("rule,index,example", VALID, ids=[f"{r.code}-valid-{i}" for r, i, _ in VALID])
def test_valid_example_does_not_break_for_the_rules_reason(rule, index, example, tmp_path):
    breaks = _observe_example(example.code, str(tmp_path / f"{rule.code.lower()}_valid_{index}.py"))
    ours = [b for b in breaks if b.gb_id and b.gb_id in rule.gb_ids]
    assert not ours, f"{rule.code} VALID {index} breaks for the rule's reason: " + \
        "; ".join(f"line {b.line}: {b.gb_type} [{b.gb_id}]" for b in ours)


def _count_example(source: str, path: str, calls: int):
    import torch

    from breaklint.confirm.recompiles import count_compiles, input_sets

    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    name = "breaklint_verdict_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    torch.manual_seed(0)
    built = module.factory()
    model, args = built[0], built[1]
    kwargs = built[2] if len(built) > 2 else {}
    return count_compiles(model, input_sets(tuple(args), kwargs, calls, module))


@pytest.mark.parametrize("rule,index,example", RECOMPILE_INVALID,
                         ids=[f"{r.code}-invalid-{i}" for r, i, _ in RECOMPILE_INVALID])
def test_invalid_example_recompiles_as_recorded(rule, index, example, tmp_path):
    """Verdict True: a compile on every call until Dynamo's recompile limit, and the failing guard is
    on a line the rule flags. Verdict False: never a compile per call."""
    version = _installed_torch()
    expected = rule.breaks_on(version)
    if expected is None:
        pytest.fail(f"{rule.code} records no verdicts; measure it and set `verdicts`")
    path = str(tmp_path / f"{rule.code.lower()}_invalid_{index}.py")
    obs = _count_example(example.code, path, example.calls)
    every_call = min(example.calls, obs.recompile_limit)
    if expected:
        assert obs.compiles == every_call, f"{rule.code} INVALID {index}: {obs.describe()}, expected {every_call}"
        assert obs.limit_hit == (example.calls > obs.recompile_limit), obs.describe()
        from breaklint.confirm.recompiles import explains

        found, _ = lint_source(example.code, "example.py", LintSettings(rules=[rule()]))
        failed = [(r.guard_line, r.guard) for r in obs.recompiles if r.guard_line in obs.guard_lines(path)]
        assert any(explains(line, guard, f.start.row, f.end.row, f.message) for line, guard in failed for f in found), \
            f"{rule.code} INVALID {index}: guards failed on {failed}, the rule flags {[f.start.row for f in found]}"
    else:
        assert obs.compiles < every_call, f"{rule.code} INVALID {index}: {obs.describe()}; update `verdicts`"


@pytest.mark.parametrize("rule,index,example", RECOMPILE_VALID,
                         ids=[f"{r.code}-valid-{i}" for r, i, _ in RECOMPILE_VALID])
def test_valid_example_does_not_recompile_every_call(rule, index, example, tmp_path):
    obs = _count_example(example.code, str(tmp_path / f"{rule.code.lower()}_valid_{index}.py"), example.calls)
    assert obs.compiles < min(example.calls, obs.recompile_limit), f"{rule.code} VALID {index}: {obs.describe()}"
