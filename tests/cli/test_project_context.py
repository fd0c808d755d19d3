"""#14 item 3: given only changed files (as pre-commit passes them), `check` builds the call graph from
the whole project and reports only the findings in those files; a warm run relints only what changed."""
import subprocess

from cli_helpers import invoke, write

MODEL = '''import torch
from torch import nn

from .helpers import scale


class Net(nn.Module):
    def forward(self, x):
        print("model", x)
        return scale(x)
'''
HELPERS = '''def scale(x):
    print("helper", x)
    n = x.sum().item()
    return x * n
'''


def _repo(root):
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    write(root / "lib" / "pkg" / "__init__.py", "")
    write(root / "lib" / "pkg" / "model.py", MODEL)
    write(root / "lib" / "pkg" / "helpers.py", HELPERS)


def _found(result):
    return sorted(line.split(" ")[0:2][1] + "@" + line.split(":")[0] for line in result.stdout.splitlines()
                  if ": BL" in line)


def test_a_changed_helper_is_judged_with_its_callers(tmp_path, monkeypatch):
    _repo(tmp_path)  # no configuration: the repository root is the project
    monkeypatch.chdir(tmp_path)
    result = invoke("check", "-q", "lib/pkg/helpers.py")
    assert _found(result) == ["BL103@lib/pkg/helpers.py", "BL201@lib/pkg/helpers.py"], result.output
    assert "model.py" not in result.stdout  # only the named file is reported
    isolated = invoke("check", "-q", "--no-project-context", "lib/pkg/helpers.py")
    assert _found(isolated) == []


def test_warm_run_relints_only_the_changed_file(tmp_path, monkeypatch):
    import breaklint.lint.engine

    _repo(tmp_path)
    for i in range(20):
        write(tmp_path / "lib" / "pkg" / f"other{i}.py", f"def f{i}(x):\n    return x + {i}\n")
    monkeypatch.chdir(tmp_path)
    invoke("check", "-j", "1", "lib/pkg/helpers.py")
    calls = []
    real = breaklint.lint.engine.lint_file

    def counting(path, *args):
        calls.append(path)
        return real(path, *args)

    monkeypatch.setattr(breaklint.lint.engine, "lint_file", counting)
    helpers = tmp_path / "lib" / "pkg" / "helpers.py"
    helpers.write_text(HELPERS + "# changed\n")
    result = invoke("check", "-q", "-j", "1", "lib/pkg/helpers.py")
    assert _found(result) == ["BL103@lib/pkg/helpers.py", "BL201@lib/pkg/helpers.py"]
    assert {p.rsplit("/", 1)[-1] for p in calls} <= {"helpers.py", "model.py"}, calls
