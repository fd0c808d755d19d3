"""Cases from the review of stop 30 (a helper; each probe run through Dynamo 2.13): scope and a rule that had
grown past what Dynamo traces, mended.

- An import in an `except ImportError` handler wins only where the try body's import may fail: not over an
  import from torch, numpy or the standard library (`try: from torch.nn.functional import silu as act`).
- Functions decorated with `@register_kl` are no entry points of their own: Dynamo traces them only where
  traced code calls kl_divergence, which the call graph follows (test_scope_stop30).
- BL503 counts backward hooks registered in `__init__` only: one registered in an opt-in method that forward
  never calls (`enable_debug()`) is never installed, and Dynamo does not break.
"""
import pytest

from .helpers import check_tree, codes_by_row, dynamo_break_rows

FALLBACK = {
    "pkg/__init__.py": "",
    "pkg/fallback.py": """
        def act(x):
            print("slow fallback")
            return x * 2
        """,
    "entry.py": """
        import torch
        try:
            from torch.nn.functional import silu as act
        except ImportError:
            from pkg.fallback import act
        class M(torch.nn.Module):
            def forward(self, x):
                return act(x)
        """,
}

KL_REGISTERED = {
    "pkg/__init__.py": "",
    "pkg/kl.py": """
        from torch.distributions import Normal, register_kl
        class MyDist(Normal):
            pass
        @register_kl(MyDist, MyDist)
        def _kl_my(p, q):
            print("kl")
            return (p.loc - q.loc).sum().item()
        """,
    "entry.py": """
        import torch
        import pkg.kl
        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2
        """,
}


@pytest.mark.parametrize("tree", [FALLBACK, KL_REGISTERED], ids=["fallback_behind_a_torch_import", "register_kl"])
def test_nothing_dynamo_does_not_trace_is_flagged(tmp_path, tree):
    assert check_tree(tmp_path, tree) == set()


HOOK_IN_AN_OPT_IN_METHOD = '''import torch
import torch.nn as nn


class C1(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def enable_debug(self):
        self.lin.register_full_backward_hook(lambda m, gi, go: None)

    def forward(self, x):
        return self.lin(x)
'''


def test_a_backward_hook_registered_outside_init_is_not_flagged(tmp_path):
    assert codes_by_row(HOOK_IN_AN_OPT_IN_METHOD) == set()
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("measured on torch 2.13")
    assert dynamo_break_rows(HOOK_IN_AN_OPT_IN_METHOD, ("C1",), tmp_path) == set()
