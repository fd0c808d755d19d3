"""torchaudio 2.11.0 (dev split, bench/SPLITS.md "Dev split growth: torchaudio", stop 35).

The rule written there before anything ran: every model factory of `torchaudio.models` in its base (smallest)
configuration, or the class with the small sizes written below where the factory has none, except the Hybrid Demucs
family (`HDemucs`, `hdemucs_*`: a port of demucs, a test-split library) and the pretraining / beam-search wrappers
(`HuBERTPretrainModel`, `hubert_pretrain_*`, `RNNTBeamSearch`, which need labels or a decoder loop); each model's
`forward` on the inputs its docstring names, and `infer` where the class has one; plus every `nn.Module` of
`torchaudio.transforms` that builds with its documented defaults (or the one required argument written below), on a
waveform randn(2, 8000) or the spectrogram that its docstring asks for. Every call is written as plain code.
"""
import os

LIBRARY = "torchaudio"
PACKAGES = ["torchaudio"]
DISTRIBUTIONS = ["torchaudio", "torch"]
ENV = "benchenv-tv"  # torchaudio's wheels are CUDA builds; 2.11.0 loads beside torch 2.14.1 (README-realworld.md)
EXTRA_PATH = [os.path.join(os.environ.get("BENCHENV_LIBS", "/work/benchenv-libs"), "torchaudio-2.11.0")]

SSL = ["wav2vec2_base", "hubert_base", "wavlm_base"]
SSL_LENGTHS = [f"{name}_lengths" for name in SSL]
ACOUSTIC = ["Conformer", "Emformer", "Emformer_infer", "emformer_rnnt_base", "ConvTasNet", "DeepSpeech",
            "Wav2Letter", "Tacotron2", "Tacotron2_infer", "WaveRNN", "WaveRNN_infer", "squim_objective_base",
            "squim_subjective_base"]
TRANSFORMS = ["Spectrogram", "InverseSpectrogram", "GriffinLim", "AmplitudeToDB", "MelScale", "InverseMelScale",
              "MelSpectrogram", "MFCC", "LFCC", "MuLawEncoding", "MuLawDecoding", "Resample", "ComputeDeltas",
              "TimeStretch", "Fade", "FrequencyMasking", "TimeMasking", "SpecAugment", "Loudness", "Vol",
              "SlidingWindowCmn", "Vad", "SpectralCentroid", "PitchShift", "RNNTLoss", "Convolve", "FFTConvolve",
              "Speed", "SpeedPerturbation", "AddNoise", "Preemphasis", "Deemphasis", "PSD", "MVDR", "RTFMVDR",
              "SoudenMVDR"]
MODELS = [*SSL, *SSL_LENGTHS, *ACOUSTIC, *TRANSFORMS]


def _infer(module):
    """A module whose forward is `module.infer(...)`, written as plain code."""
    import torch

    class Infer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = module

        def forward(self, *args):
            return self.inner.infer(*args)

    return Infer()


