"""Write a small package to disk and check it as a new user would (issue #11)."""
import ast
import textwrap

from breaklint.analysis.names import ImportMap
from breaklint.analysis.scope import ModuleScopes
from breaklint.lint.config import Settings
from breaklint.lint.engine import LintSettings, lint_source
from breaklint.lint.runner import check_paths
from breaklint.rules import all_rules


def write_tree(root, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())


def check_tree(root, files: dict) -> set:
    """{(relative path, row, code)} of `breaklint check` over a written tree."""
    write_tree(root, files)
    result = check_paths([str(root)], Settings(), jobs=1, use_cache=False)
    return {(str(f.path)[len(str(root)) + 1:], f.row, f.code) for f in result.findings}


def findings_of(source: str):
    findings, _ = lint_source(textwrap.dedent(source), "snippet.py", LintSettings(rules=[r() for r in all_rules()]))
    return findings


def codes_by_row(source: str) -> set:
    return {(f.row, f.code) for f in findings_of(source)}


def scopes_of(source: str) -> dict:
    tree = ast.parse(textwrap.dedent(source))
    return ModuleScopes(tree, ImportMap(tree)).scopes
