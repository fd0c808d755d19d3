"""Small helpers shared by specs; torch is imported lazily (the driver has no torch)."""


def module_of(function):
    """A function as an nn.Module, so that torch.compile sees a forward."""
    import torch

    class Function(torch.nn.Module):
        def forward(self, *args, **kwargs):
            return function(*args, **kwargs)

    return Function()


def evaluate(source, **names):
    """Build a model from the one-line constructor in a spec table."""
    return eval(source, dict(names, module_of=module_of))
