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
    return eval(source, dict(names, module_of=module_of, against_flipped=against_flipped))


def against_flipped(loss):
    """A two-input module (a loss) fed an image and its mirror; built once, outside forward."""
    import torch

    class AgainstFlipped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = loss

        def forward(self, x):
            return self.loss(x, x.flip(-1))

    return AgainstFlipped()
