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


def package_of(path: str) -> tuple[str, str | None]:
    """(import root, dotted module name) of a file: the root is the nearest directory above it
    without an __init__.py. A file outside any package has no dotted name (None)."""
    directory, parts = os.path.dirname(os.path.abspath(path)), [os.path.splitext(os.path.basename(path))[0]]
    if not os.path.exists(os.path.join(directory, "__init__.py")):
        return directory, None
    while os.path.exists(os.path.join(directory, "__init__.py")):
        parts.insert(0, os.path.basename(directory))
        directory = os.path.dirname(directory)
    if not all(p.isidentifier() for p in parts):
        return os.path.dirname(os.path.abspath(path)), None
    return directory, ".".join(parts)


def shadowed(path: str, shadows: list[tuple[str, str]]) -> str:
    """`path` inside the shadow copy that mirrors its root, or `path` itself."""
    real = os.path.realpath(path)
    for original, copy in shadows:
        prefix = os.path.realpath(original) + os.sep
        candidate = os.path.join(copy, real[len(prefix):]) if real.startswith(prefix) else None
        if candidate and os.path.exists(candidate):
            return candidate
    return path


def import_target_module(spec: TargetSpec, shadows: list[tuple[str, str]] | None = None):
    """Import the target's module. shadows: (original root, shadow copy) pairs whose copies come
    first on sys.path, so the target and everything it imports from those roots is the fixed copy."""
    shadows = [tuple(pair) for pair in shadows or []]
    base = [os.getcwd()]
    if spec.is_file:
        root, dotted = package_of(spec.file)
        if dotted is not None:
            # A file inside a package is that package's module: its own imports (`from mypkg.x
            # import y`) resolve through the package's root, and so must the fixed copy.
            spec = TargetSpec(raw=spec.raw, module=dotted, file=None, factory=spec.factory)
        # Siblings the shadow copy does not hold still resolve, to the user's own files.
        base = [root]
    for entry in reversed(base):
        sys.path.insert(0, entry)
    for _original, copy in reversed(shadows):
        sys.path.insert(0, copy)
    if spec.is_file:
        path = shadowed(spec.file, shadows)
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
    try:
        return importlib.import_module(spec.module)
    except BaseException as exc:  # noqa: BLE001
        raise TargetError("import", f"importing {spec.module} failed: {type(exc).__name__}: {exc}") from exc


def module_root(name: str, path: str) -> str:
    """The sys.path entry a module named `name` with file `path` was imported through."""
    path = os.path.abspath(path)
    depth = name.count(".") + (1 if os.path.basename(path) == "__init__.py" else 0)
    root = os.path.dirname(path)
    for _ in range(depth):
        root = os.path.dirname(root)
    return root


def loaded_modules(is_user) -> list[dict]:
    """Every module of the user's code now imported: name, file, import root and top-level name
    (what a shadow copy has to mirror for the fixed text to be the one imported)."""
    out = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not path or not path.endswith(".py") or not is_user(path) or name == "__main__":
            continue
        if name.startswith("breaklint_target_"):  # a file target outside a package
            root, top = os.path.dirname(os.path.abspath(path)), os.path.basename(path)
        else:
            root = module_root(name, path)
            first = name.split(".")[0]
            top = first if os.path.isdir(os.path.join(root, first)) else first + ".py"
        out.append({"name": name, "file": os.path.abspath(path), "root": root, "top": top})
    return sorted(out, key=lambda m: m["name"])


def target_top(spec: TargetSpec, module) -> str | None:
    """The directory (or file) of the target's top-level package: the user's code even when installed."""
    name = getattr(module, "__name__", "")
    path = getattr(module, "__file__", None)
    if not path:
        return None
    if name.startswith("breaklint_target_"):
        return os.path.abspath(path)
    root = module_root(name, path)
    first = name.split(".")[0]
    return os.path.join(root, first) if os.path.isdir(os.path.join(root, first)) else os.path.join(root, first + ".py")


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
