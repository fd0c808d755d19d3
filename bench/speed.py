"""Time `breaklint check` against TorchFix, Fixit and ruff on one corpus.

    /work/venv/bin/python bench/speed.py            # everything, ~10 min on 2 cores
    /work/venv/bin/python bench/speed.py --breaklint-src src   # a checkout, not the install

Every tool gets the same cores (`taskset`) and the same job count, and every
number is divided by the same physical line count. The corpus is a pinned
`transformers` wheel (see speed_corpus.py); TorchFix and Fixit are too slow for
the whole tree, so they run on a fixed 50-file subset, and breaklint and ruff
run on both so that each ratio compares two tools on the same files.

Outputs: a table on stdout, bench/results/speed.json, bench/results/speed.md
(a block for BENCHMARKS.md) and bench/results/speed.svg.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed_corpus import (  # noqa: E402  (bench/ is not a package)
    DEFAULT_CORPUS_ROOT, SUBSET_SIZE, TRANSFORMERS_PIN, Corpus, ensure_corpus, full_corpus,
    modeling_subset)

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"
DEFAULT_BREAKLINT_PYTHON = "/work/venv/bin/python"
DEFAULT_PEERS_VENV = Path("/work/peersenv")
# What we installed into the peers venv; the script records the versions it finds.
PEER_PINS = {"torchfix": "0.7.0", "fixit": "2.2.1", "ruff": "0.17.6"}


@dataclass
class Tool:
    """One way of running one linter; `argv(paths)` builds its command."""

    key: str
    label: str
    argv: object  # Callable[[list[str]], list[str]]
    corpora: tuple[str, ...]
    repeat: int
    env: dict = field(default_factory=dict)
    prime_cache: bool = False  # run once untimed first, then time the warm runs
    env_shown: dict | None = None  # how env is printed in the report, when not verbatim
    note: str = ""


@dataclass
class Measurement:
    tool: str
    corpus: str
    wall_s: list[float]
    cpu_s: list[float]
    returncodes: list[int]
    loadavg_before: list[float]
    command: str
    output_lines: int
    stderr_tail: str
    prime_wall_s: float | None = None

    @property
    def best_wall(self) -> float:
        return min(self.wall_s)

    @property
    def median_wall(self) -> float:
        return statistics.median(self.wall_s)


def core_list(jobs: int) -> str:
    return f"0-{jobs - 1}" if jobs > 1 else "0"


def build_tools(args: argparse.Namespace) -> list[Tool]:
    jobs = str(args.jobs)
    peers = args.peers_venv / "bin"
    bl = [args.breaklint_python, "-m", "breaklint", "check"]
    bl_env = breaklint_env(args)
    bl_shown = {"PYTHONPATH": f"<copy of {args.breaklint_src}>"} if bl_env else None
    both = ("full", "subset")
    slow_corpora = both if args.slow_peers_full else ("subset",)
    return [
        Tool("breaklint_cold", "breaklint (cold, --no-cache)",
             lambda p: [*bl, *p, "-j", jobs, "--no-cache", "--exit-zero", "--quiet"],
             both, args.repeat, env=bl_env, env_shown=bl_shown),
        Tool("breaklint_warm", "breaklint (warm cache)",
             lambda p: [*bl, *p, "-j", jobs, "--exit-zero", "--quiet"],
             both, args.repeat, env=bl_env, env_shown=bl_shown, prime_cache=True,
             note="run once to fill the cache (untimed), then timed re-runs"),
        Tool("ruff", "ruff check (default rules)",
             lambda p: [str(peers / "ruff"), "check", "--isolated", "--no-cache",
                        "--exit-zero", "--quiet", *p],
             both, args.repeat, env={"RAYON_NUM_THREADS": jobs},
             note="--isolated: ruff's default rule set (E4, E7, E9, F), no config files"),
        Tool("ruff_all", "ruff check --select ALL",
             lambda p: [str(peers / "ruff"), "check", "--isolated", "--no-cache",
                        "--select", "ALL", "--exit-zero", "--quiet", *p],
             both, args.repeat, env={"RAYON_NUM_THREADS": jobs},
             note="every ruff rule: an upper bound on ruff's work"),
        Tool("torchfix", "TorchFix",
             lambda p: [str(peers / "torchfix"), "--jobs", jobs, *p],
             slow_corpora, args.slow_repeat,
             note="default rule selection (all but TOR3, TOR4, TOR9); it skips files "
                  "whose text never says 'torch' (1 of the 50 subset files, 994 of the "
                  "2061 full-tree files) before parsing"),
        Tool("fixit", "Fixit (fixit lint)",
             lambda p: [str(peers / "fixit"), "lint", *p],
             slow_corpora, args.slow_repeat,
             note="built-in fixit.rules; no --jobs flag: it spawns os.cpu_count() "
                  "workers, held to the same cores by taskset"),
    ]


def run_once(argv: list[str], env: dict, cwd: Path) -> tuple[float, float, int, int, str]:
    """Wall and CPU (user+sys, children included) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.run(argv, stdout=out, stderr=err, cwd=cwd,
                              env={**os.environ, **env})
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        output_lines = sum(1 for _ in out)
        err.seek(0)
        stderr_tail = err.read()[-2000:].decode("utf-8", "replace")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode, output_lines, stderr_tail


