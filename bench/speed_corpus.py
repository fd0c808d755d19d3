"""The speed corpus: a pinned `transformers` wheel unpacked outside the repo.

transformers is held out from rule tuning (see the brief); here it is only a
large body of real model code to time linters on. Everyone is measured on the
same files and the same line count, so ratios between tools are fair.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

TRANSFORMERS_PIN = "5.0.0"
DEFAULT_CORPUS_ROOT = Path("/work/corpus")
# Fixed subset for peers too slow for the whole tree: the first N files named
# modeling_*.py, ordered by file name and then by path (names repeat rarely).
SUBSET_SIZE = 50


@dataclass(frozen=True)
class Corpus:
    """A named list of files and their physical line count."""

    name: str
    description: str
    files: tuple[Path, ...]
    lines: int

    def as_json(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "files": len(self.files),
            "lines": self.lines,
        }


def ensure_corpus(root: Path = DEFAULT_CORPUS_ROOT, pin: str = TRANSFORMERS_PIN) -> Path:
    """Return the unpacked package dir, downloading the pinned wheel if missing."""
    package_dir = root / "transformers"
    marker = root / f".transformers-{pin}"
    if package_dir.is_dir() and marker.exists():
        return package_dir
    if package_dir.exists():
        sys.exit(f"{package_dir} exists but is not transformers=={pin} (no {marker.name}); "
                 "remove it or pass another --corpus-root")
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # --no-deps: we want the source tree only, never an importable install.
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             f"transformers=={pin}", "-d", tmp],
            check=True,
        )
        (wheel,) = Path(tmp).glob("transformers-*.whl")
        with zipfile.ZipFile(wheel) as archive:
            members = [n for n in archive.namelist() if n.startswith("transformers/")]
            archive.extractall(root, members)
    marker.write_text(f"transformers=={pin}\n")
    return package_dir


def physical_lines(path: Path) -> int:
    """Lines as `wc -l` counts them, plus a last line without a newline."""
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def python_files(package_dir: Path) -> list[Path]:
    return sorted(package_dir.rglob("*.py"))


def full_corpus(package_dir: Path, pin: str = TRANSFORMERS_PIN) -> Corpus:
    files = tuple(python_files(package_dir))
    return Corpus(
        name="full",
        description=f"transformers=={pin} wheel, every .py file",
        files=files,
        lines=sum(physical_lines(f) for f in files),
    )


def modeling_subset(package_dir: Path, size: int = SUBSET_SIZE,
                    pin: str = TRANSFORMERS_PIN) -> Corpus:
    modeling = [f for f in python_files(package_dir) if f.name.startswith("modeling_")]
    chosen = tuple(sorted(modeling, key=lambda f: (f.name, str(f)))[:size])
    return Corpus(
        name="subset",
        description=(f"transformers=={pin}, first {size} modeling_*.py files "
                     "sorted by file name"),
        files=chosen,
        lines=sum(physical_lines(f) for f in chosen),
    )
