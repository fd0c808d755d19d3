"""torchlibrosa 0.1.0 (dev split, bench/SPLITS.md "Dev split growth: deepinv and torchlibrosa", stop 41).

The rule written there before anything ran: every nn.Module class of `torchlibrosa.stft` and
`torchlibrosa.augmentation` (the abstract `DFTBase` left out), and the module-level `magphase`, with small
documented arguments (n_fft = 256, hop_length = 64, sr = 16000, n_mels = 32) on a waveform torch.randn(2, 4000),
or on a power spectrogram torch.rand(2, 1, 63, 129) (batch, channels, time_steps, freq_bins: the shape the
waveform's spectrogram has) where the class takes one. Variants are the documented switches of each constructor
(center, pad_mode, freeze_parameters, power, is_log, top_db, onnx, norm); `DFT` has no forward, so each of its four
public methods is one model per documented norm (None, 'ortho') on randn(16) (randn(9) for irdft's half
spectrum). The augmentation layers act only in training mode (their documented use: `spec_augmenter.train()`):
their models keep them in training mode although the harness calls eval(), plus one `SpecAugmentation_eval` as
the harness leaves it. Every call is written as plain code in the forward below, one branch per model. Seed 0.
"""

LIBRARY = "torchlibrosa"
PACKAGES = ["torchlibrosa"]
DISTRIBUTIONS = ["torchlibrosa", "librosa", "torch"]
ENV = "benchenv"

N_FFT = 256
HOP = 64
SR = 16000
N_MELS = 32

MODELS = [
    "STFT", "STFT_nocenter", "STFT_constant_pad", "STFT_trainable",
    "Spectrogram", "Spectrogram_power1", "Spectrogram_nocenter",
    "LogmelFilterBank", "LogmelFilterBank_nolog", "LogmelFilterBank_no_top_db", "Spectrogram_LogmelFilterBank",
    "ISTFT", "ISTFT_onnx",
    "Enframe", "Scalar",
    "DFT_dft", "DFT_idft", "DFT_rdft", "DFT_irdft",
    "DFT_dft_ortho", "DFT_idft_ortho", "DFT_rdft_ortho", "DFT_irdft_ortho",
    "magphase",
    "DropStripes_time", "DropStripes_freq", "SpecAugmentation", "SpecAugmentation_eval",
]

WAVEFORM = {"STFT", "STFT_nocenter", "STFT_constant_pad", "STFT_trainable", "Spectrogram", "Spectrogram_power1",
            "Spectrogram_nocenter", "Spectrogram_LogmelFilterBank", "ISTFT", "ISTFT_onnx", "Enframe"}
TRAINING = {"DropStripes_time", "DropStripes_freq", "SpecAugmentation"}


