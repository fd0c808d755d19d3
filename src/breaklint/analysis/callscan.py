"""The call spellings of a function read off its source text, without walking its tree.

The call graph needs, for every function of every file, the names it calls. Walking each body's
tree for its Call nodes cost more than parsing on a large tree (bench/speed_profile.py: half the
cold time on transformers). Untraced functions need only the names, so they come from one regex
run in C over the file's text, which consumes strings and comments as noise and reports `a.b.c(`,
`super().m(` and `<call or subscript>.m(`. Traced functions keep the tree walk, which also gives
argument facts.
"""
from __future__ import annotations

import ast
import bisect
import re

# Strings and comments (no groups), then a call (two groups). Matching both in one left-to-right
# pass means a quote inside a comment or a `#` inside a string is read correctly, and a call
# spelled inside a string or a comment is consumed as noise, never reported.
_NOISE = r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|#[^\n]*'
# A dotted name called: not after a dot or inside an identifier, not a `def`/`class` header.
# `super().m(` (or `super(Cls, self).m(`) first; `).m(` / `].m(`: a method of a call's or
# subscript's result.
_CALL = (
    r"(?<![\w.])(?<!def )(?<!class )"
    r"(super\s*\([^()]*\)\s*\.\s*[A-Za-z_]\w*|[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\("
    r"|(?<=[)\]])\s*\.\s*((?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*)\s*\("
)
_SCAN = re.compile(_NOISE + "|" + _CALL)
_SPACE = re.compile(r"\s+")


class CallText:
    """One file's text, indexed by line."""

    def __init__(self, source: str):
        self.text = source
        starts = [0]
        find = source.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._starts = starts

    def end_of(self, line: int) -> int:
        """The offset just after a 1-based line (its newline included)."""
        return self._starts[line] if line < len(self._starts) else len(self.text)

    def line_of(self, offset: int) -> int:
        """The 1-based line a character offset is on."""
        return bisect.bisect_right(self._starts, offset)

    def lines(self, first_line: int, last_line: int) -> str:
        """The text of lines first..last (1-based)."""
        starts = self._starts
        begin = starts[first_line - 1] if first_line - 1 < len(starts) else len(self.text)
        end = starts[last_line] if last_line < len(starts) else len(self.text)
        return self.text[begin:end]

    def spellings(self, first_line: int, last_line: int) -> list[tuple[str, bool]]:
        """(dotted spelling, on a call/subscript result) of each distinct call on lines first..last
        (1-based), in source order; spellings keep their dots and drop whitespace ("self.proj",
        "super().f")."""
        starts = self._starts
        begin = starts[first_line - 1] if first_line - 1 < len(starts) else len(self.text)
        end = starts[last_line] if last_line < len(starts) else len(self.text)
        out = []
        for name, method in dict.fromkeys(_SCAN.findall(self.text, begin, end)):
            if name:
                out.append((_SPACE.sub("", name) if _has_space(name) else name, False))
            elif method:
                out.append((_SPACE.sub("", method), True))
        return out


    def getattr_calls(self, first_line: int, last_line: int) -> list[ast.Call]:
        """The `getattr(...)` calls on lines first..last, parsed: the few there are (a name template's
        constant parts are string text, which the call scan treats as noise). A `getattr(` inside a
        comment or a string is noise here too."""
        body = self.lines(first_line, last_line)
        if "getattr" not in body:
            return []
        found = []
        for match in _GETATTR_SCAN.finditer(body):
            if match.group(1) is None:
                continue  # a string or a comment
            call = "getattr" + balanced(body, match.end() - 1)
            try:
                node = ast.parse("(" + call + "\n)", mode="eval").body
            except SyntaxError:
                continue
            if isinstance(node, ast.Call):
                found.append(node)
        return found


_GETATTR_SCAN = re.compile(_NOISE + r"|(?<![\w.])(getattr)\s*\(")


def balanced(text: str, open_at: int) -> str:
    """The bracketed text that starts at `open_at` (an opening bracket), brackets included."""
    depth = 0
    for i in range(open_at, min(len(text), open_at + 4000)):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_at:i + 1]
    return text[open_at:open_at + 4000]


def _has_space(name: str) -> bool:
    return " " in name or "\n" in name or "\t" in name


_SPACES_AND_PAREN = re.compile(r"\s*\(")
_KEYWORD_ARGUMENT = re.compile(r"\s*\w+\s*=(?!=)")


def positional_argument(arguments: str, index: int) -> Optional[str]:
    """The text of positional argument `index` of a call's bracketed arguments `(a, f(b), k=c)`."""
    parts, depth, start = [], 0, 1
    for i, ch in enumerate(arguments[1:-1], 1):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(arguments[start:i])
            start = i + 1
    parts.append(arguments[start:-1])
    positional = []
    for part in parts:
        if _KEYWORD_ARGUMENT.match(part) or part.strip().startswith("*"):
            break
        positional.append(part.strip())
    return positional[index] if index < len(positional) and positional[index] else None


def calls_named(text: str, name: str) -> list[tuple[int, int]]:
    r"""(offset, offset of its "(") of each `name(` in the text, in text order: what
    `(?<!\w)(\w+)\s*\(` finds with `name` as its word (str.isalnum and "_" are exactly re's \w).
    str.find for the one name a class is constructed by beats indexing every call of each file
    that imports it (1 of the graph's 5 serial seconds on transformers)."""
    found = []
    start = text.find(name)
    while start != -1:
        before = text[start - 1] if start else ""
        if not (before == "_" or before.isalnum()):
            paren = _SPACES_AND_PAREN.match(text, start + len(name))
            if paren is not None:  # the whole word: spaces or "(" follow it
                found.append((start, paren.end() - 1))
        start = text.find(name, start + 1)
    return found
