"""What Dynamo on the installed torch reports for small models, through breaklint.confirm.observe."""
import logging

import pytest

torch = pytest.importorskip("torch")

from breaklint.confirm.observe import GRAPH_BREAK_LOGGERS, observe  # noqa: E402

from . import models  # noqa: E402

pytestmark = pytest.mark.torch
HERE = models.__file__


def x4():
    return torch.randn(4)


def only_break(obs):
    assert len(obs.breaks) == 1, obs.describe()
    return obs.breaks[0]


def test_item_break_has_location_type_and_id():
    obs = observe(models.item_fn, (x4(),))
    b = only_break(obs)
    assert (b.file, b.line) == (HERE, models.break_line("item"))
    assert b.gb_type == "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    assert b.gb_id == "GB0124"
    assert b.function == "item_fn"
    assert not b.frame_skipped
    # One split: the graph before .item() and the graph after it.
    assert obs.graphs == 2 and obs.ops_per_graph == [2, 1]
    assert obs.skipped_frames == []


def test_clean_function_has_one_graph_and_no_breaks():
    obs = observe(models.clean_fn, (x4(),))
    assert obs.breaks == [] and obs.graphs == 1 and obs.ops_per_graph == [3]


def test_break_in_loop_skips_whole_frame():
    obs = observe(models.loop_fn, (x4(),))
    b = only_break(obs)
    assert b.line == models.break_line("loop")
    assert b.gb_type == "Failed to trace builtin operator" and b.gb_id == "GB0059"
    assert b.frame_skipped and b.skip_gb_type == "graph break in loop" and b.skip_gb_id == "GB7000"
    assert obs.graphs == 0
    [frame] = obs.skipped_frames
    assert frame.function == "loop_fn" and frame.break_line == models.break_line("loop")


def test_break_inside_user_context_manager_skips_frame():
    obs = observe(models.with_fn, (x4(),))
    b = only_break(obs)
    assert b.line == models.break_line("with") and b.gb_id == "GB0025"
    assert b.frame_skipped and b.skip_gb_id == "GB0066"
    assert [f.function for f in obs.skipped_frames] == ["with_fn"]


def test_break_in_callee_is_reported_once_at_callee_line():
    # Dynamo logs it twice: once inlined from nested_fn, once more (stack suppressed as a
    # duplicate) when the helper runs as its own frame.
    obs = observe(models.nested_fn, (x4(),))
    b = only_break(obs)
    assert b.line == models.break_line("nested") and b.gb_id == "GB0036"
    assert b.hits == 2 and obs.log_records == 2
    assert [f.function for f in b.user_stack][-2:] == ["nested_fn", "_nonzero_helper"]


def test_break_inside_torch_maps_to_innermost_user_frame():
    obs = observe(models.torch_internal_fn, (x4(),))
    b = only_break(obs)
    assert "/torch/nn/init.py:" in b.reported_at  # where Dynamo says it broke
    assert (b.file, b.line) == (HERE, models.break_line("torch_internal"))
    assert b.gb_id == "GB0124"


def test_lstm_module_skips_frame_on_this_torch():
    model = models.LSTMNet()
    obs = observe(model, (torch.randn(2, 4),))
    b = only_break(obs)
    assert b.line == models.break_line("lstm") and b.gb_type == "Attempted to wrap RNN, GRU, or LSTM"
    assert b.frame_skipped and obs.graphs == 0
    assert [f.function for f in obs.skipped_frames] == ["forward"]


def test_kwargs_are_passed_and_branch_is_found():
    model = models.Branchy()
    with torch.no_grad():
        model.a.bias.fill_(10.0)  # make the branch taken: result must not depend on it
    obs = observe(model, (torch.randn(2, 4),), {"scale": 2.0})
    b = only_break(obs)
    assert b.line == models.break_line("branch") and b.gb_id == "GB0170"


def test_observation_round_trips_through_json():
    import json

    from breaklint.confirm.observation import Observation

    obs = observe(models.loop_fn, (x4(),))
    again = Observation.from_dict(json.loads(json.dumps(obs.to_dict())))
    assert again == obs


def test_state_is_restored_and_nothing_leaks_between_runs(capfd):
    before = [(logging.getLogger(n).level, logging.getLogger(n).propagate) for n in GRAPH_BREAK_LOGGERS]
    observe(models.item_fn, (x4(),))
    after = [(logging.getLogger(n).level, logging.getLogger(n).propagate) for n in GRAPH_BREAK_LOGGERS]
    assert before == after
    # The same code observed twice reports the same break (Dynamo's duplicate checker was reset).
    first = observe(models.nested_fn, (x4(),))
    second = observe(models.nested_fn, (x4(),))
    assert first.breaks == second.breaks
    err = capfd.readouterr().err
    assert "Graph break in user code" not in err
