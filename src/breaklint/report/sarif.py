"""SARIF 2.1.0, the format GitHub code scanning uploads."""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..model import CheckResult
from ..rules import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    """A URI reference (RFC 3986): relative to %SRCROOT% and percent-encoded, so that `a:b,c.py` is
    not read as a scheme and `%0A` in a name stays three characters."""
    try:
        return quote(Path(os.path.relpath(path)).as_posix(), safe="/")
    except ValueError:  # another drive on Windows
        return Path(path).as_uri()


def render(result: CheckResult) -> str:
    rules = all_rules()
    index = {rule.code: i for i, rule in enumerate(rules)}
    sarif_rules = [{
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "helpUri": rule.url(),
        "help": {"text": f"{rule.summary}. Dynamo registry ids: {', '.join(rule.gb_ids) or 'none'}. "
                         f"See {rule.url()}",
                 "markdown": f"**{rule.code}** {rule.summary}. See [{rule.code}]({rule.url()})."},
        "defaultConfiguration": {"level": "warning"},
        "properties": {"tags": ["torch.compile", "graph-break"]},
    } for rule in rules]
    results = []
    for f in result.findings:
        item = {
            "ruleId": f.code,
            "level": "warning",
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(f.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": f.start.row, "startColumn": f.start.column,
                           "endLine": f.end.row, "endColumn": f.end.column},
            }}],
            "properties": {"frameSkip": f.frame_skip, "gbIds": list(f.gb_ids)},
        }
        if f.code in index:
            item["ruleIndex"] = index[f.code]
        results.append(item)
    notifications = [{"level": "error", "message": {"text": e.message},
                      "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(e.path)}}}]}
                     for e in result.errors]
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "breaklint", "version": __version__,
                                "informationUri": "https://breaklint.dev", "rules": sarif_rules}},
            "results": results,
            "invocations": [{"executionSuccessful": not any(e.internal for e in result.errors), "toolExecutionNotifications": notifications}],
        }],
    }
    return json.dumps(log, indent=2)
