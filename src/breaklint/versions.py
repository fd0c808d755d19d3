"""Torch version strings as (major, minor), for the rules' verdicts and the configuration."""
from __future__ import annotations

# The torch a run judges patterns against when neither --target-torch, the configuration nor an
# installed torch says otherwise: the version the rules were measured on.
DEFAULT_TORCH = "2.13"


def parse_version(text: str) -> tuple[int, int]:
    parts = text.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        raise ValueError(f"not a torch version: {text!r}") from None


def before(version: str, limit: str) -> bool:
    """Is `version` older than `limit` (both "major.minor[...]")?"""
    return parse_version(version) < parse_version(limit)
