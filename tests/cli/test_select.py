"""--select / --ignore / --extend-select with codes, prefixes and comma lists; verdict-gated rules."""
import pytest

from cli_helpers import FAKE_CALLS, HAZARD, codes, fake_rule, invoke, json_findings, register, write


@pytest.fixture
def tree(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard"), fake_rule("BL911", "hazard2"))
    write(project / "a.py", FAKE_CALLS.replace("z = nobreak(x)", "z = hazard2(x)\n        print(z)"))
    return project


OURS = {"BL201", "BL901", "BL911"}


def found(*args):
    """Codes found, among the three this file is built to trigger (other rules may add their own)."""
    return [c for c in codes(json_findings(*args)) if c in OURS]


def test_default_selects_all_rules(tree):
    assert found("a.py") == ["BL201", "BL901", "BL911"]


@pytest.mark.parametrize("args,expected", [
    (["--select", "BL901"], ["BL901"]),
    (["--select", "BL9"], ["BL901", "BL911"]),            # prefix
    (["--select", "BL91"], ["BL911"]),
    (["--select", "BL201,BL911"], ["BL201", "BL911"]),     # comma list
    (["--select", "BL201", "--select", "BL901"], ["BL201", "BL901"]),  # repeated option
    (["--select", "bl201"], ["BL201"]),                    # case-insensitive
    (["--ignore", "BL9"], ["BL201"]),
    (["--ignore", "BL901,BL201"], ["BL911"]),
    (["--select", "BL9", "--ignore", "BL911"], ["BL901"]),
    (["--select", "BL911", "--extend-select", "BL201"], ["BL201", "BL911"]),
    (["--select", "BL2", "--extend-select", "BL90,BL91"], ["BL201", "BL901", "BL911"]),
    (["--ignore", "BL"], []),
])
def test_selection(tree, args, expected):
    assert found(*args, "a.py") == expected


def test_more_specific_select_beats_shorter_ignore(tree):
    # ruff's rule: the longest matching prefix wins; BL901 is selected exactly, BL9 is ignored.
    assert found("--ignore", "BL9", "--extend-select", "BL901", "a.py") == ["BL201", "BL901"]


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
def test_unknown_code_is_a_usage_error(tree, option):
    result = invoke("check", option, "BL999", "a.py")
    assert result.exit_code == 2
    assert "BL999" in result.stderr and option in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_rule_that_does_not_break_on_target_is_off_unless_selected_by_exact_code(project, monkeypatch):
    register(monkeypatch, fake_rule("BL902", "nobreak", verdicts={"2.11": True, "2.13": False}))
    write(project / "a.py", FAKE_CALLS)
    assert "BL902" not in codes(json_findings("--target-torch", "2.13", "a.py"))
    assert "BL902" not in codes(json_findings("--target-torch", "2.13", "--select", "BL9", "a.py"))
    assert "BL902" not in codes(json_findings("--target-torch", "2.13", "--select", "BL", "a.py"))
    assert codes(json_findings("--target-torch", "2.13", "--select", "BL902", "a.py")) == ["BL902"]
    assert "BL902" in codes(json_findings("--target-torch", "2.13", "--extend-select", "BL902", "a.py"))
    # On a torch where the pattern does break, the prefix selection enables it.
    assert "BL902" in codes(json_findings("--target-torch", "2.11", "a.py"))
    assert "BL902" in codes(json_findings("--target-torch", "2.12", "a.py"))  # nearest measured at or below


def test_bad_target_torch_is_a_usage_error(project):
    write(project / "a.py", HAZARD)
    result = invoke("check", "--target-torch", "two", "a.py")
    assert result.exit_code == 2 and "--target-torch" in result.stderr


def test_bl303_does_not_break_on_any_measured_torch_so_it_is_off_by_default(project):
    from breaklint.rules import rule_by_code

    bl303 = rule_by_code("BL303")
    if bl303 is None:
        pytest.skip("BL303 is not in the catalogue")
    assert bl303.breaks_on("2.13") is False
    write(project / "a.py", bl303.INVALID[0].code)
    assert "BL303" not in codes(json_findings("a.py"))
    assert "BL303" not in codes(json_findings("--select", "BL3", "a.py"))
    assert codes(json_findings("--select", "BL303", "a.py")) == ["BL303"]
