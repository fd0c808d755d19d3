"""Findings on the line Dynamo reports, and module-level tensor constants (issue #11, stop 26).

Each shape was compiled with Dynamo 2.13 on Python 3.11 (backend="eager"), and the marked row is the
`file:line` of its `graph_breaks` log. A finding on another row of the same statement counts as a
miss and a false positive when scored against Dynamo, and `# noqa` goes on the row that is shown."""
from .helpers import codes_by_row


def test_a_method_call_spanning_lines_is_reported_on_the_method_name():
    got = codes_by_row("""
        import torch
        @torch.compile
        def f(x):
            n = (x
                 .sum()
                 .item())
            rows = (x
                    .tolist())
            return x * n, rows
        """)
    assert (7, "BL103") in got and (5, "BL103") not in got
    assert (9, "BL104") in got and (8, "BL104") not in got


def test_a_call_on_one_line_keeps_its_start():
    got = codes_by_row("""
        import torch
        @torch.compile
        def f(x):
            y = torch.nonzero(
                x)
            n = int(
                x.sum())
            return y, n
        """)
    assert {(5, "BL401"), (7, "BL103")} <= got


def test_an_argument_finding_is_reported_on_its_call_line():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Step(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("rtol", torch.tensor(1e-3))
            def forward(self, x, y):
                i = x.argmax()
                for k in range(
                        x.sum().int()):
                    x = x + k
                z = x[
                    i]
                return torch.add(
                    x, y.abs(), alpha=self.rtol
                ), z
        """)
    assert (15, "BL109") in got and (16, "BL109") not in got
    assert (10, "BL105") in got and (11, "BL105") not in got
    assert (13, "BL105") in got and (14, "BL105") not in got


def test_a_noqa_on_the_reported_line_silences_it():
    got = codes_by_row("""
        import torch
        @torch.compile
        def f(x):
            n = (x
                 .item())  # noqa: BL103
            return x * n
        """)
    assert not any(code == "BL103" for _, code in got)


def test_a_module_level_tensor_read_in_traced_code_is_a_tensor():
    got = codes_by_row("""
        import torch
        EPS = torch.tensor(1e-6)
        SCALE = torch.ones(3).to(torch.float64)
        @torch.compile
        def f(x, y):
            if EPS > 0:
                x = x * 2
            return torch.add(x, y, alpha=SCALE[0])
        """)
    assert {(7, "BL101"), (9, "BL109")} <= got


def test_a_module_level_name_that_is_not_surely_a_tensor_stays_silent():
    got = codes_by_row("""
        import torch
        EPS = torch.tensor(1e-6)
        LIMIT = 3.0
        STATE = torch.load("weights.pt")
        def reset():
            global EPS
            EPS = 0.0
        @torch.compile
        def f(x):
            if EPS > 0:
                x = x * 2
            if LIMIT > 0:
                x = x + 1
            if STATE > 0:
                x = x - 1
            return x
        """)
    assert not any(code == "BL101" for _, code in got)


def test_a_local_or_an_enclosing_binding_hides_the_module_constant():
    got = codes_by_row("""
        import torch
        EPS = torch.tensor(1e-6)
        @torch.compile
        def f(x, EPS=0.5):
            if EPS > 0:
                x = x * 2
            return x
        def build():
            EPS = 0.5
            @torch.compile
            def g(x):
                if EPS > 0:
                    return x * 2
                return x
            return g
        """)
    assert not any(code == "BL101" for _, code in got)
