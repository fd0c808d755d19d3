"""Find and validate `[tool.breaklint]`, and turn it plus the command line into effective settings."""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Optional

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..rules import Rule, all_rules
from ..versions import DEFAULT_TORCH, parse_version


class ConfigError(Exception):
    """A one-line problem with configuration or options: exit code 2."""


@dataclass
class Settings:
    select: list[str] = field(default_factory=lambda: ["BL"])
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    extend_exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    target_torch: Optional[str] = None
    compile_decorators: list[str] = field(default_factory=list)
    module_base_classes: list[str] = field(default_factory=list)
    # Where the settings came from, for messages and for resolving relative globs.
    source: Optional[str] = None
    root: str = field(default_factory=os.getcwd)

    def torch_version(self) -> str:
        return self.target_torch or installed_torch_version() or DEFAULT_TORCH

    def enabled_rules(self) -> list[type[Rule]]:
        chosen = []
        version = self.torch_version()
        explicit = {c.upper() for c in self.select + self.extend_select}
        for rule in all_rules():
            if not _selected(rule.code, self.select + self.extend_select, self.ignore):
                continue
            # Patterns that do not break on the target torch are off unless asked for by exact code
            # (or by ALL, which means every rule).
            if rule.breaks_on(version) is False and rule.code not in explicit and "ALL" not in explicit:
                continue
            chosen.append(rule)
        return chosen

    def fingerprint(self) -> str:
        """What the cache must be invalidated by: rules, scope options and the torch target."""
        from .. import __version__

        parts = [__version__, code_stamp(), self.torch_version(), ",".join(r.code for r in self.enabled_rules()),
                 ",".join(self.compile_decorators), ",".join(self.module_base_classes)]
        return "|".join(parts)


_CODE_STAMP: Optional[str] = None


