"""openai-whisper 20250625 (dev split, bench/SPLITS.md "Dev split growth: openai-whisper and gluonts").

The rule written there before anything was observed: a tiny multilingual Whisper with random weights (no download),
ModelDimensions(n_mels=80, n_audio_ctx=50, n_audio_state=64, n_audio_head=4, n_audio_layer=2, n_vocab=51865,
n_text_ctx=32, n_text_state=64, n_text_head=4, n_text_layer=2), built outside the compiled call, on
mel = randn(2, 80, 100) (beam search and best-of sampling on its first item only: batched beam search fails eagerly in
this release); the English-only model is the same with n_vocab=51864. Each model calls the library's API
by name in its own forward.
"""

LIBRARY = "whisper"
PACKAGES = ["whisper"]
DISTRIBUTIONS = ["openai-whisper", "tiktoken", "torch"]
ENV = "benchenv"

MODELS = [
    "whisper_forward",
    "whisper_embed_audio",
    "whisper_detect_language",
    "decode_greedy",
    "decode_greedy_timestamps",
    "decode_beam",
    "decode_sample",
    "decode_detect_language",
    "decode_translate",
    "decode_en_greedy",
]


def _results(results, torch):
    """DecodingResults -> tensors (the number of tokens and the average log-probability of each)."""
    return (torch.tensor([len(r.tokens) for r in results]),
            torch.tensor([r.avg_logprob for r in results]))


def build(name):
    import torch
    from torch import nn
    import whisper
    from whisper.model import ModelDimensions, Whisper
    from whisper.decoding import DecodingOptions

    torch.manual_seed(0)
    n_vocab = 51864 if name == "decode_en_greedy" else 51865
    dims = ModelDimensions(n_mels=80, n_audio_ctx=50, n_audio_state=64, n_audio_head=4, n_audio_layer=2,
                           n_vocab=n_vocab, n_text_ctx=32, n_text_state=64, n_text_head=4, n_text_layer=2)
    whisper_model = Whisper(dims).eval()
    mel = torch.randn(2, 80, 100)

    class WhisperForward(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel, tokens):
            return self.whisper(mel, tokens)

    class WhisperEmbedAudio(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            return self.whisper.embed_audio(mel)

    class WhisperDetectLanguage(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            language_tokens, language_probs = whisper.decoding.detect_language(self.whisper, mel)
            return language_tokens

    class DecodeGreedy(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(language="en", fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    class DecodeGreedyTimestamps(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(language="en", without_timestamps=False, fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    class DecodeBeam(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(language="en", beam_size=3, fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    class DecodeSample(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(language="en", temperature=0.7, best_of=3, fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    class DecodeDetectLanguage(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(language=None, fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    class DecodeTranslate(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(task="translate", language="de", fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    class DecodeEnGreedy(nn.Module):
        def __init__(self):
            super().__init__()
            self.whisper = whisper_model

        def forward(self, mel):
            options = DecodingOptions(language="en", fp16=False)
            return _results(whisper.decoding.decode(self.whisper, mel, options), torch)

    if name == "whisper_forward":
        return WhisperForward(), (mel, torch.randint(0, 50257, (2, 8))), {}
    if name == "whisper_embed_audio":
        return WhisperEmbedAudio(), (mel,), {}
    if name == "whisper_detect_language":
        return WhisperDetectLanguage(), (mel,), {}
    if name == "decode_greedy":
        return DecodeGreedy(), (mel,), {}
    if name == "decode_greedy_timestamps":
        return DecodeGreedyTimestamps(), (mel,), {}
    if name == "decode_beam":
        return DecodeBeam(), (mel[:1],), {}
    if name == "decode_sample":
        return DecodeSample(), (mel[:1],), {}
    if name == "decode_detect_language":
        return DecodeDetectLanguage(), (mel,), {}
    if name == "decode_translate":
        return DecodeTranslate(), (mel,), {}
    if name == "decode_en_greedy":
        return DecodeEnGreedy(), (mel,), {}
    raise KeyError(name)
