"""`breaklint rules`, `breaklint rule BLxxx`, and the rule pages in a real non-editable install."""
import json
import os
import subprocess
import venv

import pytest

from breaklint.rules import all_rules
from cli_helpers import ROOT, fake_rule, invoke, register


def test_rules_lists_every_rule():
    result = invoke("rules", "--output-format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [r["code"] for r in data["rules"]] == [r.code for r in all_rules()]
    bl201 = next(r for r in data["rules"] if r["code"] == "BL201")
    assert bl201["name"] == "print-in-compiled-code" and bl201["fix"] == "safe" and bl201["breaks"] == "breaks"
    text = invoke("rules")
    assert text.exit_code == 0 and "BL201" in text.stdout and "print-in-compiled-code" in text.stdout


def test_rules_shows_verdicts_for_the_target_torch(monkeypatch):
    register(monkeypatch, fake_rule("BL902", "nobreak", verdicts={"2.11": True, "2.13": False}))
    by_version = {}
    for version in ("2.11", "2.13"):
        data = json.loads(invoke("rules", "--output-format", "json", "--target-torch", version).stdout)
        assert data["torch"] == version
        by_version[version] = next(r["breaks"] for r in data["rules"] if r["code"] == "BL902")
    assert by_version == {"2.11": "breaks", "2.13": "no break"}


def test_rule_prints_its_page():
    result = invoke("rule", "BL201")
    assert result.exit_code == 0
    assert result.stdout.startswith("# BL201: print-in-compiled-code")
    assert "## Why does it break the graph" in result.stdout
    assert invoke("rule", "bl201").stdout == result.stdout


def test_rule_unknown_code_or_missing_page_exits_2(monkeypatch):
    unknown = invoke("rule", "BL999")
    assert unknown.exit_code == 2 and "unknown rule code 'BL999'" in unknown.stderr
    register(monkeypatch, fake_rule("BL998", "x"))
    missing = invoke("rule", "BL998")
    assert missing.exit_code == 2 and "no page found for BL998" in missing.stderr


@pytest.mark.slow
def test_non_editable_install_ships_pages_and_no_torch(tmp_path):
    """`pip install .` (not -e) into a fresh venv: the console script works outside the checkout,
    `breaklint rule` finds its page inside the installed package, and torch was not pulled in."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bindir = env_dir / "bin"
    pip = subprocess.run([str(bindir / "python"), "-m", "pip", "install", "-q", str(ROOT)],
                         capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-3000:]
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    page = subprocess.run([str(bindir / "breaklint"), "rule", "BL201"], cwd=outside, capture_output=True,
                          text=True, env=env)
    assert page.returncode == 0, page.stderr
    assert page.stdout.startswith("# BL201: print-in-compiled-code")
    where = subprocess.run([str(bindir / "python"), "-c",
                            "import breaklint, importlib.util; print(breaklint.__file__); "
                            "print(importlib.util.find_spec('torch'))"],
                           cwd=outside, capture_output=True, text=True, env=env)
    module_file, torch_spec = where.stdout.split()
    assert str(env_dir) in module_file and "site-packages" in module_file  # not the checkout
    assert torch_spec == "None"
    (outside / "m.py").write_text((ROOT / "tests" / "cli_helpers.py").read_text().split("HAZARD = '''")[1]
                                  .split("'''")[0])
    check = subprocess.run([str(bindir / "breaklint"), "check", "--no-cache", "m.py"], cwd=outside,
                           capture_output=True, text=True, env=env)
    assert check.returncode == 1 and "BL201" in check.stdout, check.stdout + check.stderr


def test_rules_says_what_a_recompile_or_cudagraph_verdict_means():
    """BL6xx count compiles and BL7xx CUDA-graph replays: their column must not claim a graph break."""
    data = json.loads(invoke("rules", "--output-format", "json").stdout)
    words = {r["code"]: (r["verdict_kind"], r["breaks"]) for r in data["rules"]}
    for rule in all_rules():
        kind, word = words[rule.code]
        assert kind == rule.verdict_kind
        if rule.verdict_kind != "breaks":
            assert word != "breaks", rule.code
    assert words["BL602"] == ("recompiles", "recompiles")
