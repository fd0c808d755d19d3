"""Python API for users' test suites: observe a model under Dynamo, or assert it breaks little enough.

Imported lazily by breaklint/__init__.py, so `breaklint check` never imports torch.
"""
from __future__ import annotations

from typing import Any

from .observation import Observation


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


def format_breaks(obs: Observation, limit: int | None = None) -> str:
    lines = []
    for b in obs.breaks[:limit]:
        gb = f" [{b.gb_id}]" if b.gb_id else ""
        skip = " (whole frame skipped: runs eagerly)" if b.frame_skipped else ""
        lines.append(f"  {b.file}:{b.line}: {b.reason}{gb}{skip}")
    for s in obs.skipped_frames:
        lines.append(f"  frame {s.function} ({s.file}:{s.line}) skipped: {s.reason}")
    return "\n".join(lines)


def assert_graph_breaks(model: Any, args: Any = (), kwargs: dict | None = None, max_breaks: int = 0) -> Observation:
    """Fail with every break listed as file:line and reason when there are more than `max_breaks`."""
    obs = observe(model, args, kwargs)
    if obs.break_count > max_breaks:
        message = (
            f"expected at most {max_breaks} graph break(s) under torch.compile, found {obs.break_count} "
            f"({obs.graphs} graph(s), torch {obs.torch_version}):\n{format_breaks(obs)}"
        )
        raise GraphBreakError(message, obs)
    return obs
