"""#14 item 8: `rules` and `calibrate` print a header and aligned columns, readable at 80 columns and
when piped (one line per row, never wrapped)."""
import pytest

import breaklint.report.table as table_module
from breaklint.rules import all_rules
from cli_helpers import invoke


def _columns_aligned(lines):
    """Each header word starts at the same column as the cells below it."""
    header = lines[0]
    starts = [i for i, ch in enumerate(header) if ch != " " and (i == 0 or header[i - 1] == " " and header[i - 2] == " ")]
    for line in lines[2:]:
        for start in starts[1:]:
            assert line[start - 2:start] == "  " and line[start] != " ", (line, start)


def test_rules_prints_a_header_and_aligned_columns_when_piped():
    lines = invoke("rules", "--target-torch", "2.13").stdout.splitlines()
    assert lines[0].split() == ["code", "name", "fix", "torch", "2.13", "GB", "ids"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    assert len(lines) == 2 + len(all_rules())  # piped: one line per rule, never wrapped
    _columns_aligned(lines)


def test_rules_fits_80_columns_on_a_terminal(monkeypatch):
    monkeypatch.setattr(table_module, "terminal_width", lambda stream=None: 80)
    import breaklint.cli  # noqa: F401 - the command imports terminal_width from the module at call time

    lines = invoke("rules", "--target-torch", "2.13").stdout.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    assert sum(line.startswith("BL") for line in lines) == len(all_rules())


@pytest.mark.torch
@pytest.mark.slow
def test_calibrate_prints_a_plain_aligned_table():
    result = invoke("calibrate", "--select", "BL201")
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert lines[0].startswith("breaklint calibrate: torch ")
    assert lines[1].split()[:2] == ["rule", "name"] and lines[3].startswith("BL201")
    assert not any(ch in result.stdout for ch in "┃│━─┏")  # no box drawing when piped
