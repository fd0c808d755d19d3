"""Free names of closures, tuple-unpacked attributes and duck-typed interfaces (issue #11, stop 25).
Each positive shape was compiled with Dynamo 2.13 (backend="eager") and its marked line broke the graph;
found on the new dev library torchode, whose solver is reached through all of them."""
from .helpers import check_tree

LIB = {
    "lib/__init__.py": "from .core import Solver, Problem\n",
    "lib/core.py": """
        from torch import nn
        class Problem:
            def __init__(self, y0):
                self.y0 = y0
        class Solver(nn.Module):
            def solve(self, problem):
                if problem.y0.sum() > 0:
                    return problem.y0 * 2
                return problem.y0
        """,
}


def test_a_lambda_an_enclosing_function_binds_is_followed(tmp_path):
    got = check_tree(tmp_path, dict(LIB, **{"user.py": """
        import torch
        import lib as L
        def build(kind):
            solver = L.Solver()
            if kind == "a":
                solve = lambda y: solver.solve(L.Problem(y))
            else:
                solve = lambda y: solver.solve(L.Problem(-y))
            class M(torch.nn.Module):
                def forward(self, y):
                    return solve(y)
            return M()
        """}))
    assert ("lib/core.py", 7, "BL101") in got


def test_an_object_an_enclosing_function_made_is_typed(tmp_path):
    got = check_tree(tmp_path, dict(LIB, **{"user.py": """
        import torch
        import lib as L
        def build():
            solver = L.Solver()
            class M(torch.nn.Module):
                def forward(self, y):
                    return solver.solve(L.Problem(y))
            return M()
        """}))
    assert ("lib/core.py", 7, "BL101") in got


def test_a_def_of_the_enclosing_function_is_followed_and_its_own_lines_are_traced(tmp_path):
    got = check_tree(tmp_path, dict(LIB, **{"user.py": """
        import torch
        import lib as L
        def build():
            solver = L.Solver()
            def solve(y):
                print("solve")
                return solver.solve(L.Problem(y))
            class M(torch.nn.Module):
                def forward(self, y):
                    return solve(y)
            return M()
        """}))
    assert ("user.py", 6, "BL201") in got
    assert ("lib/core.py", 7, "BL101") in got


def test_a_parameter_shadows_the_enclosing_binding(tmp_path):
    got = check_tree(tmp_path, dict(LIB, **{"user.py": """
        import torch
        import lib as L
        def build():
            def solve(y):
                print("never called")
                return y
            class M(torch.nn.Module):
                def forward(self, solve):
                    return solve(1)
            return M()
        """}))
    assert ("user.py", 5, "BL201") not in got


def test_a_method_called_on_a_local_unpacked_from_self_attributes_is_typed(tmp_path):
    got = check_tree(tmp_path, {
        "lib/__init__.py": "from .a import Adj\nfrom .s import Stepper, Ctrl\n",
        "lib/s.py": """
            from torch import nn
            class Stepper(nn.Module):
                def init(self, y):
                    print("step init")
                    return y
            class Ctrl(nn.Module):
                def init(self, y):
                    print("ctrl init")
                    return y
            class Other(nn.Module):
                def init(self, y):
                    print("other init")
                    return y
            class Fourth(nn.Module):
                def init(self, y):
                    return y
            class Fifth(nn.Module):
                def init(self, y):
                    return y
            """,
        "lib/a.py": """
            from torch import nn
            class Adj(nn.Module):
                def __init__(self, m, c):
                    super().__init__()
                    self.m = m
                    self.c = c
                def solve(self, y):
                    m, c = self.m, self.c
                    return m.init(c.init(y))
            """,
        "user.py": """
            import torch
            import lib as L
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.adj = L.Adj(L.Stepper(), L.Ctrl())
                def forward(self, y):
                    return self.adj.solve(y)
            """,
    })
    assert ("lib/s.py", 4, "BL201") in got
    assert ("lib/s.py", 8, "BL201") in got
    assert ("lib/s.py", 12, "BL201") not in got  # `init` is common: only the classes passed in run


