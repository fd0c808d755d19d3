"""click commands `confirm` and `calibrate`; the lead registers them on breaklint's main group."""
from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import click

MODES = ["default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"]


def _gpu_count() -> int:
    try:
        import torch

        return torch.cuda.device_count() if torch.cuda.is_available() else 0
    except Exception:  # noqa: BLE001
        return 0


def _run_all(targets, opts, log):
    from .pipeline import confirm_target

    gpus = _gpu_count() if opts.device in ("auto", "cuda") else 0
    if gpus > 1 and len(targets) > 1:
        return run_one_per_gpu(targets, opts, log, gpus, confirm_target)
    return [confirm_target(t, opts, log) for t in targets]


def run_one_per_gpu(targets, opts, log, gpus: int, confirm_target):
    """Targets in parallel, each alone on one GPU: a worker takes a free device and gives it back
    when its target is done, so that no two running targets ever share a GPU (a fixed `i % gpus`
    would put a third target on a GPU still busy with the first)."""
    import queue
    from dataclasses import replace

    free: queue.Queue = queue.Queue()
    for device in range(gpus):
        free.put(device)

    def one(target):
        device = free.get()
        try:
            env = dict(opts.env, CUDA_VISIBLE_DEVICES=str(device))
            log(f"{target}: on GPU {device} (CUDA_VISIBLE_DEVICES={device})")
            return confirm_target(target, replace(opts, env=env), log)
        finally:
            free.put(device)

    with ThreadPoolExecutor(max_workers=gpus) as pool:
        return list(pool.map(one, targets))


@click.command("confirm")
@click.argument("targets", nargs=-1, required=True)
@click.option("--unsafe-fixes", is_flag=True, help="Also apply unsafe fixes in the shadow copy.")
@click.option("--write", is_flag=True, help="Write the fixes to your files when the fixed model gives equal outputs.")
@click.option("--max-breaks", type=int, default=0, show_default=True, help="Breaks allowed to remain before exit 1.")
@click.option("--timeout", type=float, default=600.0, show_default=True, help="Seconds per phase (each in its own process).")
@click.option("--mode", type=click.Choice(MODES), default="default", show_default=True, help="Inductor mode for timing.")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--no-bench", is_flag=True, help="Skip the Inductor timings.")
@click.option("--rtol", type=float, default=1e-4, show_default=True, help="allclose rtol for fixed vs original.")
@click.option("--atol", type=float, default=1e-5, show_default=True, help="allclose atol for fixed vs original.")
@click.option("--min-runs", type=int, default=20, show_default=True, help="Timed runs at least (CPU).")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, writable=True), help="Write the report as JSON.")
@click.option("--markdown", "markdown_file", type=click.Path(dir_okay=False, writable=True), help="Write a Markdown summary (CI step summary).")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False), help="pyproject.toml to read [tool.breaklint] from.")
@click.option("--verbose", "-v", is_flag=True, help="Show tracebacks of failed phases.")
@click.option("--calls", type=int, default=0, help="Also call the compiled target N times (the module's inputs(i) "
              "when it defines one) and report compiles and recompiles, joined to BL6xx findings.")
