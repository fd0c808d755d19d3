"""Mends of stop 38, each shape run through Dynamo 2.13 (CPU, eager backend) in the test itself.

- A property read, an item access or a method call on an object just made (`Dist(x).scale`, `Seq(xs)[0]`)
  runs the class's getter, __getitem__ or method; the same through a local (`d = Dist(x); d.scale`) was
  followed already. A classmethod's `cls(...)` runs the class's __init__.
- A function Dynamo never compiles as a frame of its own runs eagerly whole once it breaks: the caller
  breaks at the call and the function is run by Python. Nothing after its first break is traced. So it is
  for torch's own tree (on Dynamo's skip list: torch.distributions' `Binomial.entropy`, whose
  `int(self.total_count.max())` breaks and whose next `if` on a tensor never reaches Dynamo), and for a
  method of a plain class taking only `self` whose code names no torch module ("no tensor-related objects
  found in frame"). A break in an `except` handler runs the rest of that handler eagerly, no more (the
  walk took it for the rest of the block holding the `try`: torch.distributions' `Distribution.__init__`).
"""
import os

import pytest

from breaklint.lint.config import Settings
from breaklint.lint.runner import check_paths

from .helpers import assert_breaks_at, check_tree, dynamo_package_rows, dynamo_rows, entry_calling, write_tree


JUST_MADE = {
    "pkg/__init__.py": "",
    "pkg/objects.py": """
        import functools

        import torch


        class lazy_property:
            def __init__(self, wrapped):
                self.wrapped = wrapped
                functools.update_wrapper(self, wrapped)

            def __get__(self, instance, owner=None):
                if instance is None:
                    return self
                value = self.wrapped(instance)
                setattr(instance, self.wrapped.__name__, value)
                return value


        class Dist:
            def __init__(self, loc):
                self.loc = loc

            @lazy_property
            def scale(self):
                return self.loc * self.loc.abs().sum().item()


        class Seq:
            def __init__(self, t):
                self.t = t

            def __getitem__(self, i):
                return self.t[i] * self.t.amax().item()


        class Factory:
            def __init__(self, t):
                self.t = t * t.sum().item()

            @classmethod
            def create(cls, t):
                return cls(t)


        class Peak:
            def __new__(cls, t):
                made = super().__new__(cls)
                made.v = t * t.max().item()
                return made


        class Maker:
            @classmethod
            def build(cls, t):
                return Peak(t).v                # not `cls(...)`: Peak's constructor
        """,
    "pkg/ops.py": """
        from .objects import Dist, Factory, Maker, Seq


        def scale(x):
            return Dist(x).scale


        def first(x):
            return Seq(x)[0]


        def made(x):
            return Factory.create(x).t


        def built(x):
            return Maker.build(x)
        """,
}


@pytest.mark.parametrize("function, row", [("scale", 25), ("first", 33), ("made", 38), ("built", 48)])
def test_reads_on_an_object_just_made_are_traced(tmp_path, function, row):
    files = dict(JUST_MADE, **{"entry.py": entry_calling("ops", function)})
    assert_breaks_at(tmp_path, files, "pkg/objects.py", row, "BL103")


TENSORLESS = {
    "pkg/__init__.py": "",
    "pkg/holder.py": """
        import torch


        class Holder:
            def __init__(self, t):
                self.t = t * 1.0

            def plain(self):
                n = int(self.t.max())
                if not self.t.min() == n:           # runs eagerly: Dynamo skips this frame
                    raise ValueError("uneven")
                return self.t + n

            def with_torch(self):
                n = int(self.t.max())
                if not self.t.min() == n:           # `torch` below: the frame is compiled, this breaks
                    raise ValueError("uneven")
                return torch.relu(self.t) + n

            def with_tensor(self, t):
                n = int((t * 0).max())
                if not (t * 0).min() == n:          # a tensor argument: the frame is compiled
                    raise ValueError("uneven")
                return t + n


        HOLDER = Holder(torch.ones(4))


        def run(x):
            return HOLDER.plain() + HOLDER.with_torch() + HOLDER.with_tensor(x)
        """,
    "entry.py": entry_calling("holder", "run"),
}


def test_a_frame_without_tensors_runs_eagerly_after_its_first_break(tmp_path):
    rows = {(p, r) for p, r, c in check_tree(tmp_path / "static", TENSORLESS) if p == "pkg/holder.py"}
    assert rows == {("pkg/holder.py", 9), ("pkg/holder.py", 15), ("pkg/holder.py", 16),
                    ("pkg/holder.py", 21), ("pkg/holder.py", 22)}
    pytest.importorskip("torch")
    assert dynamo_package_rows(tmp_path / "dynamo", TENSORLESS) == rows


