import torch

class Task:
    def __init__(self, x):
        self.n = int(x.sum().item() > 0) + 1   # line 5: the constructor itself breaks

    def run(self, x):
        y = x * self.n
        z = y.sum().item()                    # line 9: a break inside the method
        return y + z

@torch.compile(backend="eager")
def main(x):
    return Task(x).run(x)                     # line 14: no Reconstruction failure here

ARGS = (torch.randn(4),)
