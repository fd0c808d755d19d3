"""blitz-bayesian-pytorch 0.2.8 (dev split, bench/SPLITS.md "Dev split growth: geomloss and
blitz-bayesian-pytorch", stop 39).

The rule written there before anything ran: every layer class of `blitz.modules` with the small sizes below, as
built and with freeze=True; the LSTM with peephole=True; a two-layer model decorated with `variational_estimator`
returning its output and its KL divergence. Every call is written as plain code.
"""

LIBRARY = "blitz"
PACKAGES = ["blitz"]
DISTRIBUTIONS = ["blitz-bayesian-pytorch", "torch"]
ENV = "benchenv"

LAYERS = ["BayesianLinear", "BayesianConv1d", "BayesianConv2d", "BayesianConv3d", "BayesianEmbedding",
          "BayesianLSTM", "BayesianGRU"]
MODELS = ([f"{layer}{way}" for layer in LAYERS for way in ("", "_frozen")]
          + ["BayesianLSTM_peephole", "variational_estimator_kl"])


def build(name):
    import torch
    from torch import nn
    import blitz.modules as B
    from blitz.utils import variational_estimator

    torch.manual_seed(0)
    if name == "variational_estimator_kl":
        @variational_estimator
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l1 = B.BayesianLinear(8, 6)
                self.l2 = B.BayesianLinear(6, 2)

            def forward(self, x):
                return self.l2(torch.relu(self.l1(x))), self.nn_kl_divergence()

        return Net(), (torch.randn(2, 8),), {}

    layer_name, _, way = name.partition("_")
    options = {"frozen": {"freeze": True}, "peephole": {"peephole": True}}.get(way, {})
    sizes = {"BayesianLinear": ((8, 4), (2, 8)), "BayesianConv1d": ((3, 4, 3), (2, 3, 16)),
             "BayesianConv2d": ((3, 4, 3), (2, 3, 8, 8)), "BayesianConv3d": ((3, 4, 3), (1, 3, 6, 6, 6)),
             "BayesianLSTM": ((8, 6), (2, 5, 8)), "BayesianGRU": ((8, 6), (2, 5, 8))}
    if layer_name == "BayesianEmbedding":
        layer = B.BayesianEmbedding(10, 4, **options)
        x = torch.randint(0, 10, (2, 5))
    else:
        args, shape = sizes[layer_name]
        layer = getattr(B, layer_name)(*args, **options)
        x = torch.randn(*shape)
    recurrent = layer_name in ("BayesianLSTM", "BayesianGRU")

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            out = self.layer(x)
            return out[0] if recurrent else out

    return Model(), (x,), {}
