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



def _models(torch, F, T, D, randn, rand):
    """One nn.Module class per model, written out so that the library calls stand in forward (and
    the constructors in __init__) as a user writes them."""
    models = {}

    class MAF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.MAF(3, 0, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["MAF_log_prob"] = MAF_log_prob

    class MAF_conditional_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.MAF(3, 2, transforms=2, hidden_features=(16, 16))

        def forward(self, x, c):
            return self.flow(c).log_prob(x)

    models["MAF_conditional_log_prob"] = MAF_conditional_log_prob

    class MAF_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.MAF(3, 0, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["MAF_rsample"] = MAF_rsample

    class NSF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NSF(3, 0, transforms=2, bins=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["NSF_log_prob"] = NSF_log_prob

    class NSF_conditional_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NSF(3, 2, transforms=2, bins=4, hidden_features=(16, 16))

        def forward(self, x, c):
            return self.flow(c).log_prob(x)

    models["NSF_conditional_log_prob"] = NSF_conditional_log_prob

    class NSF_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NSF(3, 0, transforms=2, bins=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["NSF_rsample"] = NSF_rsample

    class NCSF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NCSF(3, 0, transforms=2, bins=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["NCSF_log_prob"] = NCSF_log_prob

    class NCSF_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NCSF(3, 0, transforms=2, bins=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["NCSF_rsample"] = NCSF_rsample

    class SOSPF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.SOSPF(3, 0, transforms=2, degree=2, polynomials=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["SOSPF_log_prob"] = SOSPF_log_prob

    class NAF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NAF(3, 0, transforms=2, signal=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["NAF_log_prob"] = NAF_log_prob

    class NAF_conditional_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NAF(3, 2, transforms=2, signal=4, hidden_features=(16, 16))

        def forward(self, x, c):
            return self.flow(c).log_prob(x)

    models["NAF_conditional_log_prob"] = NAF_conditional_log_prob

    class NAF_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NAF(3, 0, transforms=2, signal=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["NAF_rsample"] = NAF_rsample

    class UNAF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.UNAF(3, 0, transforms=2, signal=4, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["UNAF_log_prob"] = UNAF_log_prob

    class BPF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.BPF(3, 0, degree=4, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["BPF_log_prob"] = BPF_log_prob

    class RealNVP_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.RealNVP(3, 0, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["RealNVP_log_prob"] = RealNVP_log_prob

    class RealNVP_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.RealNVP(3, 0, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["RealNVP_rsample"] = RealNVP_rsample

    class NICE_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NICE(3, 0, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["NICE_log_prob"] = NICE_log_prob

    class NICE_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.NICE(3, 0, transforms=2, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["NICE_rsample"] = NICE_rsample

    class GF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.GF(3, 0, transforms=2, components=4)

        def forward(self, x):
            return self.flow().log_prob(x)

    models["GF_log_prob"] = GF_log_prob

    class GF_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.GF(3, 0, transforms=2, components=4)

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["GF_rsample"] = GF_rsample

    class GMM_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.GMM(3, 0, components=3)

        def forward(self, x):
            return self.flow().log_prob(x)

    models["GMM_log_prob"] = GMM_log_prob

    class GMM_diagonal_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.GMM(3, 0, components=3, covariance_type='diagonal')

        def forward(self, x):
            return self.flow().log_prob(x)

    models["GMM_diagonal_log_prob"] = GMM_diagonal_log_prob

    class CNF_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.CNF(3, 0, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().log_prob(x)

    models["CNF_log_prob"] = CNF_log_prob

    class CNF_conditional_log_prob(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.CNF(3, 2, hidden_features=(16, 16))

        def forward(self, x, c):
            return self.flow(c).log_prob(x)

    models["CNF_conditional_log_prob"] = CNF_conditional_log_prob

    class CNF_rsample(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.flow = F.CNF(3, 0, hidden_features=(16, 16))

        def forward(self, x):
            return self.flow().rsample((4,)) + x.sum() * 0

    models["CNF_rsample"] = CNF_rsample

    class transform_MonotonicAffineTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.MonotonicAffineTransform(randn(3), randn(3))

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_MonotonicAffineTransform"] = transform_MonotonicAffineTransform

    class transform_MonotonicRQSTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.MonotonicRQSTransform(randn(3, 5), randn(3, 5), randn(3, 4))

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_MonotonicRQSTransform"] = transform_MonotonicRQSTransform

    class transform_MonotonicTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.MonotonicTransform(lambda x: x + torch.tanh(x) * 0.5, bound=5.0)

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_MonotonicTransform"] = transform_MonotonicTransform

    class transform_UnconstrainedMonotonicTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.UnconstrainedMonotonicTransform(lambda x: torch.exp(torch.tanh(x)), n=8)

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_UnconstrainedMonotonicTransform"] = transform_UnconstrainedMonotonicTransform

    class transform_SOSPolynomialTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.SOSPolynomialTransform(randn(3, 2, 3))

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_SOSPolynomialTransform"] = transform_SOSPolynomialTransform

    class transform_BernsteinTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.BernsteinTransform(randn(3, 6))

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_BernsteinTransform"] = transform_BernsteinTransform

    class transform_CircularShiftTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.CircularShiftTransform(bound=3.0)

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_CircularShiftTransform"] = transform_CircularShiftTransform

    class transform_SignedPowerTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.SignedPowerTransform(rand(3) + 0.5)

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_SignedPowerTransform"] = transform_SignedPowerTransform

    class transform_SoftclipTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.SoftclipTransform(bound=2.0)

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_SoftclipTransform"] = transform_SoftclipTransform

    class transform_RotationTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.RotationTransform(randn(3, 3))

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_RotationTransform"] = transform_RotationTransform

    class transform_LULinearTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.LULinearTransform(randn(3, 3) + 3 * torch.eye(3))

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_LULinearTransform"] = transform_LULinearTransform

    class transform_FreeFormJacobianTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transform = T.FreeFormJacobianTransform(lambda t, x: -x * (1 + t), 0.0, 1.0, exact=True)

        def forward(self, x):
            y, ladj = self.transform.call_and_ladj(x)
            return y, ladj, self.transform.inv(y)

    models["transform_FreeFormJacobianTransform"] = transform_FreeFormJacobianTransform

    class dist_BoxUniform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dist = D.BoxUniform(-torch.ones(3), torch.ones(3))

        def forward(self, value):
            return self.dist.log_prob(value)

    models["dist_BoxUniform"] = dist_BoxUniform

    class dist_DiagNormal(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dist = D.DiagNormal(torch.zeros(3), torch.ones(3))

        def forward(self, value):
            return self.dist.log_prob(value)

    models["dist_DiagNormal"] = dist_DiagNormal

    class dist_Mixture(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dist = D.Mixture(D.DiagNormal(randn(4, 3), torch.ones(4, 3)), randn(4))

        def forward(self, value):
            return self.dist.log_prob(value)

    models["dist_Mixture"] = dist_Mixture

    class dist_Truncated(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dist = D.Truncated(torch.distributions.Normal(torch.zeros(3), torch.ones(3)), -1.0, 2.0)

        def forward(self, value):
            return self.dist.log_prob(value)

    models["dist_Truncated"] = dist_Truncated

    class dist_Sort(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dist = D.Sort(torch.distributions.Normal(0.0, 1.0), n=3)

        def forward(self, value):
            return self.dist.log_prob(value)

    models["dist_Sort"] = dist_Sort

    class dist_TopK(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.dist = D.TopK(torch.distributions.Normal(0.0, 1.0), k=2, n=4)

        def forward(self, value):
            return self.dist.log_prob(value)

    models["dist_TopK"] = dist_TopK

    return models


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

    x = randn(5, 3)
    model = _models(torch, F, T, D, randn, rand)[name]()
    if name.startswith("dist_"):
        _source, value = DISTS[name[len("dist_"):]]
        return model, (eval(value, {"torch": torch, "randn": randn, "rand": rand}),), {}
    if name.endswith("_conditional_log_prob"):
        return model, (x, randn(5, 2)), {}
    return model, (x,), {}
