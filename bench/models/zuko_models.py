"""zuko (test split, bench/SPLITS.md): normalizing flows, their transforms and distributions.

Each flow gives three models: log_prob of a batch (unconditional), log_prob given a context
(conditional) and rsample (sampling runs the inverse: bisection, splines, ODE solves). Transforms
return y and log |det J| (and the inverse where it is cheap); distributions return log_prob. Small
features (3), seed 0, no weights.
"""

LIBRARY = "zuko"
PACKAGES = ["zuko"]
DISTRIBUTIONS = ["zuko", "torch"]
ENV = "benchenv"

FLOWS = {
    "MAF": "F.MAF(3, context, transforms=2, hidden_features=(16, 16))",
    "NSF": "F.NSF(3, context, transforms=2, bins=4, hidden_features=(16, 16))",
    "NCSF": "F.NCSF(3, context, transforms=2, bins=4, hidden_features=(16, 16))",
    "SOSPF": "F.SOSPF(3, context, transforms=2, degree=2, polynomials=2, hidden_features=(16, 16))",
    "NAF": "F.NAF(3, context, transforms=2, signal=4, hidden_features=(16, 16))",
    "UNAF": "F.UNAF(3, context, transforms=2, signal=4, hidden_features=(16, 16))",
    "BPF": "F.BPF(3, context, degree=4, transforms=2, hidden_features=(16, 16))",
    "RealNVP": "F.RealNVP(3, context, transforms=2, hidden_features=(16, 16))",
    "NICE": "F.NICE(3, context, transforms=2, hidden_features=(16, 16))",
    "GF": "F.GF(3, context, transforms=2, components=4)",
    "GMM": "F.GMM(3, context, components=3)",
    "GMM_diagonal": "F.GMM(3, context, components=3, covariance_type='diagonal')",
    "CNF": "F.CNF(3, context, hidden_features=(16, 16))",
}
# rsample of these inverts by bisection or an ODE: slow, but observed like the others.
MODES = ["log_prob", "conditional_log_prob", "rsample"]

TRANSFORMS = {
    "MonotonicAffineTransform": ("T.MonotonicAffineTransform(randn(3), randn(3))", True),
    "MonotonicRQSTransform": ("T.MonotonicRQSTransform(randn(3, 5), randn(3, 5), randn(3, 4))", True),
    "MonotonicTransform": ("T.MonotonicTransform(lambda x: x + torch.tanh(x) * 0.5, bound=5.0)", True),
    "UnconstrainedMonotonicTransform": ("T.UnconstrainedMonotonicTransform(lambda x: torch.exp(torch.tanh(x)), n=8)",
                                        True),
    "SOSPolynomialTransform": ("T.SOSPolynomialTransform(randn(3, 2, 3))", True),
    "BernsteinTransform": ("T.BernsteinTransform(randn(3, 6))", True),
    "BoundedBernsteinTransform": ("T.BoundedBernsteinTransform(randn(3, 6))", True),
    "CircularShiftTransform": ("T.CircularShiftTransform(bound=3.0)", True),
    "SignedPowerTransform": ("T.SignedPowerTransform(rand(3) + 0.5)", True),
    "SoftclipTransform": ("T.SoftclipTransform(bound=2.0)", True),
    "PermutationTransform": ("T.PermutationTransform(torch.tensor([2, 0, 1]))", True),
    "RotationTransform": ("T.RotationTransform(randn(3, 3))", True),
    "LULinearTransform": ("T.LULinearTransform(randn(3, 3) + 3 * torch.eye(3))", True),
    "GaussianizationTransform": ("T.GaussianizationTransform(randn(3, 4), rand(3, 4) + 0.5)", True),
    "AdditiveTransform": ("T.AdditiveTransform(randn(3))", True),
    "CosTransform": ("T.CosTransform()", True),
    "SinTransform": ("T.SinTransform()", True),
    "DependentTransform": ("T.DependentTransform(T.MonotonicAffineTransform(randn(3), randn(3)), 1)", True),
    "FreeFormJacobianTransform": ("T.FreeFormJacobianTransform(lambda t, x: -x * (1 + t), 0.0, 1.0, exact=True)",
                                  True),
    "FreeFormJacobianTransform_hutchinson": (
        "T.FreeFormJacobianTransform(lambda t, x: -x * (1 + t), 0.0, 1.0, exact=False)", True),
}

