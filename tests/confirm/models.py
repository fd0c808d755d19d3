"""Tiny models whose break lines are marked with `# BREAK:<name>`; tests look the lines up."""
import logging

import torch
from torch import nn


def break_line(name: str) -> int:
    with open(__file__, encoding="utf-8") as fh:
        for i, text in enumerate(fh, 1):
            if text.rstrip().endswith(f"# BREAK:{name}"):
                return i
    raise LookupError(name)


def item_fn(x):
    y = x * 2
    v = y.sum().item()  # BREAK:item
    return y + v


def loop_fn(x):
    for _ in range(3):
        x = x + 1
        print("tick")  # BREAK:loop
    return x


class Ctx:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def with_fn(x):
    with Ctx():
        x = x + 1
        torch._dynamo.graph_break()  # BREAK:with
        x = x * 2
    return x


def _nonzero_helper(x):
    return x.nonzero()  # BREAK:nested


def nested_fn(x):
    x = x + 1
    y = _nonzero_helper(x)
    return y.sum() + x.sum()


def torch_internal_fn(x):
    x = x + 1
    torch.nn.init.trunc_normal_(x)  # BREAK:torch_internal
    return x * 2


def clean_fn(x):
    return (x.sin() + 1).cos()


class LSTMNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.rnn = nn.LSTM(4, 4)

    def forward(self, x):
        x = self.proj(x)
        y, _ = self.rnn(x[None])  # BREAK:lstm
        return y


class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x, scale=1.0):
        x = self.a(x)
        if x.sum() > 0:  # BREAK:branch
            x = x * scale
        return self.b(x)


_log = logging.getLogger("breaklint.tests.models")


class LoggingNet(nn.Module):
    """One line, two breaks: .tolist() and the logger call (Dynamo reports the latter inside logging)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)

    def forward(self, x):
        x = self.a(x)
        _log.debug("activations %s", x.tolist())  # BREAK:logging
        return x.relu()


def chained_method_then_branch(pos, tot):
    """Two breaks in one frame; the second runs in a resume function after a method chained on its own
    line, where Dynamo's own line table is off by two (breaklint.confirm.dynamo_lines)."""
    if torch.sum(pos) == 0:  # BREAK:resume_first
        return pos
    grid = torch.linspace(
        0.0, 1.0, steps=3
    ).view(-1, 1)
    h = pos * tot + grid.sum()
    if torch.sum(h) > 0:  # BREAK:resume_second
        return h + 1
    return pos
