"""Stub (see _missing/__init__.py): k-diffusion imports torchsde, a test-split library, at module top for its
Brownian-tree noise sampler; no model of the k-diffusion spec may run or trace torchsde code (bench/SPLITS.md)."""
from _missing import module_getattr

__getattr__ = module_getattr(__name__)
