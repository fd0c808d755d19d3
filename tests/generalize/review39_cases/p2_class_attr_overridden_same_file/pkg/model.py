import torch
from .dists import Gauss, Quiet


class Base(torch.nn.Module):
    dist_class = Gauss

    def forward(self, x):
        y = self.dist_class(x).rsample(x)
        return y + 1


class Net(Base):
    dist_class = Quiet
