"""Results cache: an unchanged file is not read twice.

One file per settings fingerprint (breaklint version, rules, torch target, scope options). An entry
is reused when the file's size and mtime match; when only the mtime moved, or the mtime was too
recent to trust when the entry was stored, the content hash decides.

The file is text, one entry a line, its fields separated by tabs (the values are compact ASCII JSON,
which holds neither a tab nor a newline):

    {"format": 10, "entries": N}
    F  path  size  mtime_ns  digest  racy  outcome  summary               a file's own lint
    X  path  size  mtime_ns  digest  racy  (variant  outcome  summary)... its lints with the scopes
                                                                          other files reach
    T  tree key  {path: variant}  contexts                                the call graph's last answer

A warm run over an unchanged tree decodes only the outcomes it serves: a summary stays text until
the call graph is rebuilt, the contexts until --show-scope or --fix reads them, and the variants a
file has besides the one served are never decoded (the old single-JSON file spent most of a warm
run decoding all of them).

The cache lives in the linted tree, which may be an untrusted pull request: it is data only (JSON,
never pickle; cache_codec.py), and a cache folder that is a symlink is neither read nor written. A
line of an unexpected layout discards the whole file; an outcome whose text does not decode is a
miss (its file is linted again), and contexts that do not decode are empty.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import stat as stat_module
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Optional

from ..model import FileOutcome
from .cache_codec import (
    COMPACT,
    CacheFormatError,
    LazySummary,
    StoredText,
    decode,
    dumps,
    encode,
    load_summary,
    summary_text,
    valid_contexts,
    valid_outcome,
)

__all__ = ["CacheFormatError", "ResultCache", "content_digest", "decode", "encode", "load_summary", "parse"]

CACHE_DIR = ".breaklint_cache"
_RESULTS_NAME = re.compile(r"results-[0-9a-f]{16}\.json")
FORMAT = 10
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
TREE = "__tree__"


@dataclass(frozen=True)
class StoredOutcome:
    """A file's outcome as the cache file holds it (its JSON text; its summary still in the file's
    bytes): decoded when a lookup serves it, and written back as it is when the file is saved again."""

    text: bytes
    summary: Optional[LazySummary]

    @classmethod
    def of(cls, value) -> "StoredOutcome":
        if type(value) is StoredOutcome:
            return value
        if type(value) is not FileOutcome:
            raise TypeError(f"cannot cache a {type(value).__name__}")
        return _Fresh(dumps(dataclasses.replace(value, summary=None)).encode("ascii"), summary_text(value.summary))

    def summary_bytes(self) -> bytes:
        return self.summary.bytes() if self.summary is not None else b""

    def load(self) -> Optional[FileOutcome]:
        """The outcome, its summary left as text; None when the text is not a valid outcome."""
        try:
            value = decode(self.text)
        except CacheFormatError:
            return None
        if not valid_outcome(value):
            return None
        value.summary = self.summary
        return value


@dataclass(frozen=True)
class _Fresh:
    """An outcome of this run, encoded for saving."""

    text: bytes
    summary: bytes

    def summary_bytes(self) -> bytes:
        return self.summary


class StoredContexts(Mapping):
    """The call graph's last answer ({path: FileContext}) as the cache file holds it, decoded on first
    use: an unchanged tree's warm run needs only each file's variant key, stored beside it."""

    def __init__(self, stored: StoredText):
        self.stored = stored
        self._value: Optional[dict] = None

    def _contexts(self) -> dict:
        if self._value is None:
            try:
                value = decode(self.stored.bytes())
            except CacheFormatError:
                value = None
            self._value = value if valid_contexts(value) else {}
        return self._value

    def __getitem__(self, path):
        return self._contexts()[path]

    def __iter__(self):
        return iter(self._contexts())

    def __len__(self) -> int:
        return len(self._contexts())


def _json(data: bytes, expected: type):
    try:
        value = json.loads(data)
    except ValueError:  # UnicodeDecodeError too
        raise CacheFormatError("bad field") from None
    if type(value) is not expected:
        raise CacheFormatError("bad field")
    return value


def _int(data: bytes) -> int:
    try:
        return int(data)
    except ValueError:
        raise CacheFormatError("bad number") from None


def _ascii(data: bytes) -> str:
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise CacheFormatError("bad field") from None


def _spans(data: bytes, start: int, stop: int) -> list[tuple[int, int]]:
    """The (start, end) of each tab-separated field of data[start:stop], copying nothing."""
    spans = []
    while True:
        tab = data.find(b"\t", start, stop)
        if tab < 0:
            spans.append((start, stop))
            return spans
        spans.append((start, tab))
        start = tab + 1


def _parse_line(data: bytes, start: int, stop: int):
    """(key, entry) from one line; CacheFormatError for any other layout. Outcomes are copied out
    (they are decoded when served), summaries and contexts left in `data` as offsets."""
    spans = _spans(data, start, stop)
    if len(spans) == 4 and data[start:spans[0][1]] == b"T":
        field = [data[s:e] for s, e in spans[:3]]
        keys = _json(field[2], dict)
        if not all(type(v) is str for v in keys.values()):
            raise CacheFormatError("bad variant keys")
        return TREE, (_ascii(field[1]), StoredContexts(StoredText(data, *spans[3])), keys)
    field = [data[s:e] for s, e in spans[:6]]
    if field[0] not in (b"F", b"X") or len(spans) < 8 or field[5] not in (b"0", b"1"):
        raise CacheFormatError("bad entry")
    path = _json(field[1], str)
    stamp = (_int(field[2]), _int(field[3]), _ascii(field[4]), field[5] == b"1")

    def stored(i: int) -> StoredOutcome:
        (s, e), (summary_start, summary_end) = spans[i], spans[i + 1]
        summary = LazySummary(data, summary_start, summary_end) if summary_end > summary_start else None
        return StoredOutcome(data[s:e], summary)

    if field[0] == b"F":
        if len(spans) != 8:
            raise CacheFormatError("bad entry")
        return path, stamp + (stored(6),)
    if (len(spans) - 6) % 3:
        raise CacheFormatError("bad variants")
    variants = {_ascii(data[spans[i][0]:spans[i][1]]): stored(i + 1) for i in range(6, len(spans), 3)}
    return (path, "external"), stamp + (variants,)


def parse(data: bytes) -> dict:
    """The entries of a cache file's bytes (their outcomes and contexts still text)."""
    end = data.find(b"\n", 0, 100)
    if end < 0 or not data.startswith(b"{"):
        raise CacheFormatError("not a breaklint cache of this format")
    header = _json(data[:end], dict)
    if header.get("format") != FORMAT or type(header.get("entries")) is not int:
        raise CacheFormatError("not a breaklint cache of this format")
    entries = {}
    count, start = 0, end + 1
    while start < len(data):
        stop = data.find(b"\n", start)
        if stop < 0:  # a file cut inside a line
            raise CacheFormatError("cut short")
        key, entry = _parse_line(data, start, stop)
        entries[key] = entry
        count, start = count + 1, stop + 1
    if count != header["entries"]:  # a file cut at a line's end
        raise CacheFormatError("cut short")
    return entries


