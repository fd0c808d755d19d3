"""Scope mends of stop 36, each shape run through Dynamo 2.13 (CPU, eager backend) in the test itself.

- A parameter annotated with a forward reference (`model: "Big"`, the class imported under
  `if TYPE_CHECKING:`): a property read on it runs the property, which Dynamo traces. The quoted
  annotation was not read at all (whisper's `DecodingTask(model: "Whisper", ...)`).
- An attribute kept with an annotation (`self.tok: Tok = get_tok(n)`): `self.tok.eot` read in another
  method runs Tok.eot. Only plain `self.tok = ...` assignments were followed.
- An attribute kept from a parameter (`self.tok = tok`, `tok: Tok`): its property read in another
  method. Only calls (`self.tok.encode(x)`) were typed through what the hierarchy assigns; reads were not.
- A property read on an object whose class nothing tells (`first = controls[0]; first.interval`, torchcde's TupleControl):
  the properties of that name in the package, where few classes define one, as calls of a rare method
  name are dispatched.
- A closure kept on an annotated attribute (`self.act: Callable = self._make()`): calling `self.act(x)` runs it;
  only plain assignments were followed to what they hold.
- Bound methods: `fn = self.pick(x); fn(x)` where `pick` returns `self.low if c else self.high`
  (pytorch-metric-learning's `get_mine_function`), and a module whose `__init__` binds
  `self.forward = self.forward_cat` (timm's `Partial_conv3`): neither method was in scope.
- A break in the body of a `try` ends the trace: Dynamo cannot resume there ("Failed to handle graph break
  gracefully") and runs the whole frame eagerly; nothing after it is reported. One in `finally` resumes.
"""
import pytest

from .helpers import assert_breaks_at, check_tree, dynamo_package_rows

TOK = """
    class Tok:
        def __init__(self, n):
            self.n = n

        @property
        def eot(self):
            print("eot")
            return self.n + 1


    def get_tok(n) -> Tok:
        return Tok(n)
    """


def package(dec: str) -> dict:
    return {
        "pkg/__init__.py": "",
        "pkg/tok.py": TOK,
        "pkg/dec.py": dec,
        "entry.py": """
            import torch
            from pkg.dec import decode


            class M(torch.nn.Module):
                def forward(self, x):
                    return decode(x)
            """,
    }


FORWARD_REFERENCE = package("""
    from typing import TYPE_CHECKING

    from pkg.tok import get_tok

    if TYPE_CHECKING:
        from pkg.tok import Tok


    def first(tok: "Tok", x):
        return x + tok.eot


    def decode(x):
        return first(get_tok(3), x)
    """)

ANNOTATED_ATTRIBUTE = package("""
    from pkg.tok import Tok, get_tok


    class Task:
        def __init__(self, n):
            self.tok: Tok = get_tok(n)

        def run(self, x):
            return x + self.tok.eot


    def decode(x):
        return Task(3).run(x)
    """)

ATTRIBUTE_FROM_PARAMETER = package("""
    from pkg.tok import Tok, get_tok


    class Task:
        def __init__(self, tok: Tok):
            self.tok = tok

        def run(self, x):
            return x + self.tok.eot


    def decode(x):
        return Task(get_tok(3)).run(x)
    """)

SHAPES = {"forward reference": FORWARD_REFERENCE, "annotated attribute": ANNOTATED_ATTRIBUTE,
          "attribute from a parameter": ATTRIBUTE_FROM_PARAMETER}
PRINT_ROW = 7  # `print("eot")` in pkg/tok.py


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_property_read_on_a_typed_object_is_traced(tmp_path, shape):
    assert_breaks_at(tmp_path, SHAPES[shape], "pkg/tok.py", PRINT_ROW, "BL201")


UNTYPED_RECEIVER = {
    "pkg/__init__.py": "",
    "pkg/interp.py": """
        import torch


        class Linear:
            def __init__(self, t):
                self._t = t

            @property
            def interval(self):
                print("interval")
                return torch.stack([self._t[0], self._t[-1]])
        """,
    "pkg/misc.py": """
        class Pair:
            def __init__(self, *controls):
                first = controls[0]
                self._interval = first.interval
        """,
    "entry.py": """
        import torch
        from pkg.interp import Linear
        from pkg.misc import Pair


        class M(torch.nn.Module):
            def forward(self, x):
                return Pair(Linear(x), Linear(x))._interval
        """,
}


