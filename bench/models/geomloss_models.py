"""geomloss 0.3.1 (dev split, bench/SPLITS.md "Dev split growth: geomloss and blitz-bayesian-pytorch", stop 39).

The rule written there before anything ran: `SamplesLoss(loss, backend="tensorized")` for each documented loss, on
unbatched clouds, batched clouds and with uniform weights; for sinkhorn and hausdorff also unbalanced (reach=0.5)
and with potentials=True; for sinkhorn also p=1 and debias=False. Every call is written as plain code.
"""

LIBRARY = "geomloss"
PACKAGES = ["geomloss"]
DISTRIBUTIONS = ["geomloss", "torch"]
ENV = "benchenv"

LOSSES = ["sinkhorn", "hausdorff", "energy", "gaussian", "laplacian"]
MODELS = ([f"{loss}{way}" for loss in LOSSES for way in ("", "_batched", "_weights")]
          + [f"{loss}{way}" for loss in ("sinkhorn", "hausdorff") for way in ("_unbalanced", "_potentials")]
          + ["sinkhorn_p1", "sinkhorn_nodebias"])


def build(name):
    import torch
    from torch import nn
    from geomloss import SamplesLoss

    torch.manual_seed(0)
    loss, _, way = name.partition("_")
    options = {"unbalanced": {"reach": 0.5}, "potentials": {"potentials": True}, "p1": {"p": 1},
               "nodebias": {"debias": False}}.get(way, {})
    criterion = SamplesLoss(loss, backend="tensorized", **options)

    if way == "batched":
        x, y = torch.randn(2, 16, 3), torch.randn(2, 20, 3)
    else:
        x, y = torch.randn(16, 3), torch.randn(20, 3)

    if way == "weights":
        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.criterion = criterion

            def forward(self, a, x, b, y):
                return self.criterion(a, x, b, y)

        return Model(), (torch.ones(16) / 16, x, torch.ones(20) / 20, y), {}

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.criterion = criterion

        def forward(self, x, y):
            return self.criterion(x, y)

    return Model(), (x, y), {}
