"""Shapes from stop 28's battery of 277 forward shapes, compiled through Dynamo 2.13 (CPU, eager backend).

- A comprehension's `if` on a tensor value is a branch (GB0170), in list, dict and generator
  comprehensions alike; a test on a shape entry is not.
- `torch.jit.is_scripting() or torch.jit.is_tracing()` is False under torch.compile, so its body is never
  traced; `if torch.jit.is_tracing() or torch.compiler.is_compiling(): return ...` leaves, so what follows
  is never traced either (both were false positives).
- Backend probes such as `torch.backends.mps.is_built()` and `cudnn.is_available()` break (GB0208);
  `torch.cuda.is_available()` does not.
- `Fn.apply(...)` of a torch.autograd.Function traces `Fn.forward`, whose parameters after ctx take the
  call's arguments (a break inside it is reported there).
- Any method of a torch.Generator breaks (GB7650), kept at module level or on self (the dev split's
  torch-kmeans: `gen.manual_seed(self.seed)`).
"""
import pytest

from .helpers import check_tree, codes_by_row, dynamo_break_rows, findings_of, scopes_of

SOURCE = """
import torch
from torch import nn


class Rows(nn.Module):
    def forward(self, x):
        rows = [r * 2 for r in x if r.sum() > 0]
        return x * len(rows)


class Total(nn.Module):
    def forward(self, x):
        s = sum(r.sum() for r in x if r.max() > 0)
        return x * s


class Keyed(nn.Module):
    def forward(self, x):
        d = {i: r for i, r in enumerate(x) if r[0] > 0}
        return x * len(d)


class Shapes(nn.Module):
    def forward(self, x):
        dims = [s for s in x.shape if s > 1]
        idx = [i for i, d in enumerate(x.size()) if d == 1]
        return x.reshape(dims), idx


class ScriptOrTrace(nn.Module):
    def forward(self, x):
        if torch.jit.is_scripting() or torch.jit.is_tracing():
            return x * x.sum().item()
        return x * 2


class NotScriptNorTrace(nn.Module):
    def forward(self, x):
        if not (torch.jit.is_scripting() or torch.jit.is_tracing()):
            return x * 2
        return x * x.sum().item()


class TracingOrCompiling(nn.Module):
    def forward(self, x):
        if torch.jit.is_tracing() or torch.compiler.is_compiling():
            return x * 2
        return x * x.sum().item()


class Backends(nn.Module):
    def forward(self, x):
        if torch.backends.mps.is_built() or torch.backends.cudnn.is_available():
            return x * 2
        return x


class CudaProbe(nn.Module):
    def forward(self, x):
        if torch.cuda.is_available():
            return x * 2
        return x


class Round(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        s = t.sum().item()
        return t * s

    @staticmethod
    def backward(ctx, g):
        return g


class Ste(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, scale):
        if t.max() > 1:
            return t.round() * scale
        return t * scale

    @staticmethod
    def backward(ctx, g):
        return g, None


ste = Ste.apply


class Rounded(nn.Module):
    def forward(self, x):
        return Round.apply(x)


class Straight(nn.Module):
    def forward(self, x):
        return ste(x, 2.0)
"""

EXPECTED = {(8, "BL101"), (14, "BL101"), (20, "BL101"), (54, "BL502"), (69, "BL103"), (80, "BL101")}
CLASSES = ("Rows", "Total", "Keyed", "Shapes", "ScriptOrTrace", "NotScriptNorTrace", "TracingOrCompiling",
           "Backends", "CudaProbe", "Rounded", "Straight")


def test_breaklint_flags_these_rows_and_no_other():
    assert codes_by_row(SOURCE) == EXPECTED


