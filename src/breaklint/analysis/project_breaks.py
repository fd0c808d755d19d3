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

A function's "sure" break is a finding of its own with no guard on a line that runs on every call
(summary.breaking), or one in a function it calls directly on such a line (a call with one target: a
same-file function, an import, self.method, super()), up to MAX_DEPTH calls down.
"""
from __future__ import annotations

import ast
import os
from typing import Optional

from .built_modules import first_use_of_self, super_init_call
from .callscan import balanced, calls_named, positional_argument
from .names import dotted
from .new_objects import FACTORY_PREFIX, TABLE_PREFIX, walk_outside_defs
from .summary import GLOBAL, LOCAL, SELF, SUPER

MAX_DEPTH = 3
_DIRECT = (GLOBAL, LOCAL, SELF, SUPER)


class CrossFileBreaks:
    """For each file: calls on new objects whose method surely breaks ("qualname:line:col" -> (Cls.method,
    where it breaks, the classes it may also be whose method does not)), and module __init__s that run on
    a half-built self (init qualname -> (why, the chain of functions that builds them, the condition of
    the construction))."""

    def __init__(self, graph):
        self.graph = graph
        self._breaks_memo: dict = {}
        self._registered_memo: dict = {}
        self.object_breaks: dict[str, dict[str, tuple[str, str, str]]] = {}
        self.half_built: dict[str, dict[str, tuple[str, tuple[str, ...], str]]] = {}
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
            # only what the function calls on every call: not under a condition, in a handler, or in a
            # nested def (the review of stop 27)
            sure = self.graph.summaries[path].sure_calls.get(qualname, frozenset())
            for ref in self.graph.calls(path, qualname):
                if ref.kind not in _DIRECT or ref.name.rsplit(".", 1)[-1] not in sure:
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
        if spelled.startswith(TABLE_PREFIX):
            table, _, key = spelled[len(TABLE_PREFIX):].partition("|")
            return self.graph.table_of_classes(path, table, key or None)
        if spelled.startswith(FACTORY_PREFIX):
            found = self.graph._named(path, spelled[len(FACTORY_PREFIX):])
            return self.graph.surely_built(found[1], found[2]) if found is not None and found[0] == "function" else []
        found = self.graph._named(path, spelled)
        return [(found[1], found[2])] if found is not None and found[0] == "class" else []

    def _registered(self, path: str, function: str, index: int) -> list:
        """Classes passed as positional argument `index` to `function` (of `path`), anywhere in the tree
        that binds a name to that very function (`from .interface import register_method`, under any
        alias, or a module alias: `reg.register(...)`): the package's `register_method("dopri5", Dopri5)`.
        Empty (unknown) when a call passes it otherwise (a keyword, `*args`) or names no class."""
        key = (path, function, index)
        if key in self._registered_memo:
            return self._registered_memo[key]
        graph = self.graph
        found, unknown = [], False
        for other, summary in graph.summaries.items():
            spellings = [function] if other == path else []
            for local, target in summary.aliases.items():
                hit = graph.resolve(graph._absolute(other, target))
                if hit == ("function", path, function):
                    spellings.append(local)
                elif graph.path_of.get(graph._absolute(other, target)) == path:
                    spellings.append(f"{local}.{function}")  # the module itself
            text = graph._text(other) if spellings else None
            for spelled in spellings if text is not None else ():
                for start, paren in calls_named(text.text, spelled.rsplit(".", 1)[-1]):
                    if "." in spelled and not text.text.endswith(spelled.rsplit(".", 1)[0] + ".", 0, start):
                        continue
                    if "." not in spelled and text.text.endswith(".", 0, start):
                        continue  # `obj.register(...)`: another function of that name
                    if text.text[max(0, start - 16):start].rstrip().endswith("def"):
                        continue  # its own def line
                    argument = positional_argument(balanced(text.text, paren), index)
                    named = graph._named(other, argument) if argument and argument.replace(".", "").isidentifier() else None
                    if named is None or named[0] != "class":
                        unknown = True
                    else:
                        found.append((named[1], named[2]))
        self._registered_memo[key] = found = [] if unknown else list(dict.fromkeys(found))
        return found

    # -- the search ----------------------------------------------------------------------------------
    def _find(self) -> None:
        graph = self.graph
        skipped: dict[tuple[str, str], str] = {}
        for path, summary in graph.summaries.items():
            for qualname, why in summary.skipped.items():
                skipped[(path, qualname)] = why
            for qualname, calls in summary.object_calls.items():
                for line, col, spellings, method, in_loop in calls:
                    hit = self._object_break(path, spellings, method)
                    if hit is None:
                        continue
                    if in_loop:  # the break in the loop skips the frame first: no GB0092, but eager all the same
                        if not hit[2]:
                            skipped.setdefault((path, qualname), f"`{hit[0]}` breaks inside a loop")
                        continue
                    self.object_breaks.setdefault(path, {})[f"{qualname}:{line}:{col}"] = hit
                    if not hit[2]:  # a sure GB0092: the function runs eagerly
                        skipped.setdefault((path, qualname), f"`{hit[0]}` called on an object it builds")
        for (path, qualname), why in skipped.items():
            frame = f"{qualname} in {os.path.basename(path)}: {why}"
            for line, spellings, condition in graph.summaries[path].builds.get(qualname, ()):
                for spelled in spellings:
                    for cls in self.classes(path, spelled):
                        self._half_built(cls, frame, (qualname,), set(), condition)

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
            if owner is not None and self._is_classmethod(owner[0], f"{owner[1]}.{method}"):
                return None  # bound to a class Dynamo can rebuild: no GB0092 (measured, the review of stop 27)
            init = self.graph._lookup(cls, "__init__")
            if init is not None and self.breaks(init[0], f"{init[1]}.__init__", cls):
                # built eagerly after its constructor's break: a real object, whose method Dynamo resumes
                calm.append(cls[1].rsplit(".", 1)[-1])
                continue
            where = self.breaks(owner[0], f"{owner[1]}.{method}", cls) if owner is not None else None
            if where is None:
                calm.append(cls[1].rsplit(".", 1)[-1])
            elif first is None:
                first = (f"{cls[1]}.{method}", where)
        if first is None:
            return None
        return first[0], first[1], ", ".join(calm)

    def _is_classmethod(self, path: str, qualname: str) -> bool:
        """Whether the def is decorated `@classmethod` (read off the lines above it: the summary's span of
        a function starts at its `def`)."""
        span = self.graph.summaries[path].lines.get(qualname)
        text = self.graph._text(path) if span is not None else None
        line = span[0] - 1 if text is not None else 0
        while line >= 1:
            above = text.lines(line, line).strip()
            if not above.startswith("@"):
                break
            if above.split("(")[0] in ("@classmethod", "@builtins.classmethod"):
                return True
            line -= 1
        return False

    def _half_built(self, cls, frame: str, chain: tuple[str, ...], seen: set, condition: str = "") -> None:
        """A module of class `cls` built where Dynamo does not trace: its __init__ (wherever the
        hierarchy defines it) starts on a half-built self, then each base __init__ its
        super().__init__() runs, and the modules each of them builds (the frame reruns eagerly whole)."""
        graph = self.graph
        owner = graph._lookup(cls, "__init__")
        while owner is not None and owner not in seen and graph._is_module(cls):
            seen.add(owner)
            qualname = f"{owner[1]}.__init__"
            init = graph._function_tree(owner[0], qualname)
            use = first_use_of_self(init) if init is not None else None
            if use is None:
                return
            known = self.half_built.setdefault(owner[0], {}).get(qualname)
            if known is None or known[2] and not condition:  # one built with no condition wins
                self.half_built[owner[0]][qualname] = (frame, chain + (qualname,), condition)
            summary = graph.summaries[owner[0]]
            offset = summary.lines[qualname][0] - init.lineno
            # every construction of that frame: Dynamo gives up on it whole and reruns it eagerly from
            # the start (measured, the review of stop 27: one built before `super().__init__()` too)
            for node in walk_outside_defs(init, root=True):
                spelled = _spelling(node.func) if isinstance(node, ast.Call) else None
                if spelled is None:
                    continue
                for built in self.classes(owner[0], spelled):
                    self._half_built(built, f"{qualname} line {node.lineno + offset}, run eagerly",
                                     chain + (qualname,), seen, condition)
            if super_init_call(init) is None:
                return
            owner = graph._lookup(owner, "__init__", skip_first=True)


def _spelling(node: ast.AST) -> Optional[str]:
    spelled = dotted(node)
    return spelled if spelled and spelled.rsplit(".", 1)[-1][:1].isupper() else None



