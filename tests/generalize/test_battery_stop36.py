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
- The review of stop 36: a read on a torch module's attribute or a buffer (`self.lin.in_features`), a module's
  constant (`consts.scale`), what a torch call returned (`torch.finfo(t).eps`), a `Literal` string, a
  `self.forward` bound outside `__init__` or to a property brought unrelated properties or methods into scope;
  a `self.forward` bound through `a if c else b` or to a base class's method did not.
"""
import textwrap

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


def _case(files: dict) -> dict:
    """A reviewed case: its package, and an entry.py that imports M from pkg.model."""
    return {"entry.py": "from pkg.model import M\n", "pkg/__init__.py": "", **files}


# The review of stop 36 (each run through breaklint and Dynamo 2.13): reads and bindings that must not
# bring a function into scope, and two bindings that must.
REVIEWED = {
    "a torch module's attribute and a buffer's device": _case({
        'pkg/model.py': """
            import torch
            from . import other


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = torch.nn.Linear(4, 4)
                    self.register_buffer("buf", torch.ones(4))

                def forward(self, x):
                    n = self.lin.in_features
                    d = self.buf.device
                    return self.lin(x) * n + self.buf.to(d)
            """,
        'pkg/other.py': """
            class Spec:
                def __init__(self, n):
                    self.n = n

                @property
                def in_features(self):
                    print("Spec.in_features ran")
                    return self.n

                @property
                def device(self):
                    print("Spec.device ran")
                    return "cpu"
            """,
    }),
    "a module's constant": _case({
        'pkg/consts.py': """
            scale = 2.0
            """,
        'pkg/model.py': """
            import math
            import torch
            from . import consts


            class M(torch.nn.Module):
                def forward(self, x):
                    return x * consts.scale * math.pi
            """,
        'pkg/other.py': """
            class Sched:
                @property
                def scale(self):
                    print("Sched.scale ran")
                    return 1.0

                @property
                def pi(self):
                    print("Sched.pi ran")
                    return 3.0
            """,
    }),
    'what a torch call returned': _case({
        'pkg/model.py': """
            import torch


            class M(torch.nn.Module):
                def forward(self, x):
                    info = torch.finfo(x.dtype)
                    return x / (x.abs().max() + info.eps)
            """,
        'pkg/norm.py': """
            class AdaptiveEps:
                def __init__(self, base):
                    self.base = base

                @property
                def eps(self):
                    print("AdaptiveEps.eps ran")
                    return self.base
            """,
    }),
    'a Literal string': _case({
        'pkg/model.py': """
            from typing import Literal
            import torch
            from .norms import Norm  # noqa (used elsewhere)


            def scale_for(x, kind: Literal["Norm", "none"] = "Norm"):
                if kind.upper() == "NORM":
                    return x * 2
                return x


            class M(torch.nn.Module):
                def forward(self, x):
                    return scale_for(x, "Norm")
            """,
        'pkg/norms.py': """
            class Norm:
                def upper(self):
                    print("Norm.upper ran")
                    return "NORM"
            """,
    }),
    'forward bound outside __init__': _case({
        'pkg/model.py': """
            import torch


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = torch.nn.Linear(4, 4)

                def forward(self, x):
                    return self.lin(x)

                def forward_export(self, x):
                    print("forward_export ran")
                    return self.lin(x)

                def switch_to_export(self):
                    self.forward = self.forward_export
            """,
    }),
    'forward bound to a property': _case({
        'pkg/model.py': """
            import torch


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.forward = self.impl

                @property
                def impl(self):
                    print("impl getter ran")
                    return self._impl_a

                def _impl_a(self, x):
                    return x + 1
            """,
    }),
    'forward bound through a conditional expression': _case({
        'pkg/model.py': """
            import torch


            class M(torch.nn.Module):
                def __init__(self, split=True):
                    super().__init__()
                    self.lin = torch.nn.Linear(4, 4)
                    self.forward = self.forward_split if split else self.forward_slice

                def forward_split(self, x):
                    print("forward_split ran")
                    return self.lin(x)

                def forward_slice(self, x):
                    print("forward_slice ran")
                    return self.lin(x)
            """,
    }),
    "forward bound to a base class's method": _case({
        'pkg/model.py': """
            import torch


            class Base(torch.nn.Module):
                def forward_fast(self, x):
                    print("Base.forward_fast ran")
                    return x + 1

                def forward(self, x):
                    return x


            class M(Base):
                def __init__(self):
                    super().__init__()
                    self.forward = self.forward_fast
            """,
    }),
}

NOT_TRACED = ("a torch module's attribute and a buffer's device", "a module's constant", "what a torch call returned",
              "a Literal string", "forward bound outside __init__", "forward bound to a property")


def _print_rows(files: dict) -> set:
    return {(path, row) for path, text in files.items()
            for row, line in enumerate(textwrap.dedent(text).lstrip().splitlines(), start=1) if "print(" in line}


@pytest.mark.parametrize("case", NOT_TRACED)
def test_reviewed_reads_and_bindings_bring_nothing_into_scope(tmp_path, case):
    files = REVIEWED[case]
    assert not {(p, r) for p, r, c in check_tree(tmp_path / "static", files) if c == "BL201"}
    pytest.importorskip("torch")
    assert not _print_rows(files) & dynamo_package_rows(tmp_path / "dynamo", files)


@pytest.mark.parametrize("case", ["forward bound through a conditional expression", "forward bound to a base class's method"])
def test_reviewed_forward_bindings_are_followed(tmp_path, case):
    files = REVIEWED[case]
    static = {(p, r) for p, r, c in check_tree(tmp_path / "static", files) if c == "BL201"}
    pytest.importorskip("torch")
    breaks = _print_rows(files) & dynamo_package_rows(tmp_path / "dynamo", files)
    assert breaks and breaks <= static
