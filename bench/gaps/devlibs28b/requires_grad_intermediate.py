import torch

def potential_grad(x, w):
    with torch.enable_grad():
        x = x.clone().requires_grad_(True)                  # line 5: requires_grad_() on an intermediate
        f = (x * w).pow(2).sum()
        g = torch.autograd.grad(f, x, create_graph=True)[0]   # line 7
    return g

@torch.compile(backend="eager")
def main(x):
    with torch.no_grad():
        return potential_grad(x * 1.0, torch.ones(4))

ARGS = (torch.randn(4),)
