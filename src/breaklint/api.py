"""The public Python API of the static half: `breaklint.check` (re-exported by the package)."""
from __future__ import annotations

from typing import Iterable, Optional

from .lint.config import ConfigError, load_settings, with_overrides
from .lint.runner import check_paths, check_source
from .model import Finding


def check(paths: Iterable[str] = (".",), *, select: Optional[Iterable[str]] = None,
          ignore: Optional[Iterable[str]] = None, extend_select: Optional[Iterable[str]] = None,
          target_torch: Optional[str] = None, config: Optional[str] = None, jobs: Optional[int] = 1,
          use_cache: bool = False, source: Optional[str] = None) -> list[Finding]:
    """Lint `paths` as `breaklint check` does and return the findings, sorted by file and position.

    Settings come from the nearest pyproject.toml's [tool.breaklint] (or `config`), then these
    arguments, as on the command line. `source` lints that text as the single path given (an
    editor's unsaved buffer). Raises ValueError for a bad setting; files that cannot be read are
    skipped (the command line reports them). Runs in this process unless `jobs` > 1, and writes no
    cache unless `use_cache`."""
    paths = [str(p) for p in ([paths] if isinstance(paths, str) else paths)]
    if source is not None and len(paths) != 1:
        raise ValueError("`source` stands for exactly one path")
    try:
        settings = load_settings(paths[0] if paths else ".", config)
        settings = with_overrides(settings, list(select or ()), list(ignore or ()), list(extend_select or ()),
                                  target_torch)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    if source is not None:
        return check_source(source, paths[0], settings).findings
    return check_paths(paths, settings, jobs=jobs, use_cache=use_cache).findings
