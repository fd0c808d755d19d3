import torch
from . import ops


class Bank:
    def act_swish(self, x):
        return x * 3


def apply(ops, name, x):
    return getattr(ops, "act_" + name)(x)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bank = Bank()
        self.default = ops.act_relu

    def forward(self, x):
        return apply(self.bank, "swish", x) + 1
