"""numpy over a shape read as a Python number (issue #11, stop 27).

A battery of 50 common forward shapes compiled through Dynamo 2.13 (CPU, backend="eager") found 47
judged as Dynamo does; the misses were sizes. Measured, each with `n = (x > 0).sum()`: `x.view(n, -1)`,
`x.reshape((n, -1))`, `x.tile(n, 1)`, `x.narrow(0, n - n, 2)`, `x.split(n)`, `x.new_full((n,), 2.0)`,
`torch.full((n,), 2.0)`, `torch.randint(0, 5, (n,))`, `torch.linspace(0, 1, n)` break with GB0033
"Data dependent operator"; so do `int(np.prod(x.shape))`, `float(np.prod(x.shape))` and
`torch.zeros(np.prod(x.shape))`: numpy over a torch.Size is traced as a tensor; and `x.new_full((2,), n)`
(its fill value too). Not breaking: `torch.full((2,), n)`, `torch.linspace(n, 1, 5)`,
`x / np.prod(x.shape)`, `x.view(-1, np.prod(x.shape[1:]))`, `float(np.sqrt(x.shape[-1]))` (numpy over
a Python int is a constant), `x.view(x.shape[0] // 2, -1)`. (A numpy array made in traced code is a
tensor to Dynamo too: `int(np.prod(np.zeros((2, 3)).shape))` breaks; only shapes of values known to be
tensors are taken, so that one is not flagged.)

Only int() / float() of numpy over a shape is flagged (BL103). Flagging the size calls as well (BL105)
gave two false positives on the held-out transformers run and no site on either split: the tensor
facts of size arguments are not sure enough for view / reshape yet, so they are left out.
"""
import pytest

from .helpers import codes_by_row

HEAD = """
import numpy as np
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        n = (x > 0).sum()
        return {}
"""

BREAKING = {
    "x.reshape(int(np.prod(x.shape)))": "BL103",
    "x / float(np.prod(x.shape))": "BL103",
}

CALM = [
    "x / np.prod(x.shape)",
    "x.view(-1, np.prod(x.shape[1:]))",
    "x * float(np.sqrt(x.shape[-1]))",
    "x.view(x.shape[0] // 2, -1)",
    "torch.linspace(n, 1, 5)",
    "torch.full((2,), n)",
]


@pytest.mark.parametrize("expr", sorted(BREAKING))
def test_numpy_over_a_shape_read_as_a_number_is_flagged(expr):
    assert (10, BREAKING[expr]) in codes_by_row(HEAD.format(expr))


@pytest.mark.parametrize("expr", CALM)
def test_values_dynamo_keeps_in_the_graph_are_not(expr):
    assert not any(code in ("BL103", "BL105") for _, code in codes_by_row(HEAD.format(expr)))
