import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.proj(self.norm(x))
        print("block", h.shape)  # BREAK:print
        if h.abs().max() > 100:  # BREAK:branch
            h = h.clamp(-100, 100)
        return x + h


class Net(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.block = Block(dim)
        self.head = nn.Linear(dim, 4)

    def forward(self, x):
        x = self.block(x)
        logger.info("pooled %s", x.mean().item())  # BREAK:log
        return self.head(x.mean(dim=1))
