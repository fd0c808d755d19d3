import pytest

torch = pytest.importorskip("torch")

from breaklint.confirm.api import GraphBreakError, assert_graph_breaks, observe  # noqa: E402

from . import models  # noqa: E402

pytestmark = pytest.mark.torch


def test_assert_passes_on_clean_model_and_returns_observation():
    obs = assert_graph_breaks(models.clean_fn, (torch.randn(4),))
    assert obs.break_count == 0 and obs.graphs == 1


def test_assert_failure_lists_each_break_with_location_and_reason():
    with pytest.raises(GraphBreakError) as info:
        assert_graph_breaks(models.Branchy(), (torch.randn(2, 4),), {"scale": 3.0})
    text = str(info.value)
    assert f"{models.__file__}:{models.break_line('branch')}" in text
    assert "Data-dependent branching" in text and "[GB0170]" in text
    assert "at most 0" in text
    assert isinstance(info.value, AssertionError)
    assert info.value.observation.break_count == 1


def test_max_breaks_allows_known_breaks():
    obs = assert_graph_breaks(models.item_fn, (torch.randn(4),), max_breaks=1)
    assert obs.break_count == 1
    with pytest.raises(AssertionError, match="frame skipped"):
        assert_graph_breaks(models.loop_fn, (torch.randn(4),), max_breaks=0)


def test_observe_accepts_a_single_tensor_as_args():
    obs = observe(models.item_fn, torch.randn(4))
    assert obs.break_count == 1
