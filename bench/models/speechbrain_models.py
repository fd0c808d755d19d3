"""speechbrain (test split, bench/SPLITS.md): speech encoders, separation models, features, RNNs and decoders.

Tiny configs (tens of channels, one or two layers) on short feature sequences or waveforms with relative
lengths (speechbrain's `wav_lens`), seed 0, no weights. Runs in the torchvision venv: speechbrain imports
torchaudio, whose only wheels are CUDA builds that load beside torch 2.14.1 (+cu130), not beside the
2.13 CPU build; torchaudio 2.11.0 is installed with --no-deps under $BENCHENV_LIBS/torchaudio-2.11.0.
"""

import os

LIBRARY = "speechbrain"
PACKAGES = ["speechbrain"]
DISTRIBUTIONS = ["speechbrain", "torch"]
ENV = "benchenv-tv"
EXTRA_PATH = [os.path.join(os.environ.get("BENCHENV_LIBS", "/work/benchenv-libs"), "torchaudio-2.11.0")]

# name -> (constructor source, input kind); the inputs are made in build()
SPECS = {
    "ECAPA_TDNN": ("ECAPA.ECAPA_TDNN(20, lin_neurons=16, channels=[32, 32, 32, 32, 96], attention_channels=16)",
                   "feats_lens"),
    "Xvector": ("XV.Xvector(tdnn_blocks=3, tdnn_channels=[32, 32, 64], tdnn_kernel_sizes=[5, 3, 1], "
                "tdnn_dilations=[1, 2, 1], lin_neurons=16, in_channels=20)", "feats_lens"),
    "ResNet": ("RN.ResNet(input_size=20, channels=[8, 8, 16, 16], block_sizes=[1, 1, 1, 1], lin_neurons=16)",
               "feats_lens"),
    "CRDNN": ("CR.CRDNN(input_shape=(None, None, 20), cnn_blocks=1, cnn_channels=[8], rnn_layers=1, rnn_neurons=16, "
              "dnn_blocks=1, dnn_neurons=16, time_pooling=True)", "feats"),
    "CRDNN_lstm_rnnp": ("CR.CRDNN(input_shape=(None, None, 20), cnn_blocks=1, cnn_channels=[8], rnn_layers=2, "
                        "rnn_neurons=16, rnn_class=sb_rnn.LSTM, use_rnnp=True, dnn_blocks=1, dnn_neurons=16)",
                        "feats"),
    "TransformerASR_encode": ("TASR.TransformerASR(10, 20, d_model=32, nhead=2, num_encoder_layers=2, "
                              "num_decoder_layers=1, d_ffn=64)", "encode"),
    "TransformerASR": ("TASR.TransformerASR(10, 20, d_model=32, nhead=2, num_encoder_layers=2, num_decoder_layers=1, "
                       "d_ffn=64)", "asr"),
    "ConformerASR": ("TASR.TransformerASR(10, 20, d_model=32, nhead=2, num_encoder_layers=2, num_decoder_layers=1, "
                     "d_ffn=64, encoder_module='conformer', attention_type='RelPosMHAXL', normalize_before=True, "
                     "kernel_size=5)", "asr"),
    "BranchformerASR": ("TASR.TransformerASR(10, 20, d_model=32, nhead=2, num_encoder_layers=2, num_decoder_layers=1, "
                        "d_ffn=64, encoder_module='branchformer', attention_type='RelPosMHAXL', kernel_size=5, "
                        "csgu_linear_units=64)", "encode"),
    "ConformerASR_causal": ("TASR.TransformerASR(10, 20, d_model=32, nhead=2, num_encoder_layers=2, "
                            "num_decoder_layers=1, d_ffn=64, encoder_module='conformer', attention_type='RelPosMHAXL', "
                            "normalize_before=True, kernel_size=5, causal=True)", "encode"),
    "Dual_Path_SepFormer": (None, "wave"),
    "ContextNet": ("CN.ContextNet(input_shape=(None, None, 20), out_channels=16, conv_channels=[16, 16], "
                   "kernel_size=3, strides=[1, 2], num_blocks=2, num_layers=2, inner_dim=4)", "feats"),
    "VanillaNN": ("VN.VanillaNN(input_shape=(None, None, 20), dnn_blocks=2, dnn_neurons=16)", "feats"),
    "RNNLM": ("LM.RNNLM(10, embedding_dim=8, rnn_layers=1, rnn_neurons=16, dnn_blocks=1, dnn_neurons=16)", "tokens"),
    "SLiGRU": ("sb_rnn.SLiGRU(16, input_shape=(None, None, 20), num_layers=1)", "feats"),
    "QuasiRNN": ("sb_rnn.QuasiRNN(16, input_shape=(None, None, 20), num_layers=1, bidirectional=True)", "feats"),
    "LSTM_lengths": ("sb_rnn.LSTM(16, input_shape=(None, None, 20), num_layers=1, bidirectional=True)", "rnn_lens"),
    "AttentionalRNNDecoder": (None, "decoder"),
    "Fbank": ("sb_features.Fbank(n_mels=20, deltas=True, context=True)", "wave"),
    "MFCC": ("sb_features.MFCC(n_mels=20, n_mfcc=10)", "wave"),
    "InputNormalization": ("sb_processing.InputNormalization(norm_type='sentence')", "feats_lens"),
    "SincConv": ("sb_cnn.SincConv(out_channels=8, kernel_size=31, input_shape=(None, 800))", "wave"),
    "S2SRNNGreedySearcher": (None, "search"),
    "S2SRNNBeamSearcher": (None, "search"),
    "S2STransformerBeamSearcher": (None, "search"),
    "CTCPrefixBeamSearcher": (None, "ctc"),
    "CTCBeamSearcher": (None, "ctc"),
    "ctc_greedy_decode": (None, "ctc"),
    "length_to_mask": (None, "lens"),
}

