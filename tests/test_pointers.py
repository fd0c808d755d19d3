"""Pointers stay true (issue #16): the source and the tests name no path of a developer's machine, and
every repository file they cite exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "breaklint"
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".txt", ".json", ".sh", ".yaml", ".yml"}
# Built from parts so that this file does not match itself.
MACHINE_PATH = re.compile(r"(?<![\w.~])/(" + "|".join(["wo" + "rk", "ho" + "me", "Us" + "ers", "ro" + "ot"]) + r")/")
# Repository paths (tests/..., bench/..., rules/BL101.md) and package paths (fix/branch.py).
CITED = re.compile(r"(?<![\w/.])((?:tests|bench|fixtures|rules|src|analysis|fix|lint|report|confirm)/[\w/.-]*\w\.(?:py|md|sh|json))")
ROOT_DOC = re.compile(r"(?<![\w/.])([A-Z][A-Z_]+\.md)\b")


def _files():
    for top in (ROOT / "src", ROOT / "tests"):
        for path in sorted(top.rglob("*")):
            if path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                yield path


def _exists(cited: str) -> bool:
    return (ROOT / cited).exists() or (PACKAGE / cited).exists() or (PACKAGE / "rules" / cited).exists()


def test_no_developer_machine_paths():
    hits = [f"{path.relative_to(ROOT)}:{row}: {line.strip()}"
            for path in _files()
            for row, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if MACHINE_PATH.search(line)]
    assert hits == [], "\n".join(hits)


def test_cited_repository_files_exist():
    dangling = []
    for path in _files():
        if path == Path(__file__).resolve():
            continue  # its own self-test names a missing file on purpose
        text = path.read_text(encoding="utf-8", errors="replace")
        for cited in CITED.findall(text):
            if "xxx" not in cited.lower() and "<" not in cited and not _exists(cited):
                dangling.append(f"{path.relative_to(ROOT)}: {cited}")
        for doc in ROOT_DOC.findall(text):
            if not (ROOT / doc).exists() and doc != "BLXXX.md":
                dangling.append(f"{path.relative_to(ROOT)}: {doc}")
    assert dangling == [], "\n".join(dangling)


def test_the_checks_see_what_they_look_for():
    assert MACHINE_PATH.search("see /" + "work/shared/notes.md")
    assert not MACHINE_PATH.search("x = a/work/b")
    assert CITED.findall("tests/rules/test_calls_debugger.py runs it") == ["tests/rules/test_calls_debugger.py"]
    assert not _exists("tests/rules/test_calls_debugger.py")
    assert ROOT_DOC.findall("(DESIGN.md: ...)") == ["DESIGN.md"]
