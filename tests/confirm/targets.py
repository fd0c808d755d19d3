"""Factories for `breaklint confirm` tests: good targets and each kind of bad one."""
import torch
from torch import nn


class PrintNet(nn.Module):
    """One break BL201 finds and fixes (print), one no rule knows about (inside torch.nn.init)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 8)

    def forward(self, x):
        x = self.a(x)
        print("activations", x.shape)  # BREAK:print
        return self.b(x).relu()


class MissedNet(PrintNet):
    def forward(self, x):
        x = self.a(x)
        scratch = torch.empty(4)
        torch.nn.init.trunc_normal_(scratch)  # BREAK:missed
        return self.b(x).relu()


def print_net():
    return PrintNet(), (torch.randn(4, 8),)


def missed_net():
    return MissedNet(), (torch.randn(4, 8),)


def with_kwargs():
    def fn(x, *, scale):
        return (x * scale).sin()

    return fn, (torch.randn(4),), {"scale": 2.0}


def raises():
    raise FileNotFoundError("weights.pt")


def returns_junk():
    return 42


def eager_fails():
    return nn.Linear(8, 8), (torch.randn(4, 3),)


class OOMNet(nn.Module):
    def forward(self, x):
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")


def oom():
    return OOMNet(), (torch.randn(2),)


def hangs():
    import time

    time.sleep(120)


def crashes():
    import os

    os._exit(7)
