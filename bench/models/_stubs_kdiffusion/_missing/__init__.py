"""Stand-ins for the packages that k-diffusion imports at module top for its training, evaluation and image-file
helpers only, and torchsde, a test-split library, for its Brownian-tree noise sampler, which no model of the
spec may run (bench/SPLITS.md, "Dev split growth: k-diffusion and torch-audiomentations"): torchvision (does not
import beside the torch 2.13 CPU build), clip, cleanfid, skimage and jsonmerge. The k-diffusion spec puts this
folder first on its PYTHONPATH. A name imported from a stub is a placeholder; calling it, or reading any attribute
of it, raises, so a model that used one would fail loudly."""


class Missing:
    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise ImportError(f"k-diffusion stub (bench/models/_stubs_kdiffusion): {self._name} is not available here")

    def __getattr__(self, attr):
        raise ImportError(f"k-diffusion stub (bench/models/_stubs_kdiffusion): {self._name}.{attr} is not available here")


def module_getattr(module):
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Missing(f"{module}.{name}")
    return __getattr__
