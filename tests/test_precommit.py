"""The real pre-commit (from PyPI) runs breaklint's hook from this checkout on a temporary git repository:
the hook fails on a hazard, passes after `breaklint check --fix`, and its environment has no torch."""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

from cli_helpers import CLEAN, HAZARD, ROOT, invoke

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None, reason="pre-commit is not installed"),
    pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                       reason="needs git and a git checkout of breaklint"),
]


def git(*args, cwd):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=env)


def test_hook_fails_on_a_hazard_then_passes_after_fix(tmp_path, monkeypatch):
    rev = git("rev-parse", "HEAD", cwd=ROOT).stdout.strip()
    repo = tmp_path / "user-repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    (repo / "model.py").write_text(HAZARD)
    (repo / "clean.py").write_text(CLEAN)
    (repo / "stubs.pyi").write_text("def f(x: int) -> int: ...\n")
    (repo / "notes.txt").write_text("def this is not python(:\n")  # not python: the hook never sees it
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: breaklint\n")
    git("add", ".", cwd=repo)
    home = tmp_path / "pre-commit-home"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")

    def run_hook():
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=repo,
                              capture_output=True, text=True, env=env, timeout=600)

    first = run_hook()
    assert first.returncode == 1, first.stdout + first.stderr
    assert "breaklint" in first.stdout and "Failed" in first.stdout
    assert "model.py:7:9: BL201" in first.stdout
    assert "notes.txt" not in first.stdout

    monkeypatch.chdir(repo)
    assert invoke("check", "--fix", "model.py").exit_code == 0
    assert "is_compiling" in (repo / "model.py").read_text()

    second = run_hook()
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout

    # The hook's environment installed breaklint and its runtime dependencies, never torch.
    site_dirs = list(home.glob("repo*/py_env-*/lib/python*/site-packages"))
    assert site_dirs, list(home.rglob("site-packages"))
    installed = {p.name.lower() for p in site_dirs[0].iterdir()}
    assert "breaklint" in installed and "libcst" in installed
    assert "torch" not in installed


README_HELPERS = '''def scale(x):
    print("helper", x)
    return x * 2
'''
README_MODEL = '''import torch
from torch import nn

from .helpers import scale


class Net(nn.Module):
    def forward(self, x):
        return scale(x)
'''


def test_readme_snippet_against_a_local_clone_sees_callers_of_a_changed_file(tmp_path):
    """The README's pre-commit snippet, as written (its two placeholders filled in with a clone and
    a commit): a commit that changes only helpers.py fails on the print that Net.forward reaches."""
    readme = (ROOT / "README.md").read_text()
    snippet = readme.split("### pre-commit", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "/path/to/breaklint" in snippet and "rev: COMMIT" in snippet
    clone = tmp_path / "breaklint-clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, capture_output=True)
    rev = git("rev-parse", "HEAD", cwd=clone).stdout.strip()
    repo = tmp_path / "user-repo"
    (repo / "pkg").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "model.py").write_text(README_MODEL)
    (repo / "pkg" / "helpers.py").write_text("def scale(x):\n    return x * 2\n")
    (repo / ".pre-commit-config.yaml").write_text(
        snippet.replace("/path/to/breaklint", str(clone)).replace("rev: COMMIT", f"rev: {rev}"))
    git("add", ".", cwd=repo)
    git("commit", "-q", "-m", "start", cwd=repo)
    (repo / "pkg" / "helpers.py").write_text(README_HELPERS)
    git("add", "pkg/helpers.py", cwd=repo)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PRE_COMMIT_COLOR="never")
    run = subprocess.run([sys.executable, "-m", "pre_commit", "run"], cwd=repo, capture_output=True, text=True,
                         env=env, timeout=600)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "pkg/helpers.py:2:5: BL201" in run.stdout
    assert "model.py" not in run.stdout.split("breaklint", 1)[1]
