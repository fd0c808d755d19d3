"""Results cache: an unchanged file is not read twice.

One JSON file per settings fingerprint (breaklint version, rules, torch target, scope options). An
entry is reused when the file's size and mtime match; when only the mtime moved, or the mtime was too
recent to trust when the entry was stored, the content hash decides.

The cache lives in the linted tree, which may be an untrusted pull request: it is data only (JSON,
never pickle), decoded through an allowlist of breaklint's own plain data classes and validated, and
a cache folder that is a symlink is neither read nor written. Anything unexpected discards the cache.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import re
import stat as stat_module
import tempfile
import time
import types
from typing import Any, Optional

from ..analysis.project import ExternalEntry, FileContext
from ..analysis.summary import CallRef, ClassSummary, ModuleSummary
from ..model import Edit, FileError, FileOutcome, Finding, Fix, Location, Transform

CACHE_DIR = ".breaklint_cache"
_RESULTS_NAME = re.compile(r"results-[0-9a-f]{16}\.json")
FORMAT = 9
# Lints of one file with different cross-file contexts kept: one per call-graph round.
MAX_VARIANTS = 6
# Results files of other settings kept beside the current one (another --select, the previous
# breaklint version); older ones are deleted, or every upgrade would leave tens of MB behind.
KEEP_OTHER_SETTINGS = 2
# A temporary file of a save older than this was left by a run that died.
STALE_TEMP_SECONDS = 3600
# A file whose mtime is this close to the moment it was cached may change again within the
# filesystem's mtime granularity without its stamp moving: its content hash is always checked.
RACY_SECONDS = 2.0

# The only classes a cache may name: plain frozen-or-simple data, no behaviour on construction.
_CLASSES = {cls.__name__: cls for cls in (Location, Edit, Fix, Transform, Finding, FileError, FileOutcome, CallRef,
                                          ClassSummary, ModuleSummary, ExternalEntry, FileContext)}
# A fix's LibCST transform names its factory: a module-level function of breaklint's fix or rule
# modules, stored by name and looked up again, never anything a cache file could name elsewhere.
_FUNCTION_MODULES = ("breaklint.fix.", "breaklint.rules.")
_FIELDS = {name: frozenset(f.name for f in dataclasses.fields(cls)) for name, cls in _CLASSES.items()}


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
    if kind is LazySummary:
        return {"s": str(value)}
    if kind is FileOutcome and type(value.summary) is ModuleSummary:
        # The call-graph summary is kept as its own JSON text inside the entry: a warm run over an
        # unchanged tree never decodes it (most of a cache's objects are summaries).
        lazy = LazySummary(json.dumps(encode(value.summary), separators=(",", ":")))
        value = dataclasses.replace(value, summary=lazy)
    if kind.__name__ in _CLASSES and _CLASSES[kind.__name__] is kind:
        return {"c": kind.__name__, "v": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise TypeError(f"cannot cache a {kind.__name__}")


def _decode_object(obj: dict) -> Any:
    """json object_hook: every JSON object in a cache is one tagged value (bottom-up)."""
    if len(obj) == 1:
        (tag, items), = obj.items()
        if tag == "t" and type(items) is list:
            return tuple(items)
        if tag == "f" and type(items) is list:
            return frozenset(items)
        if tag == "fn" and type(items) is str:
            return _function(items)
        if tag == "s" and type(items) is str:
            return LazySummary(items)
        if tag == "d" and type(items) is list:
            if not all(type(p) is list and len(p) == 2 for p in items):
                raise CacheFormatError("bad mapping")
            return {k: v for k, v in items}
    elif len(obj) == 2 and type(obj.get("c")) is str and type(obj.get("v")) is _Fields:
        name, values = obj["c"], obj["v"]
        if name not in _CLASSES or frozenset(values) != _FIELDS[name]:
            raise CacheFormatError(f"unexpected class {name!r}")
        return _CLASSES[name](**values)
    # A dataclass's field mapping: string keys, kept as they are until its class tag wraps it.
    if all(type(k) is str for k in obj) and not {"t", "f", "d", "c", "fn", "s"} & set(obj):
        return _Fields(obj)
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


class LazySummary(str):
    """A file's ModuleSummary still as the JSON text the cache holds: `load_summary` decodes and
    validates it when the call graph is built (the tree changed), never on an unchanged tree."""


def load_summary(summary):
    """A ModuleSummary (or None) from what a cached outcome holds; CacheFormatError if the text is bad."""
    if type(summary) is not LazySummary:
        return summary
    value = decode(summary)
    if type(value) is not ModuleSummary:
        raise CacheFormatError("bad summary")
    return value


class _Fields(dict):
    """The field values of a class tag, told apart from data (data dicts are always tagged "d")."""


def decode(text: str) -> Any:
    try:
        return json.loads(text, object_hook=_decode_object)
    except (ValueError, TypeError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise CacheFormatError(str(exc)) from None


# -- validation of the decoded entries ----------------------------------------------------------------

def _is_findings(value) -> bool:
    return type(value) is list and all(type(f) is Finding for f in value)


def _valid_outcome(value) -> bool:
    """A file's lint: findings, counts and the summary the call graph needs (never an error: those
    are not cached)."""
    return (type(value) is FileOutcome and _is_findings(value.findings) and value.error is None
            and type(value.lines) is int and type(value.suppressed) is int
            and (value.summary is None or type(value.summary) in (ModuleSummary, LazySummary)))


def _valid_variant(value) -> bool:
    """{variant: outcome}: a file's lints with the scopes other files reach, one per graph round."""
    return type(value) is dict and all(type(k) is str and _valid_outcome(v) for k, v in value.items())


