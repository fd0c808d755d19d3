# BL305 regression (false negative, and a finding on a line that does not break): the first touch of the
# RNN in source order is under `not is_compiling()` or a branch not taken, so the call that does break is
# no longer reported. Dynamo 2.13: C1 breaks at line 17 and C2 at line 30 ('Attempted to wrap RNN').
import torch
from torch import nn


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4)

    def forward(self, x):
        if not torch.compiler.is_compiling():
            self.rnn.flatten_parameters()
        h = x * 2
        out, _ = self.rnn(h[None])      # base 1c42996 reports BL305 here; HEAD reports nothing
        return out[0]


class C2(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4)
        self.debug = False

    def forward(self, x):
        if self.debug:
            x = x * self.rnn.hidden_size   # HEAD: BL305 here (guard self.debug)
        out, _ = self.rnn(x[None])          # the break; HEAD does not report it
        return out[0]
