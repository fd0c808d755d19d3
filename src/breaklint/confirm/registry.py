"""The installed torch's graph-break registry: gb_type -> GB id, explanation and hints."""
from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RegistryEntry:
    gb_id: str
    gb_type: str
    explanation: str = ""
    hints: tuple[str, ...] = field(default_factory=tuple)

    @property
    def url(self) -> str:
        return f"https://meta-pytorch.github.io/compile-graph-break-site/gb/{self.gb_id.lower()}.html"


def registry_path() -> str | None:
    """Path of graph_break_registry.json inside the installed torch, found without importing torch."""
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = os.path.join(root, "_dynamo", "graph_break_registry.json")
        if os.path.exists(path):
            return path
    return None


@functools.lru_cache(maxsize=4)
def load_registry(path: str | None = None) -> "Registry":
    path = path or registry_path()
    raw = {}
    if path:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    return Registry.from_json(raw)


class Registry:
    def __init__(self, entries: list[RegistryEntry]):
        self.by_id: dict[str, RegistryEntry] = {}
        self.by_type: dict[str, RegistryEntry] = {}
        for entry in entries:
            self.by_id.setdefault(entry.gb_id, entry)
            # First id wins: a gb_type listed under two ids is rare (2 of ~520 in 2.13).
            self.by_type.setdefault(entry.gb_type, entry)

    @classmethod
    def from_json(cls, raw: dict) -> "Registry":
        entries = []
        for gb_id, variants in raw.items():
            for v in variants:
                entries.append(
                    RegistryEntry(
                        gb_id=gb_id,
                        gb_type=v.get("Gb_type", ""),
                        explanation=v.get("Explanation", ""),
                        hints=tuple(v.get("Hints", ())),
                    )
                )
        return cls(entries)

    def __len__(self) -> int:
        return len(self.by_id)

    def resolve(self, gb_type: str | None, url_id: str | None = None) -> RegistryEntry | None:
        """Prefer the id Dynamo printed when the registry agrees it names this gb_type."""
        if url_id and url_id in self.by_id:
            by_url = self.by_id[url_id]
            if gb_type is None or by_url.gb_type == gb_type:
                return by_url
        if gb_type and gb_type in self.by_type:
            return self.by_type[gb_type]
        if url_id:
            return self.by_id.get(url_id) or RegistryEntry(gb_id=url_id, gb_type=gb_type or "")
        return None
