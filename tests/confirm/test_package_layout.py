"""A target inside a package (issue #13, bug 1): the model in mypkg/model.py, the factory in
mypkg/bench.py doing `from mypkg.model import Net`. Named by path or by module, confirm must verify
the fixed copy (its files are the ones imported) and report the same breaks before and after."""
import json
import os
import shutil

import pytest

torch = pytest.importorskip("torch")
from click.testing import CliRunner  # noqa: E402

from breaklint.confirm.cli import confirm  # noqa: E402

pytestmark = pytest.mark.torch
EXAMPLE = os.path.join(os.path.dirname(__file__), "pkg_layout")


@pytest.fixture
def layout(tmp_path, monkeypatch):
    root = tmp_path / "pkg_layout"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(root)
    return root


def confirm_json(target, out, *extra):
    result = CliRunner().invoke(confirm, [target, "--no-bench", "--unsafe-fixes", "--json", str(out), *extra],
                                catch_exceptions=False)
    return result.exit_code, result.output, json.loads(out.read_text())["targets"][0]


def module_file(data, when, name):
    [m] = [m for m in data["modules"][when] if m["name"] == name]
    return m["file"]


def sites(obs):
    return sorted((os.path.basename(b["file"]), b["line"]) for b in obs["breaks"])


def test_path_and_module_forms_verify_the_fixed_copy_and_agree(layout, tmp_path):
    model = str(layout / "mypkg" / "model.py")
    by_path = confirm_json("mypkg/bench.py:factory", tmp_path / "path.json")
    by_module = confirm_json("mypkg.bench:factory", tmp_path / "module.json")
    for code, text, data in (by_path, by_module):
        assert data["failure"] is None, text
        # The original ran from the user's files; the verification ran the fixed copies.
        assert module_file(data, "before", "mypkg.model") == model
        after = module_file(data, "after", "mypkg.model")
        assert after != model and after.endswith(os.path.join("mypkg", "model.py"))
        assert "breaklint-confirm-" in after  # the fixed copy in confirm's work folder
        assert len(data["before"]["breaks"]) == 3 and data["after"]["breaks"] == [], text
        assert data["outputs_equal"] is True and data["fixes_applied"] >= 3
        assert code == 0 and data["problems"] == [], text
    assert sites(by_path[2]["before"]) == sites(by_module[2]["before"])
    assert sites(by_path[2]["after"]) == sites(by_module[2]["after"])


def test_remaining_breaks_are_named_at_the_users_lines_and_unsafe_fixes_suggested(layout, tmp_path):
    out = tmp_path / "safe.json"
    result = CliRunner().invoke(confirm, ["mypkg/bench.py:factory", "--no-bench", "--json", str(out)],
                                catch_exceptions=False)
    data = json.loads(out.read_text())["targets"][0]
    model = str(layout / "mypkg" / "model.py")
    branch = next(i for i, t in enumerate(open(model), 1) if t.rstrip().endswith("# BREAK:branch"))
    [left] = data["after"]["breaks"]
    # The fix above it added lines: the fixed text has the break lower down; the report names the user's line.
    assert (left["file"], left["line"]) == (model, branch) and left["fixed_line"] > branch
    flat = " ".join(result.output.split())
    assert f"mypkg/model.py:{branch}" in flat
    assert "1 break remains" in flat and "`--unsafe-fixes` has fixes for it" in flat
    assert result.exit_code == 1
