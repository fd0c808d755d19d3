"""GitHub Actions workflow annotations."""
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
            f"::warning title=breaklint ({f.code}),file={_escape_property(path)},line={f.start.row},"
            f"col={f.start.column},endLine={f.end.row},endColumn={f.end.column}::{_escape(f'{f.code} {f.message}')}")
    for e in result.errors:
        lines.append(f"::error title=breaklint,file={_escape_property(os.path.relpath(e.path))}::{_escape(e.message)}")
    return "\n".join(lines)
