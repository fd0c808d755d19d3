"""Mends of stop 41, each shape run through Dynamo (CPU, eager backend) in the test itself.

Found by a battery of about 200 one-line shapes of the break kinds Dynamo names (builtins on tensors, C
classes, storages, class statements, super(), context managers, id/hash, next(), setattr), written from
Dynamo's own list of graph-break types, not from any library's code. What broke and breaklint missed:
- the builtin pow() with a tensor operand: GB0059 on 2.13, traced on 2.14 (`a ** b` is the same call, the fix);
- C classes and builtins Dynamo cannot construct: `types.SimpleNamespace(...)`, `array.array(...)` (GB0147),
  `bytearray(...)`, `memoryview(...)` (GB0059), and `object()` on 2.13 (2.14 traces it);
- `x.untyped_storage().nbytes()` / `.element_size()` / `.data_ptr()` (GB0156; `.size()` is traced);
- a class statement inside a traced function, a dataclass too (GB8977 "Invalid call to __build_class__").
"""
import textwrap

import pytest

from .helpers import codes_by_row, dynamo_break_rows


def _module(body: str, prelude: str = "") -> str:
    """A module `M` whose forward runs `body` on x = randn(4, 4) (row 8 is the body's first line)."""
    return textwrap.dedent(f"""\
        import array
        import types

        import torch
        from torch import nn
        class M(nn.Module):
            def forward(self, x):
        """) + textwrap.indent(textwrap.dedent(body), " " * 8) + prelude


def _torch_before_214() -> bool:
    import torch

    return tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2]) < (2, 14)


BREAKING = {
    "simple namespace": ("ns = types.SimpleNamespace(a=x)\nreturn ns.a + 1\n", 8),
    "array": ("a = array.array('f', [1.0])\nreturn x + 1\n", 8),
    "bytearray": ("b = bytearray(4)\nreturn x + 1\n", 8),
    "memoryview": ("m = memoryview(b'ab')\nreturn x + 1\n", 8),
    "storage nbytes": ("return x + x.untyped_storage().nbytes()\n", 8),
    "storage element_size": ("return x + x.untyped_storage().element_size()\n", 8),
    "local class": ("class E:\n    pass\nreturn x + 1\n", 8),
    "regex groupdict": ("import re\nparts = re.match(r'(?P<a>\\d+)', '213').groupdict()\nreturn x + 1\n", 9),
    "local dataclass": ("from dataclasses import dataclass\n@dataclass\nclass E:\n    a: int\nreturn x + E(1).a\n", 10),
}
BREAKING_BEFORE_214 = {
    "pow": ("return pow(x, 2)\n", 8),
    "pow of a number to a tensor": ("return pow(2.0, x)\n", 8),
    "pow of a reduction": ("return x * pow(x.sum(), 0.5)\n", 8),
    "object": ("sentinel = object()\nreturn x + 1\n", 8),
}
TRACED = {
    "storage size": "return x + x.untyped_storage().size()\n",
    "pow of numbers": "return x * pow(x.shape[0], 2)\n",
    "local pow": "pow = torch.pow\nreturn pow(x, 2)\n",
    "three-argument pow of ints": "return x * pow(3, 2, 5)\n",
}


@pytest.mark.parametrize("name", sorted(BREAKING))
def test_bl502_where_dynamo_breaks(tmp_path, name):
    body, row = BREAKING[name]
    source = _module(body)
    assert (row, "BL502") in codes_by_row(source)
    pytest.importorskip("torch")
    assert row in dynamo_break_rows(source, ["M"], tmp_path)


@pytest.mark.parametrize("name", sorted(BREAKING_BEFORE_214))
def test_bl502_before_torch_2_14(tmp_path, name):
    """Reported for the target torch breaklint was generated for (2.13); 2.14 traces these."""
    body, row = BREAKING_BEFORE_214[name]
    source = _module(body)
    assert (row, "BL502") in codes_by_row(source)
    pytest.importorskip("torch")
    assert (row in dynamo_break_rows(source, ["M"], tmp_path)) == _torch_before_214()


