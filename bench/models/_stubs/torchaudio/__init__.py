"""An empty stand-in for torchaudio, first on the encodec spec's PYTHONPATH (bench/SPLITS.md, "Dev split growth:
encodec and asteroid"). encodec imports torchaudio at module top for file I/O and resampling helpers that none of
the spec's models calls; no torchaudio wheel loads beside the torch 2.13 CPU build. Any use fails loudly."""


def __getattr__(name):
    raise ImportError(f"torchaudio stub (bench/models/_stubs): torchaudio.{name} is not available here")
