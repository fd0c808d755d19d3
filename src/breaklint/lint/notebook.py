"""Jupyter notebooks, as ruff lints them: the code cells are joined into one text (a marker line
between cells), linted as a module, and each finding is given back as (cell, row in the cell). Fixes
are applied to the joined text and split back into the cells of the notebook's JSON.

A cell with IPython magics (`%time`, `!pip`) is not Python: it is linted as blank lines of the same
count and never rewritten."""
from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Optional

from ..model import Finding, Location

SUFFIX = ".ipynb"
# A comment line, so the joined text stays Python; fixes never edit top-level comments.
MARKER = "# breaklint: cell boundary"
_MAGIC = re.compile(r"^\s*(%|!|\?)|\?\s*$", re.MULTILINE)


def is_notebook(path: str) -> bool:
    return path.endswith(SUFFIX)


@dataclass
class Notebook:
    data: dict
    # (index into data["cells"], first row in the joined text, row count, linted as Python)
    cells: list[tuple[int, int, int, bool]]
    text: str


def _cell_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def load(raw: str) -> Notebook:
    """Raise ValueError for a file that is not a notebook."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a notebook (invalid JSON: {exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise ValueError("not a notebook (no cells)")
    parts, cells, row = [], [], 1
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _cell_source(cell)
        if source and not source.endswith("\n"):
            source += "\n"
        count = source.count("\n")
        python = not _MAGIC.search(source)
        parts.append(source if python else "\n" * count)
        parts.append(MARKER + "\n")
        cells.append((index, row, count, python))
        row += count + 1
    return Notebook(data, cells, "".join(parts))


def cell_of(notebook: Notebook, row: int) -> Optional[tuple[int, int]]:
    """(cell number as ruff counts it: 1-based among all cells, row in that cell) of a joined row."""
    for index, first, count, _ in notebook.cells:
        if first <= row < first + count:
            return index + 1, row - first + 1
    return None


def to_cells(notebook: Notebook, findings: list[Finding]) -> list[Finding]:
    """Findings with rows inside their cell and the cell number set."""
    mapped = []
    for finding in findings:
        where = cell_of(notebook, finding.start.row)
        if where is None:
            continue
        cell, row = where
        shift = finding.start.row - row
        mapped.append(dataclasses.replace(
            finding, cell=cell, start=Location(row, finding.start.column),
            end=Location(finding.end.row - shift, finding.end.column),
            noqa_row=finding.noqa_row - shift if finding.noqa_row else 0))
    return mapped


def write_back(notebook: Notebook, fixed: str) -> Optional[str]:
    """The notebook's JSON with the fixed text split back into its cells; None when the fixes moved
    a cell boundary (then nothing is written)."""
    pieces = fixed.split(MARKER + "\n")
    if len(pieces) != len(notebook.cells) + 1 or pieces[-1].strip():
        return None
    data = json.loads(json.dumps(notebook.data))
    for (index, _first, _count, python), piece in zip(notebook.cells, pieces):
        if not python:
            continue
        cell = data["cells"][index]
        original = _cell_source(cell)
        if not original.endswith("\n") and piece.endswith("\n"):
            piece = piece[:-1]
        if piece == original:
            continue
        if isinstance(cell.get("source"), list):
            cell["source"] = piece.splitlines(keepends=True)
        else:
            cell["source"] = piece
    # nbformat's own layout: one-space indent, UTF-8 as is, a final newline.
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
