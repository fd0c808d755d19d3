"""confirm, for one target: observe, join with static findings, fix in a shadow copy, verify, time."""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field

from .join import FindingRef, Join, join
from .observation import Observation
from .runner import PhaseResult, run_worker
from .target import TargetError, parse_target

LOAD_PHASES = {"target", "import", "factory", "start"}


@dataclass
class ConfirmOptions:
    unsafe_fixes: bool = False
    write: bool = False
    timeout: float = 600.0
    mode: str | None = None  # Inductor mode: None (default), reduce-overhead, max-autotune, ...
    device: str = "auto"
    bench: bool = True
    rtol: float = 1e-4
    atol: float = 1e-5
    max_breaks: int = 0
    min_runs: int = 20
    min_seconds: float = 0.3
    config_file: str | None = None
    keep_workdir: bool = False
    env: dict = field(default_factory=dict)  # e.g. CUDA_VISIBLE_DEVICES for one-target-per-GPU


@dataclass
class Failure:
    phase: str
    message: str
    traceback: str = ""
    fixed: bool = False  # the failure is the fixed model's, not the original's

    def one_line(self) -> str:
        who = "fixed model" if self.fixed else "target"
        return f"{who} failed in phase '{self.phase}': {self.message}"


@dataclass
class TargetReport:
    target: str
    failure: Failure | None = None
    info: dict = field(default_factory=dict)
    before: Observation | None = None
    after: Observation | None = None
    joined: Join | None = None
    fixes_applied: int = 0
    fixed_files: list[dict] = field(default_factory=list)
    comparison: dict | None = None
    transfer: dict | None = None
    timings: dict = field(default_factory=dict)  # eager / compiled_original / compiled_fixed
    bench_failure: Failure | None = None
    written: list[str] = field(default_factory=list)
    static_error: str | None = None
    max_breaks: int = 0

    # ---- verdicts -------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self.failure is None or self.failure.fixed

    @property
    def remaining_breaks(self) -> int | None:
        obs = self.after or self.before
        return obs.break_count if obs else None

    @property
    def outputs_equal(self) -> bool | None:
        return None if self.comparison is None else bool(self.comparison["equal"])

    def problems(self) -> list[str]:
        out = []
        if not self.loaded:
            return [self.failure.one_line()]
        if self.failure and self.failure.fixed:
            out.append(self.failure.one_line())
        if self.remaining_breaks is not None and self.remaining_breaks > self.max_breaks:
            out.append(f"{self.remaining_breaks} graph break(s) remain (--max-breaks {self.max_breaks})")
        if self.joined and self.joined.missed:
            out.append(f"{len(self.joined.missed)} break(s) missed by the static rules")
        if self.outputs_equal is False:
            out.append("a fix changed the model's outputs")
        if self.bench_failure:
            out.append(self.bench_failure.one_line())
        return out

    @property
    def exit_code(self) -> int:
        # The original failing in any phase (Inductor included) means we could not confirm it: 2.
        if not self.loaded or (self.bench_failure and not self.bench_failure.fixed):
            return 2
        return 1 if self.problems() else 0

    def speedups(self) -> dict:
        t = {k: v["median_ms"] for k, v in self.timings.items() if v}
        out = {}
        if "eager" in t and "compiled_original" in t:
            out["compiled_original_vs_eager"] = t["eager"] / t["compiled_original"]
        if "eager" in t and "compiled_fixed" in t:
            out["compiled_fixed_vs_eager"] = t["eager"] / t["compiled_fixed"]
        if "compiled_original" in t and "compiled_fixed" in t:
            out["compiled_fixed_vs_compiled_original"] = t["compiled_original"] / t["compiled_fixed"]
        return out

    def to_dict(self) -> dict:
        return {
            "target": self.target,
            "exit_code": self.exit_code,
            "problems": self.problems(),
            "failure": asdict(self.failure) if self.failure else None,
            "info": self.info,
            "before": self.before.to_dict() if self.before else None,
            "after": self.after.to_dict() if self.after else None,
            "join": self.joined.to_dict() if self.joined else None,
            "fixes_applied": self.fixes_applied,
            "fixed_files": self.fixed_files,
            "outputs_equal": self.outputs_equal,
            "comparison": self.comparison,
            "state_dict_transfer": self.transfer,
            "timings": self.timings,
            "timing_device": self.info.get("device_name"),
            "speedups": self.speedups(),
            "bench_failure": asdict(self.bench_failure) if self.bench_failure else None,
            "written": self.written,
            "static_error": self.static_error,
            "max_breaks": self.max_breaks,
        }


def involved_files(before: Observation, executed: dict[str, list[int]], module_file: str) -> list[str]:
    files = {module_file} if module_file.endswith(".py") else set()
    files.update(executed)
    for b in before.breaks:
        files.add(b.file)
        files.update(fr.file for fr in b.user_stack)
    files.update(s.file for s in before.skipped_frames)
    return sorted(f for f in files if f and os.path.isfile(f) and f.endswith(".py"))


