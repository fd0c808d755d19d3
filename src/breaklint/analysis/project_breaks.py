"""What breaks across files when traced code builds objects (issue #11, stop 27).

built_modules.py answers, within one file, two questions that Dynamo 2.13 makes matter (measured):
- `obj = Cls(...); obj.method(...)` where `method` breaks: GB0092 at the call ("Reconstruction
  failure"), and the whole function runs eagerly (BL507);
- a function that runs eagerly builds modules: each one's __init__ is a frame of its own on a
  half-built self, GB0119 at its first use of self, the same for each base __init__ that
  `super().__init__()` runs and each module built in what then runs eagerly (BL306).
Here the same questions are answered over the whole tree, from the files' summaries: the class in
another file (`from .adjoints import AutoDiffAdjoint`, a table `SOLVERS[method]`, a registry filled by
`register_method("dopri5", Dopri5)` in the package's __init__), a method whose break is in a helper
it calls (`integrate` -> `self._before_integrate`), base __init__s in other files.

A function's "sure" break is a finding of its own with no guard (summary.breaking), or one in a
function it calls directly (a call with one target: a same-file function, an import, self.method,
super()), up to MAX_DEPTH calls down.
"""
from __future__ import annotations

import ast
import os
from typing import Optional

from .built_modules import first_use_of_self, super_init_call
from .callscan import balanced, calls_named, positional_argument
from .names import dotted
from .summary import GLOBAL, LOCAL, SELF, SUPER

MAX_DEPTH = 3
_DIRECT = (GLOBAL, LOCAL, SELF, SUPER)