def test_an_abstract_interface_runs_the_classes_that_implement_it_without_subclassing(tmp_path):
    got = check_tree(tmp_path, {
        "lib/__init__.py": "",
        "lib/base.py": """
            from torch import nn
            class StepMethod(nn.Module):
                def init(self, y):
                    raise NotImplementedError()
                def step(self, y):
                    raise NotImplementedError()
                def order(self):
                    raise NotImplementedError()
            class Concrete(nn.Module):
                def init(self, y):
                    return y
            """,
        "lib/rk.py": """
            from torch import nn
            class RungeKutta(nn.Module):
                def init(self, y):
                    print("rk init")
                    return y
                def step(self, y):
                    return y
                def order(self):
                    return 4
            class Term(nn.Module):
                def init(self, y):
                    print("term init: not a step method")
                    return y
            """,
        "lib/solver.py": """
            from torch import nn
            from .base import StepMethod
            class Solver(nn.Module):
                def __init__(self, method: StepMethod):
                    super().__init__()
                    self.method = method
                def forward(self, y):
                    return self.method.init(y)
            """,
        "lib/a.py": "class A:\n    def init(self): pass\n",
        "lib/b.py": "class B:\n    def init(self): pass\n",
        "lib/c.py": "class C:\n    def init(self): pass\n",
    })
    assert ("lib/rk.py", 4, "BL201") in got
    assert ("lib/rk.py", 12, "BL201") not in got  # defines `init` alone, not the interface


def test_a_concrete_annotated_method_runs_no_look_alikes(tmp_path):
    got = check_tree(tmp_path, {
        "lib/__init__.py": "",
        "lib/base.py": """
            from torch import nn
            class StepMethod(nn.Module):
                def init(self, y):
                    return y
                def step(self, y):
                    return y
            """,
        "lib/rk.py": """
            from torch import nn
            class RungeKutta(nn.Module):
                def init(self, y):
                    print("rk init")
                    return y
                def step(self, y):
                    return y
            """,
        "lib/solver.py": """
            from torch import nn
            from .base import StepMethod
            class Solver(nn.Module):
                def __init__(self, method: StepMethod):
                    super().__init__()
                    self.method = method
                def forward(self, y):
                    return self.method.init(y)
            """,
        "lib/a.py": "class A:\n    def init(self): pass\n",
        "lib/b.py": "class B:\n    def init(self): pass\n",
        "lib/c.py": "class C:\n    def init(self): pass\n",
        "lib/d.py": "class D:\n    def init(self): pass\n",
    })
    assert ("lib/rk.py", 4, "BL201") not in got  # the annotated class's own method runs


def test_a_class_built_through_its_package_alias_passes_what_it_keeps(tmp_path):
    got = check_tree(tmp_path, {
        "lib/__init__.py": "from .adj import Adj\nfrom .ctrl import Ctrl, Quiet\n",
        "lib/ctrl.py": """
            from torch import nn
            class Ctrl(nn.Module):
                def init(self, y):
                    print("ctrl")
                    return y
            class Quiet(nn.Module):
                def init(self, y):
                    return y
            class Third(nn.Module):
                def init(self, y):
                    return y
            class Fourth(nn.Module):
                def init(self, y):
                    return y
            class Fifth(nn.Module):
                def init(self, y):
                    return y
            """,
        "lib/adj.py": """
            from torch import nn
            class Adj(nn.Module):
                def __init__(self, ctrl):
                    super().__init__()
                    self.ctrl = ctrl
                def solve(self, y):
                    return self.ctrl.init(y)
            """,
        "user.py": """
            import torch
            import lib as L
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    control = L.Ctrl()
                    self.adj = L.Adj(control)
                def forward(self, y):
                    return self.adj.solve(y)
            """,
    })
    assert ("lib/ctrl.py", 4, "BL201") in got


# The review's reproducers (each measured through Dynamo 2.13: no break on the marked line).

def _package(tmp_path, root: str, files: dict) -> set:
    return check_tree(tmp_path, {f"{root}/__init__.py": "", **{f"{root}/{k}": v for k, v in files.items()}})


