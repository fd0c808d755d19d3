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
    path, messages = _dynamo_break_messages(source, class_names, tmp_path, inputs)
    return {int(line.rsplit(":", 1)[1]) for message in messages for line in message.splitlines()
            if "Graph break in user code at" in line and str(path) in line}


def dynamo_innermost_rows(source: str, class_names, tmp_path, keep=None) -> set:
    """Dynamo's break rows, each the innermost frame of `source` in the break's traceback (a break inside a
    library counts at the line of the source that called into it); `keep(message)` picks the breaks."""
    import re

    path, messages = _dynamo_break_messages(source, class_names, tmp_path)
    rows = set()
    for message in messages:
        if "Graph break in user code at" in message and (keep is None or keep(message)):
            frames = re.findall(rf'File "{re.escape(str(path))}", line (\d+), in forward(?:\n|$)', message)
            if frames:
                rows.add(int(frames[-1]))
    return rows


def _dynamo_break_messages(source: str, class_names, tmp_path, inputs=None):
    """(the file `source` was written to, the messages of Dynamo's graph_breaks log) with each class of
    `class_names` built and compiled in turn."""
    import importlib.util
    import logging

    import torch

    path = tmp_path / "dynamo_snippet.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("dynamo_snippet", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    messages: list = []

    class Sites(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

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
    return path, messages


def package_files(packages: dict, name: str) -> dict:
    """A package of a scope battery, with an empty `pkg/__init__.py` unless it has its own."""
    files = dict(packages[name])
    files.setdefault("pkg/__init__.py", "")
    return files


_PACKAGE_DYNAMO = """
import json, logging, os, re, sys
root = sys.argv[1]
sys.path.insert(0, root)
import torch
rows = set()
class Sites(logging.Handler):
    def emit(self, record):
        for m in re.finditer(r"Graph break in user code at (\\S+):(\\d+)", record.getMessage()):
            if m.group(1).startswith(root):
                rows.add((os.path.relpath(m.group(1), root), int(m.group(2))))
torch._logging.set_logs(graph_breaks=True)
logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks").addHandler(Sites())
import entry
torch.compile(entry.M(), backend="eager")(torch.randn(4))
print(json.dumps(sorted(rows)))
"""


def dynamo_package_rows(tmp_path, files: dict) -> set:
    """(file, row) under `pkg/` of each break Dynamo reports compiling the written package's `entry.M()`,
    in a process of its own: each package is named `pkg`, and Dynamo's caches outlive a test."""
    return {row for row in dynamo_rows(tmp_path, files) if row[0].startswith("pkg")}


def dynamo_rows(tmp_path, files: dict) -> set:
    """(file, row) of each break Dynamo reports in the written files (`entry.py` too), as above."""
    import json
    import os
    import subprocess
    import sys

    write_tree(tmp_path, files)
    done = subprocess.run([sys.executable, "-c", _PACKAGE_DYNAMO, str(tmp_path)], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=""))
    assert done.returncode == 0, done.stderr[-2000:]
    return {tuple(row) for row in json.loads(done.stdout.strip().splitlines()[-1])}


def assert_breaks_at(tmp_path, files: dict, path: str, row: int, code: str) -> None:
    """breaklint reports `code` at path:row of the written package, and Dynamo breaks there (when torch is here)."""
    import pytest

    assert (path, row) in {(p, r) for p, r, c in check_tree(tmp_path / "static", files) if c == code}
    pytest.importorskip("torch")
    assert (path, row) in dynamo_package_rows(tmp_path / "dynamo", files)


def entry_calling(module: str, function: str) -> str:
    """`entry.py` whose module M's forward returns `pkg.<module>.<function>(x)`."""
    return f"""
        import torch
        from pkg.{module} import {function}


        class M(torch.nn.Module):
            def forward(self, x):
                return {function}(x)
        """