@pytest.mark.parametrize("name", sorted(TRACED))
def test_no_finding_where_dynamo_traces(tmp_path, name):
    source = _module(TRACED[name])
    assert not {code for _, code in codes_by_row(source) if code == "BL502"}
    pytest.importorskip("torch")
    assert not dynamo_break_rows(source, ["M"], tmp_path)


def test_a_module_level_class_and_its_use_are_not_reported():
    source = _module("return x + E(1).a\n", prelude="\n\nclass E:\n    def __init__(self, a):\n        self.a = a\n")
    assert not codes_by_row(source)


def test_pow_fix_writes_the_power_operator(tmp_path):
    from breaklint.lint.config import Settings
    from breaklint.lint.runner import check_paths, fix_paths

    path = tmp_path / "net.py"
    path.write_text(_module("a = pow(x, 2)\nb = pow(-x, 3)\nc = pow(x.sum(), -1)\nd = pow(x + 1, 0.5)\n"
                           "e = pow(x, 2).sum() + pow(x, 2)[0] + pow(x, 2) ** 3 - pow(x, 2)\n"
                           "return a + b + c + d + e\n"))
    settings = Settings()
    fix_paths(check_paths([str(path)], settings, jobs=1, use_cache=False), settings, unsafe=False, write=True)
    text = path.read_text()
    assert "a = x ** 2\n" in text and "b = (-x) ** 3\n" in text and "c = x.sum() ** -1\n" in text \
        and "d = (x + 1) ** 0.5\n" in text and "e = (x ** 2).sum() + (x ** 2)[0] + (x ** 2) ** 3 - x ** 2\n" in text
    assert "pow(" not in text


PLAIN_CLASS = """
import torch
from torch import nn


class Key:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return super().__eq__(other)

    def __hash__(self):
        return super().__hash__()

    def __repr__(self):
        return "Key" + super().__repr__()


class M(nn.Module):
    def forward(self, x):
        a, b = Key(1), Key(2)
        USE
        return x + 1
"""
SUPER_USES = {"a == b": 11, "hash(a)": 14, "repr(a)": 17}


@pytest.mark.parametrize("use", sorted(SUPER_USES))
def test_object_slot_through_super_is_reported_where_traced_code_runs_it(tmp_path, use):
    """`a == b`, hash(a) and repr(a) run the class's Python method (in scope since stop 41 for hash, repr
    and str too), whose super() call is object's C slot: Dynamo breaks on that line."""
    source = PLAIN_CLASS.replace("USE", f"flag = {use}")
    row = SUPER_USES[use]
    assert (row, "BL502") in codes_by_row(source)
    pytest.importorskip("torch")
    assert row in dynamo_break_rows(source, ["M"], tmp_path)


def test_a_base_of_the_file_defining_the_method_is_not_object_slot():
    source = PLAIN_CLASS.replace("class Key:", "class Base:\n    def __eq__(self, other):\n        return True\n\n\n"
                                 "class Key(Base):").replace("USE", "flag = a == b")
    assert not [code for _, code in codes_by_row(source) if code == "BL502"]


def test_an_imported_base_is_not_known_to_be_object():
    source = PLAIN_CLASS.replace("class Key:", "from collections import UserDict\n\n\nclass Key(UserDict):") \
        .replace("USE", "flag = a == b")
    assert not [code for _, code in codes_by_row(source) if code == "BL502"]


def test_super_init_and_setattr_are_traced(tmp_path):
    source = """
import torch
from torch import nn


class Rec:
    def __init__(self, v):
        super().__init__()
        self.v = v

    def __setattr__(self, name, value):
        super().__setattr__(name, value)


class M(nn.Module):
    def forward(self, x):
        r = Rec(x)
        return r.v + 1
"""
    assert not [code for _, code in codes_by_row(source) if code == "BL502"]
    pytest.importorskip("torch")
    assert not dynamo_break_rows(source, ["M"], tmp_path)


