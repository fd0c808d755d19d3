"""ruff's JSON schema, so that tools written for ruff read breaklint's output unchanged.

The keys are exactly ruff's (measured on ruff 0.17: cell, code, end_location, filename, fix, location,
message, name, noqa_row, severity, url), sorted as ruff sorts them. Rows and columns are 1-based,
`filename` is absolute. breaklint's frame-skip escalation is already in the message text. One key
is added, and only to a finding behind a Python-level guard: `breaks_when`, the condition under which
it breaks (tools that read ruff's schema ignore an extra key).
"""
from __future__ import annotations

import json
import os

from ..model import CheckResult, Finding


def _location(loc) -> dict:
    return {"column": loc.column, "row": loc.row}


def finding_to_dict(finding: Finding) -> dict:
    from ..rules import rule_by_code

    rule = rule_by_code(finding.code)
    fix = None
    if finding.fix is not None:
        fix = {
            "applicability": finding.fix.applicability,
            "edits": [{"content": e.content, "end_location": _location(e.end), "location": _location(e.start)}
                      for e in finding.fix.edits],
            "message": finding.fix.message,
        }
    result = {
        "cell": finding.cell,  # a notebook's cell (1-based, as ruff counts); rows are inside it
        "code": finding.code,
        "end_location": _location(finding.end),
        "filename": os.path.abspath(finding.path),
        "fix": fix,
        "location": _location(finding.start),
        "message": finding.message,
        "name": rule.name if rule else None,
        "noqa_row": finding.noqa_row,
        "severity": "error",  # ruff reports every lint diagnostic as "error"
        "url": rule.url() if rule else None,
    }
    if finding.breaks_when is not None:
        # The one key beyond ruff's, present only for a guarded hazard: tools that read ruff's
        # schema ignore it.
        result["breaks_when"] = finding.breaks_when
    return result


def render(result: CheckResult) -> str:
    return json.dumps([finding_to_dict(f) for f in result.findings], indent=2)


def render_statistics(result: CheckResult) -> str:
    """`--statistics --output-format json`: ruff's shape, one object per code."""
    from .text import statistics_rows

    return json.dumps([{"code": r["code"], "name": r["name"], "count": r["count"], "fixable": r["fixable"]}
                       for r in statistics_rows(result)], indent=2)