DISTS = {
    "BoxUniform": ("D.BoxUniform(-torch.ones(3), torch.ones(3))", "rand(5, 3) * 1.8 - 0.9"),
    "DiagNormal": ("D.DiagNormal(torch.zeros(3), torch.ones(3))", "randn(5, 3)"),
    "GeneralizedNormal": ("D.GeneralizedNormal(torch.tensor([1.0, 2.0, 3.0]))", "randn(5, 3)"),
    "Joint": ("D.Joint(D.DiagNormal(torch.zeros(2), torch.ones(2)), D.BoxUniform(-torch.ones(1), torch.ones(1)))",
              "rand(5, 3) * 0.9"),
    "Mixture": ("D.Mixture(D.DiagNormal(randn(4, 3), torch.ones(4, 3)), randn(4))", "randn(5, 3)"),
    "Truncated": ("D.Truncated(torch.distributions.Normal(torch.zeros(3), torch.ones(3)), -1.0, 2.0)",
                  "rand(5, 3) * 0.9"),
    "Sort": ("D.Sort(torch.distributions.Normal(0.0, 1.0), n=3)", "randn(5, 3).sort(-1).values"),
    "TopK": ("D.TopK(torch.distributions.Normal(0.0, 1.0), k=2, n=4)", "randn(5, 2).sort(-1, descending=True).values"),
    "Minimum": ("D.Minimum(torch.distributions.Normal(0.0, 1.0), n=3)", "randn(5)"),
    "Maximum": ("D.Maximum(torch.distributions.Normal(0.0, 1.0), n=3)", "randn(5)"),
}

ALL_MODELS = ([f"{flow}_{mode}" for flow in FLOWS for mode in MODES
               if not (flow.startswith("GMM") and mode == "rsample")]  # a GMM has no rsample
              + [f"transform_{t}" for t in TRANSFORMS] + [f"dist_{d}" for d in DISTS])
# Observed: a subset, chosen before any truth was recorded, to bound the observation on two shared cores
# (about 30 s a model): log_prob of every flow, rsample and the conditional form of a few, and most
# transforms and distributions.
SAMPLED = {"MAF", "NSF", "NCSF", "RealNVP", "NICE", "GF", "NAF", "CNF"}
CONDITIONAL = {"MAF", "NSF", "NAF", "CNF"}
UNOBSERVED_PARTS = {"transform_BoundedBernsteinTransform", "transform_PermutationTransform",
                    "transform_GaussianizationTransform", "transform_AdditiveTransform", "transform_CosTransform",
                    "transform_SinTransform", "transform_DependentTransform",
                    "transform_FreeFormJacobianTransform_hutchinson", "dist_GeneralizedNormal", "dist_Joint",
                    "dist_Minimum", "dist_Maximum"}
MODELS = [name for name in ALL_MODELS
          if name not in UNOBSERVED_PARTS
          and not (name.endswith("_rsample") and name[: -len("_rsample")] not in SAMPLED)
          and not (name.endswith("_conditional_log_prob") and name[: -len("_conditional_log_prob")] not in CONDITIONAL)]


def build(name):
    import torch
    import zuko.distributions as D
    import zuko.flows as F
    import zuko.transforms as T

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)

    def randn(*shape):
        return torch.randn(*shape, generator=generator)

    def rand(*shape):
        return torch.rand(*shape, generator=generator)

    names = {"torch": torch, "F": F, "T": T, "D": D, "randn": randn, "rand": rand}
    x = randn(5, 3)

    if name.startswith("transform_"):
        source, has_inverse = TRANSFORMS[name[len("transform_"):]]
        transform = eval(source, names)

        class Apply(torch.nn.Module):
            def forward(self, x):
                y, ladj = transform.call_and_ladj(x)
                return y, ladj, transform.inv(y)

        return Apply(), (x,), {}

    if name.startswith("dist_"):
        source, value = DISTS[name[len("dist_"):]]
        dist = eval(source, names)
        value = eval(value, names)

        class LogProb(torch.nn.Module):
            def forward(self, value):
                return dist.log_prob(value)

        return LogProb(), (value,), {}

    for mode in sorted(MODES, key=len, reverse=True):
        if name.endswith("_" + mode):
            flow_name = name[: -len(mode) - 1]
            break
    context = 2 if mode == "conditional_log_prob" else 0
    flow = eval(FLOWS[flow_name], names | {"context": context})
    c = randn(5, 2)

    if mode == "log_prob":
        class LogProb(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.flow = flow

            def forward(self, x):
                return self.flow().log_prob(x)

        return LogProb(), (x,), {}
    if mode == "conditional_log_prob":
        class ConditionalLogProb(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.flow = flow

            def forward(self, x, c):
                return self.flow(c).log_prob(x)

        return ConditionalLogProb(), (x, c), {}

    class Sample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = flow

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    return Sample(), (x,), {}
