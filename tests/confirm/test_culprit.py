"""When a fix changes the outputs, confirm applies the fixes one at a time, names the first that
changes them, and `--write` keeps the others (issue #13)."""
import json

import pytest

torch = pytest.importorskip("torch")
from click.testing import CliRunner  # noqa: E402

from breaklint.confirm.cli import confirm  # noqa: E402

pytestmark = pytest.mark.torch
# The model's output depends on the text of its own forward (read once in __init__): a fix that
# rewrites forward (BL202 guards the logging call) changes what the model computes, the fix of the
# print in tail (BL201) does not.
MODEL = """\
import inspect
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.k = float(len(inspect.getsource(Net.forward)))

    def forward(self, x):
        x = self.a(x)
        logger.info("forward %s", x.shape)
        return self.tail(x) * self.k

    def tail(self, x):
        print("tail", x.shape)
        return x.relu()


def factory():
    return Net(), (torch.randn(2, 4),)
"""


def test_the_first_fix_that_changes_outputs_is_named_and_write_skips_it(tmp_path, monkeypatch):
    model = tmp_path / "model.py"
    model.write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r.json"
    result = CliRunner().invoke(confirm, ["model.py:factory", "--no-bench", "--write", "--json", str(out)],
                                catch_exceptions=False)
    data = json.loads(out.read_text())["targets"][0]
    assert data["outputs_equal"] is False, result.output
    culprit = data["culprit"]
    logging_line = MODEL.splitlines().index('        logger.info("forward %s", x.shape)') + 1
    assert (culprit["code"], culprit["line"]) == ("BL202", logging_line)
    assert culprit["others_equal"] is True and culprit["others_applied"] == 1 and culprit["steps"] == 2
    flat = " ".join(result.output.split())
    assert f"fix BL202 at model.py:{logging_line} changes the outputs" in flat
    assert "`--write` writes those and skips it" in flat
    assert result.exit_code == 1
    # Written: the print fix only; the logging call is as the user wrote it.
    written = model.read_text()
    assert data["written"] == [str(model)]
    assert '        logger.info("forward %s", x.shape)\n' in written and "is_compiling" in written
