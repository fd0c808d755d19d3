"""--fix (safe only), --unsafe-fixes, --diff, --show-fixes, and the exit codes around them."""
import pytest

from cli_helpers import CLEAN, FAKE_CALLS, HAZARD, codes, fake_rule, invoke, json_findings, register, write

GUARDED = HAZARD.replace('        print("x", x.shape)\n',
                         '        if not torch.compiler.is_compiling():\n            print("x", x.shape)\n')


@pytest.fixture
def mixed(project, monkeypatch):
    """a.py has a safe BL201 fix and an unsafe BL901 fix."""
    register(monkeypatch, fake_rule("BL901", "hazard", applicability="unsafe"))
    write(project / "a.py", FAKE_CALLS.replace("z = nobreak(x)", 'z = x\n        print("z")'))
    return project


def test_fix_applies_safe_fixes_only(mixed):
    result = invoke("check", "--fix", "a.py")
    text = (mixed / "a.py").read_text()
    assert "if not torch.compiler.is_compiling():" in text      # BL201 safe fix applied
    assert "hazard(x)" in text and "safe_call" not in text        # unsafe fix not applied
    assert result.exit_code == 1                                  # BL901 remains
    assert "BL901" in result.stdout and "BL201" not in result.stdout
    assert "Fixed 1 problem" in result.stdout


def test_unsafe_fixes_applies_both(mixed):
    result = invoke("check", "--fix", "--unsafe-fixes", "a.py")
    text = (mixed / "a.py").read_text()
    assert "safe_call(x)" in text and "is_compiling" in text
    assert result.exit_code == 0, result.output
    assert "Fixed 2 problems" in result.stdout


def test_fix_exit_zero_when_everything_fixed(project):
    write(project / "a.py", HAZARD)
    assert invoke("check", "--fix", "a.py").exit_code == 0
    assert (project / "a.py").read_text() == GUARDED
    again = invoke("check", "--fix", "a.py")                    # a second --fix changes nothing
    assert again.exit_code == 0 and (project / "a.py").read_text() == GUARDED


def test_diff_writes_nothing_and_exits_1(project):
    write(project / "a.py", HAZARD)
    result = invoke("check", "--diff", "a.py")
    assert result.exit_code == 1
    assert (project / "a.py").read_text() == HAZARD
    assert result.stdout.startswith("--- a/a.py\n+++ b/a.py\n")
    assert '+        if not torch.compiler.is_compiling():' in result.stdout
    assert '-        print("x", x.shape)' in result.stdout
    assert "Would fix 1 problem in 1 file." in result.stderr


def test_diff_names_a_file_outside_the_current_folder_by_its_absolute_path(project, tmp_path):
    """`a/../other/a.py` applied nowhere; `patch -p0` applies an absolute path from anywhere."""
    other = tmp_path / "other"
    other.mkdir()
    write(other / "a.py", HAZARD)
    result = invoke("check", "--diff", str(other / "a.py"))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"--- {other / 'a.py'}\n+++ {other / 'a.py'}\n")
    assert "../" not in result.stdout


def test_diff_with_fix_still_writes_nothing(project):
    write(project / "a.py", HAZARD)
    assert invoke("check", "--diff", "--fix", "a.py").exit_code == 1
    assert (project / "a.py").read_text() == HAZARD


def test_diff_exits_0_when_nothing_to_fix(project):
    write(project / "a.py", CLEAN)
    result = invoke("check", "--diff", "a.py")
    assert result.exit_code == 0 and result.stdout == ""


def test_diff_shows_unsafe_fixes_only_when_asked(mixed):
    safe_only = invoke("check", "--diff", "--select", "BL901", "a.py")
    assert safe_only.exit_code == 0 and "safe_call" not in safe_only.stdout
    with_unsafe = invoke("check", "--diff", "--unsafe-fixes", "--select", "BL901", "a.py")
    assert with_unsafe.exit_code == 1 and "+        y = safe_call(x)" in with_unsafe.stdout
    assert "hazard(x)" in (mixed / "a.py").read_text()


def test_show_fixes_lists_available_fixes(mixed):
    plain = invoke("check", "a.py")
    assert "Available fixes" not in plain.stdout
    result = invoke("check", "--show-fixes", "a.py")
    assert "Available fixes:" in result.stdout
    assert "BL201 Run print() only when not compiling (safe)" in result.stdout
    assert "BL901 Replace hazard() (unsafe)" in result.stdout


def test_show_fixes_with_fix_lists_applied_fixes(mixed):
    result = invoke("check", "--fix", "--show-fixes", "a.py")
    assert "Fixed 1 problems:" in result.stdout or "Fixed 1 problem" in result.stdout
    assert "- a.py:" in result.stdout and "1 x Run print() only when not compiling" in result.stdout
    assert "Replace hazard()" not in result.stdout.split("Fixed")[1]  # unsafe: not applied


def test_fix_labels_in_text_report(mixed):
    result = invoke("check", "a.py")
    lines = result.stdout.splitlines()
    assert any(line.startswith("a.py:7:13: BL901 [unsafe] hazard() is a fake hazard") for line in lines)
    assert any(line.startswith("a.py:9:9: BL201 [*] print() breaks the graph") for line in lines)
    assert "1 fixable with --fix. 1 more with --unsafe-fixes." in result.stdout


def test_fix_reports_remaining_per_file_ignores(project):
    (project / "pyproject.toml").write_text('[tool.breaklint]\nper-file-ignores = {"b.py" = ["BL2"]}\n')
    write(project / "a.py", HAZARD)
    write(project / "b.py", HAZARD)
    findings = json_findings("--fix", ".")
    assert findings == []                       # a.py fixed, b.py ignored by prefix
    assert (project / "b.py").read_text() == HAZARD
    assert codes(json_findings(".", "--no-cache")) == []


def test_fix_leaves_per_file_ignored_hazards_alone(project):
    """A rule ignored for a file must not fix it, even when another rule's fix runs the fix loop."""
    (project / "pyproject.toml").write_text('[tool.breaklint]\nper-file-ignores = {"b.py" = ["BL201"]}\n')
    both = HAZARD.replace('        return x * 2\n', '        warnings.warn("slow")\n        return x * 2\n')
    write(project / "b.py", "import warnings\n" + both)
    assert invoke("check", "--fix", "--no-cache", "b.py").exit_code == 0
    guarded = '        if not torch.compiler.is_compiling():\n            warnings.warn("slow")\n'
    # BL203 guarded; BL201 is ignored here, so its print stays as it was.
    assert (project / "b.py").read_text() == "import warnings\n" + both.replace('        warnings.warn("slow")\n', guarded)
