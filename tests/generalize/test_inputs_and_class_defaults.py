"""From the stop-27 dev libraries (pytorch-crf, torch-struct, reformer-pytorch; bench/SPLITS.md).

1. torch-struct's `_get_dimension(self, edge)` switches `edge.requires_grad_(True)` on its input. Measured on
   torch 2.13 (CPU, backend="eager"): `x.requires_grad_(True)` on an input of the compiled code breaks
   ("Unsupported Tensor.requires_grad_() call") when x does not require grad and is traced when it does; so
   does a loop variable over such inputs; a module parameter never breaks. So an input is flagged with that
   condition (BL304), a fresh tensor (BL304 before) without one.
2. torch-struct keeps a class on self (`def __init__(self, semiring=LogSemiring): self.semiring = semiring`)
   and calls its static methods (`self.semiring.sum(edge)`, a name tensors have too, so no dispatch by rare
   name finds it): they run in the trace, and the class a
   caller passes may be any subclass.
"""
from breaklint.lint.config import Settings
from breaklint.lint.runner import check_paths

from .helpers import check_tree, findings_of, write_tree


def test_requires_grad_switched_on_for_an_input_is_flagged_with_its_condition():
    found = [f for f in findings_of("""
        import torch
        from torch import nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.Parameter(torch.randn(4))

            def forward(self, x, items):
                x.requires_grad_(True)
                for t in items:
                    t.requires_grad_()
                self.w.requires_grad_(True)      # a parameter: traced
                x.requires_grad_(False)          # off: traced
                return x * self.w
        """) if f.code == "BL304"]
    assert [(f.row, f.breaks_when) for f in found] == [(11, "not x.requires_grad"), (13, "not t.requires_grad")]


def test_static_methods_of_a_class_kept_on_self_are_traced(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/semirings.py": """
            import torch

            class Semiring:
                @staticmethod
                def sum(x):
                    print("sum")
                    return x.sum(0)

            class LogSemiring(Semiring):
                pass

            class MaxSemiring(LogSemiring):
                @staticmethod
                def sum(x):
                    print("max")
                    return x.max(0).values
            """,
        "pkg/chain.py": """
            from torch import nn
            from .semirings import LogSemiring

            class Chain:
                def __init__(self, semiring=LogSemiring):
                    self.semiring = semiring

                def sum(self, edge):
                    return self.semiring.sum(edge)

            class Net(nn.Module):
                def forward(self, x):
                    return Chain().sum(x)
            """,
    })
    result = check_paths([str(tmp_path)], Settings(), jobs=1, use_cache=False)
    got = {(f.path.rsplit("/", 1)[-1], f.row, f.code) for f in result.findings}
    # the default's own (inherited) static method, and a subclass's override a caller may pass
    assert {("semirings.py", 6, "BL201"), ("semirings.py", 15, "BL201")} <= got


def test_a_class_default_is_not_taken_for_something_called(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/blocks.py": """
            class Block:
                def __init__(self):
                    print("built")
            """,
        "pkg/net.py": """
            from torch import nn
            from .blocks import Block

            class Holder:
                def __init__(self, kind=Block):
                    self.kind = kind

                def run(self, x):
                    return x * 2

            class Net(nn.Module):
                def forward(self, x):
                    return Holder().run(x)
            """,
    })
    assert ("pkg/blocks.py", 3, "BL201") not in got