# The second round, from the first contact with POT and piq (dev split): each shape is general, none is their code.

NUMPY = """
import numpy as np
import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        a = x.numpy()
        BODY
        return x + 1
"""
NUMPY_BREAKING = {
    "np.any of an array made from a tensor, branched on": ("if np.any(a > 0):\n            x = x * 2", 10, "BL101"),
    "np.allclose": ("same = np.allclose(a, a.T)", 10, "BL106"),
    "np.array_equal of constants": ("same = np.array_equal([1], [1])", 10, "BL106"),
    "a numpy function torch._numpy lacks": ("k = np.poly1d([0.5, 0.5]) ** 2", 10, "BL502"),
    "np.nanmean": ("m = np.nanmean(a)", 10, "BL502"),
    "numpy.testing": ("np.testing.assert_allclose(a, a)", 10, "BL502"),
    "numpy.polynomial": ("v = np.polynomial.polynomial.polyval(2.0, [1.0, 2.0])", 10, "BL502"),
    "np.asarray with order=": ("m = np.asarray(a, dtype=np.float64, order='C')", 10, "BL502"),
}
NUMPY_TRACED = {
    "np.isclose, a function torch._numpy has": "c = np.isclose(a, a)",
    "np.concat, an alias of concatenate": "c = np.concat([a, a])",
    "np.sum of an array, not branched on": "s = np.sum(a)",
    "np.asarray with order='K'": "m = np.asarray(a, order='K')",
    "np.zeros with order=": "z = np.zeros((2, 2), order='C')",
}


@pytest.mark.parametrize("name", sorted(NUMPY_BREAKING))
def test_numpy_in_traced_code_that_breaks(tmp_path, name):
    body, row, code = NUMPY_BREAKING[name]
    source = NUMPY.replace("BODY", body)
    assert (row, code) in codes_by_row(source)
    pytest.importorskip("torch")
    pytest.importorskip("numpy")
    assert row in dynamo_break_rows(source, ["M"], tmp_path) or code == "BL101"  # BL101: reported in a polyfill
    assert dynamo_break_rows(source, ["M"], tmp_path) or code != "BL101"


@pytest.mark.parametrize("name", sorted(NUMPY_TRACED))
def test_numpy_in_traced_code_that_is_traced(tmp_path, name):
    source = NUMPY.replace("BODY", NUMPY_TRACED[name])
    assert not codes_by_row(source)
    pytest.importorskip("torch")
    pytest.importorskip("numpy")
    assert not dynamo_break_rows(source, ["M"], tmp_path)


ALLCLOSE = {"torch.allclose(x, x.T)": 8, "x.allclose(x * 1.0)": 8}


@pytest.mark.parametrize("call", sorted(ALLCLOSE))
def test_allclose_reads_a_bool_of_the_data(tmp_path, call):
    source = _module(f"if {call}:\n    return x\nreturn x + 1\n")
    assert (8, "BL106") in codes_by_row(source)
    pytest.importorskip("torch")
    assert 8 in dynamo_break_rows(source, ["M"], tmp_path)


def test_lists_of_tensors_compared_through_names(tmp_path):
    source = _module("a = [x.sum(), x.mean()]\nb = [x.mean(), x.sum()]\nif a == b:\n    return x\nreturn x + 1\n")
    assert (10, "BL106") in codes_by_row(source)
    pytest.importorskip("torch")
    assert 10 in dynamo_break_rows(source, ["M"], tmp_path)


BACKEND = {
    "pkg/__init__.py": "",
    "pkg/backend.py": """
        import torch


        class TorchBackend:
            def argsort(self, a, axis=-1):
                return torch.argsort(a, dim=axis)

            def take_along_axis(self, a, idx, axis):
                return torch.gather(a, axis, idx)

            def repeat(self, a, repeats, axis=None):
                return torch.repeat_interleave(a, repeats, dim=axis)
        """,
    "pkg/solver.py": """
        from pkg.backend import TorchBackend


        def sorted_weights(values, weights, backend_name):
            nx = make_backend(backend_name)
            order = nx.argsort(values, 0)
            weights = nx.repeat(weights[..., None], values.shape[-1], -1)
            return nx.take_along_axis(weights, order, 0)


        def make_backend(name):
            return {"torch": TorchBackend}[name]()
        """,
}


