"""Per-file state lives in ctx.file.memo (issue #16): no rule keeps a tree alive between files or
writes into another object's __dict__."""
import ast
import gc
import weakref
from pathlib import Path

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import all_rules
from breaklint.rules.base import FileInfo

RULES = Path(__file__).resolve().parents[1] / "src" / "breaklint" / "rules"
SOURCE = """import logging
import torch
reporter = logging.getLogger(__name__)

@torch.compile
def f(x):
    reporter.info("x")
    m = x > 0
    return x[m].nonzero()
"""


def test_memo_computes_once_per_key():
    file = FileInfo("m.py", "", [], ast.parse(""), None, None)
    calls = []
    assert file.memo("k", lambda: calls.append(1) or 7) == 7
    assert file.memo("k", lambda: calls.append(1) or 8) == 7
    assert file.memo(("k", 2), lambda: 9) == 9 and calls == [1]


def test_no_rule_keeps_a_file_alive_after_its_lint():
    rules = [rule() for rule in all_rules()]
    findings, _ = lint_source(SOURCE, "m.py", LintSettings(rules=rules))
    assert {f.code for f in findings} >= {"BL202", "BL401"}  # the rules that used to keep state ran
    for rule in rules:
        held = [v for v in vars(rule).values() if isinstance(v, (ast.AST, FileInfo))]
        assert held == [], f"{rule.code} keeps {held}"


def test_the_file_and_its_memo_die_with_the_lint():
    seen = []
    real = FileInfo.memo

    def spy(self, key, factory):
        seen.append(weakref.ref(self))
        return real(self, key, factory)

    FileInfo.memo = spy
    try:
        lint_source(SOURCE, "m.py", LintSettings(rules=[rule() for rule in all_rules()]))
    finally:
        FileInfo.memo = real
    gc.collect()
    assert seen and all(ref() is None for ref in seen)


def test_rules_and_fixes_do_not_write_into_the_file():
    """Per-file state goes through ctx.file.memo, not `ctx.file.x = ...` or its __dict__."""
    import re

    writes = re.compile(r"__dict__|ctx\.file\.\w+\s*=[^=]|setattr\(ctx\.file")
    offenders = [f"{p.parent.name}/{p.name}" for folder in (RULES, RULES.parent / "fix")
                 for p in folder.glob("*.py") if writes.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_analysis_writes_nothing_onto_ast_nodes(monkeypatch):
    trees = []
    real_parse = ast.parse

    def keep(*args, **kwargs):
        tree = real_parse(*args, **kwargs)
        trees.append(tree)
        return tree

    monkeypatch.setattr(ast, "parse", keep)
    lint_source(SOURCE, "m.py", LintSettings(rules=[rule() for rule in all_rules()]))
    assert trees
    extra = {name for tree in trees for node in ast.walk(tree) for name in vars(node)
             if name not in node._fields and name not in node._attributes}
    assert extra == set()
