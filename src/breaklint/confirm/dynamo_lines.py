"""Correct line numbers in the code Dynamo generates, so that a graph break is reported at its line.

Dynamo re-assembles a function's bytecode for each resume function (the code that runs after a graph
break). On Python 3.11, its line-table writer (`bytecode_transformation.linetable_311_writer`) splits an
instruction longer than 8 code units (LOAD_METHOD with its 10 inline caches) into several table
entries and gives each of them the line delta. Where such an instruction starts a new line, the delta
is counted twice, and every later line of the resume function is off by it. A method chained on its
own line (`torch.linspace(\\n ...\\n).view(-1, 1, 1)`) shifts every later break of that frame by two
lines (measured on torch 2.13 and 2.14, Python 3.11): the `graph_breaks` log then names a line that
does not break and misses the one that does.

`correct_resume_lines()` fixes the writer for the duration of a run, only where a probe shows the fault,
so that Dynamo's own log, tracebacks and `confirm`'s join with static findings use the source lines.
It changes no traced behaviour: only the line table of generated code.
"""
from __future__ import annotations

import contextlib
import sys

# The largest table entry covers 8 code units (CPython's Objects/locations.md).
_ENTRY_UNITS = 8


def _probe(x):
    """Never called: its code has a method chained on its own line (`.g`), the shape the fault needs."""
    y = x.f(
        1
    ).g(2)
    return y.h()


def _round_trip_lines(transformation) -> tuple[list, list]:
    """The probe's line of each instruction, before and after Dynamo re-assembles it."""
    import dis

    code = _probe.__code__
    instructions = transformation.cleaned_instructions(code)
    assembled, table = transformation.assemble(instructions, code.co_firstlineno)
    rebuilt = code.replace(co_code=assembled, co_linetable=table)
    before = [i.positions.lineno for i in dis.get_instructions(code)]
    after = [i.positions.lineno for i in dis.get_instructions(rebuilt)]
    return before, after


def resume_lines_wrong() -> bool:
    """Whether this torch's Dynamo gives re-assembled code wrong line numbers (the probe above)."""
    if sys.version_info[:2] != (3, 11):
        return False  # the 3.11 table format only; 3.12+ assemble lines another way
    try:
        from torch._dynamo import bytecode_transformation as transformation

        before, after = _round_trip_lines(transformation)
    except Exception:  # a torch whose Dynamo moved these: nothing known to correct
        return False
    return before != after


def _split_writer(original):
    """linetable_311_writer whose update gives a long instruction's delta to its first entry only."""

    def writer(first_lineno):
        table, update = original(first_lineno)

        def split_update(positions, inst_size: int) -> None:
            # The first entry moves to the instruction's line; the rest repeat it (delta 0).
            while inst_size > _ENTRY_UNITS:
                update(positions, _ENTRY_UNITS)
                inst_size -= _ENTRY_UNITS
            update(positions, inst_size)

        return table, split_update

    return writer


@contextlib.contextmanager
def correct_resume_lines():
    """Within the block, Dynamo assembles code with the right line numbers (a no-op where they are)."""
    if not resume_lines_wrong():
        yield False
        return
    from torch._dynamo import bytecode_transformation as transformation

    original = transformation.linetable_311_writer
    transformation.linetable_311_writer = _split_writer(original)
    try:
        if resume_lines_wrong():  # the correction did not take: leave Dynamo as it was
            transformation.linetable_311_writer = original
            yield False
            return
        yield True
    finally:
        transformation.linetable_311_writer = original
