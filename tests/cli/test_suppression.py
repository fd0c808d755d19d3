"""#14 item 4: suppression comments that survive `ruff --select RUF100 --fix`: breaklint's own
`# breaklint: ignore[...]` on a line or on a function's `def`, and `# noqa: BLxxx` (ruff's
`lint.external` names it as another tool's)."""
import shutil
import subprocess
import sys

import pytest

from cli_helpers import json_findings, write

SOURCE = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        print("a", x)  # noqa: BL201
        print("b", x)  # breaklint: ignore[BL201]
        print("c", x)  # breaklint: ignore[BL103]
        print("d", x)  # breaklint: ignore
        return x * 2


class Quiet(nn.Module):
    def forward(self, x):  # breaklint: ignore[BL2]
        print("e", x)
        return x.item()


class Decorated(nn.Module):
    @torch.no_grad()  # breaklint: ignore[BL103]
    def forward(self, x):
        print("f", x)
        return x.item()
'''


def _rows(findings):
    return sorted((f["location"]["row"], f["code"]) for f in findings)


def test_line_and_function_ignores(project):
    write(project / "m.py", SOURCE)
    assert _rows(json_findings("--no-cache", "m.py")) == [(9, "BL201"), (17, "BL103"), (23, "BL201")]


def test_comments_survive_ruffs_unused_noqa_fix(project):
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(__import__("pathlib").Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed")
    (project / "pyproject.toml").write_text('[tool.breaklint]\n\n[tool.ruff.lint]\nexternal = ["BL"]\n')
    path = write(project / "m.py", SOURCE)
    subprocess.run([ruff, "check", "--no-cache", "--select", "RUF100", "--fix", "m.py"], cwd=project,
                   capture_output=True)
    text = path.read_text()
    assert "# breaklint: ignore[BL201]" in text and "# noqa: BL201" in text
    assert _rows(json_findings("--no-cache", "m.py")) == [(9, "BL201"), (17, "BL103"), (23, "BL201")]
