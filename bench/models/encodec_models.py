"""encodec 0.1.1 (dev split, bench/SPLITS.md "Dev split growth: encodec and asteroid", stop 32).

The rule written there before anything ran: the 24 kHz and 48 kHz EncodecModel with no weights (forward,
encode/decode, compress without the LM), every class of the encodec.modules namespace with small required
arguments (and causal=True where it takes causal; the streaming transformer also over two chunks), and a small
ResidualVectorQuantizer (forward, encode/decode, forward in training mode). Everything is built outside the
compiled call. encodec imports torchaudio at module top; an empty stub stands in for it (_stubs/torchaudio).
"""

import os

LIBRARY = "encodec"
PACKAGES = ["encodec"]
DISTRIBUTIONS = ["encodec", "torch"]
ENV = "benchenv"
EXTRA_PATH = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "_stubs")]

# name -> (constructor arguments, input shape)
MODULES = {
    "NormConv1d": ((4, 8, 3), (2, 4, 32)),
    "NormConvTranspose1d": ((4, 8, 3), (2, 4, 32)),
    "SConv1d": ((4, 8, 3), (2, 4, 32)),
    "SConvTranspose1d": ((4, 8, 3), (2, 4, 32)),
    "NormConv2d": ((4, 8, 3), (2, 4, 16, 16)),
    "NormConvTranspose2d": ((4, 8, 3), (2, 4, 16, 16)),
    "SLSTM": ((16,), (2, 16, 10)),
    "StreamingTransformerEncoder": ((16,), (2, 10, 16)),
    "SEANetEncoder": ((), (1, 1, 4800)),
    "SEANetDecoder": ((), (1, 128, 15)),
}
MODULE_KWARGS = {"StreamingTransformerEncoder": {"num_heads": 2, "num_layers": 2}}
CAUSAL = ["NormConv1d", "NormConvTranspose1d", "SConv1d", "SConvTranspose1d", "SEANetEncoder", "SEANetDecoder"]

MODELS = [
    "m24_forward", "m24_encode_decode", "m24_compress",
    "m48_forward", "m48_encode_decode", "m48_compress",
    *MODULES,
    *[f"{name}_causal" for name in CAUSAL],
    "StreamingTransformerEncoder_stream",
    "rvq_forward", "rvq_encode_decode", "rvq_forward_train",
]


def build(name):
    import torch
    from torch import nn
    import encodec
    from encodec import EncodecModel
    import encodec.modules as modules
    from encodec.quantization import ResidualVectorQuantizer

    torch.manual_seed(0)

    class Forward(nn.Module):
        def __init__(self, codec):
            super().__init__()
            self.codec = codec

        def forward(self, x):
            return self.codec(x)

    class EncodeDecode(nn.Module):
        def __init__(self, codec):
            super().__init__()
            self.codec = codec

        def forward(self, x):
            return self.codec.decode(self.codec.encode(x))

    class Compress(nn.Module):
        def __init__(self, codec):
            super().__init__()
            self.codec = codec

        def forward(self, x):
            # compress takes one waveform [C, T] (its docstring): the batch's only item.
            data = encodec.compress(self.codec, x[0], use_lm=False)
            return torch.tensor(list(data), dtype=torch.uint8)

    class Stream(nn.Module):
        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder

        def forward(self, x):
            first, states, offset = self.encoder(x[:, :5])
            second, _, _ = self.encoder(x[:, 5:], states, offset)
            return first, second

    class RVQForward(nn.Module):
        def __init__(self, rvq):
            super().__init__()
            self.rvq = rvq

        def forward(self, x):
            return self.rvq(x, 75)

    class RVQEncodeDecode(nn.Module):
        def __init__(self, rvq):
            super().__init__()
            self.rvq = rvq

        def forward(self, x):
            return self.rvq.decode(self.rvq.encode(x, 75))

    class RVQForwardTrain(RVQForward):
        """The harness calls eval(); the quantizer stays in training mode (EMA updates, dead-code expiry)."""

        def train(self, mode=True):
            super().train(mode)
            self.rvq.train(True)
            return self

    if name.startswith(("m24_", "m48_")):
        if name.startswith("m24_"):
            codec, x = EncodecModel.encodec_model_24khz(pretrained=False), torch.randn(1, 1, 4800)
        else:
            codec, x = EncodecModel.encodec_model_48khz(pretrained=False), torch.randn(1, 2, 9600)
        if name.endswith("_compress"):
            # compress accepts only the names of the pretrained models (it writes the name for decompress);
            # the random-weight model takes the name its pretrained twin has (SPLITS.md, amended before Dynamo).
            codec.name = "encodec_24khz" if name.startswith("m24_") else "encodec_48khz"
        wrapper = {"forward": Forward, "encode_decode": EncodeDecode, "compress": Compress}[name[4:]]
        return wrapper(codec), (x,), {}
    if name.startswith("rvq_"):
        rvq = ResidualVectorQuantizer(dimension=32, n_q=4, bins=64)
        wrapper = {"rvq_forward": RVQForward, "rvq_encode_decode": RVQEncodeDecode,
                   "rvq_forward_train": RVQForwardTrain}[name]
        return wrapper(rvq), (torch.randn(2, 32, 15),), {}
    if name == "StreamingTransformerEncoder_stream":
        args, shape = MODULES["StreamingTransformerEncoder"]
        encoder = modules.StreamingTransformerEncoder(*args, **MODULE_KWARGS["StreamingTransformerEncoder"])
        return Stream(encoder), (torch.randn(*shape),), {}
    causal = name.endswith("_causal")
    cls_name = name.removesuffix("_causal")
    args, shape = MODULES[cls_name]
    kwargs = dict(MODULE_KWARGS.get(cls_name, {}), **({"causal": True} if causal else {}))
    return getattr(modules, cls_name)(*args, **kwargs), (torch.randn(*shape),), {}
