import torch
from torch import nn

class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4, batch_first=True)

    def unroll(self, x):
        return self.rnn(x)                          # line 10: frame of unroll skipped

    def forward(self, x):
        out, state = self.unroll(x)
        past = x
        for k in range(3):
            rnn_input = out[:, -1:] * 2.0
            out, state = self.rnn(rnn_input, state)   # line 17
            past = torch.cat(                          # line 18
                (past, out), dim=1
            )
        return past

m = Sampler()

@torch.compile(backend="eager")
def main(x):
    return m(x)

ARGS = (torch.randn(2, 5, 4),)
