"""ptwt 1.0.1 (dev split, bench/SPLITS.md "Dev split growth: torch-kmeans, ptwt and bayesian-torch").

The rule written there before anything was observed: wavelet "db2", level 2; each analysis/synthesis function
pair reconstructs its own decomposition; each matrix pair is built outside the compiled call; cwt with scales
1..8 and "mexh"; the packet trees built inside the forward with maxlevel 2, their level-2 nodes stacked.
"""

LIBRARY = "ptwt"
PACKAGES = ["ptwt"]
DISTRIBUTIONS = ["ptwt", "PyWavelets", "torch"]
ENV = "benchenv"

# (decomposition, reconstruction, input dimensions)
FUNCTION_PAIRS = [("wavedec", "waverec", 1), ("swt", "iswt", 1), ("wavedec2", "waverec2", 2),
                  ("fswavedec2", "fswaverec2", 2), ("wavedec3", "waverec3", 3), ("fswavedec3", "fswaverec3", 3)]
MATRIX_PAIRS = [("MatrixWavedec", "MatrixWaverec", 1), ("MatrixWavedec2", "MatrixWaverec2", 2),
                ("MatrixWavedec3", "MatrixWaverec3", 3)]
MODELS = ([f"{d}_{r}" for d, r, _ in FUNCTION_PAIRS] + [f"{d}_{r}" for d, r, _ in MATRIX_PAIRS]
          + ["cwt", "WaveletPacket", "WaveletPacket2D"])
SHAPES = {1: (2, 64), 2: (2, 32, 32), 3: (2, 16, 16, 16)}


def build(name):
    import torch
    from torch import nn
    import ptwt

    torch.manual_seed(0)
    pairs = {f"{d}_{r}": (d, r, dims) for d, r, dims in FUNCTION_PAIRS}
    matrix = {f"{d}_{r}": (d, r, dims) for d, r, dims in MATRIX_PAIRS}

    if name in pairs:
        dec_name, rec_name, dims = pairs[name]
        dec, rec = getattr(ptwt, dec_name), getattr(ptwt, rec_name)

        class Model(nn.Module):
            def forward(self, x):
                return rec(dec(x, "db2", level=2), "db2")

        return Model(), (torch.randn(*SHAPES[dims]),), {}

    if name in matrix:
        dec_name, rec_name, dims = matrix[name]
        dec = getattr(ptwt, dec_name)("db2", level=2)
        rec = getattr(ptwt, rec_name)("db2")

        class Model(nn.Module):
            def forward(self, x):
                return rec(dec(x))

        return Model(), (torch.randn(*SHAPES[dims]),), {}

    if name == "cwt":
        class Model(nn.Module):
            def forward(self, x, scales):
                coefficients, _frequencies = ptwt.cwt(x, scales, "mexh")
                return coefficients

        return Model(), (torch.randn(2, 64), torch.arange(1.0, 9.0)), {}

    packet = getattr(ptwt, name)
    dims = 2 if name.endswith("2D") else 1

    class Model(nn.Module):
        def forward(self, x):
            wp = packet(x, "db2", maxlevel=2)
            return torch.stack([wp[node] for node in wp.get_level(2)])

    return Model(), (torch.randn(*SHAPES[dims]),), {}
