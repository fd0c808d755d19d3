"""Torch version strings as (major, minor), for the rules' verdicts and the configuration."""
from __future__ import annotations


def parse_version(text: str) -> tuple[int, int]:
    parts = text.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        raise ValueError(f"not a torch version: {text!r}") from None
