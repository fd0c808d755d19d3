"""auraloss 0.4.0 (dev split, bench/SPLITS.md "Dev split growth: FrEIA and auraloss").

Models by the rule written there before anything was observed: every nn.Module class of auraloss.time and
auraloss.freq whose required constructor parameters are at most `sample_rate` (16000), on waveforms
`randn(2, 1, 4096)`, magnitudes `rand(2, 513, 16) + 0.1` for a forward taking `x_mag, y_mag`, a stereo pair
`randn(2, 2, 4096)` for a forward taking one input. Left out by the rule: SumAndDifferenceSTFTLoss (requires
fft_sizes, hop_sizes, win_lengths). At spec-writing time ChromaSTFTLoss and MelSTFTLoss raised (librosa is not
installed) and RandomResolutionSTFTLoss raised (its largest FFT is longer than 4096): kept, as the rule says.
"""

LIBRARY = "auraloss"
PACKAGES = ["auraloss"]
DISTRIBUTIONS = ["auraloss", "torch"]
ENV = "benchenv"

# class -> (module, input kind): "wave" (input, target), "mag" (x_mag, y_mag), "stereo" (one input)
LOSSES = {
    "DCLoss": ("time", "wave"),
    "ESRLoss": ("time", "wave"),
    "LogCoshLoss": ("time", "wave"),
    "SDSDRLoss": ("time", "wave"),
    "SISDRLoss": ("time", "wave"),
    "SNRLoss": ("time", "wave"),
    "ChromaSTFTLoss": ("freq", "wave"),
    "FIRFilter": ("freq", "wave"),
    "MelSTFTLoss": ("freq", "wave"),
    "MultiResolutionSTFTLoss": ("freq", "wave"),
    "RandomResolutionSTFTLoss": ("freq", "wave"),
    "STFTLoss": ("freq", "wave"),
    "STFTMagnitudeLoss": ("freq", "mag"),
    "SpectralConvergenceLoss": ("freq", "mag"),
    "SumAndDifference": ("freq", "stereo"),
}
NEEDS_SAMPLE_RATE = {"ChromaSTFTLoss", "MelSTFTLoss"}
MODELS = [f"loss_{name}" for name in LOSSES]


def build(name):
    import importlib

    import torch
    from torch import nn

    torch.manual_seed(0)
    cls_name = name[len("loss_"):]
    module, kind = LOSSES[cls_name]
    cls = getattr(importlib.import_module(f"auraloss.{module}"), cls_name)
    loss = cls(sample_rate=16000) if cls_name in NEEDS_SAMPLE_RATE else cls()
    if kind == "mag":
        args = (torch.rand(2, 513, 16) + 0.1, torch.rand(2, 513, 16) + 0.1)
    elif kind == "stereo":
        args = (torch.randn(2, 2, 4096),)
    else:
        args = (torch.randn(2, 1, 4096), torch.randn(2, 1, 4096))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = loss

        def forward(self, *inputs):
            return self.loss(*inputs)

    return Model(), args, {}