def test_an_object_with_a_numpy_like_api_is_no_tensor(tmp_path):
    """`nx.argsort(values, 0)` is evidence of a tensor only where every method called on nx is a tensor's:
    `nx.take_along_axis` is none, so `nx.repeat(w[..., None], n, -1)` is no Tensor.repeat with a tensor size."""
    from .helpers import check_tree

    entry = """
        import torch
        from pkg.solver import sorted_weights


        class M(torch.nn.Module):
            def forward(self, x):
                return sorted_weights(x, x, "torch")
        """
    found = check_tree(tmp_path, {**BACKEND, "entry.py": entry})
    assert not [f for f in found if f[0] == "pkg/solver.py"]


def _compiled_package(root) -> None:
    pkg = root / "pkg"
    (pkg / "lp").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "lp" / "__init__.py").write_text("")
    (pkg / "lp" / "emd_wrap.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (pkg / "lp" / "helpers.py").write_text("def check(code):\n    return code\n")
    (pkg / "lp" / "solver.py").write_text(textwrap.dedent("""\
        import torch
        from torch import nn

        from .emd_wrap import emd_c
        from pkg.lp.emd_wrap import check_result
        from .helpers import check


        class Solver(nn.Module):
            def forward(self, a, b, m):
                g, cost = emd_c(a, b, m)
                code = check_result(0)
                return g, check(code)
        """))


def test_a_function_of_a_compiled_extension_module_of_the_package(tmp_path):
    """`from .emd_wrap import emd_c` where pkg/lp has emd_wrap*.so and no emd_wrap.py: Dynamo cannot trace it
    (measured on 2.13 through POT's emd_wrap: "Unsupported method call"); a .py helper beside it is traced."""
    from breaklint.lint.config import Settings
    from breaklint.lint.runner import check_paths

    _compiled_package(tmp_path)
    result = check_paths([str(tmp_path / "pkg")], Settings(), jobs=1, use_cache=False)
    rows = {(f.row, f.code) for f in result.findings if f.path.endswith("solver.py")}
    assert rows == {(11, "BL502"), (12, "BL502")}
    message = next(f.message for f in result.findings if f.row == 11)
    assert "pkg.lp.emd_wrap" in message


def test_isinstance_tests_joined_by_or_narrow_to_no_tensor():
    """`if isinstance(a, int) or isinstance(a, float): a = torch.tensor([float(a)])` (POT's backend): float()
    of a number, not of a tensor."""
    source = _module("if isinstance(x, int) or isinstance(x, float):\n    x = torch.tensor([float(x)])\nreturn x + 1\n")
    assert not codes_by_row(source)
    source = _module("if isinstance(x, int) or x.sum() > 0:\n    x = torch.tensor([float(x)])\nreturn x + 1\n")
    assert (9, "BL103") in codes_by_row(source)


def test_an_array_namespace_applied_to_a_tensor_gives_a_tensor(tmp_path):
    """`err = nx.max(...)` with nx an object of unknown class (a backend) and a tensor argument: `if err < tol`
    branches on a tensor (POT's solvers)."""
    source = _module("nx = get_backend(x)\nerr = nx.max(x - 1)\nif err < 0.5:\n    return x\nreturn x + 1\n",
                     prelude="\n\ndef get_backend(x):\n    return torch\n")
    assert (10, "BL101") in codes_by_row(source)
    pytest.importorskip("torch")
    assert dynamo_break_rows(source, ["M"], tmp_path)


# The third round, from the first contact with deepinv and torchlibrosa (dev split).

def test_a_method_of_an_object_a_skipped_library_made(tmp_path):
    """`bar = tqdm(total=n, disable=True); bar.update()`: tqdm is on Dynamo's skip list, its methods too."""
    source = _module("from tqdm import tqdm\nbar = tqdm(total=3, disable=True)\nbar.update()\nreturn x + 1\n")
    assert (10, "BL502") in codes_by_row(source)
    pytest.importorskip("torch")
    pytest.importorskip("tqdm")
    assert 10 in dynamo_break_rows(source, ["M"], tmp_path)


def test_a_module_level_tensor_made_by_arithmetic_and_a_method(tmp_path):
    """`SQRT2 = (2 * torch.ones(1)).sqrt()` at module level: `int((SQRT2 * n).ceil())` reads a tensor."""
    source = "import torch\nfrom torch import nn\nSQRT2 = (2 * torch.ones(1)).sqrt()\n\n\nclass M(nn.Module):\n" \
             "    def forward(self, x):\n        pad = int((SQRT2 * x.shape[0]).ceil())\n        return x[:pad]\n"
    assert (8, "BL103") in codes_by_row(source)
    pytest.importorskip("torch")
    assert 8 in dynamo_break_rows(source, ["M"], tmp_path)


def test_randint_bounded_by_a_tensor(tmp_path):
    source = _module("d = torch.randint(low=0, high=3, size=(1,))[0]\n"
                     "start = torch.randint(low=0, high=4 - d, size=(1,))[0]\nreturn x + start\n")
    assert (9, "BL105") in codes_by_row(source)
    pytest.importorskip("torch")
    assert 9 in dynamo_break_rows(source, ["M"], tmp_path)


# The review of stop 41's change: each shape below was a false positive or a bad fix.

def test_pow_bound_by_the_file_is_not_the_builtin():
    for prelude in ("pow = torch.pow\n", "from torch import *\n"):
        source = _module("return pow(x, 2)\n").replace("from torch import nn\n", "from torch import nn\n" + prelude)
        assert not [c for _, c in codes_by_row(source) if c == "BL502"], prelude


def test_pow_fix_keeps_a_not_exponent_parenthesised():
    from breaklint.rules.bl502_untraceable_call import _power_operand

    class Ctx:
        @staticmethod
        def segment(node):
            return ast.unparse(node)

    import ast
    assert _power_operand(ast.parse("not y", mode="eval").body, Ctx, base=False) == "(not y)"
    assert _power_operand(ast.parse("-y", mode="eval").body, Ctx, base=False) == "-y"


def test_super_getattribute_is_traced(tmp_path):
    source = PLAIN_CLASS.replace("def __repr__(self):\n        return \"Key\" + super().__repr__()",
                                 "def get(self, n):\n        return super().__getattribute__(n)") \
        .replace("USE", "flag = a.get('v')")
    assert not [row for row, code in codes_by_row(source) if code == "BL502" and row > 15]


def test_a_method_named_like_an_array_function_on_a_plain_object_is_no_tensor():
    source = _module("meter = self.meter\nm = meter.max(x)\nif m > 2:\n    return x\nreturn x + 1\n",
                     prelude="\n\nclass Meter:\n    def max(self, t):\n        return 3\n")
    assert not [c for _, c in codes_by_row(source) if c == "BL101"]


def test_one_base_with_many_subclasses_is_many_guesses_for_an_untyped_member(tmp_path):
    """`self.obj.run(x)` with self.obj untyped: 30 implementations of Base.run are not one guess there (they are
    only for an object an untyped function returned)."""
    from .helpers import check_tree

    impls = "class Base:\n    def run(self, x):\n        return x\n" + "".join(
        f"\n\nclass Impl{i}(Base):\n    def run(self, x):\n        return x.sum().item()\n" for i in range(30))
    entry = """
        import torch


        class M(torch.nn.Module):
            def __init__(self, obj):
                super().__init__()
                self.obj = obj

            def forward(self, x):
                return self.obj.run(x)
        """
    found = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/impls.py": impls, "pkg/entry.py": entry})
    assert not [f for f in found if f[0] == "pkg/impls.py"]