def code_stamp() -> str:
    """Size and mtime of breaklint's own modules, every layer of the package (rules and analysis too, not
    only this `lint/` folder): a rule edited in a checkout invalidates the cache even though the version
    number did not move."""
    global _CODE_STAMP
    if _CODE_STAMP is None:
        import hashlib

        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        digest = hashlib.blake2b(digest_size=8)
        for directory, subdirs, names in os.walk(package):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py"):
                    stat = os.stat(os.path.join(directory, name))
                    digest.update(f"{directory}/{name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
        _CODE_STAMP = digest.hexdigest()
    return _CODE_STAMP


def installed_torch_version() -> Optional[str]:
    """The torch version from package metadata: never imports torch."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("torch")
    except (PackageNotFoundError, ValueError):
        return None


def _selected(code: str, select: list[str], ignore: list[str]) -> bool:
    """The most specific matching prefix wins; on a tie, ignore wins (as in ruff)."""
    best_select = max((len(p) for p in select if _matches(code, p)), default=-1)
    best_ignore = max((len(p) for p in ignore if _matches(code, p)), default=-1)
    return best_select >= 0 and best_select > best_ignore


def _matches(code: str, prefix: str) -> bool:
    prefix = prefix.upper()
    return prefix == "ALL" or code.startswith(prefix)


def validate_codes(codes: list[str], where: str) -> None:
    known = [r.code for r in all_rules()]
    for code in codes:
        upper = code.upper()
        if not upper.strip():
            raise ConfigError(f"{where}: an empty rule code selects nothing; remove it")
        if upper == "ALL" or any(k.startswith(upper) for k in known):
            continue
        raise ConfigError(f"{where}: unknown rule code or prefix '{code}'")


# key -> (attribute, expected type, element type)
_KEYS = {
    "select": ("select", list, str),
    "ignore": ("ignore", list, str),
    "extend-select": ("extend_select", list, str),
    "exclude": ("exclude", list, str),
    "extend-exclude": ("extend_exclude", list, str),
    "per-file-ignores": ("per_file_ignores", dict, list),
    "target-torch": ("target_torch", str, None),
    "compile-decorators": ("compile_decorators", list, str),
    "module-base-classes": ("module_base_classes", list, str),
}


VCS_MARKERS = (".git", ".hg", ".svn", ".bzr", ".jj")
_MENTIONS_US = re.compile(r"^\s*\[\s*tool\s*\.\s*breaklint\b|^\s*tool\s*\.\s*breaklint\b|breaklint\s*=", re.MULTILINE)


def find_pyproject(start: str) -> Optional[str]:
    """The nearest pyproject.toml with a [tool.breaklint] table, from `start` upwards, stopping at
    the repository root (a folder holding .git, .hg ...): a checkout never takes settings from the
    folders it happens to be cloned into. A pyproject.toml that does not parse is an error only when
    it mentions breaklint; another tool's broken file is not ours to judge (ruff stops on any broken
    pyproject.toml; a pre-commit run of breaklint should not fail on a file it does not read)."""
    path = os.path.abspath(start)
    if os.path.isfile(path):
        path = os.path.dirname(path)
    while True:
        candidate = os.path.join(path, "pyproject.toml")
        if os.path.isfile(candidate) and _has_our_table(candidate):
            return candidate
        parent = os.path.dirname(path)
        if parent == path or is_vcs_root(path):
            return None
        path = parent


def is_vcs_root(folder: str) -> bool:
    return any(os.path.exists(os.path.join(folder, marker)) for marker in VCS_MARKERS)


def _has_our_table(candidate: str) -> bool:
    try:
        with open(candidate, "rb") as handle:
            raw = handle.read()
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        if not _MENTIONS_US.search(raw.decode("utf-8", "replace")):
            return False
        raise ConfigError(f"{candidate}: cannot read TOML: {str(exc).splitlines()[0]}") from None
    except OSError as exc:
        raise ConfigError(f"{candidate}: cannot read: {exc.strerror or exc}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):  # PEP 518 reserves `tool` as a table: this file is wrong for everyone
        raise ConfigError(f"{candidate}: 'tool' must be a table, not {type(tool).__name__}")
    return "breaklint" in tool


def load_settings(start: str = ".", config_file: Optional[str] = None) -> Settings:
    path = config_file or find_pyproject(start)
    if path is None:
        return Settings()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read TOML: {str(exc).splitlines()[0]}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: 'tool' must be a table, not {type(tool).__name__}")
    table = tool.get("breaklint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.breaklint] must be a table")
    return settings_from_table(table, path)


def settings_from_table(table: dict, path: str) -> Settings:
    settings = Settings(source=path, root=os.path.dirname(os.path.abspath(path)))
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(f"{path}: unknown key 'tool.breaklint.{key}' (known: {', '.join(sorted(_KEYS))})")
        attr, kind, element = _KEYS[key]
        if not isinstance(value, kind) or (kind is list and not all(isinstance(v, element) for v in value)):
            expected = {list: f"a list of {element.__name__ if element else ''}s", str: "a string",
                        dict: "a table of lists"}[kind]
            raise ConfigError(f"{path}: 'tool.breaklint.{key}' must be {expected}")
        if kind is dict:
            for glob, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    raise ConfigError(f"{path}: 'tool.breaklint.{key}.\"{glob}\"' must be a list of codes")
                validate_codes(codes, f"{path}: 'tool.breaklint.{key}'")
        elif key in ("select", "ignore", "extend-select"):
            validate_codes(value, f"{path}: 'tool.breaklint.{key}'")
        elif key == "target-torch":
            try:
                parse_version(value)
            except ValueError:
                raise ConfigError(f"{path}: 'tool.breaklint.target-torch' is not a version: '{value}'") from None
            check_target(value, f"{path}: 'tool.breaklint.target-torch'")
        setattr(settings, attr, value)
    return settings


def measured_releases() -> list[str]:
    """The torch releases some rule has a measured verdict for, oldest first."""
    versions = {v for rule in all_rules() for v in rule.verdicts}
    return sorted(versions, key=parse_version)


def check_target(version: str, where: str) -> None:
    """A target older than every measured release has no verdicts to judge by: an error."""
    measured = measured_releases()
    if measured and parse_version(version) < parse_version(measured[0]):
        raise ConfigError(f"{where}: no verdicts were measured for torch {version} or older "
                          f"(measured: {', '.join(measured)})")


def target_note(version: str) -> Optional[str]:
    """What to tell the user when the target is not a measured release: which one judges it."""
    measured = measured_releases()
    target = parse_version(version)
    if not measured or any(parse_version(v) == target for v in measured):
        return None
    below = [v for v in measured if parse_version(v) <= target]
    nearest = below[-1] if below else measured[0]
    return f"torch {version} has no measured verdicts; judging by torch {nearest} (measured: {', '.join(measured)})"


def with_overrides(settings: Settings, select=None, ignore=None, extend_select=None,
                   target_torch=None) -> Settings:
    """Command-line options replace (select) or extend (ignore, extend-select) the file's settings."""
    changes = {}
    if select:
        validate_codes(select, "--select")
        changes["select"] = list(select)
    if ignore:
        validate_codes(ignore, "--ignore")
        changes["ignore"] = settings.ignore + list(ignore)
    if extend_select:
        validate_codes(extend_select, "--extend-select")
        changes["extend_select"] = settings.extend_select + list(extend_select)
    if target_torch:
        try:
            parse_version(target_torch)
        except ValueError:
            raise ConfigError(f"--target-torch: not a version: '{target_torch}'") from None
        check_target(target_torch, "--target-torch")
        changes["target_torch"] = target_torch
    return replace(settings, **changes)
