"""Issue #11, items 3 and 6: scalar extraction whose receiver only a tensor can be, and loop
variables over tensors (measured on torch 2.13: `for h, w in t: int(h * w)` breaks)."""
from .helpers import codes_by_row, dynamo_break_rows


def test_item_and_tolist_on_untyped_receivers_are_flagged():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x, attention_mask=None, lengths=None, slen=3):
                is_global = (attention_mask > 0).flatten().any().item()
                assert lengths.max().item() <= slen
                ids = attention_mask.tolist()
                return x
        """)
    assert {(6, "BL103"), (7, "BL102"), (8, "BL104")} <= got or {(6, "BL103"), (7, "BL103"), (8, "BL104")} <= got


ITEM_IN_CONDITIONS = """
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.state = getattr(torch, "ones")(())    # nothing types it

    def forward(self, x, flag=None):
        if self.state.item() > 0:
            x = x + 1
        if flag.item():
            x = x * 2
        while self.state.item() > 2:
            x = x / 2
        return x * 3 if self.state.item() > 2 else x
"""


def test_item_in_a_condition_on_an_untyped_receiver_is_flagged(tmp_path):
    # `.item()` is a tensor's or an array's: in an if / while / ternary test it is BL102's finding whatever
    # the receiver's type, unless that is proven not to be a tensor, as it is BL103's elsewhere
    rows = {12, 14, 16, 18}
    assert {(row, "BL102") for row in rows} <= codes_by_row(ITEM_IN_CONDITIONS)
    import torch

    assert rows <= dynamo_break_rows(ITEM_IN_CONDITIONS, ["Net"], tmp_path,
                                     inputs=lambda: (torch.randn(4), torch.tensor(True)))


def test_int_of_a_slice_of_an_annotated_tensor():
    got = codes_by_row("""
        from typing import Optional
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x, cache_position: Optional[torch.LongTensor] = None):
                target_length = cache_position[-1] + 1
                n = int(target_length)
                return x[:, :n]
        """)
    assert (8, "BL103") in got


def test_python_scalars_and_dict_items_are_not_scalar_extraction():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x, table: dict):
                for k, v in table.items():
                    x = x + len(k)
                n = (3).bit_length()
                return x * n
        """)
    assert not any(code in ("BL103", "BL104") for _, code in got)


def test_loop_variables_over_a_tensor_are_tensors():
    # one function per shape: a break inside a loop skips the frame, so nothing after it would be reported
    got = codes_by_row("""
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x, aspect_ratio: torch.Tensor):
                total = 0
                for h, w in aspect_ratio:
                    total = total + int(h * w)
                return x * total + self.rows(x, aspect_ratio) + self.zipped(x, aspect_ratio) + self.unpacked(x, aspect_ratio)

            def rows(self, x, aspect_ratio: torch.Tensor):
                total = 0
                for i, row in enumerate(aspect_ratio):
                    total = total + int(row[0])
                return x * total

            def zipped(self, x, aspect_ratio: torch.Tensor):
                total = 0
                for a, (b, c) in zip(aspect_ratio, aspect_ratio):
                    total = total + int(a[0] * b)
                return x * total

            def unpacked(self, x, aspect_ratio: torch.Tensor):
                p, q = aspect_ratio
                return x * float(p)
        """)
    assert {(8, "BL103"), (14, "BL103"), (20, "BL103"), (25, "BL103")} <= got


def test_loop_over_a_list_of_ints_is_not_a_tensor():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x):
                total = 0
                for h, w in [(1, 2), (3, 4)]:
                    total = total + int(h * w)
                for i, size in enumerate(x.shape):
                    total = total + int(size)
                return x * total
        """)
    assert not any(code == "BL103" for _, code in got)


def test_range_over_a_numpy_value_in_traced_code():
    # Dynamo traces numpy as tensors: range(np.prod(x.shape)) breaks (GB0059, measured on 2.13).
    got = codes_by_row("""
        import numpy as np
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x):
                n = np.prod(x.shape)
                for i in range(n):
                    x = x + 1
                for j in range(int(np.prod((2, 2))), 3):
                    x = x + 1
                for k in range(np.prod(x.shape[1:])):
                    x = x + 1
                for m in range(len(np.arange(3))):
                    x = x + 1
                return x
        """)
    assert {(8, "BL105"), (12, "BL105")} <= got
    assert (10, "BL105") not in got and (14, "BL105") not in got
