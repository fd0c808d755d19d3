"""The results cache's value codec: breaklint's plain data classes to JSON and back.

The cache lives in the linted tree, which may be an untrusted pull request: values are data only
(JSON, never pickle), decoded through an allowlist of breaklint's own plain data classes, and
anything unexpected raises CacheFormatError.
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import types
from typing import Any

from ..model import Edit, FileError, FileOutcome, Finding, Fix, Location, Transform

# The only classes a cache may name: plain frozen-or-simple data, no behaviour on construction.
_CLASSES = {cls.__name__: cls for cls in (Location, Edit, Fix, Transform, Finding, FileError, FileOutcome)}
# And the call graph's, added when a summary or the graph's contexts are first met (_analysis_class):
# a warm run over an unchanged tree decodes findings only, and need not import the analysis.
_ANALYSIS_CLASSES = ("CallRef", "ClassSummary", "ModuleSummary", "ExternalEntry", "FileContext")
# A fix's LibCST transform names its factory: a module-level function of breaklint's fix or rule
# modules, stored by name and looked up again, never anything a cache file could name elsewhere.
_FUNCTION_MODULES = ("breaklint.fix.", "breaklint.rules.")
# A class's values are stored in field order (the cache's name holds breaklint's code stamp, so a
# changed class never meets an old cache): {"Location": [row, column]}.
_FIELD_NAMES = {name: tuple(f.name for f in dataclasses.fields(cls)) for name, cls in _CLASSES.items()}


def _analysis_class(name: str):
    """One of _ANALYSIS_CLASSES by name (all of them are added to the allowlist); None for any other."""
    if name not in _ANALYSIS_CLASSES:
        return None
    if name not in _CLASSES:
        from ..analysis.project import ExternalEntry, FileContext
        from ..analysis.summary import CallRef, ClassSummary, ModuleSummary

        for cls in (CallRef, ClassSummary, ModuleSummary, ExternalEntry, FileContext):
            _FIELD_NAMES[cls.__name__] = tuple(f.name for f in dataclasses.fields(cls))
            _CLASSES[cls.__name__] = cls
    return _CLASSES[name]
COMPACT = (",", ":")


class CacheFormatError(ValueError):
    """The cache file is not what this version writes: it is discarded."""


def encode(value: Any) -> Any:
    """Plain JSON for the values a cache holds: tuples, sets and non-string-keyed dicts are tagged."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [encode(v) for v in value]
    if kind is tuple:
        return {"t": [encode(v) for v in value]}
    if kind is frozenset or kind is set:
        return {"f": [encode(v) for v in value]}
    if kind is dict:
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is types.FunctionType and value.__module__.startswith(_FUNCTION_MODULES) and "." not in value.__qualname__:
        return {"fn": f"{value.__module__}:{value.__qualname__}"}
    name = kind.__name__
    if (_CLASSES.get(name) or _analysis_class(name)) is kind:
        return {name: [encode(getattr(value, field)) for field in _FIELD_NAMES[name]]}
    raise TypeError(f"cannot cache a {kind.__name__}")


def dumps(value: Any) -> str:
    """A value's compact JSON text: ASCII only, no tab or newline (the cache file's separators)."""
    return json.dumps(encode(value), separators=COMPACT)


def _decode_object(obj: dict) -> Any:
    """json object_hook: every JSON object in a cache is one tagged value (bottom-up)."""
    if len(obj) != 1:
        raise CacheFormatError("unexpected object")
    (tag, items), = obj.items()
    if type(items) is list:
        if tag == "t":
            return tuple(items)
        cls = _CLASSES.get(tag) or _analysis_class(tag)
        if cls is not None:
            if len(items) != len(_FIELD_NAMES[tag]):
                raise CacheFormatError(f"bad {tag}")
            return cls(*items)
        if tag == "f":
            return frozenset(items)
        if tag == "d":
            if not all(type(p) is list and len(p) == 2 for p in items):
                raise CacheFormatError("bad mapping")
            return {k: v for k, v in items}
    elif tag == "fn" and type(items) is str:
        return _function(items)
    raise CacheFormatError("unexpected object")


def _function(name: str):
    module, _, qualname = name.partition(":")
    if not module.startswith(_FUNCTION_MODULES) or not qualname.isidentifier():
        raise CacheFormatError(f"unexpected function {name!r}")
    try:
        function = getattr(importlib.import_module(module), qualname)
    except (ImportError, AttributeError):
        raise CacheFormatError(f"no function {name!r}") from None
    if type(function) is not types.FunctionType or function.__module__ != module:
        raise CacheFormatError(f"not a function {name!r}")
    return function


def decode(text) -> Any:
    """The value of a cache's JSON text (str or bytes)."""
    try:
        return json.loads(text, object_hook=_decode_object)
    except (ValueError, TypeError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise CacheFormatError(str(exc)) from None


class StoredText:
    """A slice of the cache file's bytes, kept as offsets: copied (and decoded) only when needed. Most
    of a cache is text a warm run over an unchanged tree never reads."""

    __slots__ = ("buffer", "start", "end")

    def __init__(self, buffer: bytes, start: int, end: int):
        self.buffer, self.start, self.end = buffer, start, end

    def bytes(self) -> bytes:
        return self.buffer[self.start:self.end]


class LazySummary(StoredText):
    """A file's ModuleSummary still as the JSON text the cache holds: `load_summary` decodes and
    validates it when the call graph is built (the tree changed), never on an unchanged tree."""

    __slots__ = ()


def load_summary(summary):
    """A ModuleSummary (or None) from what a cached outcome holds; CacheFormatError if the text is bad."""
    if type(summary) is not LazySummary:
        return summary
    value = decode(summary.bytes())
    if type(value) is not _analysis_class("ModuleSummary"):
        raise CacheFormatError("bad summary")
    return value


def summary_text(summary) -> bytes:
    """An outcome's summary as the cache stores it: its JSON text, b"" for none."""
    if summary is None:
        return b""
    if type(summary) is LazySummary:
        return summary.bytes()
    if type(summary) is not _analysis_class("ModuleSummary"):
        raise TypeError(f"cannot cache a {type(summary).__name__} summary")
    return dumps(summary).encode("ascii")


# -- validation of decoded values ----------------------------------------------------------------------

def _is_findings(value) -> bool:
    return type(value) is list and all(type(f) is Finding for f in value)


def valid_outcome(value) -> bool:
    """A file's lint: findings and counts (never an error: those are not cached); its summary is
    stored beside it."""
    return (type(value) is FileOutcome and _is_findings(value.findings) and value.error is None
            and type(value.lines) is int and type(value.suppressed) is int and value.summary is None)


def valid_contexts(value) -> bool:
    """{path: FileContext}: what the call graph told each file."""
    context = _analysis_class("FileContext")
    return type(value) is dict and all(type(k) is str and type(v) is context for k, v in value.items())
