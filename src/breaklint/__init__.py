"""breaklint: find and fix torch.compile graph breaks.

    import breaklint
    for finding in breaklint.check(["src/"]):
        print(finding.path, finding.row, finding.code, finding.message)

Importing breaklint never imports torch; `check` never does either. The dynamic API (`observe`,
`assert_graph_breaks`) loads torch on first use.
"""
from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {"check": ".api", "observe": ".confirm.api", "assert_graph_breaks": ".confirm.api", "Finding": ".model",
         "Location": ".model", "Fix": ".model", "Edit": ".model"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module = importlib.import_module(_LAZY[name], __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'breaklint' has no attribute {name!r}")


__all__ = ["__version__", "check", "Finding", "Location", "Fix", "Edit", "observe", "assert_graph_breaks"]
