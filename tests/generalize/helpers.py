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


def dynamo_break_rows(source: str, class_names, tmp_path, inputs=None) -> set:
    """The rows of `source` where Dynamo (torch.compile, backend="eager") reports a graph break, each
    class of `class_names` built with no arguments and called on `inputs` (default: one randn(4, 4))."""
    import importlib.util
    import logging

    import torch

    path = tmp_path / "dynamo_snippet.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("dynamo_snippet", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows: set = set()

    class Sites(logging.Handler):
        def emit(self, record):
            for line in record.getMessage().splitlines():
                if "Graph break in user code at" in line and str(path) in line:
                    rows.add(int(line.rsplit(":", 1)[1]))

    torch._logging.set_logs(graph_breaks=True)
    logger = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")
    handler = Sites()
    logger.addHandler(handler)
    try:
        for name in class_names:
            torch._dynamo.reset()
            args = inputs() if inputs is not None else (torch.randn(4, 4),)
            torch.compile(getattr(module, name)(), backend="eager")(*args)
    finally:
        logger.removeHandler(handler)
        torch._logging.set_logs()
        torch._dynamo.reset()
    return rows
