"""#14 item 5: notebooks are linted cell by cell (ruff's `cell` key and `path:cell N:row:col`), and
fixes are written inside the notebook's JSON; magic cells are never rewritten."""
import json

from cli_helpers import invoke, json_findings


def _notebook(path, cells):
    def cell(source, kind="code"):
        extra = {"execution_count": None, "outputs": []} if kind == "code" else {}
        return {"cell_type": kind, "metadata": {}, "source": source, **extra}

    data = {"cells": [cell(*c) if isinstance(c, tuple) else cell(c) for c in cells], "metadata": {},
            "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


CELLS = [
    (["# A model\n"], "markdown"),
    ["import torch\n", "from torch import nn\n"],
    ["%time x = 1\n", "print(x)\n"],
    ["class Net(nn.Module):\n", "    def forward(self, x):\n", "        print(x)\n", "        return x"],
]


def test_notebook_findings_carry_their_cell(project):
    _notebook(project / "m.ipynb", CELLS)
    findings = json_findings("--no-cache", "m.ipynb")
    assert [(f["cell"], f["location"]["row"], f["location"]["column"], f["code"]) for f in findings] == \
        [(4, 3, 9, "BL201")]
    text = invoke("check", "--no-cache", ".")
    assert "m.ipynb:cell 4:3:9: BL201" in text.stdout and "(1 file)" not in text.stdout


def test_fix_writes_inside_the_notebook_json(project):
    path = _notebook(project / "m.ipynb", CELLS)
    before = json.loads(path.read_text())
    assert invoke("check", "--no-cache", "--fix", "m.ipynb").exit_code == 0
    after = json.loads(path.read_text())
    assert after["cells"][3]["source"] == ["class Net(nn.Module):\n", "    def forward(self, x):\n",
                                           "        if not torch.compiler.is_compiling():\n",
                                           "            print(x)\n", "        return x"]
    assert after["cells"][:3] == before["cells"][:3]  # markdown and the magic cell untouched
    assert after["metadata"] == before["metadata"] and after["nbformat"] == 4
    assert invoke("check", "--no-cache", "--fix", "m.ipynb").exit_code == 0
    assert json.loads(path.read_text()) == after  # a second --fix changes nothing


def test_a_file_that_is_not_a_notebook_is_reported(project):
    (project / "broken.ipynb").write_text("{not json")
    result = invoke("check", "--no-cache", "broken.ipynb")
    assert result.exit_code == 1 and "not a notebook" in result.output
