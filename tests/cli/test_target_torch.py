"""#14 item 7: a --target-torch with no measured verdicts is refused, one between measured releases
is judged by the nearest one and says so, and --select ALL means every rule."""
from breaklint.lint.config import Settings, with_overrides
from cli_helpers import HAZARD, invoke, write


def test_a_target_older_than_every_measurement_is_refused(project):
    write(project / "a.py", HAZARD)
    for version in ("1.0", "2.0"):
        result = invoke("check", "--target-torch", version, "a.py")
        assert result.exit_code == 2 and "no verdicts were measured" in result.stderr and "2.11" in result.stderr
    (project / "pyproject.toml").write_text('[tool.breaklint]\ntarget-torch = "2.0"\n')
    assert invoke("check", "a.py").exit_code == 2


def test_an_unmeasured_target_names_the_release_that_judges_it(project):
    write(project / "a.py", HAZARD)
    result = invoke("check", "--target-torch", "2.14", "a.py")
    assert result.exit_code == 1 and "judging by torch 2.13" in result.stderr
    assert "judging" not in invoke("check", "--target-torch", "2.13", "a.py").stderr


def test_select_all_means_every_rule():
    settings = with_overrides(Settings(), select=["ALL"], target_torch="2.13")
    assert "BL303" in {rule.code for rule in settings.enabled_rules()}
    assert "BL303" not in {rule.code for rule in with_overrides(Settings(), target_torch="2.13").enabled_rules()}
