"""Run a model eagerly, then under torch.compile(backend=eager), and record what Dynamo did.

The breaks come from the `graph_breaks` logging artifact (explain() undercounts), graphs and ops
from a counting backend that behaves like backend="eager", and whole-frame skips from Dynamo's
compilation metrics. Dynamo state is reset before and after, so observations do not leak.
"""
from __future__ import annotations

import contextlib
import logging
import sys

from .breaklog import UserCode, merge_breaks, parse_record, to_graph_break
from .dynamo_lines import correct_resume_lines
from .observation import GraphBreak, Observation, SkippedFrame, StackFrame
from .registry import load_registry

# Both modules that emit graph-break records own an artifact logger named like this.
GRAPH_BREAK_LOGGERS = (
    "torch._dynamo.symbolic_convert.__graph_breaks",
    "torch._dynamo.convert_frame.__graph_breaks",
)


class _Collector(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.items: list[tuple[str, object]] = []

    def emit(self, record: logging.LogRecord) -> None:
        # The Unsupported exception being handled carries gb_type and the real user stack.
        exc = record.exc_info[1] if record.exc_info else sys.exc_info()[1]
        try:
            message = record.getMessage()
        except Exception:  # a malformed record must never break the user's run
            message = str(record.msg)
        self.items.append((message, exc))


@contextlib.contextmanager
def capture_graph_break_records():
    """Enable the graph_breaks artifact on its loggers only, quietly, and restore them after.

    Same effect as torch._logging.set_logs(graph_breaks=True) for these loggers, without resetting
    the user's other TORCH_LOGS settings or echoing every break to stderr.
    """
    import torch._dynamo.symbolic_convert  # noqa: F401  (registers the artifact loggers)
    import torch._dynamo.convert_frame  # noqa: F401

    collector = _Collector()
    saved = []
    for name in GRAPH_BREAK_LOGGERS:
        log = logging.getLogger(name)
        saved.append((log, log.level, log.propagate, log.disabled))
        log.setLevel(logging.DEBUG)
        log.propagate = False
        log.disabled = False
        log.addHandler(collector)
    try:
        yield collector
    finally:
        for log, level, propagate, disabled in saved:
            log.removeHandler(collector)
            log.setLevel(level)
            log.propagate = propagate
            log.disabled = disabled


@contextlib.contextmanager
def _quiet_structured_trace():
    """torch.__trace (structured trace) emits one DEBUG record per compile step whenever it has a
    handler, and pytest gives it some: a failed test then shows hundreds of empty DEBUG lines. Keep
    it quiet unless the user asked for a trace (TORCH_TRACE)."""
    import os

    log = logging.getLogger("torch.__trace")
    if os.environ.get("TORCH_TRACE"):
        yield
        return
    disabled = log.disabled
    log.disabled = True
    try:
        yield
    finally:
        log.disabled = disabled


class _CountingBackend:
    """backend="eager" that also counts graphs and the ops in each."""

    def __init__(self):
        self.ops_per_graph: list[int] = []

    def __call__(self, gm, example_inputs):
        ops = sum(1 for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module"))
        self.ops_per_graph.append(ops)
        return gm.forward


def reset_dynamo() -> None:
    import torch._dynamo
    from torch._dynamo import utils

    torch._dynamo.reset()
    # Older torches (the GPU image has 2.11) may lack some of these helpers.
    for name in ("reset_graph_break_dup_checker", "clear_compilation_metrics"):
        fn = getattr(utils, name, None)
        if fn is not None:
            fn()
    utils.counters.clear()


def _exc_stack(exc) -> list[StackFrame]:
    stack = getattr(exc, "real_stack", None) or []
    return [StackFrame(f.filename, f.lineno or 0, f.name) for f in stack]


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def _skipped_frames(user: UserCode) -> list[SkippedFrame]:
    from torch._dynamo import utils

    skipped = []
    for m in getattr(utils, "get_compilation_metrics", lambda: [])():
        # A frame that failed and produced no graph ran fully eager.
        if getattr(m, "fail_type", None) is None or getattr(m, "graph_op_count", None) is not None:
            continue
        skipped.append(
            SkippedFrame(
                function=m.co_name or "",
                file=m.co_filename or "",
                line=m.co_firstlineno or 0,
                reason=_first_line(m.fail_reason) or str(m.fail_type),
                break_file=getattr(m, "fail_user_frame_filename", None),
                break_line=getattr(m, "fail_user_frame_lineno", None),
            )
        )
    return skipped


def build_observation(records, ops_per_graph, skipped_frames, torch_version, user=None) -> Observation:
    registry = load_registry()
    user = user or UserCode()
    breaks: list[GraphBreak] = []
    for message, exc in records:
        parsed = parse_record(message)
        if parsed is None:
            continue
        breaks.append(
            to_graph_break(parsed, registry, user, exc_gb_type=getattr(exc, "gb_type", None), exc_stack=_exc_stack(exc))
        )
    breaks = merge_breaks(breaks)
    # Guard against a skip Dynamo recorded in its metrics but not in the log.
    located = {(b.file, b.line) for b in breaks if b.frame_skipped}
    for s in skipped_frames:
        if s.break_file and (s.break_file, s.break_line) not in located and user.is_user(s.break_file):
            entry = registry.resolve(s.reason)
            breaks.append(GraphBreak(file=s.break_file, line=s.break_line or 0, gb_type=s.reason,
                                     gb_id=entry.gb_id if entry else None, reason=s.reason,
                                     function=s.function, frame_skipped=True,
                                     reported_at=f"{s.break_file}:{s.break_line}"))
    return Observation(
        torch_version=torch_version,
        graphs=len(ops_per_graph),
        ops_per_graph=list(ops_per_graph),
        breaks=breaks,
        skipped_frames=skipped_frames,
        log_records=len(records),
    )


def observe(model, args=(), kwargs=None, *, run_eager_first: bool = True, user: UserCode | None = None) -> Observation:
    """Observe graphs, breaks and skipped frames of `model(*args, **kwargs)` under Dynamo.
    `user`: which files are the user's (default: all but dependencies, plus the model's own package)."""
    import torch

    kwargs = dict(kwargs or {})
    args = tuple(args) if isinstance(args, (list, tuple)) else (args,)
    if run_eager_first:
        model(*args, **kwargs)  # fail here, not inside Dynamo, if the model itself is broken
    user = user or UserCode.for_objects(model)
    backend = _CountingBackend()
    reset_dynamo()
    try:
        # correct_resume_lines: Dynamo 2.13/2.14 on Python 3.11 reports breaks after a chained method
        # call in a resume function at the wrong line, which would miss the join with findings.
        with capture_graph_break_records() as collector, _quiet_structured_trace(), correct_resume_lines():
            compiled = torch.compile(model, backend=backend, fullgraph=False)
            compiled(*args, **kwargs)
        skipped = _skipped_frames(user)
    finally:
        reset_dynamo()
    return build_observation(collector.items, backend.ops_per_graph, skipped, torch.__version__, user)
