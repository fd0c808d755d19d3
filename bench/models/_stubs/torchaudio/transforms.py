"""The stub's torchaudio.transforms (bench/SPLITS.md, "Dev split growth: k-diffusion and torch-audiomentations"):
torch-pitch-shift, which torch-audiomentations imports at module top, imports it by name. Any use fails loudly."""


def __getattr__(name):
    raise ImportError(f"torchaudio stub (bench/models/_stubs): torchaudio.transforms.{name} is not available here")
