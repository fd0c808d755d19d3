"""The torch.where / torch.cond rewrites as LibCST transforms (fix/cst_branch.py): decided on `ast`,
applied on LibCST. Each test failed with the text edits these replaced (comments lost, left behind
or doubled, a shadowed `torch` written to, continuation lines re-indented) and passes now."""
import ast
import textwrap

from breaklint.fix.branch import branch_rewriter
from breaklint.fix.cst import apply_transforms
from breaklint.fix.edits import apply_edits
from breaklint.lint.config import Settings
from breaklint.lint.engine import lint_source
from breaklint.lint.fixloop import fix_source
from breaklint.lint.runner import lint_settings

SETTINGS = lint_settings(Settings())


def _fixed(source: str) -> str:
    _preview_agrees(textwrap.dedent(source))
    outcome = fix_source(textwrap.dedent(source), "case.py", SETTINGS, unsafe=True)
    assert outcome.error is None, outcome.error
    ast.parse(outcome.source)
    again = fix_source(outcome.source, "case.py", SETTINGS, unsafe=True)
    assert again.source == outcome.source  # a second --fix changes nothing
    return outcome.source


def _preview_agrees(source: str, path: str = "case.py") -> int:
    """Reports (JSON, SARIF) show a fix's text edit; --fix applies its transform: they must agree."""
    findings, _ = lint_source(source, path, SETTINGS)
    compared = 0
    for finding in findings:
        fix = finding.fix
        if fix is None or fix.transform is None:
            continue
        preview, _ = apply_edits(source, [fix])
        transformed, applied = apply_transforms(source, [fix])
        assert applied == [fix] and transformed == preview, (path, finding.row, preview, transformed)
        compared += 1
    return compared


def _branch_fixes(source: str):
    findings, _ = lint_source(textwrap.dedent(source), "case.py", SETTINGS)
    return [f.fix for f in findings if f.fix is not None and f.fix.transform is not None
            and f.fix.transform.factory is branch_rewriter]


def test_comment_between_the_if_and_the_return_it_merges_moves_above():
    fixed = _fixed("""
        import torch


        @torch.compile
        def f(x):
            if x.sum() > 0:  # positive
                return x * 2
            # otherwise halve it
            return x * 0.5
        """)
    assert "    # positive\n    # otherwise halve it\n    return torch.where(x.sum() > 0, x * 2, x * 0.5)\n" in fixed


def test_comment_below_the_last_statement_of_a_branch_moves_with_it():
    fixed = _fixed("""
        import torch


        @torch.compile
        def g(x):
            h = x * 2
            if h.max() > 1:
                h = h.clamp(-1, 1)
                # clamped: the range is [-1, 1]
            return h
        """)
    assert "    # clamped: the range is [-1, 1]\n    h = torch.where(h.max() > 1, h.clamp(-1, 1), h)\n    return h\n" \
        in fixed, fixed


def test_comment_inside_a_ternary_goes_above_its_statement():
    fixed = _fixed("""
        import torch


        @torch.compile
        def t(x):
            s = (x.std()  # the spread
                 if x.std() > 1.0 else torch.ones_like(x.std()))
            return x / s
        """)
    assert "    # the spread\n    s = (torch.where(x.std() > 1.0, x.std(), torch.ones_like(x.std())))\n" in fixed, fixed


def test_comment_inside_an_operand_stays_there_once_and_keeps_its_indentation():
    fixed = _fixed("""
        import torch


        @torch.compile
        def g(x):
            h = x * 2
            if h.max() > 1:
                h = h.clamp(-1,  # low
                            1)
            return h
        """)
    assert fixed.count("# low") == 1, fixed
    assert "        h.clamp(-1,  # low\n                    1),\n" in fixed, fixed


def test_cond_keeps_the_branches_statements_and_moves_the_other_comments_above():
    fixed = _fixed("""
        import torch


        @torch.compile
        def k(x):
            y = x + 1
            if y.max() > 1:  # header
                # first
                y = y * 2
                y = y + 1  # second
            else:
                # other side
                y = y - 1
                # trailing else comment
            return y
        """)
    assert """
    y = x + 1
    # header
    # first
    # other side
    # trailing else comment
    def _true_branch(y):
        y = y * 2
        y = y + 1  # second
        return y
    def _false_branch(y):
        y = y - 1
        return y
    y = torch.cond(y.max() > 1, _true_branch, _false_branch, (y,))
    return y
""" in fixed, fixed


def test_a_local_torch_that_shadows_the_module_is_never_written_to():
    """The ast analysis names torch by the module's import; LibCST's scope metadata sees that a
    parameter called `torch` means something else there, and the fix is not applied."""
    source = textwrap.dedent("""
        import torch


        @torch.compile
        def f(x, torch):
            y = x * 2
            if y.abs().amax() > 4.0:
                y = y * 0.25
            return y
        """)
    fixes = _branch_fixes(source)
    assert fixes, "the fix is still offered: detection did not change"
    text, applied = apply_transforms(source, fixes)
    assert applied == [] and text == source


