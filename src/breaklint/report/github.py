"""GitHub Actions workflow annotations, shaped like ruff's:
`::warning file=PATH,line=R,col=C,endLine=R,endColumn=C,title=breaklint (CODE)::PATH:R:C: CODE message`."""
from __future__ import annotations

import os

from ..model import CheckResult


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def render(result: CheckResult) -> str:
    lines = []
    for f in result.findings:
        path = os.path.relpath(f.path)
        lines.append(
            f"::warning file={_escape_property(path)},line={f.start.row},col={f.start.column},"
            f"endLine={f.end.row},endColumn={f.end.column},title={_escape_property(f'breaklint ({f.code})')}"
            f"::{_escape(f'{path}:{f.start.row}:{f.start.column}: {f.code} {f.message}')}")
    for e in result.errors:
        path = os.path.relpath(e.path)
        lines.append(f"::error file={_escape_property(path)},title=breaklint::{_escape(f'{path}: {e.message}')}")
    return "\n".join(lines)
