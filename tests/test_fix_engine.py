"""The fix engine: non-overlapping edits, a bounded fixpoint, never writing code that does not parse,
atomic writes that keep encoding, line endings and permissions, idempotence, `import torch` once."""
import ast
import os
import shutil
import stat

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.fix.edits import apply_edits, ensure_imports
from breaklint.lint.fixloop import MAX_ROUNDS, fix_source
from breaklint.model import Edit, Fix, Location
from cli_helpers import HAZARD, ROOT, fake_rule, invoke, make_project, register, write

NESTED = HAZARD.replace('print("x", x.shape)', "y = hazard(hazard(x))")


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = make_project(tmp_path / "proj")
    monkeypatch.chdir(root)
    return root


def wrap_call(ctx, node):
    """Replace hazard(ARG) by safe(ARG): nested calls give overlapping edits."""
    return (ctx.replace(node, f"safe({ctx.segment(node.args[0])})"),)


def fix(start, end, content="X", message="m"):
    return Fix(message, "safe", (Edit(Location(*start), Location(*end), content),))


def test_apply_edits_skips_overlapping_fixes():
    source = "abcdef\n"
    text, applied = apply_edits(source, [fix((1, 1), (1, 4), "1"), fix((1, 3), (1, 6), "2"),
                                         fix((1, 6), (1, 7), "3")])
    assert text == "1de3\n"
    assert [f.edits[0].content for f in applied] == ["1", "3"]
    # Two insertions at the same point would be ambiguous: only the first is applied.
    text, applied = apply_edits("ab\n", [fix((1, 2), (1, 2), "X"), fix((1, 2), (1, 2), "Y")])
    assert text == "aXb\n" and len(applied) == 1