def test_a_one_method_interface_matches_no_look_alikes(tmp_path):
    got = _package(tmp_path, "pkg1", {
        "base.py": """
            class Activation:
                def apply(self, x):
                    raise NotImplementedError
            """,
        "printer.py": """
            class Printer:
                def apply(self, x):
                    print("value", x)
                    return x
            """,
        "model.py": """
            from torch import nn
            from pkg1.base import Activation
            class Net(nn.Module):
                def __init__(self, act: Activation):
                    super().__init__()
                    self.act = act
                def forward(self, x):
                    return self.act.apply(x)
            """,
    })
    assert ("pkg1/printer.py", 3, "BL201") not in got


def test_no_op_hooks_are_no_interface(tmp_path):
    got = _package(tmp_path, "pkg9", {
        "debug.py": """
            class Tracer:
                def on_forward(self, x):
                    print("forward")
                def on_backward(self, g):
                    print("backward")
                def on_step(self, g):
                    print("step")
            """,
        "hooks.py": """
            class Hook:
                def on_forward(self, x):
                    pass
                def on_backward(self, g):
                    pass
                def on_step(self, g):
                    pass
            """,
        "model.py": """
            from typing import Optional
            from torch import nn
            from pkg9.hooks import Hook
            class Net(nn.Module):
                def __init__(self, hook: Optional[Hook] = None):
                    super().__init__()
                    self.hook = hook
                def forward(self, x):
                    self.hook.on_forward(x)
                    return x
            """,
    })
    assert ("pkg9/debug.py", 3, "BL201") not in got


def test_a_closure_sees_the_last_binding_and_the_functions_own_names(tmp_path):
    got = _package(tmp_path, "pkg2", {"model.py": """
        import torch
        from torch import nn
        def make_rebound():
            scale = lambda x: x * float(x.sum())
            scale = lambda x: x * 2
            class Net2(nn.Module):
                def forward(self, x):
                    return scale(x)
            return Net2()
        def make_shadowed():
            act = lambda x: x * float(x.sum())
            norm = lambda x: x / x.max().item()
            g = lambda x: x.tolist()
            class NetA(nn.Module):
                def forward(self, x):
                    def act(y):
                        return y + 1
                    from torch import sigmoid as norm
                    if (g := torch.cos) is not None:
                        return g(norm(act(x)))
                    return x
            return NetA()
        """})
    assert not {code for file, line, code in got if line in (4, 10, 11, 12)}


def test_a_class_name_two_factories_define_follows_neither_factorys_closures(tmp_path):
    got = _package(tmp_path, "pkg10", {"model.py": """
        import torch
        from torch import nn
        def make_debug():
            def act(x):
                print("act")
                return x
            class Impl:
                def __call__(self, x):
                    return act(x)
            return Impl()
        def make_clean():
            def act(x):
                return torch.relu(x)
            class Impl:
                def __call__(self, x):
                    return act(x)
            return Impl()
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.f = make_clean()
            def forward(self, x):
                return self.f(x)
        """})
    assert ("pkg10/model.py", 5, "BL201") not in got


def test_a_package_importer_s_own_class_of_the_same_name_is_not_a_construction(tmp_path):
    got = _package(tmp_path, "pkg4", {
        "a.py": """
            from torch import nn
            class Scale:
                def __call__(self, x):
                    return x * 2
            class Net(nn.Module):
                def __init__(self, act):
                    super().__init__()
                    self.act = act
                def forward(self, x):
                    return self.act(x)
            def factory():
                return Net(Scale())
            """,
        "b.py": """
            import pkg4
            class Printer:
                def __call__(self, x):
                    print("report", x)
                    return x
            class Net:
                def __init__(self, act):
                    self.act = act
            def report():
                return Net(Printer())
            """,
    })
    assert ("pkg4/b.py", 4, "BL201") not in got


