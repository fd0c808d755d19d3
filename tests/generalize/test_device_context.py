"""`with torch.device(...)` in traced code (stop 27, a battery of context managers through Dynamo 2.13).

Measured (CPU, backend="eager"): `with torch.device("cpu"):`, `with torch.device(x.device):` and
`dev = torch.device("cpu"); with dev:` each break at the `with` with GB0142 ("Dynamo does not know how to
enter a `device` context manager"); `torch.ones(3, device=dev)` does not. Of the other managers made inside
compiled code, a contextmanager generator, a user class, ExitStack, record_function, suppress, inference_mode,
set_grad_enabled, nullcontext, enable_grad and DisableTorchFunctionSubclass did not break.
"""
from .helpers import codes_by_row

SOURCE = """
import contextlib
import torch
from torch import nn


class A(nn.Module):
    def forward(self, x):
        with torch.device("cpu"):
            z = torch.ones(3)
        return x * 2 + z.sum()


class B(nn.Module):
    def forward(self, x):
        with torch.device(x.device):
            return x * 2


class C(nn.Module):
    def forward(self, x):
        dev = torch.device("cpu")
        with dev:
            return x * 2


class D(nn.Module):
    def forward(self, x):
        dev = torch.device("cpu")
        with contextlib.suppress(ValueError), torch.inference_mode():
            return torch.ones(3, device=dev) + x
"""


def test_a_device_as_a_context_manager_is_flagged_where_dynamo_breaks():
    got = {row for row, code in codes_by_row(SOURCE) if code == "BL506"}
    assert got == {9, 16, 23}