class Series:
    """The timed runs of one tool on one corpus, in its own working directory."""

    def __init__(self, tool: Tool, corpus: Corpus, paths: list[str], jobs: int, cwd: Path):
        self.tool, self.corpus, self.cwd = tool, corpus, cwd
        self.argv = ["taskset", "-c", core_list(jobs), *tool.argv(paths)]
        where = paths[0] if len(paths) == 1 else f"<the {len(paths)} {corpus.name} files>"
        shown = " ".join(where if a == "\0" else shlex.quote(a)
                         for a in ["taskset", "-c", core_list(jobs), *tool.argv(["\0"])])
        env_prefix = " ".join(f"{k}={v}" for k, v in (tool.env_shown or tool.env).items())
        self.m = Measurement(tool.key, corpus.name, [], [], [], [],
                             (env_prefix + " " + shown).strip(), 0, "")

    def prime(self) -> None:
        if self.tool.prime_cache:
            self.m.prime_wall_s = run_once(self.argv, self.tool.env, self.cwd)[0]

    def run(self) -> None:
        self.m.loadavg_before.append(os.getloadavg()[0])
        wall, cpu, rc, n_out, tail = run_once(self.argv, self.tool.env, self.cwd)
        self.m.wall_s.append(wall)
        self.m.cpu_s.append(cpu)
        self.m.returncodes.append(rc)
        self.m.output_lines, self.m.stderr_tail = n_out, tail


def tool_version(argv: list[str], env: dict | None = None) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                             env={**os.environ, **(env or {})})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable ({exc})"
    text = (out.stdout or out.stderr).strip().split()
    # "ruff 0.17.6", "fixit, version 2.2.1", "0.7.0": the version is the last word.
    return text[-1] if out.returncode == 0 and text else "unavailable"


def versions(args: argparse.Namespace) -> dict:
    peers = args.peers_venv / "bin"
    git = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True)
    bl_env = breaklint_env(args)
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "src"],
                           capture_output=True, text=True).stdout.strip()
    return {
        "breaklint": tool_version([args.breaklint_python, "-c",
                                   "import breaklint; print(breaklint.__version__)"], bl_env),
        "breaklint_git": (git.stdout.strip() or "unknown") + ("+uncommitted" if dirty else ""),
        "torchfix": tool_version([str(peers / "torchfix"), "--version"]),
        "fixit": tool_version([str(peers / "fixit"), "--version"]),
        "ruff": tool_version([str(peers / "ruff"), "--version"]),
        "libcst_breaklint": tool_version([args.breaklint_python, "-c",
                                          "import importlib.metadata as m; print(m.version('libcst'))"]),
        "libcst_peers": tool_version([str(peers / "python"), "-c",
                                      "import importlib.metadata as m; print(m.version('libcst'))"]),
        "python": platform.python_version(),
        "transformers_corpus": TRANSFORMERS_PIN,
    }


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cpu": model, "cores": os.cpu_count(), "memory_gb": round(mem_gb, 1),
            "os": platform.platform()}


def breaklint_env(args: argparse.Namespace) -> dict:
    """An uninstalled checkout goes on breaklint's path only, never on the peers'."""
    return {"PYTHONPATH": args.breaklint_snapshot} if args.breaklint_snapshot else {}


