import torch

class Distr:
    def __init__(self, loc):
        self.loc = loc

    def sample(self):
        with torch.no_grad():           # the break below is under a context manager
            return self.rsample()

    def rsample(self):
        z = self.loc.sum().item()       # line 12: a break inside the method
        return self.loc + z

@torch.compile(backend="eager")
def main(x):
    distr = Distr(x * 2)
    return distr.sample()               # line 18: Dynamo reports "Reconstruction failure" here

ARGS = (torch.randn(4),)
