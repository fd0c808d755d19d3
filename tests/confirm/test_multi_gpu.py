"""One target per GPU on a multi-GPU machine (issue #17), with a fake two-device environment: each
running target sees exactly one device of its own, and the targets run at the same time."""
import threading
import time

from breaklint.confirm import cli
from breaklint.confirm.pipeline import ConfirmOptions, TargetReport


def test_each_target_gets_its_own_gpu_and_they_run_in_parallel(monkeypatch):
    monkeypatch.setattr(cli, "_gpu_count", lambda: 2)
    both_running = threading.Barrier(2, timeout=30)  # breaks unless two targets run at once
    lock = threading.Lock()
    busy: dict[str, str] = {}  # device -> target running on it now
    seen = []

    def fake_confirm(target, opts, log):
        device = opts.env["CUDA_VISIBLE_DEVICES"]
        with lock:
            assert device not in busy, f"{target} shares GPU {device} with {busy.get(device)}"
            busy[device] = target
            seen.append((target, device))
        if target in ("a", "b"):
            both_running.wait()  # the first two start together
        time.sleep(0.05 if target != "a" else 0.3)
        with lock:
            del busy[device]
        return TargetReport(target, info={"cuda_visible_devices": device})

    monkeypatch.setattr("breaklint.confirm.pipeline.confirm_target", fake_confirm)
    reports = cli._run_all(["a", "b", "c", "d"], ConfirmOptions(device="auto"), lambda msg: None)
    assert [r.target for r in reports] == ["a", "b", "c", "d"]
    assert {d for _, d in seen} == {"0", "1"} and len(seen) == 4
    assert dict(seen)["a"] != dict(seen)["b"]
    # Each report says which device its worker saw (logged by the worker itself on a real run).
    assert all(r.info["cuda_visible_devices"] in ("0", "1") for r in reports)


def test_one_gpu_runs_targets_one_after_the_other(monkeypatch):
    monkeypatch.setattr(cli, "_gpu_count", lambda: 1)
    envs = []

    def fake_confirm(target, opts, log):
        envs.append(opts.env.get("CUDA_VISIBLE_DEVICES"))
        return TargetReport(target)

    monkeypatch.setattr("breaklint.confirm.pipeline.confirm_target", fake_confirm)
    cli._run_all(["a", "b"], ConfirmOptions(device="auto"), lambda msg: None)
    assert envs == [None, None]
