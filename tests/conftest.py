import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

HAS_TORCH = importlib.util.find_spec("torch") is not None


def pytest_collection_modifyitems(config, items):
    skip_torch = pytest.mark.skip(reason="torch is not installed")
    skip_gpu = pytest.mark.skip(reason="no CUDA GPU")
    has_gpu = False
    if HAS_TORCH and any("gpu" in item.keywords for item in items):
        import torch

        has_gpu = torch.cuda.is_available()
    for item in items:
        if "torch" in item.keywords and not HAS_TORCH:
            item.add_marker(skip_torch)
        if "gpu" in item.keywords and not has_gpu:
            item.add_marker(skip_gpu)