def test_bl109_leaves_a_class_s_own_add_alone(tmp_path):
    got = _package(tmp_path, "pkg5", {"model.py": """
        import torch
        from torch import nn
        class Ema:
            def __init__(self):
                self.v = None
            def add(self, x, alpha=0.5):
                self.v = x * alpha
                return self.v
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.ema = Ema()
            def forward(self, x):
                t = x.mean()
                a = self.ema.add(x, alpha=t)
                b = torch.add(x, x, alpha=x.shape[0])
                c = torch.add(x, x, alpha=t)
                return a + b + c
        """})
    assert ("pkg5/model.py", 15, "BL109") not in got
    assert ("pkg5/model.py", 16, "BL109") not in got
    assert ("pkg5/model.py", 17, "BL109") in got


def test_a_tensor_subclass_s_own_bool_method_is_no_tensor_condition(tmp_path):
    # flowtorch (dev): `isinstance(y, BijectiveTensor) and y.from_forward()` gates on Python bools;
    # Dynamo 2.13 does not break there (the dev split's three false positives on flowtorch)
    got = _package(tmp_path, "pkgt", {"model.py": """
        import torch
        from torch import nn
        class Tagged(torch.Tensor):
            def from_forward(self) -> bool:
                return True
        class Net(nn.Module):
            def forward(self, y):
                if isinstance(y, Tagged) and y.from_forward():
                    return y * 2
                if y.sum().bool():
                    return y
                return -y
        """})
    assert ("pkgt/model.py", 8, "BL101") not in got
    assert ("pkgt/model.py", 10, "BL101") in got  # a torch method of the tensor still is one


def test_an_object_made_by_getattr_on_a_module_is_of_one_of_its_classes(tmp_path):
    # geoopt (dev): `manifold = getattr(geoopt.manifolds, name)()` kept on self, then `m.projx(x)`
    got = check_tree(tmp_path, {
        "lib/__init__.py": "from . import shapes\n",
        "lib/shapes/__init__.py": "from .round import Circle\nfrom .flat import Square\n",
        "lib/shapes/round.py": """
            class Circle:
                def project(self, x):
                    if x.sum() > 0:
                        return x
                    return -x
            """,
        "lib/shapes/flat.py": """
            class Square:
                def project(self, x):
                    return x.clamp(0, 1)
            """,
        "lib/other.py": """
            class Elsewhere:
                def project(self, x):
                    print("not a shape")
                    return x
            """,
        "user.py": """
            import torch
            import lib
            def build(name):
                shape = getattr(lib.shapes, name)()
                class M(torch.nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.shape = shape
                    def forward(self, x):
                        s = self.shape
                        return s.project(x)
                return M()
            """,
    })
    assert ("lib/shapes/round.py", 3, "BL101") in got
    assert ("lib/other.py", 3, "BL201") not in got


def test_a_constructor_given_getattr_of_a_module_keeps_one_of_its_classes(tmp_path):
    # asteroid-filterbanks (dev): `fb = getattr(af, name)(...)`, `Encoder(fb)` keeps it, forward calls
    # `self.filterbank.filters()`, a name five classes define (too common to dispatch by name alone)
    banks = {f"lib/banks/b{i}.py": f"class Bank{i}:\n    def filters(self):\n        return {i}\n" for i in range(4)}
    got = check_tree(tmp_path, dict(banks, **{
        "lib/__init__.py": "from . import banks\nfrom .enc import Encoder\n",
        "lib/banks/__init__.py": "from .b0 import Bank0\nfrom .b1 import Bank1\nfrom .b2 import Bank2\n"
                                 "from .b3 import Bank3\nfrom .sinc import Sinc\n",
        "lib/banks/sinc.py": """
            class Sinc:
                def __init__(self):
                    self.low = None
                def filters(self):
                    print("sinc")
                    return 1
            """,
        "lib/debug.py": """
            class Loud:
                def filters(self):
                    print("not a bank")
                    return 0
            """,
        "lib/enc.py": """
            from torch import nn
            class Encoder(nn.Module):
                def __init__(self, filterbank):
                    super().__init__()
                    self.filterbank = filterbank
                def forward(self, x):
                    return x * self.filterbank.filters()
            """,
        "user.py": """
            import torch
            import lib
            def build(name):
                fb = getattr(lib.banks, name)()
                enc = lib.Encoder(fb)
                return enc
            """,
    }))
    assert ("lib/banks/sinc.py", 5, "BL201") in got
    assert ("lib/debug.py", 3, "BL201") not in got


