import torch

class Task:
    def __init__(self, n):
        self.n = n

    def run(self, x):
        y = x * self.n
        z = y.sum().item()            # line 9: a break inside the method
        return y + z

@torch.compile(backend="eager")
def main(x):
    return Task(2).run(x)              # line 14: object built here, its method breaks

ARGS = (torch.randn(4),)
