"""torchquad 0.6.0 (dev split, bench/SPLITS.md "Dev split growth: flowtorch, geoopt and torchquad").

One model per BaseIntegrator class of the torchquad namespace (not BaseIntegrator, GridIntegrator):
integrate(f, dim=2, N=1089, integration_domain=[[0, 1], [0, 1]]) of f(p) = sin(p @ w).sum(-1), w the model's
parameter; the integrator is built outside the compiled call.
"""

LIBRARY = "torchquad"
PACKAGES = ["torchquad"]
DISTRIBUTIONS = ["torchquad", "torch"]
ENV = "benchenv"

INTEGRATORS = ["Boole", "GaussLegendre", "Gaussian", "MonteCarlo", "Simpson", "Trapezoid", "VEGAS"]
MODELS = [f"integrate_{name}" for name in INTEGRATORS]


def build(name):
    import torch
    import torchquad

    torch.manual_seed(0)
    integrator = getattr(torchquad, name[len("integrate_"):])()

    class Integral(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(2, 3))

        def forward(self, scale):
            def f(p):
                return torch.sin(p @ self.w).sum(-1) * scale

            return integrator.integrate(f, dim=2, N=1089, integration_domain=[[0.0, 1.0], [0.0, 1.0]])

    return Integral(), (torch.tensor(2.0),), {}
