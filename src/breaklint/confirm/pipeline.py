"""confirm, for one target: observe, join with static findings, fix in a shadow copy, verify, time."""
from __future__ import annotations

import os
import shutil
import tempfile
import time
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
    max_culprit_steps: int = 12  # fixes (file, rule) tried one at a time when outputs differ
    env: dict = field(default_factory=dict)  # e.g. CUDA_VISIBLE_DEVICES for one-target-per-GPU
    calls: int = 0  # > 0: also count compiles over this many calls (confirm/recompiles.py)


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
    recompiles: dict = field(default_factory=dict)  # before / after / join, when ConfirmOptions.calls
    written: list[str] = field(default_factory=list)
    static_error: str | None = None
    max_breaks: int = 0
    unsafe_fixes: bool = False
    write: bool = False
    modules: dict = field(default_factory=dict)  # "before"/"after": the user's modules and the files they ran from
    fixable: int = 0  # findings with a fix this run may apply
    fix_errors: list[str] = field(default_factory=list)  # fixes that could not be applied, and why
    environment_error: str | None = None  # e.g. libcst missing: no fix can be checked
    culprit: dict | None = None  # the first fix that changed the outputs, and how the others fare
    findings: list = field(default_factory=list, repr=False)  # check's findings (FindingRef) for these files
    span: dict = field(default_factory=dict)  # wall-clock start/end (epoch s): which targets ran at once

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
        if self.environment_error:
            out.append(f"environment: {self.environment_error}")
        elif self.fixable and not self.fixes_applied and self.loaded:
            why = f": {self.fix_errors[0]}" if self.fix_errors else ""
            out.append(f"{self.fixable} finding(s) have a fix but none could be applied{why}")
        if self.outputs_equal is False:
            if self.culprit:
                out.append(f"fix {self.culprit['code']} at {self.culprit['where']} changed the model's outputs")
            else:
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
            "span": self.span,
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
            "recompiles": self.recompiles,
            "fixable": self.fixable,
            "fix_errors": self.fix_errors,
            "environment_error": self.environment_error,
            "culprit": self.culprit,
            "modules": self.modules,
            "next_steps": self.next_steps(),
        }

    # ---- what the user can do next ------------------------------------------------------------
    def next_steps(self) -> list[str]:
        from .advice import next_steps

        return next_steps(self)


def involved_files(before: Observation, executed: dict[str, list[int]], module_file: str) -> list[str]:
    files = {module_file} if module_file.endswith(".py") else set()
    files.update(executed)
    for b in before.breaks:
        files.add(b.file)
        files.update(fr.file for fr in b.user_stack)
    files.update(s.file for s in before.skipped_frames)
    return sorted(f for f in files if f and os.path.isfile(f) and f.endswith(".py"))


def unshadow(obs: Observation, shadow) -> Observation:
    """Name the user's files, at the user's lines, instead of the fixed copies' (the line in the
    fixed text stays in `fixed_line`)."""

    def back(path: str | None) -> str | None:
        return shadow.original(path) if path else path

    for b in obs.breaks:
        original = back(b.file)
        fixed = shadow.fixed(original) if original != b.file else None
        if fixed is not None:
            b.fixed_line, b.line = b.line, fixed.original_line(b.line)
        b.file = original
        where, _, line = b.reported_at.rpartition(":")
        b.reported_at = f"{back(where)}:{line}" if where else b.reported_at
        for fr in b.user_stack:
            fr.file = back(fr.file)
    for sf in obs.skipped_frames:
        sf.file, sf.break_file = back(sf.file), back(sf.break_file)
    return obs


def load_check_settings(start: str, config_file: str | None):
    """The settings `check` would load for these files; (settings, error message or None)."""
    from ..lint.config import Settings, load_settings

    try:
        return load_settings(start, config_file), None
    except Exception as exc:  # noqa: BLE001  a broken config must not stop the dynamic check
        return Settings(), f"configuration not loaded ({exc}); default settings used"


def environment_problem() -> str | None:
    """What keeps fixes from being checked at all: say so, instead of blaming the user's code."""
    import importlib.util

    if importlib.util.find_spec("libcst") is None:
        return "libcst is not importable, so no fix can be checked and none is applied (pip install libcst)"
    return None


def _failure(r: PhaseResult, fixed: bool = False) -> Failure:
    return Failure(phase=r.phase, message=r.error, traceback=r.traceback or r.stderr[-4000:], fixed=fixed)


def confirm_target(raw: str, opts: ConfirmOptions, log=lambda msg: None) -> TargetReport:
    report = TargetReport(target=raw, max_breaks=opts.max_breaks, unsafe_fixes=opts.unsafe_fixes, write=opts.write)
    cwd = os.getcwd()
    try:
        spec = parse_target(raw, cwd)
    except TargetError as exc:
        report.failure = Failure(exc.phase, str(exc))
        return report
    work = tempfile.mkdtemp(prefix="breaklint-confirm-")
    report.span = {"start": time.time(), "cuda_visible_devices": opts.env.get("CUDA_VISIBLE_DEVICES")}
    try:
        _confirm(report, spec, opts, work, cwd, log)
    finally:
        report.span["end"] = time.time()
        if not opts.keep_workdir:
            shutil.rmtree(work, ignore_errors=True)
    return report


