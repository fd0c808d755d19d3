"""demucs (test split, bench/SPLITS.md): music source separation models and their blocks.

Small configs of Demucs (v2/v3 waveform), HDemucs and HTDemucs (hybrid spectrogram + waveform), their
encoder/decoder layers, transformer and LSTM blocks, the STFT helpers, Wiener filtering and
apply_model's chunked inference. Short stereo clips, seed 0, no weights.
"""

LIBRARY = "demucs"
PACKAGES = ["demucs"]
DISTRIBUTIONS = ["demucs", "torch"]
ENV = "benchenv"

SOURCES = ["drums", "bass", "other", "vocals"]

SPECS = {
    "Demucs": ("DM.Demucs(SOURCES, channels=8, depth=3, samplerate=8000, segment=1)", "audio(1, 2, 4000)"),
    "Demucs_lstm": ("DM.Demucs(SOURCES, channels=8, depth=3, lstm_layers=1, samplerate=8000, segment=1)",
                    "audio(1, 2, 4000)"),
    "Demucs_no_resample": ("DM.Demucs(SOURCES, channels=8, depth=3, resample=False, normalize=False, "
                           "samplerate=8000, segment=1)", "audio(1, 2, 4000)"),
    "Demucs_dconv_attn": ("DM.Demucs(SOURCES, channels=8, depth=3, dconv_mode=3, dconv_attn=1, dconv_lstm=1, "
                          "samplerate=8000, segment=1)", "audio(1, 2, 4000)"),
    "HDemucs": ("HD.HDemucs(SOURCES, channels=8, depth=3, nfft=256, samplerate=8000, segment=1)",
                "audio(1, 2, 4000)"),
    "HDemucs_no_cac": ("HD.HDemucs(SOURCES, channels=8, depth=3, nfft=256, cac=False, samplerate=8000, segment=1)",
                       "audio(1, 2, 4000)"),
    "HDemucs_multi_freqs": ("HD.HDemucs(SOURCES, channels=8, depth=3, nfft=256, multi_freqs=[0.5], "
                            "samplerate=8000, segment=1)", "audio(1, 2, 4000)"),
    "HDemucs_hybrid_old": ("HD.HDemucs(SOURCES, channels=8, depth=3, nfft=256, hybrid_old=True, "
                           "samplerate=8000, segment=1)", "audio(1, 2, 4000)"),
    "HTDemucs": ("H.HTDemucs(SOURCES, channels=8, depth=3, nfft=256, t_layers=1, t_heads=2, bottom_channels=16, "
                 "samplerate=8000, segment=1)", "audio(1, 2, 8000)"),
    "HTDemucs_short": ("H.HTDemucs(SOURCES, channels=8, depth=3, nfft=256, t_layers=1, t_heads=2, "
                       "samplerate=8000, segment=1)", "audio(1, 2, 3000)"),
    "HTDemucs_sparse_free": ("H.HTDemucs(SOURCES, channels=8, depth=3, nfft=256, t_layers=2, t_heads=2, "
                             "t_cross_first=True, t_emb='scaled', t_norm_in_group=True, t_group_norm=True, "
                             "samplerate=8000, segment=1)", "audio(1, 2, 8000)"),
    "HTDemucs_cape": ("H.HTDemucs(SOURCES, channels=8, depth=3, nfft=256, t_layers=1, t_heads=2, t_emb='cape', "
                      "samplerate=8000, segment=1)", "audio(1, 2, 8000)"),
    "HTDemucs_no_cac": ("H.HTDemucs(SOURCES, channels=8, depth=3, nfft=256, t_layers=1, t_heads=2, cac=False, "
                        "samplerate=8000, segment=1)", "audio(1, 2, 8000)"),
    "CrossTransformerEncoder": ("TR.CrossTransformerEncoder(16, num_heads=2, num_layers=2, norm_first=True, "
                                "norm_out=True, layer_scale=True)", None),
    "CrossTransformerEncoder_cape": ("TR.CrossTransformerEncoder(16, emb='cape', num_heads=2, num_layers=2)", None),
    "BLSTM": ("DM.BLSTM(8, layers=1, max_steps=20, skip=True)", "audio(1, 8, 50)"),
    "LocalState": ("DM.LocalState(8, heads=2, nfreqs=2, ndecay=2)", "audio(1, 8, 30)"),
    "DConv": ("DM.DConv(8, depth=2, compress=2, attn=True, lstm=True)", "audio(1, 8, 40)"),
    "HEncLayer": ("HD.HEncLayer(4, 8, freq=True, dconv=True, rewrite=True)", "audio(1, 4, 32, 20)"),
    "HDecLayer": ("HD.HDecLayer(8, 4, freq=True, dconv=True, rewrite=True, last=False)", None),
    "ScaledEmbedding": ("HD.ScaledEmbedding(16, 8, smooth=True)", None),
    "spectro_ispectro": (None, "audio(2, 4000)"),
    "wiener": (None, None),
    "apply_model": (None, "audio(1, 2, 6000)"),
}

ALL_MODELS = sorted(SPECS)
# Observed: a subset, chosen before any truth was recorded, to bound the observation on two shared
# cores (about 30 s a model).
UNOBSERVED = ['CrossTransformerEncoder_cape', 'Demucs_no_resample', 'HDecLayer', 'HDemucs_multi_freqs', 'HTDemucs_no_cac', 'HTDemucs_sparse_free', 'ScaledEmbedding', 'wiener']
MODELS = [name for name in ALL_MODELS if name not in UNOBSERVED]


def build(name):
    import torch
    import demucs.demucs as DM
    import demucs.hdemucs as HD
    import demucs.htdemucs as H
    import demucs.transformer as TR

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)

    def audio(*shape):
        return torch.randn(*shape, generator=generator) * 0.1

    names = {"DM": DM, "HD": HD, "H": H, "TR": TR, "SOURCES": SOURCES, "audio": audio, "torch": torch}
    source, inputs = SPECS[name]
    model = eval(source, names) if source else None
    x = eval(inputs, names) if inputs else None

    if name.startswith("CrossTransformerEncoder"):
        return model, (audio(1, 16, 8, 6), audio(1, 16, 40)), {}
    if name == "HDecLayer":
        from models._wrap import module_of

        return module_of(lambda x, skip: model(x, skip, 32)), (audio(1, 8, 8, 20), audio(1, 8, 8, 20)), {}
    if name == "ScaledEmbedding":
        return model, (torch.arange(16),), {}
    if name == "spectro_ispectro":
        from demucs.spec import ispectro, spectro

        class RoundTrip(torch.nn.Module):
            def forward(self, x):
                return ispectro(spectro(x, n_fft=256, hop_length=64), hop_length=64, length=4000)

        return RoundTrip(), (x,), {}
    if name == "wiener":
        from demucs.wiener import wiener
        from models._wrap import module_of

        mag = torch.rand(10, 65, 2, 2, generator=generator)
        mix = torch.randn(10, 65, 2, 2, generator=generator)
        return module_of(lambda targets, mix: wiener(targets, mix, iterations=1)), (mag, mix), {}
    if name == "apply_model":
        from demucs.apply import apply_model

        inner = HD.HDemucs(SOURCES, channels=8, depth=3, nfft=256, samplerate=8000, segment=1).eval()

        class Apply(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = inner

            def forward(self, mix):
                return apply_model(self.inner, mix, shifts=1, split=True, overlap=0.25, segment=0.5,
                                   progress=False, num_workers=0, device="cpu")

        return Apply(), (x,), {}
    return model, (x,), {}
