"""Dynamo's line numbers in resume functions, corrected (breaklint.confirm.dynamo_lines)."""
import pytest

torch = pytest.importorskip("torch")

from breaklint.confirm.dynamo_lines import correct_resume_lines, resume_lines_wrong  # noqa: E402
from breaklint.confirm.observe import observe  # noqa: E402

from . import models  # noqa: E402

pytestmark = pytest.mark.torch


def test_break_after_a_chained_method_in_a_resume_function_is_at_its_line():
    obs = observe(models.chained_method_then_branch, (torch.randn(4, 3), torch.rand(4, 3)))
    lines = sorted(b.line for b in obs.breaks if b.file == models.__file__)
    assert lines == [models.break_line("resume_first"), models.break_line("resume_second")], obs.describe()


def test_the_correction_holds_inside_the_block_and_is_undone_after():
    from torch._dynamo import bytecode_transformation

    writer = bytecode_transformation.linetable_311_writer
    wrong = resume_lines_wrong()
    with correct_resume_lines() as corrected:
        assert not resume_lines_wrong()
        assert corrected == wrong  # patched exactly where this torch needs it
    assert bytecode_transformation.linetable_311_writer is writer
    assert resume_lines_wrong() == wrong
