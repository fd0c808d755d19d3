"""Join observed breaks with static findings: confirmed, missed, or not breaking on this torch."""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field

from .observation import GraphBreak, Observation


@dataclass
class FindingRef:
    code: str
    message: str
    path: str
    row: int
    end_row: int
    col: int = 1
    fixable: str | None = None  # "safe" | "unsafe" | None

    @classmethod
    def from_finding(cls, f) -> "FindingRef":
        fix = getattr(f, "fix", None)
        return cls(code=f.code, message=f.message, path=os.path.abspath(f.path), row=f.row,
                   end_row=getattr(f, "end_row", f.row) or f.row, col=getattr(f, "col", 1),
                   fixable=getattr(fix, "applicability", None) if fix else None)

    def covers(self, path: str, line: int) -> bool:
        return os.path.realpath(self.path) == os.path.realpath(path) and self.row <= line <= self.end_row


@dataclass
class JoinedBreak:
    status: str  # "confirmed" | "missed"
    brk: GraphBreak
    findings: list[FindingRef] = field(default_factory=list)


@dataclass
class Join:
    confirmed: list[JoinedBreak] = field(default_factory=list)
    missed: list[JoinedBreak] = field(default_factory=list)
    outside: list[JoinedBreak] = field(default_factory=list)  # no frame of the user's code on the stack
    not_breaking: list[FindingRef] = field(default_factory=list)  # traced by Dynamo, no break there
    not_traced: list[FindingRef] = field(default_factory=list)  # never executed by this target

    def to_dict(self) -> dict:
        return {
            "confirmed": [{"break": asdict(j.brk), "findings": [asdict(f) for f in j.findings]} for j in self.confirmed],
            "missed": [{"break": asdict(j.brk)} for j in self.missed],
            "outside_user_code": [{"break": asdict(j.brk)} for j in self.outside],
            "not_breaking": [asdict(f) for f in self.not_breaking],
            "not_traced": [asdict(f) for f in self.not_traced],
        }


def _executed(executed: dict[str, list[int]], f: FindingRef) -> bool:
    for path, lines in executed.items():
        if os.path.realpath(path) == os.path.realpath(f.path):
            return any(f.row <= ln <= f.end_row for ln in lines)
    return False


def join(obs: Observation, findings: list[FindingRef], executed: dict[str, list[int]]) -> Join:
    result = Join()
    used: set[int] = set()
    for b in obs.breaks:
        # A break is confirmed by a finding on its line, or on any user frame of its stack: a
        # rule may flag the call site of a helper that breaks inside.
        spots = [(b.file, b.line)] + [(fr.file, fr.line) for fr in b.user_stack]
        matched = [i for i, f in enumerate(findings) if any(f.covers(p, ln) for p, ln in spots)]
        if matched:
            used.update(matched)
            result.confirmed.append(JoinedBreak("confirmed", b, [findings[i] for i in matched]))
        elif not b.in_user_code:
            result.outside.append(JoinedBreak("outside", b))  # no line of the user's to flag
        else:
            result.missed.append(JoinedBreak("missed", b))
    for i, f in enumerate(findings):
        if i in used:
            continue
        (result.not_breaking if _executed(executed, f) else result.not_traced).append(f)
    return result