def build(name):
    import torch
    import torchaudio.models as M
    import torchaudio.transforms as T

    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    wav = torch.randn(2, 8000, generator=g)

    if name in SSL:
        return getattr(M, name)(), (wav,), {}
    if name in SSL_LENGTHS:
        return getattr(M, name[:-len("_lengths")])(), (wav, torch.tensor([8000, 6000])), {}

    if name == "Conformer":
        model = M.Conformer(input_dim=80, num_heads=4, ffn_dim=128, num_layers=2, depthwise_conv_kernel_size=31)
        return model, (torch.randn(2, 50, 80, generator=g), torch.tensor([50, 40])), {}
    if name in ("Emformer", "Emformer_infer"):
        model = M.Emformer(input_dim=64, num_heads=4, ffn_dim=128, num_layers=2, segment_length=4,
                           right_context_length=1)
        if name == "Emformer":
            return model.eval(), (torch.randn(2, 21, 64, generator=g), torch.tensor([20, 16])), {}
        return _infer(model.eval()), (torch.randn(2, 5, 64, generator=g), torch.tensor([4, 4])), {}
    if name == "emformer_rnnt_base":
        model = M.emformer_rnnt_base(num_symbols=32).eval()
        sources = torch.randn(2, 44, 80, generator=g)
        targets = torch.randint(0, 32, (2, 5), generator=g)
        return model, (sources, torch.tensor([40, 36]), targets, torch.tensor([5, 4])), {}
    if name == "ConvTasNet":
        model = M.ConvTasNet(num_sources=2, enc_kernel_size=16, enc_num_feats=64, msk_kernel_size=3, msk_num_feats=32,
                             msk_num_hidden_feats=64, msk_num_layers=2, msk_num_stacks=2)
        return model, (wav[:1, None, :],), {}
    if name == "DeepSpeech":
        return M.DeepSpeech(n_feature=40, n_hidden=64, n_class=10), (torch.randn(2, 1, 50, 40, generator=g),), {}
    if name == "Wav2Letter":
        return M.Wav2Letter(num_classes=10, input_type="waveform", num_features=1), (wav[:, None, :],), {}
    if name in ("Tacotron2", "Tacotron2_infer"):
        model = M.Tacotron2(n_mels=40, decoder_max_step=20).eval()
        tokens = torch.randint(1, 100, (2, 12), generator=g)
        lengths = torch.tensor([12, 9])
        if name == "Tacotron2":
            mel = torch.randn(2, 40, 30, generator=g)
            return model, (tokens, lengths, mel, torch.tensor([30, 24])), {}
        return _infer(model), (tokens, lengths), {}
    if name in ("WaveRNN", "WaveRNN_infer"):
        model = M.WaveRNN(upsample_scales=[5, 5, 8], n_classes=256, hop_length=200, n_res_block=2, n_rnn=64, n_fc=64,
                          n_hidden=32, n_output=32).eval()
        specgram = torch.randn(2, 1, 128, 6, generator=g)
        if name == "WaveRNN":
            waveform = torch.rand(2, 1, (6 - 4) * 200, generator=g) * 2 - 1
            return model, (waveform, specgram), {}
        return _infer(model), (specgram[:1, 0, :, :4], torch.tensor([4])), {}
    if name == "squim_objective_base":
        return M.squim_objective_base().eval(), (wav[:1],), {}
    if name == "squim_subjective_base":
        return M.squim_subjective_base().eval(), (wav[:1], torch.randn(1, 8000, generator=g)), {}

    spec = torch.stft(wav, n_fft=400, hop_length=200, window=torch.hann_window(400), return_complex=True)
    power = spec.abs() ** 2
    if name == "Spectrogram":
        return T.Spectrogram(), (wav,), {}
    if name == "InverseSpectrogram":
        return T.InverseSpectrogram(), (T.Spectrogram(power=None)(wav),), {}
    if name == "GriffinLim":
        return T.GriffinLim(n_iter=4), (T.Spectrogram()(wav),), {}
    if name == "AmplitudeToDB":
        return T.AmplitudeToDB(), (power,), {}
    if name == "MelScale":
        return T.MelScale(n_mels=32, n_stft=201), (power,), {}
    if name == "InverseMelScale":
        return T.InverseMelScale(n_stft=201, n_mels=32), (T.MelScale(n_mels=32, n_stft=201)(power),), {}
    if name == "MelSpectrogram":
        return T.MelSpectrogram(n_mels=32), (wav,), {}
    if name == "MFCC":
        return T.MFCC(melkwargs={"n_mels": 32}), (wav,), {}
    if name == "LFCC":
        return T.LFCC(), (wav,), {}
    if name == "MuLawEncoding":
        return T.MuLawEncoding(), (wav.clamp(-1, 1),), {}
    if name == "MuLawDecoding":
        return T.MuLawDecoding(), (T.MuLawEncoding()(wav.clamp(-1, 1)),), {}
    if name == "Resample":
        return T.Resample(16000, 8000), (wav,), {}
    if name == "ComputeDeltas":
        return T.ComputeDeltas(), (power,), {}
    if name == "TimeStretch":
        return T.TimeStretch(n_freq=201, fixed_rate=1.2), (spec,), {}
    if name == "Fade":
        return T.Fade(fade_in_len=800, fade_out_len=800), (wav,), {}
    if name == "FrequencyMasking":
        return T.FrequencyMasking(freq_mask_param=20), (power,), {}
    if name == "TimeMasking":
        return T.TimeMasking(time_mask_param=10), (power,), {}
    if name == "SpecAugment":
        return T.SpecAugment(n_time_masks=2, time_mask_param=5, n_freq_masks=2, freq_mask_param=10), (power,), {}
    if name == "Loudness":
        return T.Loudness(16000), (torch.randn(2, 16000, generator=g),), {}
    if name == "Vol":
        return T.Vol(0.5), (wav,), {}
    if name == "SlidingWindowCmn":
        return T.SlidingWindowCmn(cmn_window=20), (power.transpose(-1, -2),), {}
    if name == "Vad":
        return T.Vad(sample_rate=16000), (wav,), {}
    if name == "SpectralCentroid":
        return T.SpectralCentroid(16000), (wav,), {}
    if name == "PitchShift":
        return T.PitchShift(16000, 2), (wav,), {}
    if name == "RNNTLoss":
        logits = torch.randn(2, 10, 6, 8, generator=g)
        targets = torch.randint(1, 8, (2, 5), generator=g, dtype=torch.int32)
        return T.RNNTLoss(), (logits, targets, torch.tensor([10, 8], dtype=torch.int32),
                              torch.tensor([5, 4], dtype=torch.int32)), {}
    if name == "Convolve":
        return T.Convolve(), (wav, torch.randn(2, 50, generator=g)), {}
    if name == "FFTConvolve":
        return T.FFTConvolve(), (wav, torch.randn(2, 50, generator=g)), {}
    if name == "Speed":
        return T.Speed(16000, 1.1), (wav, torch.tensor([8000, 6000])), {}
    if name == "SpeedPerturbation":
        return T.SpeedPerturbation(16000, [0.9, 1.0, 1.1]), (wav, torch.tensor([8000, 6000])), {}
    if name == "AddNoise":
        return T.AddNoise(), (wav, torch.randn(2, 8000, generator=g), torch.tensor([10.0, 5.0])), {}
    if name == "Preemphasis":
        return T.Preemphasis(), (wav,), {}
    if name == "Deemphasis":
        return T.Deemphasis(), (wav,), {}
    multi = torch.stft(torch.randn(4, 8000, generator=g), n_fft=64, hop_length=32, window=torch.hann_window(64),
                       return_complex=True)  # 4 channels, 33 bins
    mask = torch.rand(33, multi.shape[-1], generator=g)
    if name == "PSD":
        return T.PSD(), (multi, mask), {}
    psd_s = T.PSD()(multi, mask)
    psd_n = T.PSD()(multi, 1 - mask)
    if name == "MVDR":
        return T.MVDR(), (multi, mask, 1 - mask), {}
    if name == "RTFMVDR":
        rtf = torch.randn(33, 4, dtype=torch.cfloat, generator=g)
        return T.RTFMVDR(), (multi, rtf, psd_n, 0), {}
    if name == "SoudenMVDR":
        return T.SoudenMVDR(), (multi, psd_s, psd_n, 0), {}
    raise ValueError(name)
