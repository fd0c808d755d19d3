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
"""
import pytest

from .helpers import check_tree, dynamo_package_rows

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
    files = SHAPES[shape]
    assert ("pkg/tok.py", PRINT_ROW, "BL201") in check_tree(tmp_path / "static", files)
    pytest.importorskip("torch")
    assert ("pkg/tok.py", PRINT_ROW) in dynamo_package_rows(tmp_path / "dynamo", files)


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
    assert ("pkg/interp.py", 10, "BL201") in check_tree(tmp_path / "static", UNTYPED_RECEIVER)
    pytest.importorskip("torch")
    assert ("pkg/interp.py", 10) in dynamo_package_rows(tmp_path / "dynamo", UNTYPED_RECEIVER)
