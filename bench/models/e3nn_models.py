"""e3nn equivariant layers and the reference point-cloud networks on a small random cloud."""

LIBRARY = "e3nn"
PACKAGES = ["e3nn"]
DISTRIBUTIONS = ["e3nn", "torch"]
ENV = "benchenv"

POINTS = 12

SPECS = {
    "SimpleNetwork-v2106": "v2106.SimpleNetwork('3x0e', '1x0e', max_radius=2.0, num_neighbors=3.0, num_nodes=4.0, mul=4, layers=2, lmax=1)",
    "SimpleNetwork-v2106-nodes": "v2106.SimpleNetwork('3x0e', '1x1o', max_radius=2.0, num_neighbors=3.0, num_nodes=4.0, mul=4, layers=1, lmax=2, pool_nodes=False)",
    "NetworkForAGraphWithAttributes-v2106": "v2106.NetworkForAGraphWithAttributes('3x0e', '1x0e', '2x0e', '1x0e', max_radius=2.0, num_neighbors=3.0, num_nodes=4.0, mul=4, layers=2, lmax=1)",
    "gate_points_2102": "g2102.Network(irreps_in='3x0e', irreps_hidden='4x0e+4x0o+2x1e+2x1o', irreps_out='1x0e', irreps_node_attr='1x0e', irreps_edge_attr=o3.Irreps.spherical_harmonics(2), layers=2, max_radius=2.0, number_of_basis=8, radial_layers=1, radial_neurons=16, num_neighbors=3.0, num_nodes=4.0)",
    "Linear": "o3.Linear('4x0e+2x1o', '3x0e+3x1o')",
    "FullyConnectedTensorProduct": "Pair(o3.FullyConnectedTensorProduct('2x0e+2x1o', '1x0e+1x1o', '4x0e+2x1o+1x2e'))",
    "FullTensorProduct": "Pair(o3.FullTensorProduct('2x0e+1x1o', '1x0e+1x1o'))",
    "ElementwiseTensorProduct": "Pair(o3.ElementwiseTensorProduct('2x0e+2x1o', '2x0e+2x1o'))",
    "TensorSquare": "o3.TensorSquare('2x0e+1x1o')",
    "SphericalHarmonics": "o3.SphericalHarmonics('0e+1o+2e+3o', normalize=True, normalization='component')",
    "Norm": "o3.Norm('4x0e+2x1o')",
    "Gate": "nn.Gate('4x0e', [torch.relu], '2x0e', [torch.sigmoid], '2x1o')",
    "BatchNorm": "nn.BatchNorm('4x0e+2x1o')",
    "NormActivation": "nn.NormActivation('4x0e+2x1o', torch.sigmoid)",
    "FullyConnectedNet": "nn.FullyConnectedNet([6, 16, 16, 4], torch.nn.functional.silu)",
    "ToS2Grid": "o3.ToS2Grid(3, (8, 9))",
    "S2Activation": "nn.S2Activation('0e+1o+2e', torch.relu, res=12)",
    "SO3Activation": "nn.SO3Activation(1, 1, torch.relu, resolution=6)",
    "ReducedTensorProducts": "o3.ReducedTensorProducts('ij=ji', i='1o')",
    "soft_one_hot_linspace": "Fn(lambda x: math.soft_one_hot_linspace(x.norm(dim=1), 0.0, 2.0, 8, basis='smooth_finite', cutoff=True))",
}

MODELS = sorted(SPECS)


def _wrappers():
    import torch

    class Pair(torch.nn.Module):
        """Feed a tensor product the same cloud twice, cut to each input's width."""

        def __init__(self, product):
            super().__init__()
            self.product = product

        def forward(self, x):
            return self.product(x[:, : self.product.irreps_in1.dim], x[:, : self.product.irreps_in2.dim])

    class Fn(torch.nn.Module):
        def __init__(self, function):
            super().__init__()
            self.function = function

        def forward(self, *args):
            return self.function(*args)

    return Pair, Fn


def _inputs(name, model):
    import torch

    generator = torch.Generator().manual_seed(0)
    pos = torch.randn(POINTS, 3, generator=generator)
    batch = torch.arange(POINTS) // (POINTS // 2)
    if name.startswith("SimpleNetwork"):
        return ({"pos": pos, "x": torch.randn(POINTS, 3, generator=generator), "batch": batch},)
    if name.startswith("NetworkForAGraph"):
        return ({"pos": pos, "x": torch.randn(POINTS, 3, generator=generator), "batch": batch,
                 "node_attr": torch.ones(POINTS, 1),
                 "edge_index": torch.randint(0, POINTS, (2, 30), generator=generator),
                 "edge_attr": torch.randn(30, 2, generator=generator)},)
    if name == "gate_points_2102":
        return ({"pos": pos, "x": torch.randn(POINTS, 3, generator=generator), "batch": batch,
                 "z": torch.ones(POINTS, 1)},)
    if name == "ToS2Grid":
        return (torch.randn(2, 16, generator=generator),)
    if name == "S2Activation":
        return (torch.randn(2, 9, generator=generator),)
    if name == "SO3Activation":
        return (torch.randn(2, 10, generator=generator),)
    if name == "ReducedTensorProducts":
        return (pos, pos.flip(0))
    if name in ("SphericalHarmonics", "soft_one_hot_linspace"):
        return (pos,)
    if name == "FullyConnectedNet":
        return (torch.randn(POINTS, 6, generator=generator),)
    irreps = getattr(model, "irreps_in", None) or getattr(model, "irreps", None)
    width = irreps.dim if irreps is not None and hasattr(irreps, "dim") else 16
    return (torch.randn(POINTS, width, generator=generator),)


def build(name):
    import torch
    from e3nn import math, nn, o3
    from e3nn.nn.models import gate_points_2102 as g2102
    from e3nn.nn.models.v2106 import gate_points_networks as v2106

    Pair, Fn = _wrappers()
    namespace = {"torch": torch, "o3": o3, "nn": nn, "math": math, "v2106": v2106, "g2102": g2102,
                 "Pair": Pair, "Fn": Fn}
    model = eval(SPECS[name], namespace)
    return model, _inputs(name, model), {}
