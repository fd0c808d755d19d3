"""A call into a package on Dynamo's third-party skip list (torch._dynamo.trace_rules.THIRDPARTY_SKIPLIST,
read by gen_torch_api into SKIPPED_LIBRARIES) breaks the graph (GB0007): found through the dev split's
k-diffusion, whose samplers loop over `trange(..., disable=disable)`; measured on 2.13 for tqdm's trange, tqdm()
made, iterated and used as a context manager, with and without disable=True."""
import pytest

from .helpers import codes_by_row, dynamo_break_rows

SOURCE = '''import torch
from torch import nn
from tqdm import tqdm, trange


class Loop(nn.Module):
    def forward(self, x):
        for i in trange(3, disable=True):
            x = x * 2
        return x


class Bar(nn.Module):
    def forward(self, x):
        with tqdm(total=3, disable=True) as pbar:
            pbar.update(1)
        return x * 2


class Table(nn.Module):
    def forward(self, x):
        import pandas as pd
        return x * len(pd.DataFrame({"a": [1, 2]}))
'''


def test_calls_into_skipped_packages_are_reported():
    got = codes_by_row(SOURCE)
    assert {(8, "BL502"), (15, "BL502"), (23, "BL502")} <= got


def test_dynamo_breaks_at_the_progress_bars(tmp_path):
    pytest.importorskip("tqdm")
    assert 8 in dynamo_break_rows(SOURCE, ["Loop"], tmp_path)
    assert 15 in dynamo_break_rows(SOURCE, ["Bar"], tmp_path)
