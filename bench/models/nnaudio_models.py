"""nnAudio 0.3.4 (dev split, bench/SPLITS.md "Dev split growth: torchcde and nnAudio", stop 32, third round).

The rule written there before anything ran: every nn.Module class of nnAudio.features that computes a spectrogram from
a waveform, built with sr=16000, n_fft=256, hop_length=64, n_mels=32 (and the CFP and gammatone equivalents), two
octaves of constant-/variable-Q bins from 220 Hz, verbose=False, on randn(2, 4000); STFT with each output_format; and
the inverses (iSTFT, STFT.inverse, Griffin_Lim) on the matching spectrogram of the same waveform, computed at build
time. Every constructor call is written out as plain code.
"""

LIBRARY = "nnAudio"
PACKAGES = ["nnAudio"]
DISTRIBUTIONS = ["nnAudio", "scipy", "torch"]
ENV = "benchenv"



# name -> the module, written as the plain code a user writes (F: nnAudio.features)
def _STFT(F):
    return F.STFT(n_fft=256, hop_length=64, sr=16000, verbose=False)


def _STFT_Magnitude(F):
    return F.STFT(n_fft=256, hop_length=64, sr=16000, output_format="Magnitude", verbose=False)


def _STFT_Phase(F):
    return F.STFT(n_fft=256, hop_length=64, sr=16000, output_format="Phase", verbose=False)


def _MelSpectrogram(F):
    return F.MelSpectrogram(sr=16000, n_fft=256, hop_length=64, n_mels=32, verbose=False)


def _MFCC(F):
    return F.MFCC(sr=16000, verbose=False, n_fft=256, hop_length=64, n_mels=32)


def _Gammatonegram(F):
    return F.Gammatonegram(sr=16000, n_fft=256, hop_length=64, n_bins=32, verbose=False)


def _CQT(F):
    return F.CQT(sr=16000, hop_length=64, fmin=220, n_bins=24, bins_per_octave=12, verbose=False)


def _CQT1992(F):
    return F.CQT1992(sr=16000, hop_length=64, fmin=220, n_bins=24, bins_per_octave=12)


def _CQT1992v2(F):
    return F.CQT1992v2(sr=16000, hop_length=64, fmin=220, n_bins=24, bins_per_octave=12, verbose=False)


def _CQT2010(F):
    return F.CQT2010(sr=16000, hop_length=64, fmin=220, n_bins=24, bins_per_octave=12, verbose=False)


def _CQT2010v2(F):
    return F.CQT2010v2(sr=16000, hop_length=64, fmin=220, n_bins=24, bins_per_octave=12, verbose=False)


def _VQT(F):
    return F.VQT(sr=16000, hop_length=64, fmin=220, n_bins=24, bins_per_octave=12, verbose=False)


def _CFP(F):
    return F.CFP(fs=16000, hop_length=64, window_size=256)


def _Combined_Frequency_Periodicity(F):
    return F.Combined_Frequency_Periodicity(fs=16000, hop_length=64, window_size=256)


FORWARD = {
    "STFT": _STFT, "STFT_Magnitude": _STFT_Magnitude, "STFT_Phase": _STFT_Phase, "MelSpectrogram": _MelSpectrogram,
    "MFCC": _MFCC, "Gammatonegram": _Gammatonegram, "CQT": _CQT, "CQT1992": _CQT1992, "CQT1992v2": _CQT1992v2,
    "CQT2010": _CQT2010, "CQT2010v2": _CQT2010v2, "VQT": _VQT, "CFP": _CFP,
    "Combined_Frequency_Periodicity": _Combined_Frequency_Periodicity,
}
INVERSES = ["iSTFT", "STFT_inverse", "Griffin_Lim"]
MODELS = [*FORWARD, *INVERSES]


def build(name):
    import torch
    from torch import nn
    import nnAudio.features as F

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    wav = torch.randn(2, 4000, generator=generator)

    if name in FORWARD:
        return FORWARD[name](F), (wav,), {}

    with torch.no_grad():
        if name == "Griffin_Lim":
            spec = F.STFT(n_fft=256, hop_length=64, sr=16000, output_format="Magnitude", verbose=False)(wav)
            return F.Griffin_Lim(n_fft=256, hop_length=64), (spec,), {}
        spec = F.STFT(n_fft=256, hop_length=64, sr=16000, verbose=False)(wav)

    if name == "iSTFT":
        class Inverse(nn.Module):
            def __init__(self):
                super().__init__()
                self.istft = F.iSTFT(n_fft=256, hop_length=64, sr=16000, verbose=False)

            def forward(self, X):
                return self.istft(X, onesided=True, length=4000)

        return Inverse(), (spec,), {}

    class STFTInverse(nn.Module):
        def __init__(self):
            super().__init__()
            self.stft = F.STFT(n_fft=256, hop_length=64, sr=16000, iSTFT=True, verbose=False)

        def forward(self, X):
            return self.stft.inverse(X, onesided=True, length=4000)

    return STFTInverse(), (spec,), {}
