"""Plain data for what Dynamo did with one model: graphs, breaks, skipped frames. JSON in and out."""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field


def display_path(path: str) -> str:
    """A path as reports show it: relative to the working folder when it lies inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") else rel


@dataclass
class StackFrame:
    file: str
    line: int
    function: str = ""


@dataclass
class GraphBreak:
    file: str  # innermost user-code frame (not torch, not the stdlib)
    line: int
    gb_type: str
    gb_id: str | None
    reason: str  # gb_type plus Dynamo's explanation, without hints and URLs
    function: str = ""
    frame_skipped: bool = False  # Dynamo gave up on the whole frame: it runs fully eager
    skip_gb_type: str | None = None  # why the frame was skipped (graph break in loop, under a with, ...)
    skip_gb_id: str | None = None
    reported_at: str = ""  # FILE:LINE as Dynamo printed it, which may lie inside torch
    hints: list[str] = field(default_factory=list)
    hits: int = 1  # how many log records named this same break
    user_stack: list[StackFrame] = field(default_factory=list)
    library_frame: str | None = None  # FILE:LINE inside a dependency when the break happened there
    in_user_code: bool = True  # False: no frame of the user's code on the stack at all
    also: list[str] = field(default_factory=list)  # other gb_types of breaks at this same site
    fixed_line: int | None = None  # after fixing: the line in the fixed text (`line` is the user's)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def key(self) -> tuple:
        """A site: one line of the user's code, however many records or reasons it produced."""
        return (self.file, self.line)

    def where_note(self) -> str:
        return " (in a library called from here)" if self.library_frame and self.in_user_code else ""


@dataclass
class SkippedFrame:
    function: str
    file: str
    line: int  # first line of the skipped function
    reason: str  # gb_type of the failure that made Dynamo skip it
    break_file: str | None = None
    break_line: int | None = None


@dataclass
class Observation:
    torch_version: str
    graphs: int
    ops_per_graph: list[int]
    breaks: list[GraphBreak]
    skipped_frames: list[SkippedFrame]
    log_records: int = 0

    @property
    def break_count(self) -> int:
        """Break sites: one per line of user code, however many records Dynamo logged there."""
        return len(self.breaks)

    def __repr__(self) -> str:
        # Short: pytest prints locals of a failing test, and the full stacks would drown the lines
        # that matter (api.assert_graph_breaks).
        return (f"Observation({self.break_count} break site(s), {self.graphs} graph(s), "
                f"{len(self.skipped_frames)} frame(s) skipped, torch {self.torch_version})")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Observation":
        breaks = []
        for b in data.get("breaks", []):
            b = dict(b)
            b["user_stack"] = [StackFrame(**f) for f in b.get("user_stack", [])]
            breaks.append(GraphBreak(**b))
        return cls(
            torch_version=data["torch_version"],
            graphs=data["graphs"],
            ops_per_graph=list(data["ops_per_graph"]),
            breaks=breaks,
            skipped_frames=[SkippedFrame(**s) for s in data.get("skipped_frames", [])],
            log_records=data.get("log_records", 0),
        )

    def describe(self, relative_to: str | None = None) -> str:
        """Human text, one break per line: what assert_graph_breaks prints."""
        import os

        def where(path: str, line: int | None) -> str:
            if relative_to:
                try:
                    path = os.path.relpath(path, relative_to)
                except ValueError:
                    pass
            return f"{path}:{line}"

        lines = [
            f"{len(self.breaks)} graph break(s), {self.graphs} graph(s) "
            f"(ops per graph: {self.ops_per_graph}), {len(self.skipped_frames)} frame(s) skipped, torch {self.torch_version}"
        ]
        for b in self.breaks:
            gb = f" [{b.gb_id}]" if b.gb_id else ""
            skip = ""
            if b.frame_skipped:
                skip = " -- whole frame skipped" + (f" ({b.skip_gb_type})" if b.skip_gb_type else "")
            lines.append(f"  {where(b.file, b.line)}: {b.gb_type}{gb}{skip}")
        for s in self.skipped_frames:
            lines.append(f"  skipped frame {s.function} at {where(s.file, s.line)}: {s.reason}")
        return "\n".join(lines)
