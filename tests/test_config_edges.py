"""#14 item 13: configuration edge cases get one clear line (exit 2) or the behaviour users expect."""
import os

import pytest

from breaklint.lint.config import find_pyproject
from cli_helpers import HAZARD, invoke, write


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def one_line_error(result):
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, (result.exit_code, result.output)
    return lines[0]


def test_tool_that_is_not_a_table_is_a_one_line_error(here):
    (here / "pyproject.toml").write_text("tool = 5\n")
    write(here / "a.py", HAZARD)
    assert "'tool' must be a table" in one_line_error(invoke("check", "a.py"))


def test_a_broken_unrelated_pyproject_in_a_parent_folder_is_skipped(here):
    (here / "pyproject.toml").write_text("[project\nname = \n")  # someone else's broken file
    write(here / "proj" / "a.py", HAZARD)
    result = invoke("check", "proj/a.py")
    assert result.exit_code == 1 and "BL201" in result.output and "error" not in result.stderr


def test_a_broken_pyproject_that_configures_breaklint_is_still_an_error(here):
    (here / "pyproject.toml").write_text("[tool.breaklint]\nselect = [\n")
    write(here / "a.py", HAZARD)
    assert "cannot read TOML" in one_line_error(invoke("check", "a.py"))


def test_search_stops_at_the_repository_root(here):
    (here / "pyproject.toml").write_text('[tool.breaklint]\nignore = ["BL201"]\n')
    repo = here / "checkout"
    (repo / ".git").mkdir(parents=True)
    write(repo / "a.py", HAZARD)
    assert find_pyproject(str(repo / "a.py")) is None
    assert "BL201" in invoke("check", "checkout/a.py").output


def test_an_empty_selector_is_an_error(here):
    (here / "pyproject.toml").write_text('[tool.breaklint]\nselect = [""]\n')
    write(here / "a.py", HAZARD)
    assert "empty rule code" in one_line_error(invoke("check", "a.py"))


def test_an_unlistable_folder_is_reported(here, monkeypatch):
    write(here / "pkg" / "a.py", HAZARD)
    write(here / "pkg" / "locked" / "b.py", HAZARD)
    real_scandir = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = invoke("check", "--no-cache", "pkg")
    assert "cannot list folder: Permission denied" in result.output and "locked" in result.output
