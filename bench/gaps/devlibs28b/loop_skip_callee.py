import torch

def install(x, hooks):
    hooks.append(open("/dev/null"))   # line 4: a break in a callee (stands in for register_forward_hook)
    return x * 2

def main_loop(x, hooks):
    probs = []
    for i in range(3):
        y = install(x, hooks)            # line 10: the loop body's first call breaks
        if i == 0:
            probs = y.softmax(-1).tolist()   # line 12: BL104, a float .tolist(): never reported
        x = y + 1
    return x, probs

@torch.compile(backend="eager")
def main(x):
    return main_loop(x, [])

ARGS = (torch.randn(4),)
