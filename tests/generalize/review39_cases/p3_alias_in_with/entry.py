import torch
from pkg.model import Net


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def forward(self, x):
        return self.net(x)