# Not here: ConvTasNet, LiGRU and MetricGAN's discriminator (their tiny configs did not build or run eagerly).
ALL_MODELS = sorted(SPECS)
# Observed: a subset, chosen before any truth was recorded, to bound the observation on two shared
# cores (about 30 s a model).
UNOBSERVED = ['CRDNN_lstm_rnnp', 'CTCBeamSearcher', 'ConformerASR_causal', 'MFCC', 'S2STransformerBeamSearcher', 'SincConv', 'TransformerASR_encode', 'VanillaNN', 'ctc_greedy_decode']
MODELS = [name for name in ALL_MODELS if name not in UNOBSERVED]


def build(name):
    import torch
    from speechbrain.lobes import features as sb_features
    from speechbrain.lobes.models import CRDNN as CR
    from speechbrain.lobes.models import ECAPA_TDNN as ECAPA
    from speechbrain.lobes.models import ContextNet as CN
    from speechbrain.lobes.models import MetricGAN as MG
    from speechbrain.lobes.models import RNNLM as LM
    from speechbrain.lobes.models import ResNet as RN
    from speechbrain.lobes.models import VanillaNN as VN
    from speechbrain.lobes.models import Xvector as XV
    from speechbrain.lobes.models.transformer import TransformerASR as TASR
    from speechbrain.nnet import CNN as sb_cnn
    from speechbrain.nnet import RNN as sb_rnn
    from speechbrain.nnet import linear as sb_linear
    from speechbrain.processing import features as sb_processing

    from models._wrap import module_of

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    names = {k: v for k, v in locals().items() if k not in ("name", "generator")}
    feats = torch.randn(2, 30, 20, generator=generator)
    lens = torch.tensor([1.0, 0.7])
    wave = torch.randn(2, 800, generator=generator) * 0.1
    tokens = torch.randint(1, 10, (2, 6), generator=generator)

    source, kind = SPECS[name]
    model = eval(source, names) if source else None

    if kind == "feats_lens":
        return model, (feats, lens), {}
    if kind == "feats":
        return model, (feats,), {}
    if kind == "rnn_lens":
        class WithLengths(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = model

            def forward(self, x, lengths):
                return self.rnn(x, lengths=lengths)

        return WithLengths(), (feats, lens), {}
    if kind == "tokens":
        return model, (tokens,), {}
    if kind == "spectrograms":
        return model, (torch.rand(2, 1, 30, 20, generator=generator),), {}
    if kind == "lens":
        from speechbrain.dataio.dataio import length_to_mask

        class Mask(torch.nn.Module):
            def forward(self, lens):
                return length_to_mask(lens * 30, max_len=30)

        return Mask(), (lens,), {}
    if kind == "encode":
        class Encode(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.asr = model

            def forward(self, x, lengths):
                return self.asr.encode(x, lengths)

        return Encode(), (feats, lens), {}
    if kind == "asr":
        return model, (feats, tokens), {"wav_len": lens}
    if kind == "wave" and model is not None:
        return model, (wave,), {}
    if name == "Dual_Path_SepFormer":
        from speechbrain.lobes.models.dual_path import Decoder, Dual_Path_Model, Encoder, SBTransformerBlock

        class SepFormer(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = Encoder(kernel_size=16, out_channels=16)
                intra = SBTransformerBlock(1, 16, 2, d_ffn=32)
                inter = SBTransformerBlock(1, 16, 2, d_ffn=32)
                self.masknet = Dual_Path_Model(16, 16, intra, inter, num_layers=1, K=20, num_spks=2)
                self.decoder = Decoder(in_channels=16, out_channels=1, kernel_size=16, stride=8, bias=False)

            def forward(self, mix):
                w = self.encoder(mix)
                masks = self.masknet(w)
                return torch.stack([self.decoder(w * m) for m in masks], dim=-1)

        return SepFormer(), (wave,), {}
    if name == "AttentionalRNNDecoder":
        class Decode(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.decoder = sb_rnn.AttentionalRNNDecoder("gru", "location", hidden_size=16, attn_dim=16,
                                                            num_layers=1, enc_dim=20, input_size=8, channels=4,
                                                            kernel_size=5)

            def forward(self, embeddings, feats, lengths):
                return self.decoder(embeddings, feats, lengths)

        embeddings = torch.randn(2, 6, 8, generator=generator)
        return Decode(), (embeddings, feats, lens), {}
    if kind == "search":
        from speechbrain.decoders import seq2seq

        if name == "S2STransformerBeamSearcher":
            asr = TASR.TransformerASR(10, 20, d_model=32, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                      d_ffn=64)
            linear = sb_linear.Linear(input_size=32, n_neurons=10)
            searcher = seq2seq.S2STransformerBeamSearcher([asr, linear], bos_index=1, eos_index=2,
                                                          min_decode_ratio=0.0, max_decode_ratio=1.0, beam_size=2)

            class Decode(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.asr, self.linear = asr, linear

                def forward(self, x, l):
                    return searcher(self.asr.encode(x, l), l)[0]

            return Decode(), (feats, lens), {}
        embedding = torch.nn.Embedding(10, 8)
        decoder = sb_rnn.AttentionalRNNDecoder("gru", "content", hidden_size=16, attn_dim=16, num_layers=1,
                                               enc_dim=20, input_size=8)
        linear = sb_linear.Linear(input_size=16, n_neurons=10)
        common = dict(bos_index=1, eos_index=2, min_decode_ratio=0.0, max_decode_ratio=0.3)
        class Search(torch.nn.Module):
            def __init__(self):
                super().__init__()
                if name == "S2SRNNGreedySearcher":
                    self.searcher = seq2seq.S2SRNNGreedySearcher(embedding, decoder, linear, **common)
                else:
                    self.searcher = seq2seq.S2SRNNBeamSearcher(embedding, decoder, linear, beam_size=2, **common)

            def forward(self, x, lengths):
                return self.searcher(x, lengths)[0]

        return Search(), (feats, lens), {}
    if kind == "ctc":
        from speechbrain.decoders import ctc

        log_probs = torch.log_softmax(torch.randn(2, 12, 5, generator=generator), dim=-1)
        if name == "ctc_greedy_decode":
            return module_of(lambda p, l: ctc.ctc_greedy_decode(p, l, blank_id=0)), (log_probs, lens), {}
        vocab = ["_", "a", "b", "c", " "]

        class Search(torch.nn.Module):
            def __init__(self):
                super().__init__()
                if name == "CTCPrefixBeamSearcher":
                    self.searcher = ctc.CTCPrefixBeamSearcher(blank_index=0, vocab_list=vocab, beam_size=3)
                else:
                    self.searcher = ctc.CTCBeamSearcher(blank_index=0, vocab_list=vocab, beam_size=3)

            def forward(self, log_probs, lengths):
                hyps = self.searcher(log_probs, lengths)
                return torch.tensor([h[0].score for h in hyps])

        return Search(), (log_probs, lens), {}
    raise KeyError(name)
