"""The issue-#15 harnesses: the multi-call recompile observer and the CUDA-graph probe (CPU side)."""
import json
import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.insert(0, BENCH)

import recompile_observe  # noqa: E402

torch = pytest.importorskip("torch")

VERBOSE = """Recompiling function forward in /nowhere/pkg/model.py:11
    triggered by the following guard failure(s):
    guard 0 failures:
    - 0/1: L['self'].step == 1                                  # if m.step > 2:  # pkg/helpers.py:14 in helper (HINT: ...)
    - User stack trace:
    -   File "/nowhere/pkg/model.py", line 12, in forward
    -     return helper(x, s)
    -   File "/nowhere/pkg/helpers.py", line 14, in helper
    -     if m.step > 2: return x*2

    guard 1 failures:
    - 0/0: L['self'].step == 0                                  # if m.step > 2:
"""


def test_a_recompile_is_attributed_to_the_innermost_library_frame_of_the_newest_entry():
    record = recompile_observe.parse_recompile(VERBOSE, ["/nowhere/pkg"])
    assert (record["function"], record["line"]) == ("forward", 11)
    assert [f["guard"] for f in record["failures"]] == ["L['self'].step == 1"]  # guard 1 is an older entry
    assert record["failures"][0]["site"] == [os.path.realpath("/nowhere/pkg/helpers.py"), 14]


def test_later_calls_change_python_floats_and_step_ints_and_keep_sizes_and_masks():
    changed = []
    mask, x = torch.ones(3), torch.randn(3)
    args = [x, mask, 2, 0.5]
    g = torch.Generator().manual_seed(0)
    first = recompile_observe.varied(args, 0, torch, g, changed)
    second = recompile_observe.varied(args, 1, torch, g, changed, "arg")
    third = recompile_observe.varied(args, 2, torch, g, changed, "arg")
    assert first is args and second[2] == third[2] == 2 and len({0.5, second[3], third[3]}) == 3
    assert torch.equal(third[1], mask) and third[0].shape == x.shape and not torch.equal(third[0], x)
    kwargs = recompile_observe.varied({"timestep": 2, "num_layers": 2}, 2, torch, g, changed, "kw")
    assert kwargs == {"timestep": 4, "num_layers": 2}
    assert changed == ["arg[3]", "arg[3]", "kw.timestep"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA record")
def test_cudagraph_probe2_without_cuda_writes_a_no_cuda_record(tmp_path):
    out = tmp_path / "x.json"
    completed = subprocess.run([sys.executable, os.path.join(BENCH, "cudagraph_probe2.py"), "--out", str(out)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    report = json.loads(out.read_text())
    assert report["status"] == "no CUDA" and report["cuda"] is False and report["patterns"] == {}


def test_cudagraph_probe2_sees_a_kept_reference_that_the_next_call_overwrites():
    import cudagraph_probe2 as probe
    from torch import nn

    class Overwrites(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("buf", torch.zeros(64, 64))
            self.last = None

        def forward(self, x):
            self.buf.copy_(x * 2)
            self.last = self.buf
            return x + 1

    def overwrites(dev):
        return probe.Case(Overwrites(), [((x,), {}) for x in probe._xs(dev)], kept="self.last")

    def keeps_a_fresh_tensor(dev):
        return probe.Case(probe._Keeps("plain"), [((x,), {}) for x in probe._xs(dev)], kept="self.last")

    assert probe.run_pattern(overwrites, "cpu", None, "eager")["kept_wrong_or_raises"] is True
    fresh = probe.run_pattern(keeps_a_fresh_tensor, "cpu", None, "eager")
    assert fresh["kept_wrong_or_raises"] is False and all(fresh["outputs_equal_eager"])
    assert len(fresh["kept_checks"]) == probe.CALLS - 1
