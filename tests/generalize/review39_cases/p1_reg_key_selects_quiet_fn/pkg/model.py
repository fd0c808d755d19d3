import torch
ACTS = {}


def register(name):
    def deco(fn):
        ACTS[name] = fn
        return fn
    return deco


@register("clip")
def clip(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


@register("dbl")
def dbl(x):
    return x * 2
class Net(torch.nn.Module):
    def forward(self, x):
        return ACTS["dbl"](x) + 1
