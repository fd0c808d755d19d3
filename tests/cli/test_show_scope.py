"""check --show-scope: the functions treated as traced, with the reason, across files."""
import json

from cli_helpers import invoke, write

BASE = """\
from torch import nn


class Base(nn.Module):
    def forward(self, x):
        return self.step(x)

    def step(self, x):
        return x
"""

MODEL = """\
import torch
from .base import Base
from .util import scale


class Net(Base):
    def step(self, x):
        def inner(y):
            return scale(y)
        return inner(x)

    def unused(self, x):
        return x


@torch.compiler.disable
def hidden(x):
    return x
"""

UTIL = """\
def scale(y):
    return y * 2


def never(y):
    return y
"""


def test_show_scope_lists_traced_functions_with_reasons(project):
    write(project / "pkg" / "__init__.py", "")
    write(project / "pkg" / "base.py", BASE)
    write(project / "pkg" / "model.py", MODEL)
    write(project / "pkg" / "util.py", UTIL)
    result = invoke("check", "--show-scope", "--output-format", "json", "--no-cache", "pkg")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert all(set(row) == {"file", "qualname", "line", "reason"} for row in rows)
    found = {(row["file"].rsplit("/", 1)[-1], row["qualname"]): row for row in rows}
    # an override reached through the base class's forward, in another file
    assert ("model.py", "Net.step") in found
    assert found[("base.py", "Base.forward")]["reason"].startswith("forward of Base")
    # a helper of a third file, called from a def nested in the override
    assert ("util.py", "scale") in found and "called from" in found[("util.py", "scale")]["reason"]
    assert found[("model.py", "Net.step.<locals>.inner")]["line"] == 8
    # neither untraced nor disabled functions
    for absent in (("model.py", "Net.unused"), ("model.py", "hidden"), ("util.py", "never")):
        assert absent not in found


def test_show_scope_text(project):
    write(project / "pkg" / "base.py", BASE)
    result = invoke("check", "--show-scope", "--no-cache", "pkg")
    assert result.exit_code == 0
    assert "base.py:5: Base.forward (forward of Base" in result.stdout
