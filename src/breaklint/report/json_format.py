"""ruff's JSON schema, so that tools written for ruff read breaklint's output unchanged."""
from __future__ import annotations

import json

from ..model import CheckResult, Finding


def finding_to_dict(finding: Finding) -> dict:
    from ..rules import rule_by_code

    rule = rule_by_code(finding.code)
    fix = None
    if finding.fix is not None:
        fix = {
            "applicability": finding.fix.applicability,
            "message": finding.fix.message,
            "edits": [{"content": e.content,
                       "location": {"row": e.start.row, "column": e.start.column},
                       "end_location": {"row": e.end.row, "column": e.end.column}} for e in finding.fix.edits],
        }
    return {
        "code": finding.code,
        "message": finding.message,
        "filename": finding.path,
        "location": {"row": finding.start.row, "column": finding.start.column},
        "end_location": {"row": finding.end.row, "column": finding.end.column},
        "fix": fix,
        "url": rule.url() if rule else None,
        "noqa_row": finding.noqa_row,
        # breaklint's own fields, after ruff's: the frame-skip escalation and the Dynamo ids.
        "frame_skip": finding.frame_skip,
        "gb_ids": list(finding.gb_ids),
    }


def render(result: CheckResult) -> str:
    return json.dumps([finding_to_dict(f) for f in result.findings], indent=2)
