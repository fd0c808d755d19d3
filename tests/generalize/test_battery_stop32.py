"""Mends from the dev split's two libraries added at stop 32 (encodec, asteroid), each shape run through
Dynamo 2.13 (CPU, eager backend); each marked row is where Dynamo reports the break.

- BL304: a tensor made with `requires_grad=<a variable>` (`requires_grad=self.training`) breaks when the
  flag is true (GB0225), as `requires_grad=True` does; `requires_grad=False` does not.
- BL502: `torch._C._is_tracing()`, the private call `torch.jit.is_tracing()` wraps, is no traced op
  ("torch.* op returned non-Tensor", GB0208); `io.BytesIO()` joins `io.StringIO()` (their methods break).
- BL305: what a class calls `flatten_parameters()` on is a recurrent module (only nn.RNNBase has that method),
  even when its class is picked by name (`getattr(nn, rnn_type)(...)`), GB0014.
- Scope: an override of a method that a torch.nn base's forward calls on self on every call (`_conv_forward`
  of an nn.Conv1d subclass, `_check_input_dim` of a BatchNorm's or of the private `_BatchNorm`'s;
  torch_api.FORWARD_HOOKS) is traced whenever the module is called (asteroid's BatchNorm, the dev split's
  whisper Conv1d), unless the subclass overrides forward too.
- From the third round (torchcde, nnAudio): BL401 on a mask the class computes and keeps on self
  (`self.nonzero = self.w_sum > 1e-10`, then `x[:, self.nonzero]`); BL502 on a numpy array of Python objects
  (`np.empty(n, dtype=object)`, GB0055: torch._numpy has no object dtype).
"""
from .helpers import codes_by_row, dynamo_break_rows

SOURCE = '''import io

import torch
from torch import nn
from torch.nn.modules.batchnorm import _BatchNorm


class LossFlag(nn.Module):
    def forward(self, x):
        loss = torch.tensor([0.0], requires_grad=self.training)  # Dynamo 2.13: GB0225 in training
        return x + loss


class NoFlag(nn.Module):
    def forward(self, x):
        z = torch.zeros(4, requires_grad=False)
        return x + z


class Tracing(nn.Module):
    def forward(self, x):
        if torch._C._is_tracing():  # Dynamo 2.13: GB0208
            return x
        return x * 2


class Buffer(nn.Module):
    def forward(self, x):
        fo = io.BytesIO()
        fo.write(b"header")  # Dynamo 2.13: GB0156
        return x * 2


class Recurrent(nn.Module):
    def __init__(self, rnn_type="LSTM"):
        super().__init__()
        self.rnn = getattr(nn, rnn_type)(4, 4, batch_first=True)

    def forward(self, x):
        self.rnn.flatten_parameters()  # Dynamo 2.13: GB0014
        out, _ = self.rnn(x[None])
        return out[0]


class Conv(nn.Conv1d):
    def __init__(self):
        super().__init__(4, 4, 1)

    def _conv_forward(self, x, weight, bias):
        if x.sum().item() > 0:  # Dynamo 2.13: GB0124 (nn.Conv1d.forward calls the override)
            x = x * 2
        return super()._conv_forward(x, weight, bias)


class Norm(nn.BatchNorm1d):
    def __init__(self):
        super().__init__(4)

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError("2-D or 3-D input")
        print("checked")  # Dynamo 2.13: GB0209 print (nn.BatchNorm1d.forward calls the override)


class PrivateBase(_BatchNorm):
    def __init__(self):
        super().__init__(4)

    def _check_input_dim(self, input):
        print("checked")  # Dynamo 2.13: GB0209 print (_BatchNorm.forward calls the override)


class OwnForward(nn.Conv1d):
    def __init__(self):
        super().__init__(4, 4, 1)

    def forward(self, x):
        return x * 2

    def _conv_forward(self, x, weight, bias):
        print("never called: forward is overridden")
        return x


class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def flatten_parameters(self):
        pass


class Wrapped(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Wrapper()

    def forward(self, x):
        self.enc.flatten_parameters()  # a method of the tree's own: no recurrent module
        return self.enc.proj(x)
'''


def test_findings():
    got = codes_by_row(SOURCE)
    assert {(10, "BL304"), (22, "BL502"), (29, "BL502"), (40, "BL305"), (50, "BL102"), (62, "BL201"),
            (70, "BL201")} <= got
    assert not any(row == 16 or row >= 72 for row, _ in got)  # NoFlag, OwnForward, Wrapped


def test_dynamo_breaks_where_marked(tmp_path):
    marked = {i for i, line in enumerate(SOURCE.splitlines(), 1) if "# Dynamo 2.13:" in line}
    got = set()
    for name in ("LossFlag", "NoFlag", "Tracing", "Buffer", "Recurrent", "Conv", "Norm", "PrivateBase", "OwnForward",
                 "Wrapped"):
        got |= dynamo_break_rows(SOURCE, [name], tmp_path)
    assert got == marked


# From the third round of dev libraries (torchcde, nnAudio): a mask the class computes and keeps on self, and a
# numpy array of Python objects.
SOURCE_MASKS = '''import numpy as np
import torch
from torch import nn


class Inverse(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(8))

    def forward(self, real, refresh=False):
        if not hasattr(self, "w_sum") or refresh:
            self.w_sum = self.window.repeat(2).flatten()
            self.nonzero = self.w_sum > 1e-10
        real[:, self.nonzero] = real[:, self.nonzero].div(self.w_sum[self.nonzero])  # Dynamo 2.13: GB0036
        return real


class Objects(nn.Module):
    def forward(self, x):
        parts = np.empty(3, dtype=object)  # Dynamo 2.13: GB0055
        return x * 2
'''


def test_a_mask_kept_on_self_and_an_object_array():
    got = codes_by_row(SOURCE_MASKS)
    assert {(15, "BL401"), (21, "BL502")} <= got


def test_dynamo_breaks_where_marked_masks(tmp_path):
    import torch

    marked = {i for i, line in enumerate(SOURCE_MASKS.splitlines(), 1) if "# Dynamo 2.13:" in line}
    got = dynamo_break_rows(SOURCE_MASKS, ["Inverse"], tmp_path, inputs=lambda: (torch.randn(3, 16),))
    got |= dynamo_break_rows(SOURCE_MASKS, ["Objects"], tmp_path)
    assert got == marked
