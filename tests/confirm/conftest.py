import os
import sys

import pytest

# Allow running from a checkout without installing the package.
SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src")
if os.path.isdir(SRC) and os.path.abspath(SRC) not in [os.path.abspath(p) for p in sys.path]:
    sys.path.insert(0, os.path.abspath(SRC))


def pytest_collection_modifyitems(config, items):
    try:
        import torch  # noqa: F401
        return
    except ImportError:
        pass
    skip = pytest.mark.skip(reason="torch is not installed")
    for item in items:
        if "torch" in item.keywords:
            item.add_marker(skip)
