"""FrEIA 0.2 (dev split, bench/SPLITS.md "Dev split growth: FrEIA and auraloss").

Models by the rule written there before anything was observed: every InvertibleModule class of FrEIA.modules
whose required constructor parameters are at most `dims_in`, on a vector input (4,) or, where that raised at
spec-writing time, an image input (4, 8, 8); the inverse where it did not raise. Plus the README's SequenceINN of
eight AllInOneBlocks. Left out by the rule: GaussianMixtureModel (requires `dims_c`).
"""

LIBRARY = "FrEIA"
PACKAGES = ["FrEIA"]
DISTRIBUTIONS = ["FrEIA", "torch"]
ENV = "benchenv"

# block -> (input shape, whether the model also calls the inverse), as found at spec-writing time. Those that
# raised on both inputs are kept on the image input, as the rule says (they will be recorded as errors).
BLOCKS = {
    "ActNorm": ((4,), True),
    "AffineCouplingOneSided": ((4,), True),
    "AllInOneBlock": ((4,), True),
    "Concat": ((4, 8, 8), False),  # raised: needs several inputs
    "Concat1d": ((4, 8, 8), False),  # raised: needs several inputs
    "ConcatChannel": ((4, 8, 8), False),  # raised: needs several inputs
    "ConditionalAffineTransform": ((4, 8, 8), False),  # raised: needs a condition
    "Fixed1x1Conv": ((4, 8, 8), False),  # raised: needs M
    "FixedLinearTransform": ((4, 8, 8), False),  # raised: needs M
    "Flatten": ((4,), True),
    "GINCouplingBlock": ((4,), True),
    "GLOWCouplingBlock": ((4,), True),
    "HaarDownsampling": ((4, 8, 8), True),
    "HaarUpsampling": ((4, 8, 8), True),
    "HouseholderPerm": ((4, 8, 8), False),  # raised: needs n_reflections >= 2
    "IResNetLayer": ((4,), True),
    "IRevNetDownsampling": ((4, 8, 8), True),
    "IRevNetUpsampling": ((4, 8, 8), True),
    "InvAutoAct": ((4,), True),
    "InvAutoActFixed": ((4,), True),
    "InvAutoActTwoSided": ((4,), True),
    "InvAutoConv2D": ((4, 8, 8), True),
    "InvAutoFC": ((4,), True),
    "InvertibleSigmoid": ((4,), True),
    "LearnedElementwiseScaling": ((4,), True),
    "NICECouplingBlock": ((4,), True),
    "OrthogonalTransform": ((4,), True),
    "PermuteRandom": ((4,), True),
    "RNVPCouplingBlock": ((4,), True),
    "Reshape": ((4, 8, 8), False),  # raised: needs output_dims
    "Split": ((4,), True),
    "Split1D": ((4,), True),
    "SplitChannel": ((4,), True),
}
MODELS = [f"block_{name}" for name in BLOCKS] + ["inn_all_in_one"]


def build(name):
    import inspect

    import torch
    from torch import nn
    import FrEIA.framework as Ff
    import FrEIA.modules as Fm

    def fc(c_in, c_out):
        return nn.Sequential(nn.Linear(c_in, 16), nn.ReLU(), nn.Linear(16, c_out))

    def conv(c_in, c_out):
        return nn.Sequential(nn.Conv2d(c_in, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, c_out, 3, padding=1))

    torch.manual_seed(0)
    if name == "inn_all_in_one":
        inn = Ff.SequenceINN(4)
        for _ in range(8):
            inn.append(Fm.AllInOneBlock, subnet_constructor=fc, permute_soft=True)

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.inn = inn

            def forward(self, x):
                z, log_jac = self.inn(x)
                back, _ = self.inn(z, rev=True)
                return z, log_jac, back

        return Model(), (torch.randn(8, 4),), {}

    block_name = name[len("block_"):]
    shape, inverse = BLOCKS[block_name]
    cls = getattr(Fm, block_name)
    kwargs = {}
    if "subnet_constructor" in inspect.signature(cls.__init__).parameters:
        kwargs["subnet_constructor"] = fc if len(shape) == 1 else conv
    block = cls(dims_in=[shape], **kwargs)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = block

        def forward(self, x):
            out, log_jac = self.block([x])
            if inverse:
                back, _ = self.block(out, rev=True)
                return out, log_jac, back
            return out, log_jac

    return Model(), (torch.randn(8, *shape),), {}