def _confirm(report: TargetReport, spec, opts: ConfirmOptions, work: str, cwd: str, log) -> None:
    from ..lint.runner import check_paths
    from .culprit import find_culprit
    from .shadow import make_shadow, write_back

    artifacts = os.path.join(work, "reference.pt")
    base = {"target": spec.raw, "cwd": cwd, "device": opts.device, "rtol": opts.rtol, "atol": opts.atol,
            "artifacts": artifacts, "min_runs": opts.min_runs, "min_seconds": opts.min_seconds}

    def run(request: dict):
        return run_worker({**base, **request}, opts.timeout, work, opts.env)

    log(f"{spec.raw}: observing the original")
    r = run({"action": "observe", "save_artifacts": True})
    if not r.ok:
        report.failure = _failure(r)
        return
    report.info = r.data["info"]
    report.before = Observation.from_dict(r.data["observation"])
    report.modules["before"] = r.data.get("modules", [])
    executed = r.data["executed_lines"]
    module_file = report.info["module_file"]

    files = involved_files(report.before, executed, module_file)
    settings, report.static_error = load_check_settings(os.path.dirname(module_file) or cwd, opts.config_file)
    try:
        result = check_paths(files, settings, use_cache=False)
    except Exception as exc:  # noqa: BLE001
        report.static_error = f"{type(exc).__name__}: {exc}"
        result = None
    findings = [FindingRef.from_finding(f) for f in result.findings] if result else []
    report.findings = findings
    # Recompile and CUDA-graph findings (BL6xx, BL7xx) never break the graph: --calls joins them.
    report.joined = join(report.before, [f for f in findings if f.code < "BL6"], executed)
    report.fixable = sum(1 for f in findings if f.fixable == "safe" or (f.fixable and opts.unsafe_fixes))
    report.environment_error = environment_problem() if report.fixable else None
    if result is None or report.environment_error:
        if opts.bench:
            _bench(report, base, opts, work, run, None, log)
        return

    cover = sorted({b.file for b in report.before.breaks} | {module_file})
    try:
        shadow = make_shadow(os.path.join(work, "shadow"), report.modules["before"], cover, result, settings,
                             opts.unsafe_fixes)
    except (OSError, RuntimeError) as exc:  # e.g. a tree too large to copy: say so, still time the original
        report.fix_errors = [f"shadow copy failed: {exc}"]
        if opts.bench:
            _bench(report, base, opts, work, run, None, log)
        return
    report.fixes_applied = shadow.applied
    report.fix_errors = shadow.errors
    report.fixed_files = [{"path": f.path, "applied": f.applied, "diff": f.diff} for f in shadow.files if f.applied]
    fixed_ok = True
    if shadow.applied:
        log(f"{spec.raw}: verifying the fixed copy ({shadow.applied} fix(es))")
        r = run({"action": "observe", "shadows": shadow.pairs, "reference_from": True})
        if r.ok:
            report.after = unshadow(Observation.from_dict(r.data["observation"]), shadow)
            report.modules["after"] = r.data.get("modules", [])
            report.comparison = r.data.get("comparison")
            report.transfer = r.data.get("transfer")
        else:
            report.failure = _failure(r, fixed=True)
            fixed_ok = False

    if opts.calls:
        from .recompiles import confirm_recompiles

        log(f"{spec.raw}: counting compiles over {opts.calls} calls")
        report.recompiles = confirm_recompiles(run, opts.calls, findings,
                                               shadow.pairs if shadow.applied and fixed_ok else None)

    keep = shadow
    if fixed_ok and report.outputs_equal is False:
        log(f"{spec.raw}: outputs differ; applying the fixes one at a time to find the one responsible")
        found = find_culprit(result, settings, opts.unsafe_fixes, report.modules["before"], cover, work, run,
                             opts.max_culprit_steps)
        report.culprit = found.to_dict() if found else None
        keep = found.others if found and found.others_equal else None

    if opts.bench:
        _bench(report, base, opts, work, run, shadow if fixed_ok and shadow.applied else None, log)

    if opts.write:
        if keep is not None and keep.applied and fixed_ok:
            report.written = write_back(keep)
        elif shadow.applied:
            log(f"{spec.raw}: not writing fixes: the fixed model failed or changed the outputs")


def _bench(report: TargetReport, base: dict, opts: ConfirmOptions, work: str, run, shadow, log) -> None:
    log(f"{report.target}: timing eager and Inductor")
    bench = {"action": "bench", "mode": opts.mode}
    r = run({**bench, "bench_eager": True})
    if r.ok:
        report.timings["eager"] = r.data["timings"].get("eager")
        report.timings["compiled_original"] = r.data["timings"].get("compiled")
    else:
        report.bench_failure = _failure(r)
    if shadow is not None and report.bench_failure is None:
        r = run({**bench, "shadows": shadow.pairs})
        if r.ok:
            report.timings["compiled_fixed"] = r.data["timings"].get("compiled")
        else:
            report.bench_failure = _failure(r, fixed=True)
