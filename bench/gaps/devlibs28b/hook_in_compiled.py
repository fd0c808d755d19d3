import torch
from torch import nn

lin = nn.Linear(4, 4)

def save(module, _, output):
    return output * 2

@torch.compile(backend="eager")
def main(x):
    handle = lin.register_forward_hook(save)   # line 11: registering a hook inside the compiled region
    y = lin(x)
    handle.remove()
    return y

ARGS = (torch.randn(2, 4),)
