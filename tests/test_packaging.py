"""#14 items 1 and 2: extras take a torch range (only `test` pins, and says why), `--version` prints the
package version, and the CHANGELOG and README install snippets match what works today."""
import re
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import breaklint
from cli_helpers import ROOT, invoke

PYPROJECT = ROOT / "pyproject.toml"


def _torch_requirement(extra):
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    return [r for r in project["optional-dependencies"][extra] if re.match(r"torch\b", r)]


def test_confirm_and_gpu_take_a_torch_range_and_only_test_pins():
    for extra in ("confirm", "gpu"):
        assert _torch_requirement(extra) == ["torch>=2.11"], extra
    assert _torch_requirement("test") == ["torch==2.13.0"]
    text = PYPROJECT.read_text()
    pin_comment = text[:text.index('"torch==2.13.0"')].rsplit("test = [", 1)[1]
    assert "only pin" in pin_comment.lower()


def test_version_is_printed_and_matches_the_package():
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    result = invoke("--version")
    assert result.exit_code == 0 and breaklint.__version__ in result.output
    assert project["version"] == breaklint.__version__


def test_changelog_and_readme_snippets():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{breaklint.__version__}]" in changelog
    readme = (ROOT / "README.md").read_text()
    assert "pip install breaklint\n" not in readme and "rev: v0.1.0" not in readme  # nothing that fails today
    assert "OWNER/breaklint`" not in readme
    for section in ("### pre-commit", "### Editors (stdin)", "### CI (GitHub Actions)", "### Suppression"):
        assert section in readme
