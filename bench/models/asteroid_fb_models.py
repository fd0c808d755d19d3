"""asteroid-filterbanks 0.4.0 (dev split, bench/SPLITS.md "Dev split growth: entmax and asteroid-filterbanks")."""

LIBRARY = "asteroid_filterbanks"
PACKAGES = ["asteroid_filterbanks"]
DISTRIBUTIONS = ["asteroid-filterbanks", "torch"]
ENV = "benchenv"

FILTERBANKS = ["AnalyticFreeFB", "FreeFB", "MelGramFB", "MultiphaseGammatoneFB", "ParamSincFB", "STFTFB",
               "TorchSTFTFB"]
MODELS = [f"fb_{name}" for name in FILTERBANKS]


def build(name):
    import torch
    import asteroid_filterbanks as af

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    fb = getattr(af, name[len("fb_"):])(n_filters=64, kernel_size=16, stride=8)
    encoder, decoder = af.Encoder(fb), af.Decoder(fb)

    class EncodeDecode(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder, self.decoder = encoder, decoder

        def forward(self, wav):
            return self.decoder(self.encoder(wav))

    return EncodeDecode(), (torch.randn(2, 1, 1600, generator=generator),), {}
