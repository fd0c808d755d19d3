"""Count compiles and recompiles of a compiled callable over several calls, with Dynamo's reasons.

Graph breaks show in one call; recompiles only over several. `count_compiles` compiles the target
once (aot_eager unless told otherwise), calls it once per input set, and reads two things:
- Dynamo's count of graphs compiled (counters["stats"]["unique_graphs"]), and
- the `recompiles` log artifact (logger `torch._dynamo.guards.__recompiles`, registered in
  torch/_logging/_registrations.py), whose records say which guard failed, on which source line.
The rule-verdict tests, `breaklint calibrate` and `confirm` share it. Torch is imported lazily.
"""
from __future__ import annotations

import contextlib
import io
import logging
import re
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Optional

RECOMPILES_LOGGER = "torch._dynamo.guards.__recompiles"
# "Recompiling function forward in /path/f.py:12"
_HEADER = re.compile(r"Recompiling function (?P<function>\S+) in (?P<file>.+):(?P<line>\d+)")
# "- 0/3: self.step == 3   # self.step += 1  # f.py:15 in forward"  (the guard and where it came from)
_GUARD = re.compile(r"^\s*-?\s*\d+/\d+:\s*(?P<guard>.*?)\s{2,}#\s*(?P<source>.*?)\s*#\s*(?P<file>\S+):(?P<line>\d+)"
                    r"\s+in\s+(?P<function>\S+)")


@dataclass
class Recompile:
    function: str  # the recompiled frame
    file: str
    line: int  # the frame's first line
    guard: str  # the guard that failed first
    guard_file: Optional[str] = None  # where the guarded value was used (file as Dynamo prints it)
    guard_line: Optional[int] = None
    source: str = ""  # that line's text


@dataclass
class RecompileObservation:
    calls: int
    compiles: int  # graphs handed to the backend, all frames together
    recompiles: list[Recompile] = field(default_factory=list)
    limit_hit: bool = False  # Dynamo gave up on a frame: the rest of its calls ran eagerly
    recompile_limit: int = 8

    def to_dict(self) -> dict:
        return asdict(self)

    def guard_lines(self, path: str) -> set[int]:
        """The lines of `path` whose values failed a guard (Dynamo prints paths shortened)."""
        return {r.guard_line for r in self.recompiles
                if r.guard_line and r.guard_file and _same_file(r.guard_file, path)}

    def describe(self) -> str:
        head = f"{self.compiles} compiles in {self.calls} calls" + (", recompile limit hit" if self.limit_hit else "")
        reasons = sorted({f"{r.guard} (line {r.guard_line})" for r in self.recompiles})
        return head + ("; " + "; ".join(reasons[:4]) if reasons else "")


def _same_file(printed: str, path: str) -> bool:
    import os

    # Dynamo prints the path's tail ("mp/t1.py" for /tmp/t1.py), so a suffix is all there is to match.
    real = os.path.realpath(path)
    return real == os.path.realpath(printed) or real.endswith(printed) or path.endswith(printed)


def parse_recompile(message: str) -> Optional[Recompile]:
    head = _HEADER.search(message)
    if head is None:
        return None
    rec = Recompile(head["function"], head["file"], int(head["line"]), guard="")
    for text in message.splitlines():
        match = _GUARD.match(text)
        if match:
            rec.guard, rec.source = match["guard"].strip(), match["source"].strip()
            rec.guard_file, rec.guard_line = match["file"], int(match["line"])
            break
        if not rec.guard and re.match(r"^\s*-?\s*\d+/\d+:", text):
            rec.guard = text.split(":", 1)[1].strip()  # a guard without a source line (requires_grad...)
    return rec


