"""Results cache: an unchanged file is not read twice.

One pickle per settings fingerprint (breaklint version, rules, torch target, scope options). An entry
is reused when the file's size and mtime match; when only the mtime moved, the content hash decides.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ..model import FileOutcome

CACHE_DIR = ".breaklint_cache"


class ResultCache:
    def __init__(self, root: str, fingerprint: str):
        key = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
        self.directory = os.path.join(root, CACHE_DIR)
        self.path = os.path.join(self.directory, f"results-{key}.pickle")
        self.entries: dict = {}
        self.dirty = False
        try:
            with open(self.path, "rb") as handle:
                self.entries = pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError):
            self.entries = {}

    def lookup(self, path: str, variant: str = "") -> Optional["FileOutcome"]:
        """The stored result for an unchanged file, else None. A variant keys a second result of the
        same file (the lint with the scopes other files reach, keyed by a digest of them)."""
        key = (path, "external") if variant else path
        entry = self.entries.get(key)
        if entry is None:
            return None
        size, mtime, digest, result = entry
        try:
            stat = os.stat(path)
        except OSError:
            return None
        if stat.st_size != size:
            return None
        if variant:  # one variant is kept per file: the last one the call graph produced
            stored_variant, result = result
            if stored_variant != variant:
                return None
        if stat.st_mtime_ns == mtime:
            return result
        if content_digest(path) == digest:
            self.entries[key] = (size, stat.st_mtime_ns, digest, entry[3])
            self.dirty = True
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
        self.entries["__tree__"] = (key, value)
        self.dirty = True

    def store(self, path: str, result: "FileOutcome", variant: str = "") -> None:
        try:
            stat = os.stat(path)
        except OSError:
            return
        key, value = ((path, "external"), (variant, result)) if variant else (path, result)
        self.entries[key] = (stat.st_size, stat.st_mtime_ns, content_digest(path), value)
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(gitignore):
                with open(gitignore, "w") as handle:
                    handle.write("*\n")
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(self.entries, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except OSError:
            pass  # a read-only tree still lints; it just is not cached


def content_digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
