"""Run one worker phase in a fresh subprocess with a timeout; a crash or hang becomes a message."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field


@dataclass
class PhaseResult:
    ok: bool
    data: dict = field(default_factory=dict)
    phase: str = ""
    error: str = ""
    traceback: str = ""
    stderr: str = ""

    def one_line(self) -> str:
        return f"{self.phase}: {self.error}"


def _package_parent() -> str:
    """The directory holding the breaklint package, so the child imports this same breaklint."""
    import breaklint

    return os.path.dirname(os.path.dirname(os.path.abspath(breaklint.__file__)))


def run_worker(request: dict, timeout: float, workdir: str, env_extra: dict | None = None) -> PhaseResult:
    os.makedirs(workdir, exist_ok=True)
    fd, req_path = tempfile.mkstemp(prefix="req-", suffix=".json", dir=workdir)
    os.close(fd)
    request = dict(request)
    request.setdefault("result", req_path[:-5] + ".result.json")
    request.setdefault("progress", req_path[:-5] + ".progress")
    with open(req_path, "w", encoding="utf-8") as fh:
        json.dump(request, fh)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_package_parent(), env.get("PYTHONPATH", "")) if p)
    env.update(env_extra or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "breaklint.confirm.worker", req_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=request.get("cwd") or None,
        start_new_session=True,  # its own process group: a timeout kills compile workers too
    )
    try:
        _, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        _, stderr = proc.communicate()
        phase = _read(request["progress"]) or "start"
        return PhaseResult(False, phase=phase, error=f"timed out after {timeout:g}s (hang?)", stderr=stderr or "")
    if os.path.exists(request["result"]):
        with open(request["result"], encoding="utf-8") as fh:
            payload = json.load(fh)
        if payload.get("ok"):
            return PhaseResult(True, data=payload, stderr=stderr or "")
        return PhaseResult(False, phase=payload.get("phase", "?"), error=payload.get("error", ""),
                           traceback=payload.get("traceback", ""), stderr=stderr or "")
    phase = _read(request["progress"]) or "start"
    how = f"killed by signal {-proc.returncode}" if proc.returncode < 0 else f"exited with status {proc.returncode}"
    last = (stderr or "").strip().splitlines()[-1:] or [""]
    return PhaseResult(False, phase=phase, error=f"worker crashed ({how}) {last[0]}".strip(), stderr=stderr or "")


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read().strip()
    except OSError:
        return ""
