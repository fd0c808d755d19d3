"""Load a TARGET (`pkg.module:factory` or `path/to/file.py:factory`) and call its factory."""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from typing import Any


class TargetError(Exception):
    """The target could not be loaded; `phase` names the step that failed."""

    def __init__(self, phase: str, message: str):
        super().__init__(message)
        self.phase = phase


@dataclass(frozen=True)
class TargetSpec:
    raw: str
    module: str | None  # dotted module name, or None for a file target
    file: str | None  # absolute path for a file target
    factory: str

    @property
    def is_file(self) -> bool:
        return self.file is not None

    @property
    def label(self) -> str:
        return self.raw


def parse_target(raw: str, cwd: str | None = None) -> TargetSpec:
    """Split on the last ':' (a Windows drive letter has no factory after it)."""
    head, sep, factory = raw.rpartition(":")
    if not sep or not head or not factory or not factory.isidentifier():
        raise TargetError("target", f"bad target {raw!r}: expected pkg.module:factory or path/to/file.py:factory")
    if head.endswith(".py") or os.sep in head or (os.altsep and os.altsep in head):
        path = os.path.abspath(os.path.join(cwd or os.getcwd(), head))
        return TargetSpec(raw=raw, module=None, file=path, factory=factory)
    if not all(part.isidentifier() for part in head.split(".")):
        raise TargetError("target", f"bad module name {head!r} in target {raw!r}")
    return TargetSpec(raw=raw, module=head, file=None, factory=factory)


def import_target_module(spec: TargetSpec, root_override: str | None = None):
    """Import the target's module. root_override: a shadow directory that replaces the original root."""
    if spec.is_file:
        path = spec.file
        if root_override:
            path = os.path.join(root_override, os.path.basename(spec.file))
        if not os.path.exists(path):
            raise TargetError("import", f"no such file: {path}")
        # Sibling imports in the user's file must resolve next to it (the shadow copy when fixed).
        sys.path.insert(0, os.path.dirname(path))
        name = "breaklint_target_" + os.path.splitext(os.path.basename(path))[0]
        mod_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[name] = module
        try:
            mod_spec.loader.exec_module(module)
        except BaseException as exc:  # noqa: BLE001  user code may raise anything, even SystemExit
            raise TargetError("import", f"importing {path} failed: {type(exc).__name__}: {exc}") from exc
        return module
    if root_override:
        sys.path.insert(0, root_override)
    else:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(spec.module)
    except BaseException as exc:  # noqa: BLE001
        raise TargetError("import", f"importing {spec.module} failed: {type(exc).__name__}: {exc}") from exc


def module_root(spec: TargetSpec, module) -> str:
    """The directory that holds the target's top-level package (what the shadow copy mirrors)."""
    if spec.is_file:
        return os.path.dirname(spec.file)
    path = os.path.abspath(module.__file__)
    depth = spec.module.count(".") + (1 if os.path.basename(path) == "__init__.py" else 0)
    root = os.path.dirname(path)
    for _ in range(depth):
        root = os.path.dirname(root)
    return root


def call_factory(module, spec: TargetSpec) -> tuple[Any, tuple, dict]:
    factory = getattr(module, spec.factory, None)
    if factory is None:
        raise TargetError("factory", f"{spec.raw}: module has no attribute {spec.factory!r}")
    if not callable(factory):
        raise TargetError("factory", f"{spec.raw}: {spec.factory!r} is not callable")
    try:
        made = factory()
    except BaseException as exc:  # noqa: BLE001
        raise TargetError("factory", f"factory {spec.factory}() raised {type(exc).__name__}: {exc}") from exc
    return normalize_factory_result(made, spec)


def normalize_factory_result(made, spec: TargetSpec) -> tuple[Any, tuple, dict]:
    if not isinstance(made, (tuple, list)) or len(made) not in (2, 3):
        raise TargetError("factory", f"factory {spec.factory}() must return (model, args) or (model, args, kwargs), got {type(made).__name__}")
    model, args = made[0], made[1]
    kwargs = made[2] if len(made) == 3 else {}
    if not callable(model):
        raise TargetError("factory", f"factory {spec.factory}() returned a model that is not callable: {type(model).__name__}")
    if not isinstance(args, (tuple, list)):
        args = (args,)
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, dict):
        raise TargetError("factory", f"factory {spec.factory}() returned kwargs of type {type(kwargs).__name__}, expected dict")
    return model, tuple(args), dict(kwargs)
