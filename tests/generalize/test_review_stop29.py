"""Cases from the review of stop 29's changes, each compiled through Dynamo 2.13 (CPU, eager backend) by the
reviewer: false positives of the widened rules (sizes unpacked from a parameter, dense tensors made from a
sparse one, drawn numbers in comparisons, a storage's resize_, scripted functions, narrow's start, a
comprehension variable shadowing a loop variable, any() over a list parameter) and breaks the first-touch
rules had stopped reporting (an RNN or sparse attribute first read in a branch that is not taken).
"""
import pathlib

import pytest

from .helpers import codes_by_row, dynamo_break_rows

CASES = pathlib.Path(__file__).parent / "review29_cases"
# file -> the rows breaklint reports: Dynamo's break rows, plus (fn1) a touch in a branch the run did not take.
EXPECTED = {
    "fp1b_pad_narrow_unpacked_arg.py": set(),
    "fp2_sparse_indices.py": set(),
    "fp3_draw_compare.py": set(),
    "fp4_storage_resize.py": set(),
    "fp5_jit_function.py": {35},
    "fp6_narrow_tensor_start.py": {16},
    "fp8_comprehension_shadow.py": set(),
    "fp10_any_list_argument.py": set(),
    "fn1_rnn_first_touch.py": {17, 29, 30},
    "fn2_sparse_first_read.py": {16},
}
NOT_BREAKING = {"fn1_rnn_first_touch.py": {29}}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_breaklint_rows(name):
    assert {row for row, _code in codes_by_row((CASES / name).read_text())} == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_rows_are_dynamos(tmp_path, name):
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    source = (CASES / name).read_text()
    classes = [line.split()[1].split("(")[0] for line in source.splitlines()
               if line.startswith("class C") and line.split()[1][1:2].isdigit()]
    assert dynamo_break_rows(source, classes, tmp_path) == EXPECTED[name] - NOT_BREAKING.get(name, set())
