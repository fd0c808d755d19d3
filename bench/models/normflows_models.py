"""normflows 1.7.3 (dev split, bench/SPLITS.md "Dev split growth: normflows and torchode").

Models by the rules written there before anything was observed: every Flow class of normflows.flows whose
required constructor parameters are in FLOW_ARGS, every BaseDistribution class of normflows.distributions whose
required parameters are in DIST_ARGS, and NormalizingFlow's four methods on the README's two flow stacks.
Left out by the rule (a required parameter not in the tables):
  AffineCoupling, AffineCouplingBlock (param_map), CCAffineConst (num_classes), Composite (flows),
  HamiltonianMonteCarlo (target, steps, log_step_size, log_mass), MetropolisHastings (target, proposal, steps),
  Residual (net), Reverse (flow); AffineGaussian (affine_shape), ClassCondDiagGaussian (num_classes).
"""

LIBRARY = "normflows"
PACKAGES = ["normflows"]
DISTRIBUTIONS = ["normflows", "torch"]
ENV = "benchenv"

# Flow -> (input shape, whether the model also calls inverse), as found at spec-writing time.
FLOWS = {
    "ActNorm": ((8, 4), True),  # its constructor fails with (4,) (AffineConstFlow wants `scale`): kept, as the rule says
    "AffineConstFlow": ((8, 4), True),
    "AutoregressiveRationalQuadraticSpline": ((8, 4), True),
    "BatchNorm": ((8, 4), False),
    "CircularAutoregressiveRationalQuadraticSpline": ((8, 4), True),
    "CircularCoupledRationalQuadraticSpline": ((8, 4), True),
    "CoupledRationalQuadraticSpline": ((8, 4), True),
    "GlowBlock": ((8, 4, 4, 4), True),
    "Invertible1x1Conv": ((8, 4, 4, 4), True),
    "InvertibleAffine": ((8, 4), True),
    "LULinearPermute": ((8, 4), True),
    "MaskedAffineAutoregressive": ((8, 4), True),
    "MaskedAffineFlow": ((8, 4), True),
    "Merge": ((8, 4), True),  # its forward raised on both inputs at spec-writing time: kept, as the rule says
    "PeriodicShift": ((8, 4), True),
    "PeriodicWrap": ((8, 4), True),
    "Permute": ((8, 4), True),
    "Planar": ((8, 4), False),  # inverse raises NotImplementedError
    "Radial": ((8, 4), False),
    "Split": ((8, 4), True),
    "Squeeze": ((8, 4, 4, 4), True),
}
# Distribution -> the method that draws samples.
DISTS = {"DiagGaussian": "forward", "GaussianMixture": "forward", "GaussianPCA": "forward",
         "GlowBase": "forward", "UniformGaussian": "forward"}
NF_METHODS = ["forward_kld", "log_prob", "sample", "reverse_kld"]
STACKS = ["realnvp", "spline"]

MODELS = ([f"flow_{name}" for name in FLOWS] + [f"dist_{name}" for name in DISTS]
          + [f"nf_{stack}_{method}" for stack in STACKS for method in NF_METHODS])


def _flow_args(torch):
    return {"shape": (4,), "num_input_channels": 4, "num_channels": 4, "channels": 4, "features": 4,
            "num_blocks": 2, "num_hidden_channels": 8, "hidden_channels": 8, "hidden_features": 8,
            "ind": [0], "ind_circ": [0], "b": torch.tensor([1, 0, 1, 0])}


def _dist_args(torch):
    return {"shape": (4,), "dim": 4, "ndim": 4, "n_modes": 3, "ind": [0], "scale": torch.ones(4)}


def _required(cls):
    import inspect

    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return [p.name for p in parameters if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _stack(nf, torch, stack):
    flows = []
    for i in range(4):
        if stack == "realnvp":
            mask = torch.tensor([1, 0] if i % 2 == 0 else [0, 1])
            flows.append(nf.flows.MaskedAffineFlow(mask, nf.nets.MLP([2, 8, 2], init_zeros=True),
                                                   nf.nets.MLP([2, 8, 2], init_zeros=True)))
        else:
            flows += [nf.flows.AutoregressiveRationalQuadraticSpline(2, 1, 8), nf.flows.LULinearPermute(2)]
    return nf.NormalizingFlow(q0=nf.distributions.DiagGaussian(2), flows=flows)


def build(name):
    import torch
    import normflows as nf

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    kind, _, rest = name.partition("_")
    if kind == "flow":
        cls = getattr(nf.flows, rest)
        shape, with_inverse = FLOWS[rest]
        table = _flow_args(torch)
        flow = cls(**{parameter: table[parameter] for parameter in _required(cls)})

        class FlowModel(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.flow = flow

            def forward(self, x):
                z, log_det = self.flow(x)
                if with_inverse:
                    return z, log_det, self.flow.inverse(z)
                return z, log_det

        return FlowModel(), (torch.randn(*shape, generator=generator),), {}
    if kind == "dist":
        cls = getattr(nf.distributions, rest)
        table = _dist_args(torch)
        dist = cls(**{parameter: table[parameter] for parameter in _required(cls)})
        draw = DISTS[rest]

        class DistModel(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.dist = dist

            def forward(self, x):
                return self.dist.log_prob(x), getattr(self.dist, draw)(8)

        return DistModel(), (torch.randn(8, 4, generator=generator),), {}
    stack, _, method = rest.partition("_")
    model = _stack(nf, torch, stack)

    class FlowMethod(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x):
            if method in ("forward_kld", "log_prob"):
                return getattr(self.model, method)(x)
            return getattr(self.model, method)(8)

    return FlowMethod(), (torch.randn(8, 2, generator=generator),), {}