def test_the_rows_are_dynamos(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip("the rows were measured on torch 2.13")
    assert dynamo_break_rows(SOURCE, CLASSES, tmp_path) == {row for row, _ in EXPECTED}


GENERATORS = """
import torch
from torch import nn

GEN = torch.Generator()


class B01(nn.Module):
    def forward(self, x):
        GEN.manual_seed(123)
        return x + torch.randn(x.shape, generator=GEN)


class B02(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = torch.Generator()

    def forward(self, x):
        self.gen.manual_seed(1)
        return x * 2


class B03(nn.Module):
    def forward(self, x):
        s = GEN.initial_seed()
        return x * s


class B04(nn.Module):
    def forward(self, x):
        st = GEN.get_state()
        return x * 2, st


class B05(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = torch.Generator()

    def forward(self, x):
        return x * self.gen.initial_seed()
"""


def test_generator_methods_are_flagged_where_dynamo_breaks(tmp_path):
    rows = {row for row, code in codes_by_row(GENERATORS) if code == "BL502"}
    assert rows == {10, 11, 20, 26, 32, 42}
    torch = pytest.importorskip("torch")
    if torch.__version__.startswith("2.13"):
        assert dynamo_break_rows(GENERATORS, ("B01", "B02", "B03", "B04", "B05"), tmp_path) == rows


MASKS = """
import torch
from torch import nn


class Unpacked(nn.Module):
    def forward(self, x):
        found, index = (x > 0).max(-1)
        return index[found]


class Values(nn.Module):
    def forward(self, x):
        m = (x > 0).max(-1).values
        return x.sum(-1)[m]


class Whole(nn.Module):
    def forward(self, x):
        m = (x > 0).amax(-1)
        return x.sum(-1)[m]


class Indices(nn.Module):
    def forward(self, x):
        index = (x > 0).max(-1)[1]
        return x[index]
"""


def test_a_bool_reductions_values_are_a_mask_and_its_indices_are_not(tmp_path):
    # the dev split's torch-kmeans: `valid_idx, fnz = first_nonzero(mask)`, a helper returning mask.max(dim)
    rows = {row for row, code in codes_by_row(MASKS) if code == "BL401"}
    assert rows == {9, 15, 21}
    torch = pytest.importorskip("torch")
    if torch.__version__.startswith("2.13"):
        assert dynamo_break_rows(MASKS, ("Unpacked", "Values", "Whole", "Indices"), tmp_path) == rows


MAX_WITH_KEY = """
import torch
from torch import nn

class B01(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max([x, x[:2]], key=lambda t: t.shape[0])

class B02(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return min([x, x[:2]], key=len)

class B03(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max(list(x.unbind(0)), key=lambda t: t.sum())

class B04(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max(feats, key=lambda f: f.shape[-1])

class B05(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max(range(3), key=lambda i: x[i].sum())

class B06(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max(range(3), key=lambda i: i * 2)

class B07(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max({'a': x, 'b': x * 2}.values(), key=lambda t: t.shape[0])

class B08(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max([x.sum(), x.mean()])

class B09(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return min(x.shape[0], x.shape[1])

class B10(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max([1, 2], key=lambda i: -i)

class B11(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max(feats)

class B12(nn.Module):
    def forward(self, x):
        feats = [x, x[:, :2]]
        return max(x.unbind(0), key=lambda t: t.shape[0])
"""


def test_max_and_min_with_a_key_over_tensors_are_flagged_where_dynamo_breaks(tmp_path):
    rows = {row for row, code in codes_by_row(MAX_WITH_KEY) if code == "BL107"}
    assert rows == {8, 13, 18, 23, 28, 38, 63}
    torch = pytest.importorskip("torch")
    if torch.__version__.startswith("2.13"):
        names = [f"B{i:02d}" for i in range(1, 13) if i != 11]  # B11 (max over a list, no key) fails in fake tensors
        assert dynamo_break_rows(MAX_WITH_KEY, names, tmp_path) == rows


def test_each_definition_of_a_class_name_is_traced():
    # the dev split's ptwt spec defines `class Model` on four branches of one factory; a library may do
    # the same at module level (`if new_torch: class Impl ... else: class Impl ...`)
    source = """
import torch
from torch import nn

if hasattr(torch, "compile"):
    class Impl(nn.Module):
        def forward(self, x):
            return x * 2
else:
    class Impl(nn.Module):
        def forward(self, x):
            return x * x.sum().item()


def build(kind):
    if kind == "a":
        class Model(nn.Module):
            def forward(self, x):
                return x
        return Model()

    class Model(nn.Module):
        def forward(self, x):
            print(x)
            return x
    return Model()
"""
    assert codes_by_row(source) == {(12, "BL103"), (24, "BL201")}


MISC = """
import copy, traceback
import torch
from torch import nn


class Obj:
    def __init__(self):
        self.a = 1


def _f(t):
    return t * 2


class B01(nn.Module):
    def forward(self, x):
        d = copy.copy({"a": 1})
        return x * d["a"]


class B02(nn.Module):
    def forward(self, x):
        o = copy.copy(Obj())
        return x * o.a


class B03(nn.Module):
    def forward(self, x):
        lst = copy.copy([1, 2])
        return x * lst[0]


class B04(nn.Module):
    def forward(self, x):
        g = globals()
        return x * len(g)


class B05(nn.Module):
    def forward(self, x):
        f = torch.jit.script(_f)
        return f(x)


class B06(nn.Module):
    def forward(self, x):
        s = traceback.format_stack()
        return x * len(s)


class B07(nn.Module):
    def forward(self, x):
        y = x.clone()
        y.apply_(lambda v: v * 2)
        return y


class B08(nn.Module):
    def forward(self, x):
        if id(x) == id(self):
            return x
        return x * 2


class B09(nn.Module):
    def forward(self, x):
        return x * copy.copy(3)


class B10(nn.Module):
    def forward(self, x):
        t = copy.copy((1, 2))
        return x * t[0]
"""


def test_copy_of_containers_globals_jit_and_stack_walks_are_flagged(tmp_path):
    # the battery's B01-B10; Dynamo reports B01, B03 and B06 inside copy.py / traceback.py, so the
    # rows compared with it are the user lines of the others
    rows = {row for row, code in codes_by_row(MISC) if code == "BL502"}
    assert rows == {18, 30, 36, 42, 48, 55}
    torch = pytest.importorskip("torch")
    if torch.__version__.startswith("2.13"):
        names = [f"B{i:02d}" for i in range(1, 11)]
        assert dynamo_break_rows(MISC, names, tmp_path) == {36, 42, 55}


def test_an_object_built_and_called_on_the_spot_runs_its_call():
    source = """
import torch
from torch import nn


class Decomposer:
    def __call__(self, x):
        return x * int(x.abs().max().item())


class M(nn.Module):
    def forward(self, x):
        return Decomposer()(x)
"""
    assert codes_by_row(source) == {(8, "BL103")}


def test_a_module_made_then_put_in_eval_mode_or_moved_is_still_that_module():
    # the dev split's whisper spec: `Whisper(dims).eval()`, then `model.embed_audio(mel)`
    source = """
import torch
from torch import nn


class Inner(nn.Module):
    def embed(self, x):
        return x * x.sum().item()


class Local(nn.Module):
    def forward(self, x):
        m = Inner().to(x.device).eval()
        return m.embed(x)


class Held(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner().eval()

    def forward(self, x):
        return self.inner.embed(x)
"""
    assert codes_by_row(source) == {(8, "BL103")}
    assert {"Inner.embed"} <= set(scopes_of(source))


def test_no_reconstruction_failure_for_an_object_whose_constructor_breaks(tmp_path):
    # whisper's `DecodingTask(model, options).run(mel)`: the constructor's break builds the object
    # eagerly, a real object whose method Dynamo resumes (no GB0092)
    source = """
import torch


class Task:
    def __init__(self, x):
        self.n = int(x.sum().item() > 0) + 1

    def run(self, x):
        y = x * self.n
        return y + y.sum().item()


class Plain:
    def __init__(self, x):
        self.n = 2

    def run(self, x):
        y = x * self.n
        return y + y.sum().item()


class Net(torch.nn.Module):
    def forward(self, x):
        return Task(x).run(x) + Plain(x).run(x)
"""
    found = codes_by_row(source)
    assert (25, "BL507") in found and {(7, "BL103"), (11, "BL103"), (20, "BL103")} <= found
    bl507 = [f for f in findings_of(source) if f.code == "BL507"]
    assert len(bl507) == 1 and "Plain" in bl507[0].message  # only Plain(x).run(x)'s GB0092, not Task's


def test_objects_of_classes_of_another_file_built_and_used_on_the_spot(tmp_path):
    # stop 28's scope battery (multi-file packages through Dynamo 2.13): each marker broke there
    files = {
        "pkg/__init__.py": "from .dists import Normal\n",
        "pkg/dists.py": """
            class Normal:
                def __init__(self, loc, scale):
                    self.loc, self.scale = loc, scale

                def log_prob(self, v):
                    return v * int(v.sum().item())
            """,
        "pkg/noise.py": """
            class Noise:
                def __init__(self, scale):
                    self.scale = scale

                def __call__(self, x):
                    print("noise")
                    return x * self.scale
            """,
        "pkg/solvers.py": """
            class Euler:
                def step(self, x):
                    return x * int(x.sum().item())


            SOLVERS = {"euler": Euler}
            """,
        "entry.py": """
            import torch
            from pkg import Normal
            from pkg.noise import Noise
            from pkg.solvers import SOLVERS


            class M(torch.nn.Module):
                def __init__(self, method="euler"):
                    super().__init__()
                    self.solver = SOLVERS[method]()

                def forward(self, x):
                    return Normal(x, 1.0).log_prob(x) + Noise(0.1)(x) + self.solver.step(x)
            """,
    }
    found = check_tree(tmp_path, files)
    assert {("pkg/dists.py", 6, "BL103"), ("pkg/noise.py", 6, "BL201"), ("pkg/solvers.py", 3, "BL103")} <= found


def test_a_mixins_super_reaches_the_next_base_of_the_object(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/mixins.py": """
            class LoggingMixin:
                def process(self, x):
                    return super().process(x)


            class Core:
                def process(self, x):
                    return x * int(x.sum().item())
            """,
        "pkg/combo.py": """
            from .mixins import Core, LoggingMixin


            class Combined(LoggingMixin, Core):
                pass
            """,
        "entry.py": """
            import torch
            from pkg.combo import Combined


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.p = Combined()

                def forward(self, x):
                    return self.p.process(x)
            """,
    }
    assert ("pkg/mixins.py", 8, "BL103") in check_tree(tmp_path, files)


def test_a_class_out_of_another_files_table_built_in_the_function(tmp_path):
    # the scope battery's p01b: `solver = SOLVERS[self.method](); solver.step(x)`, SOLVERS imported
    files = {
        "pkg/__init__.py": "",
        "pkg/solvers.py": """
            class Euler:
                def step(self, x):
                    return x * int(x.sum().item())


            SOLVERS = {"euler": Euler}
            """,
        "entry.py": """
            import torch
            from pkg.solvers import SOLVERS


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.method = "euler"

                def forward(self, x):
                    solver = SOLVERS[self.method]()
                    return solver.step(x)
            """,
    }
    assert ("pkg/solvers.py", 3, "BL103") in check_tree(tmp_path, files)
