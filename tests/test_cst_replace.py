"""BL401, BL502, BL601 and BL701's one-node fixes as a LibCST transform (fix/cst_replace.py): the new
node takes the old one's place, and the comments, blank lines, `;` and layout around it survive."""
import ast

import pytest

from cli_helpers import invoke, write

pytest.importorskip("libcst")

BL502 = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        # the scripted check, kept for TorchScript
        if torch.jit.isinstance(x, torch.Tensor):  # why: scripting
            return x + 1

        return x
'''

BL701 = '''import torch


@torch.compile(mode="reduce-overhead")
def step(x, y):
    y.mul_(2)  ; z = y + 1  # doubled
    return x + z
'''

BL401_LONG = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, features_of_the_batch, y):
        if True:
            # accumulate the positive part
            features_of_the_batch[features_of_the_batch > 0] += torch.ones_like(features_of_the_batch).sum() * 2.5  # keep
        return features_of_the_batch
'''

BL601 = '''import torch as th
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0  # how many calls

    @th.compile
    def forward(self, x):
        self.step += 1
        return x * self.step
'''


def _fix(tmp_path, name, text, unsafe=True):
    path = write(tmp_path / name, text)
    args = ["check", "--no-cache", "--fix", str(path)] + (["--unsafe-fixes"] if unsafe else [])
    invoke(*args)
    first = path.read_text()
    invoke(*args)
    assert path.read_text() == first  # a second --fix changes nothing
    ast.parse(first)
    return first


def test_bl502_keeps_the_comments_of_the_line(tmp_path):
    fixed = _fix(tmp_path, "m.py", BL502, unsafe=False)
    assert "        # the scripted check, kept for TorchScript\n" \
           "        if isinstance(x, torch.Tensor):  # why: scripting\n" in fixed
    assert fixed.replace("isinstance(x, torch.Tensor)", "torch.jit.isinstance(x, torch.Tensor)", 1) == BL502


def test_bl701_keeps_the_semicolon_and_the_rest_of_the_line(tmp_path):
    fixed = _fix(tmp_path, "m.py", BL701)
    assert "    y = y.mul(2)  ; z = y + 1  # doubled\n" in fixed


def test_bl401_wrapped_call_gets_the_block_indentation_once(tmp_path):
    fixed = _fix(tmp_path, "m.py", BL401_LONG)
    lines = fixed.splitlines()
    start = next(i for i, line in enumerate(lines) if "index_put_(" in line)
    assert lines[start - 1] == "            # accumulate the positive part"
    assert lines[start].startswith("            features_of_the_batch.index_put_(")
    assert lines[start + 1].startswith("                (features_of_the_batch > 0,),")
    closing = next(line for line in lines[start:] if line.endswith("# keep"))
    assert closing == "            )  # keep"
    assert max(len(line) for line in lines[start:start + 6]) <= 100


def test_bl601_names_torch_by_the_module_alias_and_keeps_the_comment(tmp_path):
    fixed = _fix(tmp_path, "m.py", BL601)
    assert "import torch\n" not in fixed  # `import torch as th` is reused, not doubled
    assert '"step", th.zeros((), dtype=th.long), persistent=False' in fixed
    assert 'persistent=False)  # how many calls\n' in fixed
    assert "        self.step += 1\n" in fixed


def test_bl601_offers_no_fix_where_torch_is_imported_only_under_a_condition(tmp_path):
    conditional = BL601.replace("import torch as th\nfrom torch import nn\n",
                                "try:\n    import torch as th\n    from torch import nn\nexcept ImportError:\n    th = nn = None\n")
    assert conditional != BL601
    assert _fix(tmp_path, "m.py", conditional) == conditional


PARENTHESISED = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        assert ((x > 0).all() and (x < 9).all()), "range"  # keep
        y = (x[x > 0].sum())  # total
        return x * y
'''


def test_a_parenthesised_expression_keeps_its_parentheses(tmp_path):
    """`ast` ranges leave parentheses out and LibCST's include them: BL101's `&` and the masked sum
    still find their node, and the parentheses and comments stay."""
    fixed = _fix(tmp_path, "m.py", PARENTHESISED)
    assert '        assert ((x > 0).all() & (x < 9).all()), "range"  # keep\n' in fixed
    assert "        y = (torch.where(x > 0, x, 0).sum())  # total\n" in fixed
