"""Parse the records of Dynamo's `graph_breaks` logging artifact into GraphBreak objects.

Pure text handling, no torch import, so it is testable on recorded messages. Formats (torch 2.13):

    Graph break in user code at FILE:LINE
    Graph Break Reason: [Encountered graph break when attempting to trace ...:\n\n]<gb_type>
      Explanation: ...
      Hint: ...
     For more details about this graph break, please visit: .../gb/gbNNNN.html
    [*** While handling this graph break, another graph break occurred: ***\n\n<gb_type of the skip>]
    User code traceback:
      File "F", line N, in FUNC

A reason starting "Failed to handle graph break gracefully. Skipping the function" means the whole
frame ran eagerly. A break already seen is logged again as "Graph break (user stack suppressed due to
duplicate graph break) in user code at FILE:LINE" with no traceback.
"""
from __future__ import annotations

import os
import re
import sysconfig
from dataclasses import dataclass, field

from .observation import GraphBreak, StackFrame
from .registry import Registry

HEADER_RE = re.compile(r"^Graph break(?: \(user stack suppressed due to duplicate graph break\))? in user code at (?P<file>.+):(?P<line>\d+)\s*$")
RESUME_SKIP_RE = re.compile(r"^torch\.compile will skip tracing the frame (?P<func>\S+) \((?P<file>.+) line (?P<line>\d+)\)")
FRAME_RE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.+?)\s*$')
GB_URL_RE = re.compile(r"compile-graph-break-site/gb/(gb\d+)\.html", re.IGNORECASE)
REASON_PREFIX = "Graph Break Reason: "
ENCOUNTERED_PREFIX = "Encountered graph break when attempting to trace"
SKIP_PREFIX = "Failed to handle graph break gracefully. Skipping the function and falling back to eager"
SECOND_BREAK = "*** While handling this graph break, another graph break occurred: ***"
RESUME_SKIP_HEADER = "Graph break: torch.compile cannot properly resume from this graph break, which results in a skip."


@dataclass
class ParsedRecord:
    reported_file: str
    reported_line: int
    gb_type: str
    explanation: str
    hints: list[str]
    url_id: str | None
    frame_skipped: bool
    skip_gb_type: str | None = None
    skip_url_id: str | None = None
    stack: list[StackFrame] = field(default_factory=list)
    duplicate: bool = False


def _blocks(reason_text: str) -> list[list[str]]:
    """Split a reason into its graph-break blocks: each starts at a gb_type line."""
    text = reason_text.split(SECOND_BREAK)
    return [[ln for ln in part.splitlines()] for part in text]


def _describe_block(lines: list[str]) -> tuple[str, str, list[str], str | None]:
    """(gb_type, explanation, hints, url id) of one block of a reason."""
    body = [ln for ln in lines]
    # Drop the wrapper sentence Dynamo puts before the real gb_type.
    while body and (not body[0].strip() or body[0].startswith(ENCOUNTERED_PREFIX) or body[0].startswith(SKIP_PREFIX)):
        body.pop(0)
    gb_type = body[0].strip() if body else ""
    explanation, hints, url_id = [], [], None
    for ln in body[1:]:
        s = ln.strip()
        if s.startswith("Explanation:"):
            explanation.append(s[len("Explanation:"):].strip())
        elif s.startswith("Hint:"):
            hints.append(s[len("Hint:"):].strip())
        m = GB_URL_RE.search(ln)
        if m and url_id is None:
            url_id = m.group(1).upper()
    return gb_type, " ".join(explanation), hints, url_id


def _stack(lines: list[str]) -> list[StackFrame]:
    frames = []
    for ln in lines:
        m = FRAME_RE.match(ln)
        if m:
            frames.append(StackFrame(m.group("file"), int(m.group("line")), m.group("func")))
    return frames


def parse_record(message: str) -> ParsedRecord | None:
    """Parse one graph_breaks record; None for records that are not about a break."""
    lines = message.splitlines()
    if not lines:
        return None
    head = HEADER_RE.match(lines[0])
    if head:
        reason_lines, stack_lines, in_stack = [], [], False
        for ln in lines[1:]:
            if ln.startswith("User code traceback:"):
                in_stack = True
                continue
            if ln.startswith("Stack variable source attribution:"):
                in_stack = None  # attribution frames are not the call stack
                continue
            if in_stack:
                stack_lines.append(ln)
            elif in_stack is False:
                reason_lines.append(ln)
        reason_text = "\n".join(reason_lines)
        if reason_text.startswith(REASON_PREFIX):
            reason_text = reason_text[len(REASON_PREFIX):]
        blocks = _blocks(reason_text)
        gb_type, explanation, hints, url_id = _describe_block(blocks[0])
        skipped = reason_text.startswith(SKIP_PREFIX)
        skip_type = skip_id = None
        if len(blocks) > 1:
            skip_type, _, _, skip_id = _describe_block(blocks[1])
        return ParsedRecord(
            reported_file=head.group("file"),
            reported_line=int(head.group("line")),
            gb_type=gb_type,
            explanation=explanation,
            hints=hints,
            url_id=url_id,
            frame_skipped=skipped,
            skip_gb_type=skip_type,
            skip_url_id=skip_id,
            stack=_stack(stack_lines),
            duplicate="user stack suppressed" in lines[0],
        )
    if lines[0].startswith(RESUME_SKIP_HEADER):
        # convert_frame's own record: the exception (and its gb_type) travels in exc_info.
        stack = _stack(lines)
        last = stack[-1] if stack else None
        m = RESUME_SKIP_RE.match(lines[1]) if len(lines) > 1 else None
        return ParsedRecord(
            reported_file=last.file if last else (m.group("file") if m else ""),
            reported_line=last.line if last else (int(m.group("line")) if m else 0),
            gb_type="",
            explanation="",
            hints=[],
            url_id=None,
            frame_skipped=True,
            stack=stack,
        )
    return None


