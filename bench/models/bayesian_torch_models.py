"""bayesian-torch 0.5.0 (dev split, bench/SPLITS.md "Dev split growth: torch-kmeans, ptwt and bayesian-torch").

The rule written there before anything was observed: every Reparameterization / Flipout layer of
bayesian_torch.layers (not the Quantized ones) with its required arguments only, returning output and KL; plus the
README's dnn_to_bnn on a small CNN, returning the output and get_kl_loss.
"""

LIBRARY = "bayesian_torch"
PACKAGES = ["bayesian_torch"]
DISTRIBUTIONS = ["bayesian-torch", "torch"]
ENV = "benchenv"

KINDS = ["Linear", "LSTM", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]
LAYERS = [f"{kind}{how}" for kind in KINDS for how in ("Reparameterization", "Flipout")]
MODELS = LAYERS + ["dnn_to_bnn_cnn"]


def build(name):
    import torch
    from torch import nn

    torch.manual_seed(0)
    if name == "dnn_to_bnn_cnn":
        from bayesian_torch.models.dnn_to_bnn import dnn_to_bnn, get_kl_loss

        net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
        dnn_to_bnn(net, {"prior_mu": 0.0, "prior_sigma": 1.0, "posterior_mu_init": 0.0, "posterior_rho_init": -3.0,
                         "type": "Reparameterization", "moped_enable": False, "moped_delta": 0.5})

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = net

            def forward(self, x):
                return self.net(x), get_kl_loss(self.net)

        return Model(), (torch.randn(2, 3, 8, 8),), {}

    import bayesian_torch.layers as layers

    cls = getattr(layers, name)
    if name.startswith("Linear"):
        layer, x = cls(4, 8), torch.randn(8, 4)
    elif name.startswith("LSTM"):
        layer, x = cls(4, 8), torch.randn(2, 5, 4)
    else:
        dims = int(name.split("d", 1)[0][-1])
        # Conv3dReparameterization alone has no defaults for its priors: its siblings' defaults (SPLITS.md)
        priors = (0, 1, 0, -3.0) if name == "Conv3dReparameterization" else ()
        layer = cls(4, 8, 3, *priors)
        x = torch.randn(2, 4, *{1: (16,), 2: (8, 8), 3: (6, 6, 6)}[dims])

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            return self.layer(x)

    return Model(), (x,), {}
