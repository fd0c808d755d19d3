from functools import cached_property, lru_cache
from typing import TYPE_CHECKING
import torch
from torch import nn
if TYPE_CHECKING:
    from scope_repro import Model


class Tokenizer:
    @cached_property
    def sot_prev(self) -> int:                  # S1a: cached_property read through an lru_cache'd factory
        return 3


@lru_cache(maxsize=None)
def get_tokenizer(n: int) -> Tokenizer:
    return Tokenizer()


class Conv1d(nn.Conv1d):
    def _conv_forward(self, x, weight, bias):   # S2: override of a hook torch's own Conv1d.forward calls
        return super()._conv_forward(x, weight, bias)


class LambdaLayer(nn.Module):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, *args):
        return self.function(*args)


class ArgProj(nn.Module):
    def __init__(self, domain_map):
        super().__init__()
        self.proj = nn.Linear(4, 2)
        self.domain_map = domain_map            # S3: a bound method stored, wrapped in a module

    def forward(self, x):
        return self.domain_map(self.proj(x))


class NormalOutput:
    def domain_map(self, x):                    # S3: reached only through ArgProj.domain_map
        return torch.nn.functional.softplus(x)

    def get_args_proj(self):
        return ArgProj(domain_map=LambdaLayer(self.domain_map))


def gaussian_softplus(x):                       # S4: picked in an if-chain, returned as a value
    return torch.nn.functional.softplus(x) * 0.5


def get_softplus(kind="gaussian"):
    if kind == "softplus":
        act = torch.nn.functional.softplus
    else:
        act = gaussian_softplus
    return act


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = Conv1d(4, 4, 3)
        self.act = get_softplus()
        self.args_proj = NormalOutput().get_args_proj()

    @property
    def is_multilingual(self):                  # S1b: property read on a parameter annotated with a string
        return True

    def embed(self, x):                         # S5: called on the result of .eval()
        return self.conv(x)


def decode(model: "Model", x):
    tok = get_tokenizer(int(model.is_multilingual))
    return x + tok.sot_prev


model = Model().eval()


@torch.compile(backend="eager")
def main(x):
    y = model.embed(x)
    y = model.act(y) + model.args_proj(y.transpose(1, 2)).sum()
    return decode(model, y)

ARGS = (torch.randn(2, 4, 8),)