def _valid_entry(key, entry) -> bool:
    if not (type(entry) is tuple and len(entry) == 5):
        return False
    size, mtime, digest, racy, value = entry
    if type(size) is not int or type(mtime) is not int or type(digest) is not str or type(racy) is not bool:
        return False
    if type(key) is str:
        return _valid_outcome(value)
    if type(key) is tuple and len(key) == 2 and type(key[0]) is str and key[1] == "external":
        return _valid_variant(value)
    return False


def _valid_tree(value) -> bool:
    return (type(value) is tuple and len(value) == 2 and type(value[0]) is str and type(value[1]) is dict
            and all(type(k) is str and type(v) is FileContext for k, v in value[1].items()))


def _valid(key, entry) -> bool:
    return _valid_tree(entry) if key == "__tree__" else _valid_entry(key, entry)


def _decode_key(key):
    """A key as the file holds it (parsed without the tag hook): a path, or {"t": [path, "external"]}."""
    if type(key) is str:
        return key
    if type(key) is dict and list(key) == ["t"] and type(key["t"]) is list and len(key["t"]) == 2 \
            and all(type(part) is str for part in key["t"]):
        return tuple(key["t"])
    raise CacheFormatError("bad key")


def parse(text: str) -> tuple[dict, dict]:
    """(entries, their encoded texts). The file is {"format", "entries": [[key, entry as JSON text]]}:
    each entry keeps its text, so a save re-encodes only the entries that changed."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CacheFormatError(str(exc)) from None
    if not (type(data) is dict and data.get("format") == FORMAT and type(data.get("entries")) is list):
        raise CacheFormatError("not a breaklint cache of this format")
    entries, raw = {}, {}
    for pair in data["entries"]:
        if not (type(pair) is list and len(pair) == 2 and type(pair[1]) is str):
            raise CacheFormatError("bad entry")
        key = _decode_key(pair[0])
        entry = decode(pair[1])
        if not _valid(key, entry):
            raise CacheFormatError(f"bad entry for {key!r}")
        entries[key], raw[key] = entry, pair[1]
    return entries, raw


def _safe_directory(directory: str) -> bool:
    """A cache folder that is a symlink (or not a folder) is never used: a planted link could make
    breaklint read or overwrite files elsewhere."""
    try:
        info = os.lstat(directory)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat_module.S_ISDIR(info.st_mode)


class ResultCache:
    def __init__(self, root: str, fingerprint: str):
        key = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
        self.directory = os.path.join(root, CACHE_DIR)
        self.path = os.path.join(self.directory, f"results-{key}.json")
        self.entries: dict = {}
        # Each loaded entry's JSON text, dropped when the entry changes: a save reuses the rest.
        self.raw: dict = {}
        self.dirty = False
        self.usable = _safe_directory(self.directory)
        if self.usable:
            self.entries, self.raw = self._load()

    def _load(self) -> tuple[dict, dict]:
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return {}, {}
        try:
            with os.fdopen(fd, "rb") as handle:
                if not stat_module.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    return {}, {}
                text = handle.read().decode("utf-8")
            return parse(text)
        except (OSError, UnicodeDecodeError, CacheFormatError):
            return {}, {}  # a cache of another shape is discarded and rewritten

    def _set(self, key, entry) -> None:
        self.entries[key] = entry
        self.raw.pop(key, None)
        self.dirty = True

    def lookup(self, path: str, variant: str = "") -> Optional["FileOutcome"]:
        """The stored result for an unchanged file, else None. A variant keys a second result of the
        same file (the lint with the scopes other files reach, keyed by a digest of them)."""
        key = (path, "external") if variant else path
        entry = self.entries.get(key)
        if entry is None:
            return None
        size, mtime, digest, racy, result = entry
        try:
            stat = os.stat(path)
        except OSError:
            return None
        if stat.st_size != size:
            return None
        if variant:  # the last few variants the call graph's rounds produced
            result = result.get(variant)
            if result is None:
                return None
        if stat.st_mtime_ns == mtime and not racy:
            return result
        if content_digest(path) == digest:
            if stat.st_mtime_ns != mtime or racy:
                self._set(key, (size, stat.st_mtime_ns, digest, _racy(stat.st_mtime_ns), entry[4]))
            return result
        return None

    def digest(self, path: str) -> Optional[str]:
        """The content digest stored for a file (after a lookup or store of it)."""
        entry = self.entries.get(path)
        return entry[2] if entry else None

    def get_tree(self, key: str):
        """A result computed over the whole tree, stored under the digest of every file in it."""
        stored = self.entries.get("__tree__")
        return stored[1] if stored and stored[0] == key else None

    def put_tree(self, key: str, value) -> None:
        self._set("__tree__", (key, value))

    def store(self, path: str, result: "FileOutcome", variant: str = "") -> None:
        try:
            stat = os.stat(path)
            digest = content_digest(path)
        except OSError:
            return
        if variant:
            key = (path, "external")
            old = self.entries.get(key)
            # Variants of the same content only: each graph round gives a file a new context, and a
            # warm run with one file changed walks the same rounds again.
            variants = dict(old[4]) if old is not None and old[2] == digest else {}
            variants.pop(variant, None)
            variants[variant] = result
            value = dict(list(variants.items())[-MAX_VARIANTS:])
        else:
            key, value = path, result
        self._set(key, (stat.st_size, stat.st_mtime_ns, digest, _racy(stat.st_mtime_ns), value))

    def save(self) -> None:
        if not self.dirty or not self.usable or not _safe_directory(self.directory):
            return
        try:
            compact = (",", ":")
            pairs = [[encode(key), self.raw.get(key) or json.dumps(encode(entry), separators=compact)]
                     for key, entry in self.entries.items()]
            text = json.dumps({"format": FORMAT, "entries": pairs}, separators=compact)
            os.makedirs(self.directory, exist_ok=True)
            if not _safe_directory(self.directory):
                return
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.lexists(gitignore):
                with open(gitignore, "w") as handle:
                    handle.write("*\n")
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, self.path)
            self._prune()
        except (OSError, TypeError):
            pass  # a read-only tree still lints; it just is not cached

    def _prune(self) -> None:
        """Delete the results files of other settings but the KEEP_OTHER_SETTINGS newest, and the
        temporary files of writes that died more than an hour ago (a run killed mid-save leaves one as
        large as the cache). Only plain files named like ours are touched, never a link."""
        others, stale = [], []
        now = time.time()
        for name in os.listdir(self.directory):
            path = os.path.join(self.directory, name)
            is_results, is_temp = _RESULTS_NAME.fullmatch(name), name.endswith(".tmp")
            if path == self.path or not (is_results or is_temp):
                continue
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if not stat_module.S_ISREG(info.st_mode):
                continue
            if is_results:
                others.append((info.st_mtime_ns, path))
            elif now - info.st_mtime > STALE_TEMP_SECONDS:  # a running save's file is seconds old
                stale.append((info.st_mtime_ns, path))
        for _mtime, path in sorted(others, reverse=True)[KEEP_OTHER_SETTINGS:] + stale:
            try:
                os.unlink(path)
            except OSError:
                pass


def _racy(mtime_ns: int) -> bool:
    return time.time() - mtime_ns / 1e9 < RACY_SECONDS


def content_digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