def _line(key, entry) -> bytes:
    """One entry's line; what is still text (not decoded, or decoded but unchanged) is written back
    as it was read."""
    if key == TREE:
        tree_key, contexts, keys = entry
        text = contexts.stored.bytes() if type(contexts) is StoredContexts else dumps(contexts).encode("ascii")
        return b"\t".join((b"T", tree_key.encode("ascii"), _dumps(keys), text))
    size, mtime, digest, racy, value = entry
    if type(key) is tuple:
        path, kind = key[0], b"X"
        outcomes = [(variant, StoredOutcome.of(outcome)) for variant, outcome in value.items()]
    else:
        path, kind, outcomes = key, b"F", [(None, StoredOutcome.of(value))]
    fields = [kind, _dumps(path), b"%d" % size, b"%d" % mtime, digest.encode("ascii"), b"1" if racy else b"0"]
    for variant, stored in outcomes:
        if variant is not None:
            fields.append(variant.encode("ascii"))
        fields += (stored.text, stored.summary_bytes())
    return b"\t".join(fields)


def _dumps(value) -> bytes:
    return json.dumps(value, separators=COMPACT).encode("ascii")


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
        # key -> (size, mtime_ns, digest, racy, outcome or {variant: outcome}); TREE -> (tree key,
        # contexts, variant keys). Outcomes read from the file stay StoredOutcome until saved again.
        self.entries: dict = {}
        self.dirty = False
        self.usable = _safe_directory(self.directory)
        if self.usable:
            self.entries = self._load()

    def _load(self) -> dict:
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return {}
        try:
            with os.fdopen(fd, "rb") as handle:
                if not stat_module.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    return {}
                data = handle.read()
            return parse(data)
        except (OSError, CacheFormatError):
            return {}  # a cache of another shape is discarded and rewritten

    def _set(self, key, entry) -> None:
        self.entries[key] = entry
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
        if not (stat.st_mtime_ns == mtime and not racy):
            if content_digest(path) != digest:
                return None
            self._set(key, (size, stat.st_mtime_ns, digest, _racy(stat.st_mtime_ns), entry[4]))
        return result.load() if type(result) is StoredOutcome else result

    def digest(self, path: str) -> Optional[str]:
        """The content digest stored for a file (after a lookup or store of it)."""
        entry = self.entries.get(path)
        return entry[2] if entry else None

    def get_tree(self, key: str) -> Optional[tuple[Mapping, dict]]:
        """The call graph's answer for a whole tree, stored under the digest of every file in it:
        (its contexts {path: FileContext}, and each one's variant key {path: key})."""
        stored = self.entries.get(TREE)
        return stored[1:] if stored and stored[0] == key else None

    def put_tree(self, key: str, contexts: dict, variant_keys: dict) -> None:
        self._set(TREE, (key, contexts, variant_keys))

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
            lines = [_dumps({"format": FORMAT, "entries": len(self.entries)})]
            lines += (_line(key, entry) for key, entry in self.entries.items())
            lines.append(b"")
            data = b"\n".join(lines)
            os.makedirs(self.directory, exist_ok=True)
            if not _safe_directory(self.directory):
                return
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.lexists(gitignore):
                with open(gitignore, "w") as handle:
                    handle.write("*\n")
            import tempfile

            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
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
