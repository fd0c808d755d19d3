"""Python API for users' test suites: observe a model under Dynamo, or assert it breaks little enough.

Imported lazily by breaklint/__init__.py, so `breaklint check` never imports torch.
"""
from __future__ import annotations

from typing import Any

from .observation import Observation, display_path


class GraphBreakError(AssertionError):
    """Raised by assert_graph_breaks; `.observation` holds everything Dynamo reported."""

    def __init__(self, message: str, observation: Observation):
        super().__init__(message)
        self.observation = observation


def observe(model: Any, args: Any = (), kwargs: dict | None = None) -> Observation:
    """Run `model(*args, **kwargs)` eagerly, then under torch.compile(backend="eager", fullgraph=False).

    Returns the graphs, the ops per graph, every graph break (user file:line, gb_type, GB id,
    reason, whether the whole frame was skipped) and the frames Dynamo skipped entirely.
    """
    from .observe import observe as _observe

    return _observe(model, args, kwargs)


def break_line(b) -> str:
    """`file:line  GBxxxx  reason`: one break site, as a test failure shows it."""
    reason = "; ".join([b.gb_type] + b.also)
    notes = [n for n in ("in a library called from here" if b.where_note() else "",
                         "whole frame skipped: runs eagerly" if b.frame_skipped else "") if n]
    return f"{display_path(b.file)}:{b.line}  {b.gb_id or 'GB?'}  {reason}" + (f" ({'; '.join(notes)})" if notes else "")


def format_breaks(obs: Observation, limit: int | None = None) -> str:
    return "\n".join(break_line(b) for b in obs.breaks[:limit])


def assert_graph_breaks(model: Any, args: Any = (), kwargs: dict | None = None, max_breaks: int = 0) -> Observation:
    """Fail with one line per break site (`file:line  GBxxxx  reason`) when there are more than
    `max_breaks` sites; a line whose break has several records (or reasons) counts once."""
    __tracebackhide__ = True  # pytest: show the caller's line and the message, not this frame
    obs = observe(model, args, kwargs)
    if obs.break_count > max_breaks:
        message = (f"expected at most {max_breaks} graph break(s) under torch.compile, found {obs.break_count} "
                   f"(torch {obs.torch_version}):\n{format_breaks(obs)}")
        raise GraphBreakError(message, obs)
    return obs
