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
    header, line = text.splitlines()
    assert "at most 0" in header
    assert line == f"tests/confirm/models.py:{models.break_line('branch')}  GB0170  Data-dependent branching" \
        or line.endswith(f"models.py:{models.break_line('branch')}  GB0170  Data-dependent branching")
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


def test_two_records_on_one_line_count_as_one_site_at_the_users_line():
    # .tolist() and the logger call break on the same line; Dynamo logs the logger's break inside
    # logging/__init__.py. One site, at the user's line, with both reasons.
    with pytest.raises(GraphBreakError) as info:
        assert_graph_breaks(models.LoggingNet(), (torch.randn(2, 4),))
    obs = info.value.observation
    assert obs.break_count == 1, str(info.value)
    [b] = obs.breaks
    assert (b.file, b.line) == (models.__file__, models.break_line("logging"))
    assert "logging.Logger" in " ".join([b.gb_type] + b.also)
    assert len(str(info.value).splitlines()) == 2


def test_break_inside_a_library_is_placed_at_the_calling_line_and_says_so():
    with pytest.raises(GraphBreakError) as info:
        assert_graph_breaks(models.torch_internal_fn, (torch.randn(4),))
    [b] = info.value.observation.breaks
    assert b.line == models.break_line("torch_internal") and b.library_frame.startswith(torch.__path__[0])
    assert str(info.value).splitlines()[1].endswith("(in a library called from here)")


FAILING_TEST = """
import torch
from breaklint.confirm.api import assert_graph_breaks

def item(x):
    return x + x.sum().item()

def test_breaks():
    assert_graph_breaks(item, (torch.randn(4),))
"""


def test_a_failing_assert_shows_the_break_lines_and_no_trace_noise(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "test_user.py").write_text(FAILING_TEST)
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_user.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "test_user.py:6  GB0124  Unsupported Tensor.item() call" in out
    assert "torch.__trace" not in out and "DEBUG" not in out
    assert "StackFrame(" not in out and "breaklint/confirm/api.py" not in out
