"""flowtorch 0.8 (dev split, bench/SPLITS.md "Dev split growth: flowtorch, geoopt and torchquad").

One model per Bijector class of flowtorch.bijectors constructible with no arguments: the README's
Flow(Independent(Normal(0, 1), 1), Bijector()), built outside the compiled call; forward returns log_prob(x)
and rsample((8,)). The ones that raised at spec-writing time stay in as errors, as the rule says.
"""

LIBRARY = "flowtorch"
PACKAGES = ["flowtorch"]
DISTRIBUTIONS = ["flowtorch", "torch"]
ENV = "benchenv"

BIJECTORS = ["Affine", "AffineAutoregressive", "AffineFixed", "Autoregressive", "Compose", "ELU", "Elementwise",
             "Exp", "Fixed", "Invert", "LeakyReLU", "Permute", "Power", "Sigmoid", "Softplus", "Spline",
             "SplineAutoregressive", "Tanh", "VolumePreserving"]
MODELS = [f"flow_{name}" for name in BIJECTORS]


def build(name):
    import torch
    import flowtorch.bijectors as bij
    import flowtorch.distributions as dist

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    base = torch.distributions.Independent(torch.distributions.Normal(torch.zeros(2), torch.ones(2)), 1)
    flow = dist.Flow(base, getattr(bij, name[len("flow_"):])())

    class FlowModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = flow

        def forward(self, x):
            return self.flow.log_prob(x), self.flow.rsample((8,))

    return FlowModel(), (torch.randn(8, 2, generator=generator),), {}