def test_a_property_read_on_an_untyped_object_goes_by_its_name(tmp_path):
    # `first.interval`, `first = controls[0]`: no class is known for the element; one class of the package has the property
    assert_breaks_at(tmp_path, UNTYPED_RECEIVER, "pkg/interp.py", 10, "BL201")


ANNOTATED_CALLABLE = {
    "pkg/__init__.py": "",
    "pkg/net.py": """
        from typing import Callable


        class Block:
            def __init__(self):
                self.act: Callable = self._make()

            def _make(self):
                def inner(x):
                    print("inner")
                    return x
                return inner

            def run(self, x):
                return self.act(x)
        """,
    "entry.py": """
        import torch
        from pkg.net import Block


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block.run(x)
        """,
}


def test_a_closure_kept_on_an_annotated_attribute_is_called(tmp_path):
    # `self.act: Callable = self._make()`: only plain assignments were followed to the closure
    assert_breaks_at(tmp_path, ANNOTATED_CALLABLE, "pkg/net.py", 10, "BL201")


BOUND_METHODS = {
    "pkg/__init__.py": "",
    "pkg/m.py": """
        import torch


        class Miner(torch.nn.Module):
            def __init__(self, inverted=False):
                super().__init__()
                self.inverted = inverted

            def forward(self, x):
                fn = self.pick(x)
                return fn(x)

            def pick(self, x):
                chosen = self.low if self.inverted else self.high
                return chosen

            def low(self, x):
                print("low")
                return x.min()

            def high(self, x):
                print("high")
                return x.max()


        class Partial(torch.nn.Module):
            def __init__(self, mode="cat"):
                super().__init__()
                if mode == "cat":
                    self.forward = self.forward_cat
                else:
                    self.forward = self.forward_slice

            def forward_cat(self, x):
                print("cat")
                return torch.cat([x, x])

            def forward_slice(self, x):
                return x[:2]
        """,
    "entry.py": """
        import torch
        from pkg.m import Miner, Partial


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.miner = Miner()
                self.part = Partial()

            def forward(self, x):
                return self.miner(x) + self.part(x).sum()
        """,
}


def test_bound_methods_a_method_returns_or_init_binds_to_forward(tmp_path):
    # `fn = self.pick(x); fn(x)` with pick returning `self.low if ... else self.high` (pytorch-metric-learning's
    # get_mine_function); `self.forward = self.forward_cat` in __init__ (timm's Partial_conv3)
    static = {(p, r) for p, r, c in check_tree(tmp_path / "static", BOUND_METHODS) if c == "BL201"}
    assert {("pkg/m.py", 22), ("pkg/m.py", 35)} <= static
    assert ("pkg/m.py", 18) in static  # `self.low`: the other branch, which this input does not take
    pytest.importorskip("torch")
    assert {("pkg/m.py", 22), ("pkg/m.py", 35)} <= dynamo_package_rows(tmp_path / "dynamo", BOUND_METHODS)


TRY_BODY = {
    "pkg/__init__.py": "",
    "pkg/m.py": """
        import torch


        def body(x):
            try:
                print("a")
                y = x * 2
            except ValueError:
                y = x
            print("b")
            return y + 1


        def final(x):
            try:
                y = x * 2
            finally:
                print("fin")
            print("after")
            return y
        """,
    "entry.py": """
        import torch
        from pkg.m import body, final


        class M(torch.nn.Module):
            def forward(self, x):
                return body(x) + final(x)
        """,
}


def test_nothing_after_a_break_in_a_try_body(tmp_path):
    # a break in a `try` body skips the frame ("Failed to handle graph break gracefully"); one in `finally` does not
    static = {(p, r) for p, r, c in check_tree(tmp_path / "static", TRY_BODY) if c == "BL201"}
    assert static == {("pkg/m.py", 6), ("pkg/m.py", 18), ("pkg/m.py", 19)}
    pytest.importorskip("torch")
    rows = dynamo_package_rows(tmp_path / "dynamo", TRY_BODY)
    assert {("pkg/m.py", 6), ("pkg/m.py", 18), ("pkg/m.py", 19)} <= rows and ("pkg/m.py", 10) not in rows
