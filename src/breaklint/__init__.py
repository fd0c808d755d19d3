"""breaklint: find and fix torch.compile graph breaks.

    import breaklint
    for finding in breaklint.check(["src/"]):
        print(finding.path, finding.row, finding.code, finding.message)

Importing breaklint never imports torch; `check` never does either. The dynamic API (`observe`,
`assert_graph_breaks`) loads torch on first use.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from .model import Finding

_LAZY = {"observe": ".confirm.api", "assert_graph_breaks": ".confirm.api", "Finding": ".model",
         "Location": ".model", "Fix": ".model", "Edit": ".model"}


def check(paths: Iterable[str] = (".",), *, select: Optional[Iterable[str]] = None,
          ignore: Optional[Iterable[str]] = None, extend_select: Optional[Iterable[str]] = None,
          target_torch: Optional[str] = None, config: Optional[str] = None, jobs: Optional[int] = 1,
          use_cache: bool = False, source: Optional[str] = None) -> list["Finding"]:
    """Lint `paths` as `breaklint check` does and return the findings, sorted by file and position.

    Settings come from the nearest pyproject.toml's [tool.breaklint] (or `config`), then these
    arguments, as on the command line. `source` lints that text as the single path given (an
    editor's unsaved buffer). Raises ValueError for a bad setting; files that cannot be read are
    skipped (the command line reports them). Runs in this process unless `jobs` > 1, and writes no
    cache unless `use_cache`."""
    from .lint.config import ConfigError, load_settings, with_overrides
    from .lint.runner import check_paths, check_source

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


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module = importlib.import_module(_LAZY[name], __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'breaklint' has no attribute {name!r}")


__all__ = ["__version__", "check", "Finding", "Location", "Fix", "Edit", "observe", "assert_graph_breaks"]
