"""Plain aligned tables for `breaklint rules` and `breaklint calibrate`: a header, padded columns,
and a last column that wraps under itself on a narrow terminal. Piped output is never wrapped, so
each row stays one line for grep and awk."""
from __future__ import annotations

import shutil
import sys
import textwrap
from typing import Optional, Sequence

GAP = "  "
# Below this many characters the last column is not worth wrapping: it runs on instead.
MIN_LAST = 12


def terminal_width(stream=None) -> Optional[int]:
    """The terminal's width, or None when the output is piped (no wrapping)."""
    stream = stream or sys.stdout
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return shutil.get_terminal_size((80, 24)).columns


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]], width: Optional[int] = None,
                 title: Optional[str] = None) -> str:
    table = [list(headers)] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(headers) - 1)]
    indent = sum(widths) + len(GAP) * len(widths)
    last_width = None
    if width is not None and width - indent >= MIN_LAST:
        last_width = width - indent
    lines = [title, ""] if title else []
    for n, row in enumerate(table):
        lead = GAP.join(cell.ljust(w) for cell, w in zip(row, widths)) + GAP
        last = row[-1]
        pieces = textwrap.wrap(last, last_width) if last_width and len(last) > last_width else [last]
        lines.append((lead + (pieces[0] if pieces else "")).rstrip())
        lines.extend((" " * indent + piece).rstrip() for piece in pieces[1:])
        if n == 0:
            lines.append(GAP.join("-" * w for w in widths + [max(len(r[-1]) for r in table) if last_width is None
                                                               else min(last_width, max(len(r[-1]) for r in table))]))
    return "\n".join(lines)
