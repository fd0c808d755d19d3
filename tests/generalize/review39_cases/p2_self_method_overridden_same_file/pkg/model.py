import torch
from .dists import Gauss


class Base(torch.nn.Module):
    def _dist(self, x):
        return Gauss(x)

    def forward(self, x):
        y = self._dist(x).rsample(x)
        return y + 1


class Net(Base):
    def __init__(self):
        super().__init__()
        self.fixed = Gauss(1.0)

    def _dist(self, x):
        return self.fixed
