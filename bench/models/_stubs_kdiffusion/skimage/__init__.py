"""Stub (see _missing/__init__.py)."""
from _missing import module_getattr

__getattr__ = module_getattr(__name__)
