"""torch-audiomentations 0.12.0 (dev split, bench/SPLITS.md "Dev split growth: k-diffusion and
torch-audiomentations", stop 32, second round).

The rule written there before anything ran: every transform class of the torch_audiomentations namespace that is
constructible with its defaults, with p=1.0, sample_rate=16000, output_type="tensor", on randn(2, 1, 8000)
(ShuffleChannels: stereo), leaving out those that work through torchaudio (AddBackgroundNoise, ApplyImpulseResponse,
PitchShift); plus Compose, OneOf and SomeOf over [Gain, PolarityInversion]. The library root is
torch_audiomentations only (its filters call julius, never a root). torch-audiomentations and torch-pitch-shift
import torchaudio at module top; the encodec spec's empty stub stands in for it (_stubs/torchaudio).
"""

import os

LIBRARY = "torch_audiomentations"
PACKAGES = ["torch_audiomentations"]
DISTRIBUTIONS = ["torch-audiomentations", "julius", "torch"]
ENV = "benchenv"
EXTRA_PATH = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "_stubs")]

TRANSFORMS = [
    "AddColoredNoise", "BandPassFilter", "BandStopFilter", "Gain", "HighPassFilter", "Identity", "LowPassFilter",
    "PeakNormalization", "PolarityInversion", "Shift", "SpliceOut", "TimeInversion", "ShuffleChannels",
]
COMPOSITIONS = {
    "Compose": "A.Compose(pair, p=1.0, output_type='tensor')",
    "OneOf": "A.OneOf(pair, p=1.0, output_type='tensor')",
    "SomeOf": "A.SomeOf(2, pair, p=1.0, output_type='tensor')",
}
MODELS = [*TRANSFORMS, *COMPOSITIONS]


def build(name):
    import torch
    from torch import nn
    import torch_audiomentations as A

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    channels = 2 if name == "ShuffleChannels" else 1
    x = torch.randn(2, channels, 8000, generator=generator)
    if name in TRANSFORMS:
        return getattr(A, name)(p=1.0, sample_rate=16000, output_type="tensor"), (x,), {}

    pair = [A.Gain(p=1.0, sample_rate=16000, output_type="tensor"),
            A.PolarityInversion(p=1.0, sample_rate=16000, output_type="tensor")]
    composition = eval(COMPOSITIONS[name], {"A": A, "pair": pair})

    class Composition(nn.Module):
        def __init__(self):
            super().__init__()
            self.composition = composition

        def forward(self, x):
            return self.composition(x, sample_rate=16000)

    return Composition(), (x,), {}
