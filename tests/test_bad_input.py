"""Bad input never crashes the run, `check` never imports or runs the code it lints, never imports torch."""
import json
import os
import subprocess
import sys

import pytest

from cli_helpers import HAZARD, ROOT, fake_rule, invoke, make_project, register, write


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = make_project(tmp_path / "proj")
    monkeypatch.chdir(root)
    return root


def lint(*paths):
    result = invoke("check", "--no-cache", "--output-format", "json", *paths)
    return result, json.loads(result.stdout)


def test_each_bad_file_is_reported_and_the_rest_is_linted(project):
    write(project / "good.py", HAZARD)
    write(project / "syntax.py", "def broken(:\n    pass\n")
    (project / "latin.py").write_bytes(b"x = '\xe9'\n")                       # not UTF-8, no coding line
    (project / "binary.py").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe")
    write(project / "empty.py", "")
    result, findings = lint(".", "does/not/exist.py")
    assert result.exit_code == 1
    assert [(os.path.basename(f["filename"]), f["code"]) for f in findings] == [("good.py", "BL201")]
    errors = {line.split(": error: ")[0]: line.split(": error: ")[1] for line in result.stderr.splitlines()}
    assert errors["syntax.py"].startswith("syntax error at line 1")
    assert "not valid utf-8 text" in errors["latin.py"]
    assert "binary file" in errors["binary.py"]
    assert errors[os.path.join("does", "not", "exist.py")] == "no such file or directory"
    assert "empty.py" not in errors
    assert len(errors) == 4


def test_text_report_names_each_problem(project):
    write(project / "good.py", HAZARD)
    write(project / "syntax.py", "x = (\n")
    result = invoke("check", "--no-cache", ".", "missing_dir")
    assert result.exit_code == 1
    assert "syntax.py: error: syntax error at line 1" in result.stdout
    assert "missing_dir: error: no such file or directory" in result.stdout
    assert "good.py:7:9: BL201" in result.stdout
    assert "Found 1 problem in 1 file; 2 errors." in result.stdout


def test_empty_file_and_only_comments_are_clean(project):
    write(project / "empty.py", "")
    write(project / "comments.py", "# nothing here\n")
    write(project / "no_newline.py", "x = 1")
    result, findings = lint(".")
    assert result.exit_code == 0 and findings == [] and result.stderr == ""


def test_a_crashing_rule_is_an_internal_error_exit_2_and_other_files_still_lint(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard", crash=True))
    write(project / "crash.py", HAZARD.replace('print("x", x.shape)', "y = hazard(x)"))
    write(project / "good.py", HAZARD)
    result, findings = lint(".")
    assert result.exit_code == 2
    assert [os.path.basename(f["filename"]) for f in findings] == ["good.py"]
    assert "crash.py: error: internal error (RuntimeError: rule bug" in result.stderr


def test_linted_code_is_never_imported_or_run(project, tmp_path):
    marker = tmp_path / "was_run"
    write(project / "evil.py", f'''import os
open({str(marker)!r}, "w").write("ran")
raise SystemExit(3)
''' + HAZARD)
    write(project / "conftest.py", "import sys\nsys.exit(4)\n")
    write(project / "__init__.py", "raise RuntimeError('imported')\n")
    result, findings = lint(".")
    assert result.exit_code == 1
    assert [os.path.basename(f["filename"]) for f in findings] == ["evil.py"]
    assert not marker.exists()


def test_check_never_imports_torch(project):
    write(project / "model.py", HAZARD)
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from breaklint.cli import main\n"
        "r = CliRunner().invoke(main, ['check', '--no-cache', '--output-format', 'json', '.'])\n"
        "assert r.exit_code == 1, r.output\n"
        "assert 'BL201' in r.stdout\n"
        "r = CliRunner().invoke(main, ['check', '--fix', '.'])\n"
        "assert r.exit_code == 0, r.output\n"
        "r = CliRunner().invoke(main, ['rules'])\n"
        "assert r.exit_code == 0, r.output\n"
        "leaked = sorted(m for m in sys.modules if m == 'torch' or m.startswith('torch.'))\n"
        "assert not leaked, leaked\n"
        "print('ok')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    assert "is_compiling" in (project / "model.py").read_text()


def test_dangling_symlink_is_reported(project):
    write(project / "good.py", HAZARD)
    os.symlink(project / "gone.py", project / "dangling.py")
    result, findings = lint(".")
    assert result.exit_code == 1 and len(findings) == 1
    assert "dangling.py: error: No such file or directory" in result.stderr
