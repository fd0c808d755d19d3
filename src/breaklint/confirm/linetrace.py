"""Record which lines of user code one eager call executes: the code Dynamo will be asked to trace."""
from __future__ import annotations

import sys
import threading
from collections import defaultdict

from .breaklog import UserCode


def executed_user_lines(fn, user: UserCode) -> tuple[object, dict[str, list[int]]]:
    """Call fn() under sys.settrace and return (its result, {file: sorted executed lines})."""
    lines: dict[str, set[int]] = defaultdict(set)
    verdicts: dict[str, bool] = {}

    def is_user(path: str) -> bool:
        if path not in verdicts:
            verdicts[path] = user.is_user(path)
        return verdicts[path]

    def local(frame, event, arg):
        if event == "line":
            lines[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    def global_(frame, event, arg):
        if event != "call" or not is_user(frame.f_code.co_filename):
            return None  # do not trace torch or the stdlib line by line: far too slow
        lines[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    previous = sys.gettrace()
    sys.settrace(global_)
    threading.settrace(global_)
    try:
        result = fn()
    finally:
        sys.settrace(previous)
        threading.settrace(previous)  # type: ignore[arg-type]
    return result, {f: sorted(v) for f, v in lines.items()}