def unshadow(obs: Observation, shadow_root: str, user_root: str) -> Observation:
    """Name the user's files instead of their shadow copies (line numbers stay those of the fixed text)."""
    prefix = os.path.realpath(shadow_root) + os.sep

    def back(path: str | None) -> str | None:
        if path and os.path.realpath(path).startswith(prefix):
            return os.path.join(user_root, os.path.realpath(path)[len(prefix):])
        return path

    for b in obs.breaks:
        b.file = back(b.file)
        b.reported_at = (back(b.reported_at.rsplit(":", 1)[0]) + ":" + b.reported_at.rsplit(":", 1)[1]
                         if ":" in b.reported_at else b.reported_at)
        for fr in b.user_stack:
            fr.file = back(fr.file)
    for sf in obs.skipped_frames:
        sf.file, sf.break_file = back(sf.file), back(sf.break_file)
    return obs


def static_findings(files: list[str], root: str, config_file: str | None) -> list[FindingRef]:
    from ..lint.config import Settings, load_settings
    from ..lint.runner import check_paths

    try:
        settings = load_settings(root, config_file)
    except Exception:  # noqa: BLE001  a broken config must not stop the dynamic check
        settings = Settings()
    result = check_paths(files, settings, use_cache=False)
    return [FindingRef.from_finding(f) for f in result.findings]


def _failure(r: PhaseResult, fixed: bool = False) -> Failure:
    return Failure(phase=r.phase, message=r.error, traceback=r.traceback or r.stderr[-4000:], fixed=fixed)


def confirm_target(raw: str, opts: ConfirmOptions, log=lambda msg: None) -> TargetReport:
    report = TargetReport(target=raw, max_breaks=opts.max_breaks)
    cwd = os.getcwd()
    try:
        spec = parse_target(raw, cwd)
    except TargetError as exc:
        report.failure = Failure(exc.phase, str(exc))
        return report
    work = tempfile.mkdtemp(prefix="breaklint-confirm-")
    try:
        _confirm(report, spec, opts, work, cwd, log)
    finally:
        if not opts.keep_workdir:
            shutil.rmtree(work, ignore_errors=True)
    return report


def _confirm(report: TargetReport, spec, opts: ConfirmOptions, work: str, cwd: str, log) -> None:
    artifacts = os.path.join(work, "reference.pt")
    base = {"target": spec.raw, "cwd": cwd, "device": opts.device, "rtol": opts.rtol, "atol": opts.atol,
            "artifacts": artifacts, "min_runs": opts.min_runs, "min_seconds": opts.min_seconds}

    log(f"{spec.raw}: observing the original")
    r = run_worker({**base, "action": "observe", "save_artifacts": True}, opts.timeout, work, opts.env)
    if not r.ok:
        report.failure = _failure(r)
        return
    report.info = r.data["info"]
    report.before = Observation.from_dict(r.data["observation"])
    executed = r.data["executed_lines"]
    module_file, root = report.info["module_file"], report.info["module_root"]

    files = involved_files(report.before, executed, module_file)
    try:
        findings = static_findings(files, root, opts.config_file)
    except Exception as exc:  # noqa: BLE001
        report.static_error = f"{type(exc).__name__}: {exc}"
        findings = []
    report.joined = join(report.before, findings, executed)

    shadow_root = os.path.join(work, "shadow")
    top = None if spec.is_file else spec.module.split(".")[0]
    from .shadow import make_shadow, write_back

    fix_targets = sorted({f.path for f in findings if f.fixable})
    shadow = make_shadow(root, fix_targets, shadow_root, opts.unsafe_fixes, top=top)
    report.fixes_applied = shadow.applied
    report.fixed_files = [{"path": f.path, "applied": f.applied, "diff": f.diff, "error": f.error}
                          for f in shadow.files if f.applied or f.error]
    fixed_ok = True
    if shadow.applied:
        log(f"{spec.raw}: verifying the fixed copy ({shadow.applied} fix(es))")
        r = run_worker({**base, "action": "observe", "root_override": shadow_root, "reference_from": True},
                       opts.timeout, work, opts.env)
        if r.ok:
            report.after = unshadow(Observation.from_dict(r.data["observation"]), shadow_root, root)
            report.comparison = r.data.get("comparison")
            report.transfer = r.data.get("transfer")
        else:
            report.failure = _failure(r, fixed=True)
            fixed_ok = False

    if opts.bench:
        log(f"{spec.raw}: timing eager and Inductor")
        bench = {**base, "action": "bench", "mode": opts.mode}
        r = run_worker({**bench, "bench_eager": True}, opts.timeout, work, opts.env)
        if r.ok:
            report.timings["eager"] = r.data["timings"].get("eager")
            report.timings["compiled_original"] = r.data["timings"].get("compiled")
        else:
            report.bench_failure = _failure(r)
        if shadow.applied and fixed_ok and report.bench_failure is None:
            r = run_worker({**bench, "root_override": shadow_root}, opts.timeout, work, opts.env)
            if r.ok:
                report.timings["compiled_fixed"] = r.data["timings"].get("compiled")
            else:
                report.bench_failure = _failure(r, fixed=True)

    if opts.write and shadow.applied:
        if fixed_ok and report.outputs_equal is not False:
            report.written = write_back(shadow)
        else:
            log(f"{spec.raw}: not writing fixes: the fixed model failed or changed the outputs")