def confirm(targets, unsafe_fixes, write, max_breaks, timeout, mode, device, no_bench, rtol, atol, min_runs,
            json_file, markdown_file, config_file, verbose, calls):
    """Run TARGETs (pkg.module:factory or path/to/file.py:factory) under Dynamo and Inductor.

    The factory takes no arguments and returns (model, args) or (model, args, kwargs). Exit 0 when
    all is well, 1 when breaks remain above --max-breaks, a break is missed by the static rules or
    a fix changed the outputs, 2 when a target cannot be loaded.
    """
    from rich.console import Console

    from .pipeline import ConfirmOptions
    from .report import overall_exit, print_terminal, to_json, to_markdown

    try:
        import torch  # noqa: F401
    except ImportError:
        click.echo("breaklint confirm needs torch: pip install 'breaklint[confirm]'", err=True)
        sys.exit(2)
    opts = ConfirmOptions(unsafe_fixes=unsafe_fixes, write=write, timeout=timeout,
                          mode=None if mode == "default" else mode, device=device, bench=not no_bench,
                          rtol=rtol, atol=atol, max_breaks=max_breaks, min_runs=min_runs, config_file=config_file,
                          calls=calls)
    err = Console(stderr=True, emoji=False, highlight=False)
    reports = _run_all(list(targets), opts, lambda msg: err.print(msg, style="dim", markup=False))
    print_terminal(reports, Console(emoji=False, highlight=False), verbose=verbose)
    if json_file:
        with open(json_file, "w", encoding="utf-8") as fh:
            fh.write(to_json(reports))
    if markdown_file:
        with open(markdown_file, "a" if os.path.exists(markdown_file) and "GITHUB_STEP_SUMMARY" in os.environ
                  and os.path.samefile(markdown_file, os.environ["GITHUB_STEP_SUMMARY"]) else "w", encoding="utf-8") as fh:
            fh.write(to_markdown(reports))
    sys.exit(overall_exit(reports))


@click.command("calibrate")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, writable=True), help="Write per-example results as JSON.")
@click.option("--timeout", type=float, default=900.0, show_default=True)
@click.option("--select", default="", help="Comma-separated rule codes (prefixes) to run; default all.")
def calibrate(json_file, timeout, select):
    """Run every rule's runnable examples through the installed torch and show which really break."""
    import json

    from ..report.table import format_table, terminal_width
    from ..rules import all_rules
    from .calibrate import calibrate_examples, expected_verdict, verdicts_from

    try:
        import torch
    except ImportError:
        click.echo("breaklint calibrate needs torch: pip install 'breaklint[confirm]'", err=True)
        sys.exit(2)
    prefixes = [p.strip().upper() for p in select.split(",") if p.strip()]
    rules = [r for r in all_rules() if not prefixes or any(r.code.startswith(p) for p in prefixes)]
    try:
        results = calibrate_examples(rules, timeout=timeout)
    except RuntimeError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    observed = verdicts_from(results)
    rows = []
    disagreements = 0
    for rule in rules:
        mine = [r for r in results if r.code == rule.code]
        expected = expected_verdict(rule, torch.__version__)
        seen = observed.get(rule.code)
        valid_breaks = [r for r in mine if r.kind == "VALID" and r.breaks]
        agrees = seen is None or expected is None or expected == seen
        disagreements += (not agrees) + len(valid_breaks)
        errors = [r.error for r in mine if r.error]
        # Recompile rules: "breaks" means "compiles on every call until the recompile limit".
        says = {"recompiles": "recompiles", "cudagraphs": "skips CUDA graphs",
                "cudagraph-outputs": "overwrites kept outputs"}.get(getattr(rule, "verdict_kind", ""), "breaks")
        counted = sorted({f"{r.compiles}/{r.calls} compiles" for r in mine if r.kind == "INVALID" and getattr(r, "calls", 0)})
        seen_text = {True: "yes", False: "no"}[seen] if seen is not None else ("error" if errors else "-")
        gb_ids = " ".join(sorted({g for r in mine if r.kind == 'INVALID' for g in r.gb_ids}) or counted) or "-"
        rows.append((rule.code, getattr(rule, "name", ""), {None: "-", True: says, False: "no " + says.split()[0]}[expected],
                     seen_text, "yes" if agrees else "NO", str(len(valid_breaks)),
                     f"error: {errors[0]}" if seen is None and errors else gb_ids))
    # The free-text columns (an error, the GB ids) come last, where the table wraps them.
    click.echo(format_table(("rule", "name", "expected", "breaks here", "agrees", "VALID breaks", "GB ids"), rows,
                            width=terminal_width(), title=f"breaklint calibrate: torch {torch.__version__}"))
    if json_file:
        with open(json_file, "w", encoding="utf-8") as fh:
            json.dump({"torch_version": torch.__version__, "verdicts": observed,
                       "examples": [r.to_dict() for r in results]}, fh, indent=2)
    sys.exit(1 if disagreements else 0)
