"""Truth tables for BL103/BL104/BL202/BL203/BL204/BL501/BL502: each case is a forward body whose
lines marked `# hit` must be flagged and nothing else. With torch installed, the same module is
run through Dynamo (backend="eager", fullgraph=False) and the lines that break must be exactly the
`# hit` lines: the negatives (f-strings, plain data_ptr(), deepcopy of a dict, np.random array
draws...) are patterns that do not break on torch 2.13, which is why the rules stay silent there."""
import importlib.util
import os
import sys
import textwrap

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import rule_by_code

HEADER = '''
import copy
import logging
import pdb
import time
import warnings
from warnings import warn

import torch
import torch.nn as nn

logger = logging.getLogger("breaklint.truth.logger")
logger.setLevel(logging.CRITICAL + 10)  # every level off: Dynamo breaks anyway
log = logging.getLogger("breaklint.truth.log")
events = logging.getLogger("breaklint.truth.events")
for _l in (logger, log, events):
    _l.addHandler(logging.NullHandler())
    _l.propagate = False


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.logger = logging.getLogger("breaklint.truth.self")
        self.logger.propagate = False

    def forward(self, x):
        y = x + 1
'''
FOOTER = "        return y * 2\n\n\ndef factory():\n    return M(), (torch.randn(4),)\n"

CASES = [
    # BL103: scalar extraction outside conditions (GB0124); in a condition it is BL102's
    ("BL103", "s = y.sum().item()  # hit\nself.out = y * s"),
    ("BL103", "s = float(y.max())  # hit\nself.out = y / s"),
    ("BL103", "n = int((y > 0).sum())  # hit\nself.out = y * n"),
    ("BL103", "self.flag = bool(y.mean() > 0)  # hit"),
    ("BL103", "n = float(y.shape[0])\nself.out = y / n"),
    ("BL103", "self.out = y * (2 if y.sum().item() > 0 else 3)", "static"),
    ("BL103", "if float(y.sum()) > 0:\n    self.out = y * 2", "static"),
    ("BL103", "if y.dim() == 1:\n    s = y.sum().item()  # hit\n    self.out = y * s"),
    ("BL103", "while int(y.sum()) > 100:\n    self.out = y / 2", "static"),
    ("BL103", "s = float(y.sum().item())  # hit\nself.out = y * s"),
    # BL104: .tolist() of int (GB0033) and float (GB0109) tensors
    ("BL104", "sizes = (y > 0).long().tolist()  # hit\nself.out = y * len(sizes)"),
    ("BL104", "vals = y.tolist()  # hit\nself.out = y * len(vals)"),
    ("BL104", "shape = list(y.shape)\nself.out = y * len(shape)"),
    # BL202: Logger methods (GB0291), module-level logging functions (GB4841)
    ("BL202", 'logger.debug("off %s", 1)  # hit'),
    ("BL202", 'logger.info("y %s", tuple(y.shape))  # hit'),
    ("BL202", 'self.logger.warning("w")  # hit'),
    ("BL202", 'log.log(logging.INFO, "lvl")  # hit'),
    ("BL202", 'events.exception("e")  # hit'),
    ("BL202", 'logging.warning("root %d", 1)  # hit'),
    ("BL202", 'logging.getLogger("breaklint.truth.chain").info("c")  # hit'),
    ("BL202", "z = y.log()\nself.out = torch.log(z.exp())"),
    ("BL202", 'logger.warning_once("once")  # hit', "static"),
    # BL203: warnings.warn is a skipped function (GB0007)
    ("BL203", 'warnings.warn("careful")  # hit'),
    ("BL203", 'warn("careful", DeprecationWarning, stacklevel=2)  # hit'),
    # BL204: debuggers (breakpoint: GB0059; pdb.set_trace: GB0007)
    ("BL204", "breakpoint()  # hit"),
    ("BL204", "pdb.set_trace()  # hit"),
    # BL501
    ("BL501", "torch._dynamo.graph_break()  # hit"),
    # BL502: clocks and seeds (GB0007)
    ("BL502", "t = time.time()  # hit\nself.out = y + 0 * t"),
    ("BL502", "t = time.perf_counter()  # hit\nself.out = y + 0 * t"),
    ("BL502", "t = time.monotonic_ns()  # hit\nself.out = y + 0 * t"),
    ("BL502", "torch.manual_seed(0)  # hit"),
    ("BL502", "torch.seed()"),
    # copies (GB4198 deepcopy, GB0208 copy.copy) and strings (GB0569 repr, GB0059 str)
    ("BL502", "z = copy.deepcopy(y)  # hit\nself.z = z * 2"),
    ("BL502", "z = copy.deepcopy([y])  # hit\nself.z = z[0] * 2"),
    ("BL502", 'cfg = copy.deepcopy({"k": 2})\nself.out = y * cfg["k"]'),
    ("BL502", "z = copy.copy(y)  # hit\nself.z = z * 2"),
    ("BL502", "self.text = repr(y)  # hit"),
    ("BL502", "self.text = str(y)  # hit"),
    ("BL502", 'self.text = f"value {y}"'),
    ("BL502", "self.text = str(y.shape)"),
    # data_ptr(): reading is traced; comparing breaks (GB5976)
    ("BL502", "self.ptr = y.data_ptr()"),
    ("BL502", "self.same = y.data_ptr() == x.data_ptr()  # hit"),
    # random.random() breaks on 2.13 only (not 2.15): deliberately not flagged
    ("BL502", "import random\nr = random.randint(0, 3)\nself.out = y * r"),
]