def test_a_tensor_method_on_what_getattr_of_a_module_with_functions_gave_stays_a_tensor_method(tmp_path):
    # the second review: `z = getattr(ops, self.op)(y); z.sum()` calls the module's function `double`,
    # and `Stats.sum` (run eagerly elsewhere) is not traced; measured: no break
    got = _package(tmp_path, "pkgg", {
        "ops.py": """
            def double(x):
                return x * 2
            class Stats:
                def __init__(self):
                    self.total = 0.0
                def sum(self, t):
                    self.total += float(t.sum())
                    return self.total
            """,
        "model.py": """
            from torch import nn
            from pkgg import ops
            class M(nn.Module):
                def __init__(self, op):
                    super().__init__()
                    self.op = op
                def forward(self, y):
                    z = getattr(ops, self.op)(y)
                    return z.sum()
            """,
    })
    assert ("pkgg/ops.py", 7, "BL103") not in got


def test_dunder_and_torch_subclass_methods_of_a_tensor_still_give_tensors(tmp_path):
    # the second review: `x.__getitem__(0)` and a jagged tensor's `offsets()` are tensors (both break)
    got = _package(tmp_path, "pkgd", {"model.py": """
        import torch
        from torch import nn
        class M(nn.Module):
            def forward(self, x: torch.Tensor):
                m = x.__getitem__(0)
                off = x.offsets()
                n = float(off[1])
                if m.sum() > n:
                    return x
                return x * n
        """})
    assert ("pkgd/model.py", 7, "BL103") in got


def test_an_attribute_set_from_getattr_of_a_module_in_init_holds_one_of_its_classes(tmp_path):
    # the second review's gap: `self.man = getattr(manifolds, name)()` then `self.man.proju(x)`
    shapes = {f"lib/manifolds/m{i}.py": f"class M{i}:\n    def proju(self, x):\n        return x * {i}\n" for i in range(4)}
    got = check_tree(tmp_path, dict(shapes, **{
        "lib/__init__.py": "",
        "lib/manifolds/__init__.py": "from .m0 import M0\nfrom .m1 import M1\nfrom .m2 import M2\nfrom .m3 import M3\n"
                                     "from .sphere import Sphere\n",
        "lib/manifolds/sphere.py": """
            class Sphere:
                def proju(self, x):
                    if x.sum() > 0:
                        return x
                    return -x
            """,
        "lib/other.py": """
            class Loud:
                def proju(self, x):
                    print("not a manifold")
                    return x
            """,
        "user.py": """
            import torch
            from lib import manifolds
            class Net(torch.nn.Module):
                def __init__(self, name):
                    super().__init__()
                    self.man = getattr(manifolds, name)()
                def forward(self, x):
                    return self.man.proju(x)
            """,
    }))
    assert ("lib/manifolds/sphere.py", 3, "BL101") in got
    assert ("lib/other.py", 3, "BL201") not in got


def test_setting_a_property_runs_its_setter(tmp_path):
    # left alone since stop 22, measured now: both setters' prints break the graph (2.13)
    got = _package(tmp_path, "pkgs", {"model.py": """
        from torch import nn
        class Cfg:
            def __init__(self):
                self._s = 1.0
            @property
            def scale(self):
                return self._s
            @scale.setter
            def scale(self, v):
                print("set scale")
                self._s = v
            def quiet(self):
                print("never called")
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self._t = 0
            @property
            def temp(self):
                return self._t
            @temp.setter
            def temp(self, v):
                print("set temp")
                self._t = v
            def forward(self, x):
                self.temp = 2
                c = Cfg()
                c.scale = 3.0
                c.other = 1
                return x * c.scale * self.temp
        """})
    assert ("pkgs/model.py", 10, "BL201") in got
    assert ("pkgs/model.py", 23, "BL201") in got
    assert ("pkgs/model.py", 13, "BL201") not in got
