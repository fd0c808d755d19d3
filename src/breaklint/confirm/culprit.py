"""When the fixed model's outputs differ, find the fix responsible: apply the fixes one group (a
rule in a file) at a time, in order, and name the first group whose addition changes the outputs.
The other fixes, without it, are verified too: they are what `--write` may keep."""
from __future__ import annotations

import dataclasses
import glob
import os
from dataclasses import dataclass

from ..fix.edits import wanted


@dataclass
class Culprit:
    path: str
    code: str
    line: int
    message: str
    comparison: dict | None  # outputs with the fixes up to and including this one
    steps: int  # verification runs it took
    others: object = None  # Shadow with every other fix, or None when there is none
    others_equal: bool = False

    def to_dict(self) -> dict:
        return {"path": self.path, "code": self.code, "line": self.line, "message": self.message,
                "where": f"{self.path}:{self.line}", "comparison": self.comparison, "steps": self.steps,
                "others_applied": self.others.applied if self.others is not None else 0,
                "others_equal": self.others_equal}


def fix_groups(result, unsafe: bool) -> list[tuple[str, str, int, str]]:
    """(path, rule code, first line, message) of every group of fixes the run applies, in file order."""
    groups: dict[tuple[str, str], tuple[str, str, int, str]] = {}
    for f in sorted(result.findings, key=lambda f: (f.path, f.row)):
        if wanted(f.fix, unsafe) and (f.path, f.code) not in groups:
            groups[(f.path, f.code)] = (f.path, f.code, f.row, f.message)
    return list(groups.values())


def without(settings, groups) -> object:
    """check's settings with the fixes of `groups` switched off (as per-file ignores, which the fix
    pipeline already honours)."""
    ignores = {k: list(v) for k, v in settings.per_file_ignores.items()}
    for path, code, *_ in groups:
        key = glob.escape(os.path.relpath(os.path.abspath(path), settings.root).replace(os.sep, "/"))
        ignores.setdefault(key, []).append(code)
    return dataclasses.replace(settings, per_file_ignores=ignores)


def _equal(r) -> bool | None:
    return bool(r.data["comparison"]["equal"]) if r.ok and r.data.get("comparison") else None


def find_culprit(result, settings, unsafe: bool, modules, cover, work: str, run, max_steps: int = 12):
    """The first fix group that changes the outputs, or None (too many groups, or none alone does)."""
    from .shadow import make_shadow

    groups = fix_groups(result, unsafe)
    if not groups or len(groups) > max_steps:
        return None
    found, comparison, steps = None, None, 0
    for k in range(1, len(groups) + 1):
        if k == len(groups):
            found = groups[-1]  # every fix before it kept the outputs; with it, they differ
            break
        shadow = make_shadow(os.path.join(work, f"step{k}"), modules, cover, result, without(settings, groups[k:]),
                             unsafe)
        r = run({"action": "compare", "shadows": shadow.pairs, "reference_from": True})
        steps += 1
        if _equal(r) is not True:
            found, comparison = groups[k - 1], (r.data.get("comparison") if r.ok else {"error": r.one_line()})
            break
    path, code, line, message = found
    others = make_shadow(os.path.join(work, "others"), modules, cover, result, without(settings, [found]), unsafe)
    others_equal = False
    if others.applied:
        r = run({"action": "compare", "shadows": others.pairs, "reference_from": True})
        steps += 1
        others_equal = _equal(r) is True
    return Culprit(path=path, code=code, line=line, message=message, comparison=comparison, steps=steps,
                   others=others if others.applied else None, others_equal=others_equal)