class CrossFileBreaks:
    """For each file: calls on new objects whose method surely breaks ("qualname:line:col" ->
    (Cls.method, where it breaks, the classes it may also be whose method does not)), and module __init__s that run on a half-built self
    (init qualname -> why), the functions that build them, and that chain."""

    def __init__(self, graph):
        self.graph = graph
        self._breaks_memo: dict = {}
        self._registered_memo: dict = {}
        self.object_breaks: dict[str, dict[str, tuple[str, str, str]]] = {}
        self.half_built: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {}
        self._find()

    # -- what breaks for sure ------------------------------------------------------------------------
    def breaks(self, path: str, qualname: str, dynamic, depth: int = 0) -> Optional[str]:
        """Where a function surely breaks ("file.py:row"), itself or in a direct callee; else None."""
        key = (path, qualname, dynamic)
        if key in self._breaks_memo:
            return self._breaks_memo[key]
        self._breaks_memo[key] = None  # a cycle of calls sees "no sure break"
        row = self.graph.summaries[path].breaking.get(qualname)
        found = f"{os.path.basename(path)}:{row}" if row else None
        if found is None and depth < MAX_DEPTH:
            for ref in self.graph.calls(path, qualname):
                if ref.kind not in _DIRECT:
                    continue
                targets = self.graph._targets(path, qualname, dynamic, ref)
                if len(targets) == 1:
                    target_path, target, target_class, _ = targets[0]
                    found = self.breaks(target_path, target, target_class, depth + 1)
                    if found:
                        break
        self._breaks_memo[key] = found
        return found

    # -- classes a spelling names --------------------------------------------------------------------
    def classes(self, path: str, spelled: str) -> list:
        """The classes of the tree a construction spelling builds (empty when any is unknown)."""
        if spelled.startswith("@"):
            function, _, index = spelled[1:].partition(":")
            return self._registered(path, function, int(index))
        found = self.graph._named(path, spelled)
        return [(found[1], found[2])] if found is not None and found[0] == "class" else []

    def _registered(self, path: str, function: str, index: int) -> list:
        """Classes passed as positional argument `index` to `function` (of `path`), anywhere in the tree
        that names it: the package's `register_method("dopri5", Dopri5)`."""
        key = (path, function, index)
        if key in self._registered_memo:
            return self._registered_memo[key]
        graph = self.graph
        found = []
        for other, summary in graph.summaries.items():
            if other != path and not any(target.rsplit(".", 1)[-1] == function for target in summary.aliases.values()):
                continue
            text = graph._text(other)
            if text is None:
                continue
            for _start, paren in calls_named(text.text, function):
                argument = positional_argument(balanced(text.text, paren), index)
                named = graph._named(other, argument) if argument and argument.replace(".", "").isidentifier() else None
                if named is not None and named[0] == "class":
                    found.append((named[1], named[2]))
        self._registered_memo[key] = found = list(dict.fromkeys(found))
        return found

    # -- the search ----------------------------------------------------------------------------------
    def _find(self) -> None:
        graph = self.graph
        skipped: dict[tuple[str, str], str] = {}
        for path, summary in graph.summaries.items():
            for qualname, why in summary.skipped.items():
                skipped[(path, qualname)] = why
            for qualname, calls in summary.object_calls.items():
                for line, col, spellings, method in calls:
                    hit = self._object_break(path, spellings, method)
                    if hit is None:
                        continue
                    self.object_breaks.setdefault(path, {})[f"{qualname}:{line}:{col}"] = hit
                    if not hit[2]:  # a sure GB0092: the function runs eagerly
                        skipped.setdefault((path, qualname), f"`{hit[0]}` called on an object it builds")
        for (path, qualname), why in skipped.items():
            frame = f"{qualname} in {os.path.basename(path)}: {why}"
            for line, spellings in self._builds(path, qualname):
                for spelled in spellings:
                    for cls in self.classes(path, spelled):
                        self._half_built(cls, frame, (qualname,), set())

    def _object_break(self, path: str, spellings: tuple, method: str) -> Optional[tuple[str, str, str]]:
        """(Cls.method, where, calm) when some class the spellings build has that method and it surely
        breaks; `calm` names the classes whose method shows no sure break (a table of solvers, one of
        which wraps scipy), "" when there are none. None when a spelling is unknown."""
        classes = [self.classes(path, spelled) for spelled in spellings]
        if not classes or not all(classes):
            return None
        first, calm = None, []
        for cls in dict.fromkeys(cls for found in classes for cls in found):
            owner = self.graph._lookup(cls, method)
            where = self.breaks(owner[0], f"{owner[1]}.{method}", cls) if owner is not None else None
            if where is None:
                calm.append(cls[1].rsplit(".", 1)[-1])
            elif first is None:
                first = (f"{cls[1]}.{method}", where)
        if first is None:
            return None
        return first[0], first[1], ", ".join(calm)

    def _builds(self, path: str, qualname: str) -> list:
        return list(self.graph.summaries[path].builds.get(qualname, ()))

    def _half_built(self, cls, frame: str, chain: tuple[str, ...], seen: set) -> None:
        """A module of class `cls` built where Dynamo does not trace: its __init__ (wherever the
        hierarchy defines it) starts on a half-built self, then each base __init__ its
        super().__init__() runs, and the modules it builds after that point."""
        graph = self.graph
        start = cls
        owner = graph._lookup(cls, "__init__")
        while owner is not None and owner not in seen and graph._is_module(start):
            seen.add(owner)
            qualname = f"{owner[1]}.__init__"
            init = graph._function_tree(owner[0], qualname)
            use = first_use_of_self(init) if init is not None else None
            if use is None:
                return
            self.half_built.setdefault(owner[0], {}).setdefault(qualname, (frame, chain + (qualname,)))
            summary = graph.summaries[owner[0]]
            offset = summary.lines[qualname][0] - init.lineno
            for node in _calls_after(init, use.end_lineno or use.lineno):
                spelled = _spelling(node.func)
                if spelled is None:
                    continue
                for built in self.classes(owner[0], spelled):
                    self._half_built(built, f"{qualname} line {node.lineno + offset}, run eagerly",
                                     chain + (qualname,), seen)
            if super_init_call(init) is None:
                return
            owner = graph._lookup(owner, "__init__", skip_first=True)


def _spelling(node: ast.AST) -> Optional[str]:
    spelled = dotted(node)
    return spelled if spelled and spelled.rsplit(".", 1)[-1][:1].isupper() else None


def _calls_after(init, line: int):
    stack = list(init.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call) and node.lineno > line:
            yield node
        stack.extend(ast.iter_child_nodes(node))