class UserCode:
    """Decides which files are the user's: not torch, not breaklint, not the stdlib, not another
    installed package, unless it is (part of) the target itself (`user_roots`)."""

    def __init__(self, library_roots: list[str] | None = None, user_roots: list[str] | None = None):
        roots = list(library_roots or [])
        if not library_roots:
            import importlib.util

            for name in ("torch", "breaklint"):
                spec = importlib.util.find_spec(name)
                if spec and spec.submodule_search_locations:
                    roots.extend(spec.submodule_search_locations)
        self.library_roots = [os.path.realpath(r) + os.sep for r in roots]
        # A package directory covers everything under it; a single module (x.py) only itself.
        self.user_roots = [os.path.realpath(r) + ("" if r.endswith(".py") else os.sep) for r in (user_roots or [])]
        paths = sysconfig.get_paths()
        self.stdlib = [os.path.realpath(paths[k]) + os.sep for k in ("stdlib", "platstdlib") if k in paths]
        self.site = [os.path.realpath(paths[k]) + os.sep for k in ("purelib", "platlib") if k in paths]

    @classmethod
    def for_objects(cls, *objects) -> "UserCode":
        """The user's code when a model is handed over in process: its class's top-level package
        counts as the user's even when installed (a transformers model observed on its own)."""
        import sys

        roots = []
        for obj in objects:
            name = getattr(type(obj), "__module__", "") or ""
            if getattr(obj, "__module__", None) and callable(obj) and not hasattr(type(obj), "forward"):
                name = obj.__module__  # a plain function: its own module
            top = sys.modules.get(name.split(".")[0]) if name else None
            if top is None or name.split(".")[0] in ("torch", "builtins"):
                continue
            paths = list(getattr(top, "__path__", []) or []) or [getattr(top, "__file__", None)]
            roots.extend(p for p in paths if p)
        return cls(user_roots=roots)

    def is_user(self, path: str) -> bool:
        if not path or path.startswith("<"):
            return False
        real = os.path.realpath(path)
        if any(real == r or (r.endswith(os.sep) and real.startswith(r)) for r in self.user_roots):
            return True
        if any(real.startswith(r) for r in self.library_roots):
            return False
        if any(real.startswith(s) for s in self.site) or "site-packages" in real or "dist-packages" in real:
            return False  # an installed dependency (stdlib's own site-packages included)
        if any(real.startswith(s) for s in self.stdlib):
            return False
        return True


def to_graph_break(rec: ParsedRecord, registry: Registry, user: UserCode,
                   exc_gb_type: str | None = None, exc_stack: list[StackFrame] | None = None) -> GraphBreak:
    """Resolve GB ids and move the location to the innermost frame of user code."""
    gb_type = rec.gb_type or exc_gb_type or "unknown"
    entry = registry.resolve(gb_type, rec.url_id)
    skip_entry = registry.resolve(rec.skip_gb_type, rec.skip_url_id) if (rec.skip_gb_type or rec.skip_url_id) else None
    # The exception's real_stack covers only the traced frames; the printed traceback also has every
    # frame above the compiled call (pytest, the caller), so it is the fallback.
    stack = list(exc_stack or []) or rec.stack
    file, line, func = rec.reported_file, rec.reported_line, ""
    if stack and (stack[-1].file, stack[-1].line) == (file, line):
        func = stack[-1].function
    library = None
    if not user.is_user(file):
        # Dynamo names the innermost traced frame, which may be a library's (torch, logging, an
        # installed package): the site to fix is the innermost frame of the user's own code.
        library = f"{file}:{line}"
        innermost = next((f for f in reversed(stack) if user.is_user(f.file)), None) or next(
            (f for f in reversed(rec.stack) if user.is_user(f.file)), None)
        if innermost is not None:
            file, line, func = innermost.file, innermost.line, innermost.function
    return GraphBreak(
        file=file,
        line=line,
        function=func,
        gb_type=gb_type,
        gb_id=entry.gb_id if entry else None,
        reason=f"{gb_type}: {rec.explanation}" if rec.explanation else gb_type,
        frame_skipped=rec.frame_skipped,
        skip_gb_type=rec.skip_gb_type,
        skip_gb_id=skip_entry.gb_id if skip_entry else None,
        reported_at=f"{rec.reported_file}:{rec.reported_line}",
        hints=list(rec.hints) or (list(entry.hints) if entry else []),
        user_stack=[f for f in stack if user.is_user(f.file)],
        library_frame=library,
        in_user_code=user.is_user(file),
    )


def merge_breaks(breaks: list[GraphBreak]) -> list[GraphBreak]:
    """One entry per site (file, line): records of the same break, or of two breaks that one line
    causes (a library it calls breaks twice), count once; the other reasons are kept in `also`."""
    merged: dict[tuple, GraphBreak] = {}
    for b in breaks:
        seen = merged.get(b.key())
        if seen is None:
            merged[b.key()] = b
            continue
        seen.hits += 1
        if b.gb_type != seen.gb_type and b.gb_type not in seen.also:
            seen.also.append(b.gb_type)
        if b.frame_skipped and not seen.frame_skipped:
            seen.frame_skipped, seen.skip_gb_type, seen.skip_gb_id = True, b.skip_gb_type, b.skip_gb_id
        if not seen.user_stack and b.user_stack:
            seen.user_stack = b.user_stack
        if seen.library_frame is None and b.library_frame is not None and b.gb_type == seen.gb_type:
            seen.library_frame = b.library_frame
    return list(merged.values())