def test_alias_is_reused_for_cond_and_for_the_ternary():
    fixed = _fixed("""
        import torch as th


        @th.compile
        def f(x):
            y = x + 1
            s = x.std() if x.std() > 1.0 else th.ones_like(x.std())
            if y.max() > 1:
                y = y * 2
                y = y + 1
            else:
                y = y - 1
            return y / s
        """)
    assert "s = th.where(x.std() > 1.0, x.std(), th.ones_like(x.std()))" in fixed, fixed
    assert "y = th.cond(y.max() > 1, _true_branch, _false_branch, (y,))" in fixed, fixed
    assert "import torch\n" not in fixed


def test_preview_edit_and_transform_agree_on_the_fixtures():
    """Every fix with a transform (guard, torch.where, torch.cond, BL301's hoist), one at a time."""
    from pathlib import Path

    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    compared = sum(_preview_agrees(path.read_text(encoding="utf-8"), str(path))
                   for path in sorted(fixtures.glob("*.py")))
    assert compared >= 20


def test_comment_lines_below_a_branch_move_with_it_and_those_of_the_function_stay():
    fixed = _fixed("""
        import torch


        @torch.compile
        def g(x):
            h = x * 2
            if h.max() > 1:
                h = h.clamp(-1, 1)
                # clamped

                # still the branch's
            # the function's
            return h
        """)
    assert ("    # clamped\n    # still the branch's\n    h = torch.where(h.max() > 1, h.clamp(-1, 1), h)\n"
            "    # the function's\n    return h\n") in fixed, fixed


def test_guard_and_where_in_one_file_both_apply_over_rounds():
    """Two transform groups in one file: the second waits a round (its rows moved), then applies."""
    fixed = _fixed("""
        import torch


        @torch.compile
        def f(x):
            print("scaling")
            y = x * 2
            if y.abs().amax() > 4.0:
                y = y * 0.25
            return y
        """)
    assert "    if not torch.compiler.is_compiling():\n        print(\"scaling\")\n" in fixed, fixed
    assert "    y = torch.where(y.abs().amax() > 4.0, y * 0.25, y)\n" in fixed, fixed


def test_where_in_a_module_that_imports_only_from_torch_adds_import_torch_to_its_group():
    fixed = _fixed("""
        from torch import nn


        class M(nn.Module):
            def forward(self, x):
                y = x * 2
                if y.abs().amax() > 4.0:
                    y = y * 0.25
                return y
        """)
    assert fixed.startswith("\nimport torch\nfrom torch import nn\n"), fixed
    assert "y = torch.where(y.abs().amax() > 4.0, y * 0.25, y)" in fixed, fixed


def test_hoist_moves_the_call_as_written_and_keeps_the_forward_line_and_init_footer():
    fixed = _fixed("""
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.dim = dim
                # end of init

            def forward(self, x):
                norm = nn.LayerNorm(self.dim,  eps=1e-5)  # a fresh norm
                return norm(x)
        """)
    assert ("        self.dim = dim\n        self._norm = nn.LayerNorm(self.dim,  eps=1e-5)\n        # end of init\n"
            in fixed), fixed
    assert "        norm = self._norm  # a fresh norm\n" in fixed, fixed


def test_guard_is_not_applied_where_a_local_torch_shadows_the_module():
    source = textwrap.dedent("""
        import torch


        @torch.compile
        def f(x):
            print("kept as it is")
            return x * 2


        @torch.compile
        def g(x, torch=None):
            print("torch is a parameter here")
            return x * 2
        """)
    fixed = fix_source(source, "case.py", SETTINGS).source  # the preview still shows the guard in g
    assert "    if not torch.compiler.is_compiling():\n        print(\"kept as it is\")\n" in fixed, fixed
    assert "    print(\"torch is a parameter here\")\n" in fixed, fixed


def test_only_a_file_that_never_rebinds_the_torch_name_skips_the_scope_metadata():
    from breaklint.fix.rewrite import _never_rebound

    assert _never_rebound(ast.parse("import torch\nimport torch.nn as nn\nx = torch.ones(1)\n"), "torch")
    assert _never_rebound(ast.parse("import torch as th\ndef f(torch): return th.ones(1)\n"), "th")
    for rebinding in ("def f(torch): pass", "def f():\n    torch = 1", "for torch in []: pass",
                      "try:\n    pass\nexcept E as torch:\n    pass", "def f():\n    import numpy as torch",
                      "class torch: pass", "def f():\n    global torch", "with a as torch: pass",
                      "[torch for torch in []]", "lambda torch: 0"):
        assert not _never_rebound(ast.parse("import torch\n" + rebinding + "\n"), "torch"), rebinding
