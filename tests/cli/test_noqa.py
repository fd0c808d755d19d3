"""`# noqa: BL201`, several codes, bare `# noqa`, file-level `# breaklint: noqa`."""
import pytest

from cli_helpers import HAZARD, fake_rule, invoke, json_findings, register, write

PRINT = '        print("x", x.shape)'


@pytest.mark.parametrize("comment,suppressed", [
    ("  # noqa: BL201", True),
    ("  # noqa:BL201", True),
    ("  # NOQA: bl201", True),
    ("  # noqa: E501, BL201", True),     # several codes (ruff's and ours side by side)
    ("  # noqa: E501,BL201,BL202", True),
    ("  # noqa", True),                   # bare: everything on the line
    ("  # noqa: BL202", False),           # another code
    ("  # noqa: E501", False),
    ("  # no qa", False),
])
def test_line_noqa(project, comment, suppressed):
    write(project / "a.py", HAZARD.replace(PRINT, PRINT + comment))
    findings = json_findings("a.py")
    assert (findings == []) is suppressed, findings


def test_noqa_only_affects_its_line(project):
    text = HAZARD.replace(PRINT, PRINT + "  # noqa: BL201\n" + PRINT)
    write(project / "a.py", text)
    (finding,) = json_findings("a.py")
    assert finding["location"]["row"] == 8


def test_noqa_on_a_multiline_call_counts_on_its_last_line(project):
    text = HAZARD.replace(PRINT, '        print(\n            "x",\n        )  # noqa: BL201')
    write(project / "a.py", text)
    assert json_findings("a.py") == []


def test_noqa_with_several_codes_suppresses_only_those(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard"))
    write(project / "a.py", HAZARD.replace(PRINT, '        print(hazard(x))  # noqa: BL901'))
    assert [f["code"] for f in json_findings("a.py")] == ["BL201"]
    write(project / "a.py", HAZARD.replace(PRINT, '        print(hazard(x))  # noqa: BL901, BL201'))
    assert json_findings("a.py") == []


@pytest.mark.parametrize("header", ["# breaklint: noqa\n", "#breaklint:noqa\n", "# BREAKLINT: NOQA -- generated\n"])
def test_file_level_noqa(project, header):
    write(project / "a.py", header + HAZARD)
    assert json_findings("a.py") == []


def test_file_level_noqa_must_be_a_comment_line(project):
    write(project / "a.py", HAZARD + 'NOTE = "# breaklint: noqa"\n')
    assert len(json_findings("a.py")) == 1


def test_suppressed_findings_are_not_fixed(project):
    text = HAZARD.replace(PRINT, PRINT + "  # noqa: BL201")
    write(project / "a.py", text)
    result = invoke("check", "--fix", "a.py")
    assert result.exit_code == 0 and (project / "a.py").read_text() == text