INSIDE_TORCH = {
    # a tree whose top package is named torch, as torch/distributions is: Dynamo inlines its functions and
    # never compiles them as frames of their own
    "torch/__init__.py": "",
    "torch/dist/__init__.py": "",
    "torch/dist/binomial.py": """
        import warnings

        import torch
        from torch import nn


        class Binomial(nn.Module):
            def forward(self, total_count):
                try:
                    scale = self.scale
                except AttributeError:
                    warnings.warn("no scale")        # when it raises: the rest of the handler runs eagerly
                    scale = 1
                n = int(total_count.max())
                if not total_count.min() == n:       # never traced: the function ran eagerly from the break
                    raise NotImplementedError("inhomogeneous")
                return total_count * n * scale
        """,
}


def test_torchs_own_tree_runs_eagerly_after_a_break(tmp_path):
    write_tree(tmp_path, INSIDE_TORCH)
    result = check_paths([str(tmp_path / "torch" / "dist")], Settings(), jobs=1, use_cache=False)
    assert {(os.path.basename(str(f.path)), f.row) for f in result.findings} == {("binomial.py", 12),
                                                                                   ("binomial.py", 14)}
    # the same file outside torch's tree: the frame resumes after the break, and the `if` breaks too
    outside = {"pkg/__init__.py": "", "pkg/binomial.py": INSIDE_TORCH["torch/dist/binomial.py"]}
    assert {(p, r) for p, r, c in check_tree(tmp_path / "pkg", outside)} == {
        ("pkg/binomial.py", 12), ("pkg/binomial.py", 14), ("pkg/binomial.py", 15)}


TENSOR_SEQUENCES = {
    "pkg/__init__.py": "",
    "pkg/util.py": """
        def listify(x):
            return [x.sum(), x.mean()]
        """,
    "pkg/ops.py": """
        from .util import listify


        def element_of_returned_list(x):
            vals = listify(x)
            if vals[0] > 0:                     # a list of tensors, from another file
                return x
            return -x


        def element_of_comprehension(x):
            ys = [t * 2 for t in x.unbind(0)]
            if ys[0] > 0:
                return x
            return -x


        def builtin_max(x):
            t = max(x.sum(), x.mean())          # one of two tensors
            if t > 0:
                return x
            return -x


        def max_with_a_number(x):
            t = max(x.sum(), 0.0)               # traced to a tensor too
            if t > 0:
                return x
            return -x
        """,
}


@pytest.mark.parametrize("function, row", [("element_of_returned_list", 6), ("element_of_comprehension", 13),
                                           ("builtin_max", 20), ("max_with_a_number", 27)])
def test_elements_of_sequences_of_tensors_are_tensors(tmp_path, function, row):
    files = dict(TENSOR_SEQUENCES, **{"entry.py": entry_calling("ops", function)})
    assert_breaks_at(tmp_path, files, "pkg/ops.py", row, "BL101")


def test_a_list_of_numbers_is_no_tensor(tmp_path):
    files = dict(TENSOR_SEQUENCES, **{"entry.py": entry_calling("ops", "element_of_returned_list")})
    files["pkg/util.py"] = """
        def listify(x):
            return [x.shape[0], 2]
        """
    assert not check_tree(tmp_path, files)


MEMBERS = {
    "pkg/__init__.py": "",
    "pkg/holder.py": """
        class Holder:
            def __init__(self, t):
                self.t = t

            def value(self):
                return self.t.sum()

            @property
            def total(self):
                return self.t.sum()

            def count(self):
                return self.t.shape[0]
        """,
    "pkg/ops.py": """
        from .holder import Holder
        from .sub import Sub


        def by_method(x):
            h = Holder(x)
            if h.value() > 0:                   # Holder.value returns a tensor
                return x
            return -x


        def by_property(x):
            h = Holder(x)
            if h.total > 0:
                return x
            return -x


        def by_number(x):
            h = Holder(x)
            if h.count() > 2:                   # a number: no break
                return x
            return -x


        class Wrap:
            def __init__(self, x):
                self.h = Holder(x)

            def check(self, x):
                if self.h.value() > 0:          # what self.h holds: a Holder
                    return x
                return -x


        def by_attribute(x):
            return Wrap(x).check(x)


        def inherited(x):
            h = Sub(x)
            if h.value() > 0:                   # Sub inherits value from Holder, of another file
                return x
            return -x
        """,
    "pkg/sub.py": """
        from .holder import Holder


        class Sub(Holder):
            pass
        """,
}