def snapshot_source(src: str, into: Path) -> str:
    """Copy src/breaklint aside so that edits made while we measure (the checkout is shared)
    neither mix two versions into one table nor invalidate the warm cache between runs."""
    shutil.copytree(Path(src).resolve() / "breaklint", into / "breaklint",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return str(into)


def breaklint_available(python: str, env: dict) -> bool:
    probe = subprocess.run([python, "-m", "breaklint", "check", "--help"],
                           capture_output=True, text=True, env={**os.environ, **env})
    return probe.returncode == 0


def ratios(results: dict) -> list[dict]:
    """breaklint against each peer, only where both ran on the same corpus."""
    by = {(m["tool"], m["corpus"]): m for m in results["measurements"]}
    rows = []
    for corpus in ("full", "subset"):
        for mode in ("breaklint_cold", "breaklint_warm"):
            mine = by.get((mode, corpus))
            if not mine:
                continue
            for peer in ("torchfix", "fixit", "ruff", "ruff_all"):
                theirs = by.get((peer, corpus))
                if theirs:
                    rows.append({
                        "corpus": corpus, "breaklint": mode, "peer": peer,
                        # >1 means breaklint is faster than the peer.
                        "speedup": theirs["wall_best_s"] / mine["wall_best_s"],
                        # The same on CPU seconds: steadier when others share the machine.
                        "cpu_speedup": min(theirs["cpu_s"]) / min(mine["cpu_s"]),
                    })
    return rows


def goals(results: dict) -> list[dict]:
    by = {(m["tool"], m["corpus"]): m for m in results["measurements"]}
    out = []

    def add(goal, ok, detail):
        out.append({"goal": goal, "met": ok, "detail": detail})

    cold_sub, tf = by.get(("breaklint_cold", "subset")), by.get(("torchfix", "subset"))
    if cold_sub and tf:
        x = tf["wall_best_s"] / cold_sub["wall_best_s"]
        cpu = min(tf["cpu_s"]) / min(cold_sub["cpu_s"])
        add(">= 20x TorchFix cold", x >= 20,
            f"{x:.1f}x faster on wall time ({cpu:.1f}x on CPU time), {SUBSET_SIZE}-file subset")
    cold_full, ruff_full = by.get(("breaklint_cold", "full")), by.get(("ruff", "full"))
    if cold_full and ruff_full:
        x = cold_full["wall_best_s"] / ruff_full["wall_best_s"]
        cpu = min(cold_full["cpu_s"]) / min(ruff_full["cpu_s"])
        add("within 10x of ruff's time", x <= 10,
            f"breaklint cold takes {x:.1f}x ruff's wall time ({cpu:.1f}x its CPU time), full tree")
    warm_full = by.get(("breaklint_warm", "full"))
    if warm_full:
        t = warm_full["wall_best_s"]
        add("< 1 s warm, whole corpus", t < 1, f"{t:.2f} s")
    return out


def summarise(m: Measurement, corpus: Corpus, tool: Tool) -> dict:
    return {
        "tool": m.tool, "label": tool.label, "corpus": m.corpus,
        "files": len(corpus.files), "lines": corpus.lines,
        "wall_s": [round(w, 4) for w in m.wall_s],
        "wall_best_s": round(m.best_wall, 4),
        "wall_median_s": round(m.median_wall, 4),
        "cpu_s": [round(c, 3) for c in m.cpu_s],
        "lines_per_s": round(corpus.lines / m.best_wall),
        "lines_per_cpu_s": round(corpus.lines / min(m.cpu_s)) if min(m.cpu_s) > 0 else None,
        "prime_wall_s": round(m.prime_wall_s, 4) if m.prime_wall_s is not None else None,
        "returncodes": m.returncodes,
        "loadavg_before": [round(x, 2) for x in m.loadavg_before],
        "output_lines": m.output_lines,
        "stderr_tail": m.stderr_tail[-500:],
        "command": m.command,
        "note": tool.note,
    }


def load_note(results: dict) -> str:
    """Say how busy the shared machine was, so nobody mistakes a crowded run for a slow tool."""
    loads = [x for m in results["measurements"] for x in m.get("loadavg_before", [])]
    if not loads:
        return "- Load average not recorded."
    cores = results["machine"]["cores"]
    note = (f"- 1-minute load average before the timed runs: {min(loads):.1f} to {max(loads):.1f} "
            f"on {cores} cores.")
    if max(loads) > cores:
        note += (" Other work shared the machine, so wall times are inflated and noisy; "
                 "the CPU-time ratios are the steadier comparison.")
    return note


def verdict(speedup: float) -> str:
    return f"{speedup:.1f}x faster" if speedup >= 1 else f"{1 / speedup:.1f}x slower"


def format_table(results: dict) -> str:
    head = f"{'tool':32} {'corpus':10} {'lines':>9} {'wall s':>9} {'cpu s':>9} {'lines/s':>10} {'runs':>4}"
    rows = [head, "-" * len(head)]
    for m in results["measurements"]:
        rows.append(f"{m['label']:32} {m['corpus']:10} {m['lines']:>9} {m['wall_best_s']:>9.3f} "
                    f"{min(m['cpu_s']):>9.2f} {m['lines_per_s']:>10} {len(m['wall_s']):>4}"
                    + ("  (reused)" if m.get("reused_from") else ""))
    rows.append("")
    for r in results["ratios"]:
        rows.append(f"{r['breaklint']:15} vs {r['peer']:9} on {r['corpus']:7}: "
                    f"wall {verdict(r['speedup']):>14}, CPU {verdict(r['cpu_speedup']):>14}")
    rows.append("")
    rows.append(load_note(results)[2:])
    for g in results["goals"]:
        rows.append(f"[{'MET ' if g['met'] else 'MISS'}] {g['goal']}: {g['detail']}")
    return "\n".join(rows)


def markdown(results: dict, invocation: str) -> str:
    v, mach = results["versions"], results["machine"]
    lines = [
        f"### Static speed ({results['date']})",
        "",
        f"- Machine: {mach['cpu']}, {mach['cores']} cores, {mach['memory_gb']} GB; "
        f"every tool pinned to {results['jobs']} core(s) with `taskset` and given "
        f"{results['jobs']} job(s).",
        f"- Versions: breaklint {v['breaklint']} (git {v['breaklint_git']}), TorchFix {v['torchfix']}, "
        f"Fixit {v['fixit']}, ruff {v['ruff']}, Python {v['python']}, "
        f"libcst {v['libcst_breaklint']} (breaklint) / {v['libcst_peers']} (peers).",
    ]
    for c in results["corpora"].values():
        lines.append(f"- Corpus `{c['name']}`: {c['description']} "
                     f"({c['files']} files, {c['lines']:,} physical lines).")
    lines += [
        "- Wall time is the best of the timed runs; lines/s = corpus lines / wall time.",
        load_note(results),
        "",
        "| tool | corpus | wall (s) | CPU (s) | lines/s | runs |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for m in results["measurements"]:
        lines.append(f"| {m['label']} | {m['corpus']} | {m['wall_best_s']:.3f} | "
                     f"{min(m['cpu_s']):.2f} | {m['lines_per_s']:,} | {len(m['wall_s'])} |")
    lines += ["", "| breaklint | peer | corpus | breaklint's wall time | breaklint's CPU time |",
              "|---|---|---|---:|---:|"]
    for r in results["ratios"]:
        lines.append(f"| {r['breaklint']} | {r['peer']} | {r['corpus']} | "
                     f"{verdict(r['speedup'])} | {verdict(r['cpu_speedup'])} |")
    lines += ["", "| goal | met | measured |", "|---|---|---|"]
    for g in results["goals"]:
        lines.append(f"| {g['goal']} | {'yes' if g['met'] else '**no**'} | {g['detail']} |")
    lines += ["", "Reproduce:", "", "```", invocation, "```", "", "Commands timed:", ""]
    lines += [f"- `{m['command']}`" for m in results["measurements"]]
    lines += ["", f"![speed comparison](bench/results/speed.svg)"]
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    p.add_argument("--repeat", type=int, default=3, help="timed runs of the fast tools")
    p.add_argument("--slow-repeat", type=int, default=1, help="timed runs of TorchFix and Fixit")
    p.add_argument("--corpus-root", type=Path, default=DEFAULT_CORPUS_ROOT)
    p.add_argument("--breaklint-python", default=DEFAULT_BREAKLINT_PYTHON)
    p.add_argument("--breaklint-src", default="",
                   help="run breaklint from this source dir (e.g. src), copied aside at the start, "
                        "instead of the installed one")
    p.add_argument("--peers-venv", type=Path, default=DEFAULT_PEERS_VENV)
    p.add_argument("--only", default="", help="comma list of tool keys to run")
    p.add_argument("--slow-peers-full", action="store_true",
                   help="also run TorchFix and Fixit on the whole tree (tens of minutes)")
    p.add_argument("--reuse", default="",
                   help="comma list of tool keys whose numbers are copied from the existing "
                        "speed.json instead of re-run (marked as reused)")
    p.add_argument("--results", type=Path, default=RESULTS)
    p.add_argument("--report-only", action="store_true",
                   help="re-render the table, markdown and plot from the existing speed.json")
    return p.parse_args(argv)


def publish(results: dict, args: argparse.Namespace) -> None:
    """Ratios, goals, JSON, the markdown block, the table and the plot, from measurements."""
    results["ratios"] = ratios(results)
    results["goals"] = goals(results)
    args.results.mkdir(parents=True, exist_ok=True)
    json_path = args.results / "speed.json"
    json_path.write_text(json.dumps(results, indent=2) + "\n")
    md = markdown(results, results["invocation"])
    (args.results / "speed.md").write_text(md)
    print(format_table(results))
    print()
    print(md)
    plot(json_path, args)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report_only:
        publish(json.loads((args.results / "speed.json").read_text()), args)
        return 0
    invocation = "python bench/speed.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    package_dir = ensure_corpus(args.corpus_root)
    corpora = {"full": full_corpus(package_dir), "subset": modeling_subset(package_dir)}
    corpus_paths = {"full": [str(package_dir)],
                    "subset": [str(f) for f in corpora["subset"].files]}
    snapshot_dir = tempfile.TemporaryDirectory(prefix="breaklint-src-")
    args.breaklint_snapshot = (snapshot_source(args.breaklint_src, Path(snapshot_dir.name))
                               if args.breaklint_src else "")
    tools = build_tools(args)
    only = {k for k in args.only.split(",") if k}
    reuse = {k for k in args.reuse.split(",") if k}
    previous = {}
    json_path = args.results / "speed.json"
    if reuse and json_path.exists():
        old = json.loads(json_path.read_text())
        previous = {(m["tool"], m["corpus"]): {**m, "reused_from": m.get("reused_from", old["date"])}
                    for m in old["measurements"]}

    versions_at_start = versions(args)  # the snapshot's commit, not whatever HEAD is by the end
    have_breaklint = breaklint_available(args.breaklint_python, breaklint_env(args))
    if not have_breaklint:
        print(f"note: `{args.breaklint_python} -m breaklint check` is not runnable; "
              "skipping breaklint", file=sys.stderr)
    for tool in tools:
        if tool.key.startswith("breaklint") and not have_breaklint:
            tool.corpora = ()
        if only and tool.key not in only and tool.key not in reuse:
            tool.corpora = ()

    measurements = []
    series: list[Series] = []
    # Each tool runs in its own empty directory, so a cache it writes to the
    # working directory cannot leak into another tool's run.
    with tempfile.TemporaryDirectory(prefix="breaklint-speed-") as scratch:
        for tool in tools:
            for corpus_name in ("subset", "full"):
                if corpus_name not in tool.corpora:
                    continue
                if tool.key in reuse and (tool.key, corpus_name) in previous:
                    measurements.append(previous[(tool.key, corpus_name)])
                    print(f"reused  {tool.label} on {corpus_name}", file=sys.stderr)
                    continue
                cwd = Path(scratch) / f"{tool.key}-{corpus_name}"
                cwd.mkdir()
                series.append(Series(tool, corpora[corpus_name], corpus_paths[corpus_name],
                                     args.jobs, cwd))
        for one in series:
            if one.tool.prime_cache:
                print(f"priming {one.tool.label} on {one.corpus.name} (untimed)...",
                      file=sys.stderr, flush=True)
            one.prime()
        # Round-robin: repeat r of every tool runs before repeat r+1 of any, so that
        # a burst of load from other users of the machine hits every tool alike.
        for round_no in range(max((one.tool.repeat for one in series), default=0)):
            for one in series:
                if round_no < one.tool.repeat:
                    print(f"round {round_no + 1}: {one.tool.label} on {one.corpus.name} "
                          f"({len(one.corpus.files)} files)...", file=sys.stderr, flush=True)
                    one.run()
                    print(f"        {one.m.wall_s[-1]:.3f} s wall, {one.m.cpu_s[-1]:.2f} s CPU, "
                          f"rc {one.m.returncodes[-1]}", file=sys.stderr)
        # Every tool runs with --exit-zero: a non-zero exit is a tool that did not run (a missing venv
        # timed at 0.001 s once), never a figure to publish.
        failed = [f"{one.tool.label} on {one.corpus.name} (rc {rc})" for one in series
                  for rc in one.m.returncodes if rc != 0]
        if failed:
            sys.exit("bench/speed.py: error: these runs failed, nothing written: " + "; ".join(sorted(set(failed))))
        measurements += [summarise(one.m, one.corpus, one.tool) for one in series]

    results = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "jobs": args.jobs,
        "machine": machine(),
        "versions": versions_at_start,
        "corpora": {k: c.as_json() for k, c in corpora.items()},
        "measurements": measurements,
        "invocation": invocation,
    }
    publish(results, args)
    return 0


def plot(json_path: Path, args: argparse.Namespace) -> None:
    """Draw with matplotlib here if we have it, else with the peers venv's."""
    script = Path(__file__).resolve().parent / "speed_plot.py"
    try:
        import matplotlib  # noqa: F401
        python = sys.executable
    except ImportError:
        python = str(args.peers_venv / "bin" / "python")
    done = subprocess.run([python, str(script), str(json_path)])
    if done.returncode != 0:
        print("warning: plot failed (is matplotlib installed?)", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
