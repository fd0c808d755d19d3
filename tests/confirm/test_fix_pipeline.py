"""confirm fixes with check's own pipeline (issue #13, bugs 3 and 4): the settings check loads,
files read and written with their encoding, and a missing dependency named as one."""
import json
import sys

import pytest

torch = pytest.importorskip("torch")
from click.testing import CliRunner  # noqa: E402

from breaklint.confirm.cli import confirm  # noqa: E402
from breaklint.confirm.pipeline import TargetReport  # noqa: E402

from . import targets  # noqa: E402

pytestmark = pytest.mark.torch
PRINT_NET = """\
# -*- coding: latin-1 -*-
import torch
from torch import nn


class PrintNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)

    def forward(self, x):
        x = self.a(x)
        print("activations (caf\xe9)", x.shape)
        return x.relu()


def factory():
    return PrintNet(), (torch.randn(4, 8),)
"""


def run(tmp_path, *args):
    out = tmp_path / "r.json"
    result = CliRunner().invoke(confirm, [*args, "--no-bench", "--json", str(out)], catch_exceptions=False)
    return result.exit_code, result.output, json.loads(out.read_text())["targets"][0]


def test_a_latin1_file_is_fixed_and_written_in_its_own_encoding(tmp_path, monkeypatch):
    model = tmp_path / "model.py"
    model.write_bytes(PRINT_NET.encode("latin-1"))
    monkeypatch.chdir(tmp_path)
    code, text, data = run(tmp_path, "model.py:factory", "--write")
    assert code == 0 and data["fixes_applied"] == 1 and data["outputs_equal"] is True, text
    written = model.read_bytes()
    assert "caf\xe9".encode("latin-1") in written and "torch.compiler.is_compiling()" in written.decode("latin-1")


def test_per_file_ignores_that_check_loads_keep_confirm_from_fixing(tmp_path, monkeypatch):
    (tmp_path / "model.py").write_bytes(PRINT_NET.encode("latin-1"))
    (tmp_path / "pyproject.toml").write_text('[tool.breaklint]\nper-file-ignores = {"model.py" = ["BL201"]}\n')
    monkeypatch.chdir(tmp_path)
    code, text, data = run(tmp_path, "model.py:factory")
    assert data["fixes_applied"] == 0 and data["fixable"] == 0, text
    assert len(data["after"]["breaks"] if data["after"] else data["before"]["breaks"]) == 1


def test_confirm_fixes_through_check_fix_paths(tmp_path, monkeypatch):
    from breaklint.lint import runner

    calls = []
    real = runner.fix_paths

    def spy(result, settings, unsafe, write, sink=None):
        calls.append((write, sink is not None))
        return real(result, settings, unsafe, write, sink)

    monkeypatch.setattr(runner, "fix_paths", spy)
    code, text, data = run(tmp_path, f"{targets.__file__}:print_net")
    assert calls == [(False, True)] and data["fixes_applied"] == 1, text


def test_missing_libcst_is_an_environment_error_not_bad_code(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "libcst", None)  # `import libcst` now fails
    code, text, data = run(tmp_path, f"{targets.__file__}:print_net")
    flat = " ".join(text.split())
    assert code == 1 and data["fixes_applied"] == 0
    assert "environment: libcst is not importable" in flat and "does not parse" not in flat
    assert "| ok" not in text and "│ ok" not in text


def test_fixable_findings_with_no_fix_applied_is_not_ok():
    r = TargetReport("t", fixable=2, fixes_applied=0, fix_errors=["/u/m.py: a fix produced code that does not parse"])
    assert r.exit_code == 1 and "2 finding(s) have a fix but none could be applied" in r.problems()[0]


def test_a_file_target_outside_a_package_keeps_its_unfixed_siblings(tmp_path, monkeypatch):
    # The shadow copy holds only what it fixes; `from helpers import scale` must still resolve.
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "helpers.py").write_text("def scale(x):\n    return x * 2\n")
    (proj / "model.py").write_text(PRINT_NET.replace("# -*- coding: latin-1 -*-\n", "from helpers import scale\n")
                                   .replace("return x.relu()", "return scale(x.relu())").replace("\xe9", "e"))
    monkeypatch.chdir(tmp_path)
    code, text, data = run(tmp_path, "proj/model.py:factory")
    assert code == 0 and data["fixes_applied"] == 1 and data["outputs_equal"] is True, text
    files = {m["name"]: m["file"] for m in data["modules"]["after"]}
    assert files["helpers"] == str(proj / "helpers.py") and "breaklint-confirm-" in files["breaklint_target_model"]