@pytest.mark.parametrize("function, row", [("by_method", 7), ("by_property", 14), ("by_attribute", 31), ("inherited", 42)])
def test_a_method_or_property_of_another_files_class_returning_a_tensor(tmp_path, function, row):
    files = dict(MEMBERS, **{"entry.py": entry_calling("ops", function)})
    assert_breaks_at(tmp_path, files, "pkg/ops.py", row, "BL101")


def test_a_method_returning_a_number_is_no_tensor(tmp_path):
    files = dict(MEMBERS, **{"entry.py": entry_calling("ops", "by_number")})
    assert not {f for f in check_tree(tmp_path, files) if f[0] == "pkg/ops.py"}


# Shapes of the review of stop 38 (a helper ran each through Dynamo 2.13), as packages to write.
_REVIEW_SHAPES = {
    # a staticmethod's first parameter named cls is no class of its own: Box.__init__ never runs
    "static_cls_param": {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            class Box:
                def __init__(self, x):
                    print("box")
                    self.x = x

                @staticmethod
                def build(cls, x):
                    return cls(x)


            class Other:
                def __init__(self, x):
                    print("other")
                    self.x = x
            """,
        "entry.py": """
            import torch
            from pkg.a import Box, Other


            class M(torch.nn.Module):
                def forward(self, x):
                    b = Box.build(Other, x)
                    return b.x + 1
            """,
    },
    # a base of another file (a module): the frame holds a module, Dynamo compiles it and resumes
    "module_base_in_another_file": {
        "pkg/__init__.py": "",
        "pkg/b.py": """
            import torch


            class Base(torch.nn.Module):
                k = 3
            """,
        "pkg/a.py": """
            from pkg.b import Base


            class Foo(Base):
                def run(self):
                    print("a")
                    k = self.k
                    print("b")
                    return k
            """,
        "entry.py": """
            import torch
            from pkg.a import Foo


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.foo = Foo()

                def forward(self, x):
                    k = self.foo.run()
                    return x + k
            """,
    },
    # `self.nn`: an attribute name is a name of the code too, and `nn` is torch's module here
    "attribute_named_nn": {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            from torch import nn


            class Foo:
                def __init__(self, x):
                    self.x = x
                    self.nn = 2

                def run(self):
                    print("a")
                    y = self.x * self.nn
                    print("b")
                    return y
            """,
        "entry.py": """
            import torch
            from pkg.a import Foo


            class M(torch.nn.Module):
                def forward(self, x):
                    h = Foo(x)
                    y = h.run()
                    return y + 1
            """,
    },
    # an item stored into the list: its first binding no longer tells its elements
    "list_mutated": {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            def split2(x):
                a = x.sum()
                return [a, a * 2]
            """,
        "entry.py": """
            import torch
            from pkg.a import split2


            class M(torch.nn.Module):
                def forward(self, x):
                    ys = split2(x)
                    ys[0] = 1.0
                    if ys[0] > 0:
                        return x + 1
                    return x - 1
            """,
    },
    # a function of the tree named max: no builtin
    "max_shadowed": {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            def max(a, b):
                return 0.5
            """,
        "entry.py": """
            import torch
            from pkg.a import max


            class M(torch.nn.Module):
                def forward(self, x):
                    m = max(x.sum(), x.mean())
                    if m > 0:
                        return x + 1
                    return x - 1
            """,
    },
}


def test_a_staticmethods_cls_parameter_is_no_constructor_of_its_class(tmp_path):
    files = _REVIEW_SHAPES["static_cls_param"]
    assert ("pkg/a.py", 3) not in {(p, r) for p, r, c in check_tree(tmp_path / "static", files)}
    pytest.importorskip("torch")
    assert ("pkg/a.py", 3) not in dynamo_rows(tmp_path / "dynamo", files)  # (Other's print, row 13, breaks)


@pytest.mark.parametrize("name", sorted(set(_REVIEW_SHAPES) - {"static_cls_param"}))
def test_the_reviews_shapes_agree_with_dynamo(tmp_path, name):
    files = _REVIEW_SHAPES[name]
    rows = {(p, r) for p, r, c in check_tree(tmp_path / "static", files)}
    pytest.importorskip("torch")
    assert rows == {(p, r) for p, r in dynamo_rows(tmp_path / "dynamo", files)}
