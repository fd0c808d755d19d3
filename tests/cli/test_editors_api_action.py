"""#14 item 6: `check -` with --stdin-filename (editors), the public `breaklint.check` API, and the
composite GitHub Action with its example workflow."""
import os
import stat
import subprocess
import sys

import pytest

import breaklint
from cli_helpers import HAZARD, ROOT, invoke, write

yaml = pytest.importorskip("yaml")


def test_stdin_is_linted_as_the_named_file(project):
    result = invoke("check", "-", "--stdin-filename", "app/model.py", input=HAZARD)
    assert result.exit_code == 1 and "app/model.py:7:9: BL201" in result.stdout
    # The named file's settings apply: per-file ignores match its name.
    (project / "pyproject.toml").write_text('[tool.breaklint.per-file-ignores]\n"app/*" = ["BL201"]\n')
    assert invoke("check", "-", "--stdin-filename", "app/model.py", input=HAZARD).exit_code == 0


def test_stdin_fix_prints_the_fixed_text_and_writes_nothing(project):
    result = invoke("check", "--fix", "-", "--stdin-filename", "model.py", input=HAZARD)
    assert result.exit_code == 0
    assert "if not torch.compiler.is_compiling():" in result.stdout and result.stdout.startswith("import torch")
    assert not (project / "model.py").exists()
    assert invoke("check", "-", "other.py", input=HAZARD).exit_code == 2


def test_public_api(project):
    write(project / "model.py", HAZARD)
    assert "check" in breaklint.__all__ and "Finding" in breaklint.__all__
    findings = breaklint.check(["model.py"])
    assert [type(f) for f in findings] == [breaklint.Finding] and findings[0].code == "BL201"
    assert breaklint.check(["model.py"], ignore=["BL2"]) == []
    assert breaklint.check(["unsaved.py"], source=HAZARD)[0].row == 7
    with pytest.raises(ValueError):
        breaklint.check(["model.py"], select=["BL999"])
    assert not (project / ".breaklint_cache").exists()


def test_importing_and_checking_never_imports_torch(project):
    write(project / "model.py", HAZARD)
    code = "import sys, breaklint; f = breaklint.check(['model.py']); print(len(f), 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert out.stdout.split() == ["1", "False"], out.stderr


def test_action_and_example_workflow(project, tmp_path):
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    assert 'pip install --quiet "$GITHUB_ACTION_PATH"' in steps[0]["run"]
    workflow = yaml.safe_load((ROOT / "examples" / "github-workflow.yml").read_text())
    used = [s for s in workflow["jobs"]["breaklint"]["steps"] if "breaklint@" in s.get("uses", "")]
    assert len(used) == 1 and set(used[0].get("with", {})) <= set(action["inputs"])

    # Run the action's check step as the runner would: inputs through the environment, with a
    # `breaklint` on PATH that is this checkout.
    shim = tmp_path / "bin" / "breaklint"
    shim.parent.mkdir()
    shim.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT / 'src'} exec {sys.executable} -m breaklint \"$@\"\n")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    write(project / "models" / "model.py", HAZARD)
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs.update(used[0]["with"])
    env = dict(os.environ, PATH=f"{shim.parent}:{os.environ['PATH']}")
    for key, value in steps[1]["env"].items():
        name = value.split("inputs.")[1].rstrip("} ").strip()
        env[key] = inputs[name]
    run = subprocess.run(["bash", "-c", steps[1]["run"]], cwd=project, capture_output=True, text=True, env=env)
    assert run.returncode == 1
    assert "file=models/model.py,line=7" in run.stdout, run.stdout