class _Collector(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def capture_recompiles():
    """The recompiles artifact's messages, with torch's own stderr handler kept quiet."""
    import torch

    logger = logging.getLogger(RECOMPILES_LOGGER)
    collector = _Collector()
    torch._logging.set_logs(recompiles=True)
    saved = (logger.propagate, list(logger.handlers))
    for handler in saved[1]:
        logger.removeHandler(handler)
    logger.addHandler(collector)
    logger.propagate = False
    try:
        yield collector.messages
    finally:
        logger.removeHandler(collector)
        for handler in saved[1]:
            logger.addHandler(handler)
        logger.propagate = saved[0]
        torch._logging.set_logs()


def input_sets(args: tuple, kwargs: dict, calls: int, module=None) -> Iterable[tuple[tuple, dict]]:
    """`calls` input sets: the module's `inputs(i)` -> (args, kwargs) when it defines one (the
    variations a real call sequence makes, like a sampler's timestep), else the same inputs again.
    `inputs(i)` runs right before call i (the sets are made lazily), so it may also change the model
    between calls as a training loop does (`model.set_step(i)`)."""
    make = getattr(module, "inputs", None) if module is not None else None
    if callable(make):
        return (_one_set(make(i)) for i in range(calls))
    return [(args, kwargs)] * calls


def _one_set(made) -> tuple[tuple, dict]:
    a, k = (made[0], made[1]) if isinstance(made, tuple) and len(made) == 2 and isinstance(made[1], dict) \
        else (made, {})
    return tuple(a) if isinstance(a, (list, tuple)) else (a,), dict(k)


def count_compiles(model: Any, sets: Iterable[tuple[tuple, dict]], *, backend: str = "aot_eager",
                   mode: Optional[str] = None) -> RecompileObservation:
    """Compile `model` once and call it on each input set.

    The default backend is aot_eager, not eager: AOT autograd specializes some values that Dynamo
    alone keeps symbolic (a float argument turned into a tensor, a float attribute changed in
    forward: 2 compiles in 12 calls under eager, 8 under aot_eager and inductor; BENCHMARKS.md), so
    only a backend with AOT measures what users pay. `mode` (e.g. reduce-overhead) implies inductor."""
    import torch
    import torch._dynamo

    from .observe import reset_dynamo

    reset_dynamo()
    compiled = torch.compile(model, mode=mode) if mode else torch.compile(model, backend=backend)
    with capture_recompiles() as messages, contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        calls = 0
        for args, kwargs in sets:  # lazily: making set i may change the model (see input_sets)
            compiled(*args, **kwargs)
            calls += 1
    counters = torch._dynamo.utils.counters
    compiles = int(counters["stats"].get("unique_graphs", 0))
    recompiles = [r for r in (parse_recompile(m) for m in messages) if r is not None]
    limit = int(getattr(torch._dynamo.config, "recompile_limit", getattr(torch._dynamo.config, "cache_size_limit", 8)))
    per_frame: dict[tuple, int] = {}
    for r in recompiles:
        per_frame[(r.file, r.line)] = per_frame.get((r.file, r.line), 0) + 1
    # The limit's own attempt is logged as a recompile too, but nothing is compiled for it.
    limit_hit = any(n >= limit for n in per_frame.values())
    return RecompileObservation(calls=calls, compiles=compiles, recompiles=recompiles,
                                limit_hit=limit_hit, recompile_limit=limit)


# -- confirm: the join with BL6xx findings (the worker's `recompiles` action counts) -----------------------------------

def storms(recompiles: list[dict]) -> dict[tuple[str, int], int]:
    """(file as Dynamo prints it, line) -> guard failures there, for guards that failed more than once:
    one failure is automatic dynamic making a value symbolic, not a recompile per call."""
    counts: dict[tuple[str, int], int] = {}
    for r in recompiles:
        if r.get("guard_file") and r.get("guard_line"):
            key = (r["guard_file"], r["guard_line"])
            counts[key] = counts.get(key, 0) + 1
    return {k: n for k, n in counts.items() if n > 1}


def explains(line: int, guard: str, row: int, end_row: int, message: str) -> bool:
    """Does a finding account for a guard that failed on `line`? When it is on that line, or when the
    guard is on a value the finding names (`t == 1.0` and a BL603 finding about `t`, reported where
    the float becomes a tensor while Dynamo points at its first use)."""
    if row <= line <= end_row:
        return True
    name = re.match(r"\s*([A-Za-z_][\w.]*)\s*==", guard or "")
    return bool(name) and f"`{name.group(1)}`" in message


def join_recompiles(observed: dict, findings) -> dict:
    """Each recompile storm is confirmed by a BL6xx finding on its guard line, or missed; a BL6xx
    finding in a file that recompiled nowhere on its lines is unobserved (the call sequence may not
    have reached it)."""
    rules = [f for f in findings if f.code.startswith("BL6")]
    confirmed, missed, hit = [], [], set()
    for (printed, line), count in sorted(storms(observed.get("recompiles", [])).items()):
        guard = next((r["guard"] for r in observed["recompiles"]
                      if (r.get("guard_file"), r.get("guard_line")) == (printed, line)), "")
        match = [f for f in rules if f.path.endswith(printed.lstrip("./"))
                 and explains(line, guard, f.row, f.end_row, f.message)]
        entry = {"file": printed, "line": line, "guard_failures": count, "guard": guard}
        if match:
            confirmed.append({**entry, "codes": sorted({f.code for f in match}), "rows": sorted({f.row for f in match})})
            hit.update(id(f) for f in match)
        else:
            missed.append(entry)
    unobserved = [{"code": f.code, "path": f.path, "row": f.row} for f in rules if id(f) not in hit]
    return {"confirmed": confirmed, "missed": missed, "unobserved": unobserved}


def confirm_recompiles(run, calls: int, findings, shadows=None) -> dict:
    """The original's (and the fixed copy's) compiles over `calls` calls, joined to the findings.
    `run(request)` is the pipeline's worker call; `shadows` the fixed copy's (original, fixed) pairs."""
    out: dict = {"calls": calls}
    for label, extra in (("before", {}), ("after", {"shadows": shadows})):
        if label == "after" and not shadows:
            break
        r = run({**extra, "action": "recompiles", "calls": calls})
        out[label] = r.data["recompiles"] if r.ok else {"error": f"{r.phase}: {r.error}"}
    if "error" not in out["before"]:
        out["join"] = join_recompiles(out["before"], findings)
    return out