def build(name):
    import numpy as np
    import torch
    from torch import nn
    from torchlibrosa.stft import DFT, ISTFT, STFT, Enframe, LogmelFilterBank, Scalar, Spectrogram, magphase
    from torchlibrosa.augmentation import DropStripes, SpecAugmentation

    torch.manual_seed(0)
    if name in WAVEFORM:
        args = (torch.randn(2, 4000),)
    elif name.startswith("DFT_irdft"):
        args = (torch.randn(9), torch.randn(9))
    elif name.startswith("DFT_"):
        args = (torch.randn(16), torch.randn(16))
    elif name == "magphase":
        args = (torch.randn(2, 1, 63, 129), torch.randn(2, 1, 63, 129))
    else:
        args = (torch.rand(2, 1, 63, 129),)

    class Model(nn.Module):
        def __init__(self, which):
            super().__init__()
            self.which = which
            if which == "STFT":
                self.layer = STFT(n_fft=N_FFT, hop_length=HOP)
            elif which == "STFT_nocenter":
                self.layer = STFT(n_fft=N_FFT, hop_length=HOP, center=False)
            elif which == "STFT_constant_pad":
                self.layer = STFT(n_fft=N_FFT, hop_length=HOP, pad_mode="constant")
            elif which == "STFT_trainable":
                self.layer = STFT(n_fft=N_FFT, hop_length=HOP, freeze_parameters=False)
            elif which == "Spectrogram":
                self.layer = Spectrogram(n_fft=N_FFT, hop_length=HOP)
            elif which == "Spectrogram_power1":
                self.layer = Spectrogram(n_fft=N_FFT, hop_length=HOP, power=1.0)
            elif which == "Spectrogram_nocenter":
                self.layer = Spectrogram(n_fft=N_FFT, hop_length=HOP, center=False)
            elif which == "LogmelFilterBank":
                self.layer = LogmelFilterBank(sr=SR, n_fft=N_FFT, n_mels=N_MELS)
            elif which == "LogmelFilterBank_nolog":
                self.layer = LogmelFilterBank(sr=SR, n_fft=N_FFT, n_mels=N_MELS, is_log=False)
            elif which == "LogmelFilterBank_no_top_db":
                self.layer = LogmelFilterBank(sr=SR, n_fft=N_FFT, n_mels=N_MELS, top_db=None)
            elif which == "Spectrogram_LogmelFilterBank":
                self.spectrogram = Spectrogram(n_fft=N_FFT, hop_length=HOP)
                self.layer = LogmelFilterBank(sr=SR, n_fft=N_FFT, n_mels=N_MELS)
            elif which == "ISTFT":
                self.stft = STFT(n_fft=N_FFT, hop_length=HOP)
                self.layer = ISTFT(n_fft=N_FFT, hop_length=HOP)
            elif which == "ISTFT_onnx":
                self.stft = STFT(n_fft=N_FFT, hop_length=HOP)
                self.layer = ISTFT(n_fft=N_FFT, hop_length=HOP, onnx=True, frames_num=63, device="cpu")
            elif which == "Enframe":
                self.layer = Enframe(frame_length=N_FFT, hop_length=HOP)
            elif which == "Scalar":
                rng = np.random.RandomState(0)
                self.layer = Scalar({"mean": rng.rand(129), "std": 1.0 + rng.rand(129)}, freeze_parameters=True)
            elif which.startswith("DFT_"):
                self.layer = DFT(16, "ortho" if which.endswith("_ortho") else None)
            elif which.startswith("DropStripes_time"):
                self.layer = DropStripes(dim=2, drop_width=8, stripes_num=2)
            elif which.startswith("DropStripes_freq"):
                self.layer = DropStripes(dim=3, drop_width=8, stripes_num=2)
            elif which.startswith("SpecAugmentation"):
                self.layer = SpecAugmentation(time_drop_width=8, time_stripes_num=2, freq_drop_width=8,
                                              freq_stripes_num=2)

        def train(self, mode=True):
            """The harness calls eval(); the augmentation models keep their layer in training mode."""
            super().train(mode)
            if self.which in TRAINING:
                self.layer.train(True)
            return self

        def forward(self, *inputs):
            which = self.which
            if which in ("Spectrogram_LogmelFilterBank",):
                return self.layer(self.spectrogram(inputs[0]))
            if which in ("ISTFT", "ISTFT_onnx"):
                real, imag = self.stft(inputs[0])
                return self.layer(real, imag, inputs[0].shape[-1])
            if which in ("DFT_dft", "DFT_dft_ortho"):
                return self.layer.dft(inputs[0], inputs[1])
            if which in ("DFT_idft", "DFT_idft_ortho"):
                return self.layer.idft(inputs[0], inputs[1])
            if which in ("DFT_rdft", "DFT_rdft_ortho"):
                return self.layer.rdft(inputs[0])
            if which in ("DFT_irdft", "DFT_irdft_ortho"):
                return self.layer.irdft(inputs[0], inputs[1])
            if which == "magphase":
                return magphase(inputs[0], inputs[1])
            return self.layer(inputs[0])

    model = Model(name)
    return model, args, {}
