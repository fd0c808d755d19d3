"""breaklint: find and fix torch.compile graph breaks.

Importing breaklint never imports torch; the dynamic API (`observe`, `assert_graph_breaks`) loads it
on first use.
"""
__version__ = "0.1.0"

_LAZY = {"observe": ".confirm.api", "assert_graph_breaks": ".confirm.api"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module = importlib.import_module(_LAZY[name], __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'breaklint' has no attribute {name!r}")


__all__ = ["__version__", "observe", "assert_graph_breaks"]