NUMPY_CASES = [
    ("BL502", "r = np.random.rand()  # hit\nself.out = y * r"),
    ("BL502", "r = np.random.uniform(0.0, 1.0)  # hit\nself.out = y * r"),
    ("BL502", "r = np.random.randint(0, 5)  # hit\nself.out = y * r"),
    ("BL502", "r = np.random.choice([1, 2, 3])  # hit\nself.out = y * r"),
    ("BL502", "r = np.random.randn(4)\nself.out = y * torch.from_numpy(r).float()"),
    ("BL502", "r = np.random.normal(size=4)\nself.out = y * torch.from_numpy(r).float()"),
    ("BL502", "r = np.random.randint(0, 5, size=4)\nself.out = y * torch.from_numpy(r)"),
    ("BL502", "np.random.seed(0)"),
]


def _module(body: str, numpy: bool = False) -> str:
    head = HEADER.replace("import torch\n", "import numpy as np\nimport torch\n") if numpy else HEADER
    return head + textwrap.indent(textwrap.dedent(body), " " * 8) + "\n" + FOOTER


def _hits(source: str) -> set[int]:
    return {i for i, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# hit")}


def _case_id(case) -> str:
    return f"{case[0]}:{case[1].splitlines()[0][:40]}"


ALL = [(c, False) for c in CASES] + [(c, True) for c in NUMPY_CASES]


@pytest.mark.parametrize("case,numpy", ALL, ids=[_case_id(c) for c, _ in ALL])
def test_static_findings_match_hits(case, numpy):
    code, body = case[0], case[1]
    source = _module(body, numpy)
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code(code)()]))
    assert {f.row for f in findings} == _hits(source), [f.message for f in findings]


def _observed_break_rows(source: str, path: str) -> set[int]:
    import torch

    from breaklint.confirm.observe import observe

    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    spec = importlib.util.spec_from_file_location("breaklint_truth_" + os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    torch.manual_seed(0)
    model, args = module.factory()
    real = os.path.realpath(path)
    return {b.line for b in observe(model, args).breaks if os.path.realpath(b.file) == real}


def _fresh_stdlib_pdb():
    spec = importlib.util.find_spec("pdb")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNABLE = [(c, n) for c, n in ALL if "static" not in c[2:]]


@pytest.mark.torch
@pytest.mark.parametrize("case,numpy", RUNNABLE, ids=[_case_id(c) for c, _ in RUNNABLE])
def test_dynamo_breaks_exactly_on_hits(case, numpy, tmp_path, monkeypatch):
    pytest.importorskip("torch")
    if numpy:
        pytest.importorskip("numpy")
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")  # breakpoint() returns at once in the eager run
    # pytest swaps pdb.set_trace for its own; the case needs the stdlib one, stopping nowhere.
    stdlib_pdb = _fresh_stdlib_pdb()
    monkeypatch.setattr(stdlib_pdb.Pdb, "set_trace", lambda self, frame=None: None)
    monkeypatch.setitem(sys.modules, "pdb", stdlib_pdb)
    source = _module(case[1], numpy)
    name = f"truth_{abs(hash(case[1])) % 10**8}.py"
    rows = _observed_break_rows(source, str(tmp_path / name))
    assert rows == _hits(source), f"Dynamo breaks on {sorted(rows)}, the case marks {sorted(_hits(source))}"


def test_logger_receivers_are_precise():
    source = '''
import logging
from logging import warning as warn_root

import torch
import torch.nn as nn
from mylib.utils import logging as lib_logging

lib_logger = lib_logging.get_logger(__name__)


class M(nn.Module):
    def forward(self, x, metrics):
        _LOGGER.error("e")  # hit
        LOGGER.critical("c")  # hit
        lib_logger.warning_once("w")  # hit
        warn_root("w")  # hit
        self.log("loss", x.sum())
        metrics.info("not a logger")
        logger.setLevel(logging.INFO)
        logging.getLogger("x")
        logging.basicConfig()
        log = x.log()
        y = log.log()
        z = x if logger.info("inline") else x  # hit
        return y
'''
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code("BL202")()]))
    assert {f.row for f in findings} == _hits(source)
    fixable = {f.row for f in findings if f.fix is not None}
    inline = next(i for i, l in enumerate(source.splitlines(), 1) if "inline" in l)
    assert inline not in fixable and fixable, "only whole statements get the guard fix"


def test_noqa_silences_one_rule_only():
    source = _module('logger.info("n")  # noqa: BL202\ns = y.sum().item()  # noqa: BL202\nself.out = y * s')
    settings = LintSettings(rules=[rule_by_code("BL202")(), rule_by_code("BL103")()])
    findings, suppressed = lint_source(source, "case.py", settings)
    assert [f.code for f in findings] == ["BL103"] and suppressed == 1


def test_condition_boundary_is_not_double_reported():
    """The .item() in a test belongs to BL102; the one in the body to BL103; never both."""
    source = _module("if y.sum().item() > 0:\n    s = y.max().item()  # hit\n    self.out = y * s\n"
                     "elif float(y.min()) < -1:\n    self.out = y * 3\nself.out = y * (1 if bool(y.any()) else 2)")
    findings, _ = lint_source(source, "case.py", LintSettings(rules=[rule_by_code("BL103")()]))
    assert {f.row for f in findings} == _hits(source)


def test_shadowed_names_are_not_the_builtins_or_debuggers():
    source = '''
import torch
import torch.nn as nn
from mylib import breakpoint, float


class M(nn.Module):
    def forward(self, x):
        pdb = object()
        pdb.set_trace()
        breakpoint()
        return float(x)
'''
    rules = [rule_by_code("BL204")(), rule_by_code("BL103")()]
    findings, _ = lint_source(source, "case.py", LintSettings(rules=rules))
    assert findings == []
