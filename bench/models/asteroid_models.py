"""asteroid 0.7.0, its models (dev split, bench/SPLITS.md "Dev split growth: encodec and asteroid", stop 32).

The rule written there before anything ran: every class of asteroid.models.__all__, n_src=2 and small sizes
from a fixed table, on the mixture randn(2, 8000) (FasNetTAC: randn(2, 2, 8000), also with valid_mics).
The library root is asteroid only (its filterbanks are asteroid_filterbanks, a dev library of its own).
"""

LIBRARY = "asteroid"
PACKAGES = ["asteroid"]
DISTRIBUTIONS = ["asteroid", "asteroid-filterbanks", "torch"]
ENV = "benchenv"

CONSTRUCTORS = {
    "ConvTasNet": "ConvTasNet(n_src=2, n_blocks=2, n_repeats=1, bn_chan=16, hid_chan=32, skip_chan=16, n_filters=32)",
    "DPRNNTasNet": "DPRNNTasNet(n_src=2, bn_chan=16, hid_size=16, chunk_size=20, n_repeats=2, n_filters=32)",
    "SuDORMRFImprovedNet": "SuDORMRFImprovedNet(n_src=2, bn_chan=16, num_blocks=2, upsampling_depth=2, n_filters=32)",
    "SuDORMRFNet": "SuDORMRFNet(n_src=2, bn_chan=16, num_blocks=2, upsampling_depth=2, n_filters=32)",
    "DPTNet": "DPTNet(n_src=2, n_heads=2, ff_hid=16, chunk_size=20, n_repeats=2, n_filters=32)",
    "FasNetTAC": "FasNetTAC(n_src=2, enc_dim=16, feature_dim=16, hidden_dim=16, n_layers=2, tac_hidden_dim=16,"
                 " chunk_size=20, hop_size=10)",
    "LSTMTasNet": "LSTMTasNet(n_src=2, n_layers=2, hid_size=16, n_filters=32)",
    "DeMask": "DeMask(hidden_dims=(32,), n_filters=64, kernel_size=64, stride=32)",
    "DCUNet": "DCUNet('mini', fix_length_mode='pad')",
    "DCCRNet": "DCCRNet('mini')",
    "XUMX": "XUMX()",
}
MODELS = [*CONSTRUCTORS, "FasNetTAC_valid_mics"]


def build(name):
    import torch
    import asteroid.models

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    cls_name = name.removesuffix("_valid_mics")
    model = eval(CONSTRUCTORS[cls_name], vars(asteroid.models))
    if cls_name == "FasNetTAC":
        x = torch.randn(2, 2, 8000, generator=generator)
        if name.endswith("_valid_mics"):
            return model, (x,), {"valid_mics": torch.tensor([2, 1])}
        return model, (x,), {}
    return model, (torch.randn(2, 8000, generator=generator),), {}
