import torch

class Distr:
    def __init__(self, loc):
        self.loc = loc

    def sample(self):
        return self.rsample() * 1.0     # no break here; the callee breaks

    def rsample(self):
        z = self.loc.sum().item()       # line 11: a break inside the method
        return self.loc + z

@torch.compile(backend="eager")
def main(x):
    distr = Distr(x * 2)
    return distr.sample()               # line 17

ARGS = (torch.randn(4),)
