"""Output formats. Each module renders a CheckResult into one format."""
from __future__ import annotations

FORMATS = ("text", "json", "sarif", "github")
