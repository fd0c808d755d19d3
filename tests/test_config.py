"""[tool.breaklint]: discovery from the linted path upwards, every key, --config, and one-line errors."""

import pytest

from breaklint.lint.config import ConfigError, find_pyproject, load_settings
from cli_helpers import HAZARD, invoke, json_findings, write

MODULE_BASE = '''class Base:
    pass


class Net(Base):
    def forward(self, x):
        print(x)
        return x
'''
CUSTOM_COMPILE = '''from mylib import my_compile


@my_compile
def step(x):
    print(x)
    return x
'''


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pyproject(folder, body, tool=True):
    folder.mkdir(parents=True, exist_ok=True)
    text = ("[tool.breaklint]\n" if tool else "") + body
    (folder / "pyproject.toml").write_text(text)
    return folder / "pyproject.toml"


def codes_in(*args):
    return sorted({f["code"] for f in json_findings(*args)})


def test_nearest_pyproject_is_found_upwards_from_the_linted_path(here):
    outer = pyproject(here / "outer", 'ignore = ["BL201"]\n')
    inner = pyproject(here / "outer" / "inner", "")
    write(here / "outer" / "inner" / "pkg" / "a.py", HAZARD)
    write(here / "outer" / "b.py", HAZARD)
    assert find_pyproject(str(here / "outer" / "inner" / "pkg" / "a.py")) == str(inner)
    assert find_pyproject(str(here / "outer" / "b.py")) == str(outer)
    assert "BL201" in codes_in("outer/inner/pkg/a.py")
    assert codes_in("outer/b.py") == []


def test_pyproject_without_breaklint_table_is_skipped(here):
    outer = pyproject(here, 'ignore = ["BL201"]\n')
    pyproject(here / "sub", '[project]\nname = "x"\n', tool=False)
    write(here / "sub" / "a.py", HAZARD)
    assert find_pyproject("sub/a.py") == str(outer)
    assert codes_in("sub/a.py") == []


def test_select_ignore_extend_select_from_config(here):
    pyproject(here, 'select = ["BL3"]\nextend-select = ["BL201"]\n')
    write(here / "a.py", HAZARD)
    assert codes_in("a.py") == ["BL201"]
    pyproject(here, 'ignore = ["BL2"]\n')
    assert codes_in("--no-cache", "a.py") == []
    # The command line's --select replaces the config's select; --ignore adds to its ignore.
    pyproject(here, 'select = ["BL3"]\n')
    assert codes_in("--no-cache", "--select", "BL201", "a.py") == ["BL201"]


def test_config_select_by_exact_code_enables_a_rule_that_does_not_break(here):
    from breaklint.rules import rule_by_code

    if rule_by_code("BL303") is None:
        pytest.skip("BL303 is not in the catalogue")
    write(here / "a.py", rule_by_code("BL303").INVALID[0].code)
    pyproject(here, "")
    assert "BL303" not in codes_in("a.py")
    pyproject(here, 'extend-select = ["BL303"]\n')
    assert "BL303" in codes_in("--no-cache", "a.py")


def test_exclude_and_extend_exclude(here):
    pyproject(here, 'exclude = ["generated"]\nextend-exclude = ["legacy/*.py"]\n')
    write(here / "generated" / "a.py", HAZARD)
    write(here / "legacy" / "b.py", HAZARD)
    write(here / "src" / "c.py", HAZARD)
    files = {f["filename"] for f in json_findings(".")}
    assert files == {str(here / "src" / "c.py")}
    # Named explicitly (as pre-commit does), a user-excluded file stays excluded.
    assert json_findings("generated/a.py", "legacy/b.py") == []


def test_default_excludes(here):
    pyproject(here, "")
    for folder in (".git", ".venv", "venv", "build", "site-packages", "__pycache__", "lib/site-packages"):
        write(here / folder / "a.py", HAZARD)
    write(here / "real.py", HAZARD)
    assert {f["filename"] for f in json_findings(".")} == {str(here / "real.py")}


def test_per_file_ignores(here):
    pyproject(here, '[tool.breaklint.per-file-ignores]\n"tests/*" = ["BL201"]\n"scripts/*.py" = ["BL"]\n')
    write(here / "tests" / "a.py", HAZARD)
    write(here / "scripts" / "b.py", HAZARD)
    write(here / "src" / "c.py", HAZARD)
    assert {f["filename"] for f in json_findings(".")} == {str(here / "src" / "c.py")}


