"""Shared by the CLI, config, fix-engine and bad-input tests: sample sources, a CLI runner and fake
rules registered for one test (to exercise unsafe fixes, verdicts and broken fixes without depending on
which real rules exist)."""
from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Optional

from click.testing import CliRunner

import breaklint.rules as rules_module
from breaklint.cli import main
from breaklint.model import Fix
from breaklint.rules import Example, Rule

ROOT = Path(__file__).resolve().parents[1]

# One BL201 hazard (print in forward, safe fix) and a file with none.
HAZARD = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        print("x", x.shape)
        return x * 2
'''
CLEAN = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        return x * 2
'''
# Calls the fake rules look for, inside a traced forward.
FAKE_CALLS = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        y = hazard(x)
        z = nobreak(x)
        return y + z
'''


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_project(root: Path, table: str = "") -> Path:
    """A folder with a pyproject.toml holding `[tool.breaklint]` (so the cache lives in it)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.breaklint]\n" + table)
    return root


def invoke(*args: str, input: Optional[str] = None):
    """Run `breaklint ARGS` in-process; a real exception (not SystemExit) fails the test loudly."""
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def json_findings(*args: str) -> list[dict]:
    result = invoke("check", "--output-format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def fake_rule(code: str, target: str, applicability: Optional[str] = None, replacement: str = "safe_call(x)",
              verdicts: Optional[dict] = None, crash: bool = False, edits=None) -> type[Rule]:
    """A rule that flags calls to `target(...)` in traced code, with an optional fix replacing the call
    by `replacement` (or by the edits `edits(ctx, node)` returns)."""

    class FakeRule(Rule):
        name = f"fake-{code.lower()}"
        summary = f"fake rule {code}"
        node_types = (ast.Call,)
        fix_availability = "sometimes" if applicability else "never"
        fix_applicability = applicability
        VALID = [Example("x = 1\n", runnable=False)]
        INVALID = [Example("x = 1\n", runnable=False)]

        def check(self, node, ctx):
            if not (isinstance(node.func, ast.Name) and node.func.id == target):
                return
            if crash:
                raise RuntimeError("rule bug")
            fix = None
            if applicability:
                made = edits(ctx, node) if edits else (ctx.replace(node, replacement),)
                fix = Fix(message=f"Replace {target}()", applicability=applicability, edits=tuple(made))
            ctx.report(node, f"{target}() is a fake hazard", fix)

    FakeRule.code = code
    FakeRule.verdicts = verdicts or {}
    FakeRule.__name__ = f"Fake{code}"
    return FakeRule


def register(monkeypatch, *rules: type[Rule]) -> None:
    monkeypatch.setattr(rules_module, "_RULES", list(rules_module._RULES) + list(rules))


def codes(findings: list[dict]) -> list[str]:
    return sorted(f["code"] for f in findings)


def rel(finding: dict) -> str:
    return os.path.relpath(finding["filename"])