def test_overlapping_fixes_converge_over_rounds(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard", applicability="safe", edits=wrap_call))
    write(project / "a.py", NESTED)
    result = invoke("check", "--fix", "--select", "BL901", "a.py")
    assert result.exit_code == 0, result.output
    assert "y = safe(safe(x))" in (project / "a.py").read_text()
    assert "Fixed 2 problems" in result.stdout


def test_fixpoint_is_bounded_and_reported(project, monkeypatch):
    # A broken rule whose fix never settles: grow(x) -> grow(grow(x)) -> ...
    register(monkeypatch, fake_rule("BL901", "grow", applicability="safe",
                                    edits=lambda ctx, node: (ctx.replace(node, f"grow({ctx.segment(node)})"),)))
    write(project / "a.py", HAZARD.replace('print("x", x.shape)', "y = grow(x)"))
    result = invoke("check", "--fix", "--select", "BL901", "a.py")
    assert result.exit_code == 1
    assert f"did not converge after {MAX_ROUNDS} rounds" in result.stdout
    text = (project / "a.py").read_text()
    ast.parse(text)
    assert text.count("grow(") <= 2 ** MAX_ROUNDS + 1


def test_fix_that_breaks_the_code_leaves_the_file_untouched(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard", applicability="safe", replacement="safe_call("))
    write(project / "a.py", HAZARD.replace('print("x", x.shape)', "y = hazard(x)"))
    write(project / "b.py", HAZARD)
    before = (project / "a.py").read_bytes()
    result = invoke("check", "--fix", "a.py", "b.py")
    assert result.exit_code == 1
    assert (project / "a.py").read_bytes() == before
    assert "a.py: error: a fix produced code that does not parse" in result.stdout
    assert "file left unchanged" in result.stdout
    assert "a.py:7:13: BL901" in result.stdout  # the finding is still reported
    assert "is_compiling" in (project / "b.py").read_text()  # the other file was fixed


def test_latin1_file_keeps_its_encoding(project):
    source = "# -*- coding: latin-1 -*-\n" + HAZARD.replace('"x"', '"café"')
    (project / "a.py").write_bytes(source.encode("latin-1"))
    assert invoke("check", "--fix", "a.py").exit_code == 0
    data = (project / "a.py").read_bytes()
    assert b'"caf\xe9"' in data                  # still latin-1, not UTF-8's b"\xc3\xa9"
    text = data.decode("latin-1")
    assert text.startswith("# -*- coding: latin-1 -*-\n")
    assert "if not torch.compiler.is_compiling():" in text


def test_utf8_bom_is_kept(project):
    (project / "a.py").write_bytes(b"\xef\xbb\xbf" + HAZARD.encode())
    assert invoke("check", "--fix", "a.py").exit_code == 0
    data = (project / "a.py").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\xef\xbb\xbf") == 1


def test_crlf_line_endings_are_kept(project):
    (project / "a.py").write_bytes(HAZARD.replace("\n", "\r\n").encode())
    assert invoke("check", "--fix", "a.py").exit_code == 0
    data = (project / "a.py").read_bytes()
    assert b"is_compiling():\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


def test_permissions_are_kept_and_write_is_atomic(project):
    path = write(project / "a.py", HAZARD)
    os.chmod(path, 0o754)
    inode = os.stat(path).st_ino
    assert invoke("check", "--fix", "a.py").exit_code == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o754
    assert os.stat(path).st_ino != inode          # replaced by rename, not rewritten in place
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".breaklint-")) == []


def test_import_torch_is_added_once(project):
    source = '''"""Doc."""
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        print("a")
        print("b")
        return x
'''
    write(project / "a.py", source)
    assert invoke("check", "--fix", "a.py").exit_code == 0
    text = (project / "a.py").read_text()
    assert text.count("import torch\n") == 1
    assert text.startswith('"""Doc."""\nimport torch\nfrom torch import nn\n')  # isort's order
    assert text.count("if not torch.compiler.is_compiling():") == 1  # neighbours share one guard
    assert invoke("check", "--fix", "a.py").exit_code == 0
    assert (project / "a.py").read_text() == text


def test_import_torch_is_not_added_when_present_and_keeps_coding_line_first():
    assert ensure_imports("import torch\nx = 1\n", {"torch"}) == "import torch\nx = 1\n"
    assert ensure_imports("import torch as T\n", {"torch"}) == "import torch as T\nimport torch\n"
    source = "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nx = 1\n"
    assert ensure_imports(source, {"torch"}) == "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nimport torch\n\nx = 1\n"
    assert ensure_imports("x = 1\r\n", {"torch"}) == "import torch\r\n\r\nx = 1\r\n"


def test_form_feed_does_not_shift_rows(project):
    """str.splitlines() splits at \\x0c; Python does not. A fix after one must land on the right row."""
    write(project / "a.py", HAZARD.replace("    def forward", "    # \x0c section\n    def forward"))
    assert invoke("check", "--fix", "a.py").exit_code == 0
    text = (project / "a.py").read_text()
    assert "# \x0c section\n" in text and "        if not torch.compiler.is_compiling():\n" in text


def test_second_fix_changes_nothing_on_the_shipped_fixtures(tmp_path, monkeypatch):
    src = ROOT / "fixtures"
    if not src.is_dir():
        pytest.skip("no fixtures/ in this checkout")
    tree = tmp_path / "fixtures"
    shutil.copytree(src, tree)
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    first = invoke("check", "--fix", "--unsafe-fixes", "--no-cache", "fixtures")
    assert first.exit_code in (0, 1) and "error:" not in first.stdout, first.stdout
    assert "Fixed" in first.stdout
    after_first = {p: p.read_bytes() for p in tree.rglob("*.py")}
    for path, data in after_first.items():
        ast.parse(data)
    second = invoke("check", "--fix", "--unsafe-fixes", "--no-cache", "fixtures")
    assert "Fixed" not in second.stdout
    assert {p: p.read_bytes() for p in tree.rglob("*.py")} == after_first
    assert invoke("check", "--diff", "--unsafe-fixes", "--no-cache", "fixtures").stdout == ""


def test_fix_source_returns_original_on_failure():
    settings = LintSettings(rules=[fake_rule("BL901", "hazard", applicability="safe", replacement="(")()])
    source = HAZARD.replace('print("x", x.shape)', "y = hazard(x)")
    outcome = fix_source(source, "a.py", settings)
    assert outcome.source == source and not outcome.changed and outcome.error
    assert [f.code for f in outcome.remaining] == ["BL901"]
    assert lint_source(source, "a.py", settings)[0]


def test_broken_fix_that_needs_an_import_is_refused_not_an_internal_error():
    """ensure_imports runs before the parse check: it must not raise on the broken text."""
    from breaklint.rules import Rule

    class BrokenImportingFix(Rule):
        code, name, summary, node_types = "BL901", "broken", "fake", (ast.Call,)

        def check(self, node, ctx):
            if isinstance(node.func, ast.Name) and node.func.id == "hazard":
                ctx.report(node, "m", Fix("m", "safe", (ctx.replace(node, "torch.where("),), imports=("torch",)))

    source = "import torch\n\n@torch.compile\ndef f(x):\n    return hazard(x)\n"
    outcome = fix_source(source, "a.py", LintSettings(rules=[BrokenImportingFix()]))
    assert outcome.source == source and outcome.applied == 0
    assert outcome.error.startswith("a fix produced code that does not parse")
    assert [f.code for f in outcome.remaining] == ["BL901"]
