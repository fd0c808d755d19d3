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
def apply(ACTS, x):
    return ACTS["clip"](x)


class Net(torch.nn.Module):
    def forward(self, x):
        return apply({"clip": torch.relu}, x) + 1