def test_target_torch_in_config(here, monkeypatch):
    from cli_helpers import FAKE_CALLS, fake_rule, register

    register(monkeypatch, fake_rule("BL902", "nobreak", verdicts={"2.11": True, "2.13": False}))
    write(here / "a.py", FAKE_CALLS)
    pyproject(here, 'target-torch = "2.11"\n')
    assert "BL902" in codes_in("a.py")
    pyproject(here, 'target-torch = "2.13"\n')
    assert "BL902" not in codes_in("a.py")
    assert "BL902" in codes_in("--target-torch", "2.11", "a.py")  # the command line wins


def test_module_base_classes(here):
    write(here / "a.py", MODULE_BASE)
    pyproject(here, "")
    assert codes_in("a.py") == []
    pyproject(here, 'module-base-classes = ["Base"]\n')
    assert codes_in("a.py") == ["BL201"]


def test_compile_decorators(here):
    write(here / "a.py", CUSTOM_COMPILE)
    pyproject(here, "")
    assert codes_in("a.py") == []
    pyproject(here, 'compile-decorators = ["mylib.my_compile"]\n')
    assert codes_in("a.py") == ["BL201"]


def test_config_option_points_at_a_file(here):
    write(here / "a.py", HAZARD)
    pyproject(here, "")
    other = pyproject(here / "elsewhere", 'ignore = ["BL201"]\n')
    assert "BL201" in codes_in("a.py")
    assert codes_in("--config", str(other), "a.py") == []
    missing = invoke("check", "--config", "nope.toml", "a.py")
    assert missing.exit_code == 2 and "nope.toml" in missing.stderr


@pytest.mark.parametrize("body,key", [
    ('selct = ["BL201"]\n', "tool.breaklint.selct"),                     # unknown key
    ('select = "BL201"\n', "tool.breaklint.select"),                     # wrong type
    ('select = [201]\n', "tool.breaklint.select"),                       # wrong element type
    ('ignore = ["BL999"]\n', "tool.breaklint.ignore"),                   # unknown code
    ('extend-select = ["XY"]\n', "tool.breaklint.extend-select"),
    ('target-torch = 2.13\n', "tool.breaklint.target-torch"),            # a float, not a string
    ('target-torch = "latest"\n', "tool.breaklint.target-torch"),
    ('per-file-ignores = {"a.py" = "BL201"}\n', "tool.breaklint.per-file-ignores"),
    ('per-file-ignores = {"a.py" = ["BL000"]}\n', "tool.breaklint.per-file-ignores"),
    ('exclude = "build"\n', "tool.breaklint.exclude"),
    ('compile-decorators = [1]\n', "tool.breaklint.compile-decorators"),
    ('module-base-classes = "Base"\n', "tool.breaklint.module-base-classes"),
])
def test_bad_config_is_a_one_line_error_naming_file_and_key(here, body, key):
    path = pyproject(here, body)
    write(here / "a.py", HAZARD)
    result = invoke("check", "a.py")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0] and key in lines[0]
    assert result.stdout == ""


def test_invalid_toml_is_a_one_line_error(here):
    path = pyproject(here, "select = [\n")
    write(here / "a.py", HAZARD)
    result = invoke("check", "a.py")
    assert result.exit_code == 2 and str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_load_settings_defaults_without_pyproject(here):
    settings = load_settings(str(here))
    assert settings.source is None and settings.select == ["BL"]
    with pytest.raises(ConfigError):
        load_settings(str(here), str(here / "missing.toml"))


def test_the_code_stamp_covers_every_layer_of_the_package(monkeypatch):
    """The cache fingerprint's code stamp must move when a rule or analysis module changes, not only when a
    module of lint/ does (until stop 31 it walked lint/ alone, so an edited rule was served stale results)."""
    import os

    import breaklint.rules.bl304_requires_grad_tensor_in_forward as rule_module
    from breaklint.lint import config

    path = rule_module.__file__
    before = os.stat(path)
    monkeypatch.setattr(config, "_CODE_STAMP", None)
    first = config.code_stamp()
    try:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        monkeypatch.setattr(config, "_CODE_STAMP", None)
        assert config.code_stamp() != first
    finally:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
