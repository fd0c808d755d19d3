"""Stand-in for torchsde, a test-split library (bench/SPLITS.md, "Dev split growth: torchcde and nnAudio"):
torchcde imports it at module top for its `backend="torchsde"` solvers, which no model of the torchcde spec may run.
The torchcde spec puts this folder first on its PYTHONPATH. A name taken from this module is a placeholder; calling
it, or reading any attribute of it, raises, so a model that reached torchsde would fail loudly."""


class _Missing:
    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise ImportError(f"torchcde stub (bench/models/_stubs_torchcde): {self._name} is not available here")

    def __getattr__(self, attr):
        raise ImportError(f"torchcde stub (bench/models/_stubs_torchcde): {self._name}.{attr} is not available here")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing(f"torchsde.{name}")
