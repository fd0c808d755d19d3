"""#14 item 14: valid code is never rejected (deep expressions, CR-only files are in
tests/cli/test_writing_files.py) and --fix on a big file does work in proportion to its size."""
import sys

import breaklint.lint.engine
import breaklint.lint.fixloop
from breaklint.fix.edits import apply_edits
from breaklint.model import Edit, Fix, Location
from cli_helpers import HAZARD, invoke, json_findings, write


def test_a_2000_term_expression_is_linted_and_fixed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    deep = " + ".join(["x"] * 2000)
    path = write(tmp_path / "deep.py", HAZARD.replace("return x * 2", f"return {deep}"))
    assert [f["code"] for f in json_findings("--no-cache", "deep.py")] == ["BL201"]
    result = invoke("check", "--no-cache", "--fix", "deep.py")
    assert result.exit_code == 0, result.output
    assert "is_compiling" in path.read_text() and deep in path.read_text()
    assert sys.getrecursionlimit() < 10_000  # the raised limit was for that lint only


def _calls(function, *args) -> int:
    """Python-level calls and generator resumptions made by function(*args): a count, not a time."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    return count


def _one_fix_per_line(lines: int):
    source = "".join(f"a{i} = 1\n" for i in range(lines))
    fixes = [Fix("f", "safe", (Edit(Location(i + 1, 1), Location(i + 1, 1), "b"),)) for i in range(lines)]
    return source, fixes


def test_applying_many_fixes_is_near_linear():
    small = _calls(apply_edits, *_one_fix_per_line(500))
    large = _calls(apply_edits, *_one_fix_per_line(2000))
    assert large < 6 * small, (small, large)  # 4x the fixes: quadratic work would be 16x
    text, applied = apply_edits(*_one_fix_per_line(3))
    assert text == "ba0 = 1\nba1 = 1\nba2 = 1\n" and len(applied) == 3


def test_fix_reuses_the_checks_findings_and_checks_with_libcst_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "m.py", HAZARD)
    lints, final_checks, round_checks = [], [], []
    real_lint = breaklint.lint.fixloop.lint_source
    real_libcst_error = breaklint.lint.fixloop.libcst_error
    real_parse_error = breaklint.lint.fixloop.parse_error

    def counting_lint(*args, **kwargs):
        lints.append(1)
        return real_lint(*args, **kwargs)

    def counting_libcst_error(source):
        final_checks.append(1)
        return real_libcst_error(source)

    def counting_parse_error(source, libcst_too=True):
        round_checks.append(libcst_too)
        return real_parse_error(source, libcst_too)

    monkeypatch.setattr(breaklint.lint.fixloop, "lint_source", counting_lint)
    monkeypatch.setattr(breaklint.lint.fixloop, "libcst_error", counting_libcst_error)
    monkeypatch.setattr(breaklint.lint.fixloop, "parse_error", counting_parse_error)
    assert invoke("check", "--no-cache", "--fix", "m.py").exit_code == 0
    # One round applied the fix; the next lint found nothing more. The first round's findings came
    # from the check itself. Rounds are checked by Python's parser, the final text once by LibCST.
    assert len(lints) == 1 and round_checks == [False] and len(final_checks) == 1


def test_a_rule_switched_off_for_the_fix_is_not_applied_from_the_checks_findings(tmp_path, monkeypatch):
    """fix_paths seeds the fix loop with the check's findings, but only those of the rules the fix
    runs with (confirm's culprit search switches a rule off through per-file ignores)."""
    import dataclasses

    from breaklint.lint.config import Settings
    from breaklint.lint.runner import check_paths, fix_paths

    monkeypatch.chdir(tmp_path)
    path = write(tmp_path / "m.py", HAZARD)
    settings = Settings(root=str(tmp_path))
    result = check_paths([str(path)], settings, jobs=1, use_cache=False)
    assert [f.code for f in result.findings] == ["BL201"]
    without = dataclasses.replace(settings, per_file_ignores={"m.py": ["BL201"]})
    written = {}
    fix_paths(result, without, unsafe=False, write=False, sink=lambda p, text, enc: written.update({p: text}))
    assert written == {}
