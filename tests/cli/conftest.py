import pytest

from cli_helpers import make_project


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty project folder with `[tool.breaklint]`, as the current directory."""
    root = make_project(tmp_path / "proj")
    monkeypatch.chdir(root)
    return root
