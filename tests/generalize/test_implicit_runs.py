"""Code that traced code runs without naming it (issue #11, stop 24). Each shape was compiled with
Dynamo 2.13 (backend="eager") and its marked line broke the graph; breaklint must reach it."""
from .helpers import check_tree


def test_an_object_passed_to_a_function_that_calls_it_runs_its_call(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            from torch import nn
            class Tree:
                def _loc(self, t):
                    print("loc")
                    return t
            class BM:
                def __init__(self):
                    self._top = Tree()
                def __call__(self, t):
                    return self._top._loc(t)
            class Quiet:
                def describe(self):
                    print("never called")
            def integrate(bm, q, y):
                return y + bm(y)
            class Net(nn.Module):
                def forward(self, x):
                    bm = BM()
                    q = Quiet()
                    return integrate(bm, q, x)
            """,
    })
    assert ("pkg/model.py", 4, "BL201") in got
    assert ("pkg/model.py", 12, "BL201") not in got  # passing an object calls nothing but __call__


def test_a_modules_own_getattr_runs_when_a_submodule_is_called(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            from torch import nn
            class PModule(nn.Module):
                def __getattr__(self, name):
                    print("getattr")
                    return super().__getattr__(name)
            """,
        "pkg/model.py": """
            import torch
            from .base import PModule
            class Net(PModule):
                def __init__(self):
                    super().__init__()
                    self.lin = torch.nn.Linear(3, 3)
                def forward(self, x):
                    return self.lin(x)
            """,
    })
    assert ("pkg/base.py", 4, "BL201") in got


def test_setting_an_attribute_in_forward_runs_the_classes_setattr(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            from torch import nn
            class PModule(nn.Module):
                def __setattr__(self, name, value):
                    print("setattr")
                    super().__setattr__(name, value)
            """,
        "pkg/model.py": """
            from .base import PModule
            class Net(PModule):
                def forward(self, x):
                    self.cache = 3
                    return x + 1
            class Reader(PModule):
                def forward(self, x):
                    return x + 1
            """,
    })
    assert ("pkg/base.py", 4, "BL201") in got


def test_a_function_decorated_with_a_class_runs_the_objects_call(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/deco.py": """
            class Wrapped:
                def __init__(self, fn):
                    print("made at import time")
                    self.fn = fn
                def __call__(self, *a):
                    print("wrapped")
                    return self.fn(*a)
            """,
        "pkg/model.py": """
            from torch import nn
            from .deco import Wrapped
            @Wrapped
            def op(x):
                return x + 1
            class Net(nn.Module):
                def forward(self, x):
                    return op(x)
            """,
    })
    assert ("pkg/deco.py", 6, "BL201") in got
    assert ("pkg/deco.py", 3, "BL201") not in got  # the object was made when the module was imported


def test_a_same_file_class_decorator_too(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            from torch import nn
            class Wrapped:
                def __init__(self, fn):
                    print("made at import time")
                    self.fn = fn
                def __call__(self, *a):
                    print("wrapped")
                    return self.fn(*a)
            @Wrapped
            def op(x):
                return x + 1
            class Net(nn.Module):
                def forward(self, x):
                    return op(x)
            """,
    })
    assert ("pkg/model.py", 7, "BL201") in got
    assert ("pkg/model.py", 4, "BL201") not in got


def test_functions_a_factory_returns_and_self_keeps_are_called(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            import torch
            from torch import nn
            def make_f(k):
                def f(x):
                    print("closure")
                    return x * k
                return f
            def swish(x):
                print("swish")
                return x * torch.sigmoid(x)
            def unused(x):
                print("never returned")
                return x
            ACTS = {"swish": swish}
            def get_act(name):
                return ACTS[name]
            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.f = make_f(2)
                    self.act = get_act("swish")
                def forward(self, x):
                    return self.act(self.f(x))
            """,
    })
    assert {("pkg/model.py", 5, "BL201"), ("pkg/model.py", 9, "BL201")} <= got
    assert ("pkg/model.py", 12, "BL201") not in got


def test_a_method_bound_through_a_dict_of_methods_is_called(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            from torch import nn
            class F(nn.Module):
                def __init__(self, kind):
                    super().__init__()
                    self.prod = {"diag": self.prod_diag, "gen": self.prod_gen}.get(kind)
                def prod_diag(self, y):
                    print("diag")
                    return y
                def prod_gen(self, y):
                    return y.nonzero()
                def other(self, y):
                    print("not bound")
            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.f = F("diag")
                def forward(self, x):
                    return self.f.prod(x)
            """,
    })
    assert {("pkg/model.py", 7, "BL201"), ("pkg/model.py", 10, "BL401")} <= got
    assert ("pkg/model.py", 12, "BL201") not in got


def test_an_object_unpacked_from_a_returned_tuple_is_followed(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/contract.py": """
            class BM:
                def __call__(self, t):
                    print("bm")
                    return t
            class Other:
                def __call__(self, t):
                    print("element 0 is no object")
                    return t
            def check(y, bm=None):
                if bm is None:
                    bm = BM()
                return y, bm
            """,
        "pkg/solver.py": """
            class Solver:
                def __init__(self, bm):
                    self.bm = bm
                def step(self, y):
                    return self.bm(y)
            """,
        "pkg/model.py": """
            from torch import nn
            from .contract import check
            from .solver import Solver
            class Direct(nn.Module):
                def forward(self, x):
                    y, bm = check(x)
                    return bm(y)
            class ThroughSolver(nn.Module):
                def forward(self, x):
                    y, bm = check(x)
                    return Solver(bm=bm).step(y)
            """,
    })
    assert ("pkg/contract.py", 3, "BL201") in got
    assert ("pkg/contract.py", 7, "BL201") not in got


def test_only_the_unpacked_element_is_followed(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            from torch import nn
            class A:
                def __call__(self, t):
                    print("a")
                    return t
            class B:
                def __call__(self, t):
                    print("b")
                    return t
            def make():
                return A(), B()
            class Net(nn.Module):
                def forward(self, x):
                    a, b = make()
                    return b(x)
            """,
    })
    assert ("pkg/model.py", 8, "BL201") in got
    assert ("pkg/model.py", 4, "BL201") not in got


def test_functions_a_factory_in_another_file_returns_are_called(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/acts.py": """
            import torch
            def swish(x):
                print("swish")
                return x * torch.sigmoid(x)
            def gelu(x):
                print("gelu")
                return x
            def unused(x):
                print("never returned")
                return x
            ACTS = {"swish": swish}
            def get_act(name):
                return ACTS[name]
            def get_gelu():
                return gelu  # the only one
            """,
        "pkg/model.py": """
            from torch import nn
            from .acts import get_act, get_gelu
            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.act = get_act("swish")
                    self.act2 = get_gelu()
                def forward(self, x):
                    return self.act2(self.act(x))
            """,
    })
    assert {("pkg/acts.py", 3, "BL201"), ("pkg/acts.py", 6, "BL201")} <= got
    assert ("pkg/acts.py", 9, "BL201") not in got


def test_iterating_an_object_just_made_runs_its_iter(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            from torch import nn
            class Seq:
                def __init__(self, xs):
                    self.xs = xs
                def __iter__(self):
                    print("iter")
                    return iter(self.xs)
                def __len__(self):
                    print("len is not run by for")
                    return 2
            class Net(nn.Module):
                def forward(self, x):
                    for v in Seq([1, 2]):
                        x = x + v
                    for i in range(2):
                        x = x + i
                    return x
            """,
    })
    assert ("pkg/model.py", 6, "BL201") in got
    assert ("pkg/model.py", 9, "BL201") not in got


def test_a_class_a_factory_returns_is_constructed_through_the_name_that_holds_it(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/brown.py": """
            class BM:
                def __call__(self, t):
                    print("bm")
                    return t
            class Unused:
                def __call__(self, t):
                    print("never passed")
                    return t
            """,
        "pkg/solvers.py": """
            class Base:
                def __init__(self, sde, bm, dt):
                    self.sde = sde
                    self.bm = bm
                def integrate(self, y):
                    return self.step(y)
            class Euler(Base):
                def step(self, y):
                    return y + self.bm(y)
            def select(method):
                if method == "euler":
                    return Euler
                raise ValueError(method)
            """,
        "pkg/model.py": """
            from torch import nn
            from . import solvers
            from .brown import BM
            def sdeint(sde, y, method="euler"):
                bm = BM()
                solver_fn = solvers.select(method=method)
                solver = solver_fn(sde=sde, bm=bm, dt=0.1)
                return solver.integrate(y)
            class Net(nn.Module):
                def forward(self, x):
                    return sdeint(None, x)
            """,
    })
    assert ("pkg/brown.py", 3, "BL201") in got
    assert ("pkg/brown.py", 7, "BL201") not in got


def test_what_a_constructor_receives_by_position_or_from_an_attribute_types_what_it_keeps(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class Inner:
                def __call__(self, y):
                    print("by position")
                    return y
            class BM:
                def __call__(self, t):
                    print("from an attribute")
                    return t
            class Wrapper:
                def __init__(self, base, scale=1):
                    self._base = base
                def run(self, y):
                    return self._base(y)
            class Solver:
                def __init__(self, bm):
                    self.bm = bm
                def step(self, y):
                    return self.bm(y)
            """,
        "pkg/model.py": """
            from torch import nn
            from .objs import BM, Inner, Solver, Wrapper
            class ByPosition(nn.Module):
                def forward(self, x):
                    return Wrapper(Inner(), 2).run(x)
            class FromAttribute(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.bm = BM()
                def forward(self, x):
                    return Solver(bm=self.bm).step(x)
            """,
    })
    assert {("pkg/objs.py", 3, "BL201"), ("pkg/objs.py", 7, "BL201")} <= got


def test_an_object_made_in_the_call_is_called_back(tmp_path):
    # Only a callee that calls the parameter itself: an object handed on again (`inner(bm, y)`) or
    # stored (a callback registry) is not followed.
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class BM:
                def __call__(self, t):
                    print("bm")
                    return t
            class Logger:
                def __call__(self, t):
                    print("kept for later, never called here")
                    return t
            CALLBACKS = []
            def add_callback(cb):
                CALLBACKS.append(cb)
            def outer(bm, y):
                return bm(y)
            """,
        "pkg/model.py": """
            from torch import nn
            from .objs import BM, Logger, add_callback, outer
            class Net(nn.Module):
                def forward(self, x):
                    log = Logger()
                    add_callback(log)
                    return outer(BM(), x)
            """,
    })
    assert ("pkg/objs.py", 3, "BL201") in got
    assert ("pkg/objs.py", 7, "BL201") not in got


def test_a_wrapper_rebinding_its_argument_keeps_the_argument_s_methods(tmp_path):
    # `sde = ForwardSDE(sde)`: what ForwardSDE keeps is the object passed in, not a ForwardSDE
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base_sde.py": """
            from torch import nn
            class ForwardSDE(nn.Module):
                def __init__(self, sde):
                    super().__init__()
                    self._base_sde = sde
                def f_and_g(self, t, y):
                    return self._base_sde.drift(t, y), y
            """,
        "pkg/model.py": """
            from torch import nn
            from .base_sde import ForwardSDE
            class Helper:
                def drift(self, t, y):
                    print("helper drift")
                    return y
            def sdeint(sde, y):
                sde = ForwardSDE(sde)
                f, g = sde.f_and_g(0.0, y)
                return f + g
            class Net(nn.Module):
                def forward(self, x):
                    return sdeint(Helper(), x)
            """,
    })
    assert ("pkg/model.py", 5, "BL201") in got


def test_methods_a_function_calls_on_an_object_passed_to_it_run(tmp_path):
    # `update` is defined by five classes: too common for dispatch by name, so only the passed
    # object's class says which one runs
    others = "".join(f"""
            class Other{i}:
                def update(self, y):
                    print("not passed")
                    return y
            """ for i in range(4))
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class Grid:
                def update(self, y):
                    print("update")
                    return y
                def unused(self, y):
                    print("not called on it")
            """ + others,
        "pkg/model.py": """
            from torch import nn
            from .objs import Grid
            def advance(y, g=None):
                return g.update(y)
            class Net(nn.Module):
                def forward(self, x):
                    g = Grid()
                    return advance(x, g=g) + advance(x, Grid())
            """,
    })
    assert ("pkg/objs.py", 3, "BL201") in got
    assert ("pkg/objs.py", 6, "BL201") not in got
    assert not any(path == "pkg/objs.py" and row > 7 for path, row, _ in got)


def test_back_references_lists_of_objects_class_body_static_methods_and_attributes_of_results(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class Helper:
                def __init__(self, owner):
                    self.owner = owner
                def run(self, y):
                    return self.owner.hook(y)
            class Tr:
                def log(self, y):
                    print("attribute of a result")
                    return y
            class Dist:
                def __init__(self):
                    self.transform = Tr()
            def make():
                return Dist()
            """,
        "pkg/model.py": """
            from torch import nn
            from .objs import Helper, make
            def helper(x):
                print("class-body staticmethod")
                return x
            class T:
                def __call__(self, y):
                    print("element of a comprehension")
                    return y
            class Net(nn.Module):
                fn = staticmethod(helper)
                def __init__(self):
                    super().__init__()
                    self.helper = Helper(self)
                    self.ts = [T() for _ in range(2)]
                def hook(self, y):
                    print("back reference")
                    return y
                def forward(self, x):
                    for t in self.ts:
                        x = t(x)
                    d = make()
                    return self.fn(self.helper.run(d.transform.log(x)))
            """ + "".join(f"""
            class Other{i}(nn.Module):
                def hook(self, y):
                    print("another hook")
                    return y
            """ for i in range(4)),
    })
    assert {("pkg/model.py", 4, "BL201"), ("pkg/model.py", 8, "BL201"), ("pkg/model.py", 17, "BL201"),
            ("pkg/objs.py", 8, "BL201")} <= got


def test_what_the_review_measured_dynamo_never_traces_stays_out(tmp_path):
    """Each shape below was compiled with Dynamo 2.13: the marked print never ran in the compiled call."""
    others = "".join(f"""
            class Other{i}:
                def reset(self):
                    print("never")
                def clear(self):
                    print("never")
            """ for i in range(4))
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class Grid:
                def update(self, y):
                    return y
                def reset(self):
                    print("only named in a comment")
                def clear(self):
                    print("only called by a nested def on its own parameter")
            class A:
                def __call__(self, t):
                    print("element 0")
                    return t
            class B:
                def __call__(self, t):
                    print("element 1")
                    return t
            class C:
                def __call__(self, t):
                    return t
            def make():
                return A(), B(), C()
            def legacy(x):
                print("returned only in a comment")
                return x
            def swish(x):
                return x
            def get_act(name):
                # return legacy
                return swish
            def advance(y, g):
                # never call g.reset() here
                def fresh(g):
                    g.clear()
                    return g
                return g.update(y)
            def combine(y, *extra, g=None):
                return y
            """ + others,
        "pkg/model.py": """
            from torch import nn
            from .objs import Grid, advance, combine, get_act, make
            def swish(x):
                return x
            class PModule(nn.Module):
                def __getattr__(self, name):
                    print("a plain attribute and an inherited method never reach __getattr__")
                    return super().__getattr__(name)
            class Net(PModule):
                def __init__(self):
                    super().__init__()
                    self.act = swish
                    self.act2 = get_act("swish")
                def forward(self, x):
                    *head, c = make()
                    y = advance(x, Grid())
                    y = combine(y, Grid())
                    return self.act2(self.act(c(y))) * len(list(self.parameters()))
            """,
    })
    assert not any(path == "pkg/objs.py" for path, _, _ in got), got
    assert ("pkg/model.py", 7, "BL201") not in got


def test_a_factory_class_is_not_credited_with_a_nested_return_or_a_rebound_name(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class Noisy:
                def __call__(self, t):
                    print("never passed to a solver")
                    return t
            class BM:
                def __call__(self, t):
                    return t
            class Euler:
                def __init__(self, bm=None):
                    self.bm = bm
                def integrate(self, y):
                    return self.bm(y)
            def select(m):
                if m:
                    return Euler
                raise ValueError(m)
            def select_lazily(m):
                def lazy(**kw):
                    return Euler
                return lazy
            def other_factory():
                return dict
            """,
        "pkg/model.py": """
            from torch import nn
            from .objs import BM, Noisy, other_factory, select, select_lazily
            class Net(nn.Module):
                def forward(self, x):
                    fn = select(1)
                    s = fn(bm=BM())
                    y = s.integrate(x)
                    fn = other_factory()
                    fn(bm=Noisy())
                    lazy = select_lazily(1)
                    lazy(bm=Noisy())
                    return y
            """,
    })
    assert ("pkg/objs.py", 3, "BL201") not in got


def test_a_bool_index_of_a_returned_tuple_is_no_crash(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            from torch import nn
            class A:
                def __call__(self, t):
                    return t
            def pick(x):
                return x, A()
            class Net(nn.Module):
                def forward(self, x):
                    bm = pick(x)[True]
                    return bm(x)
            """,
    })
    assert isinstance(got, set)


def test_a_plain_classes_getattr_runs_for_attributes_it_never_assigns(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/objs.py": """
            class Params:
                def __init__(self):
                    self._store = {"alpha": 2.0}
                def __getattr__(self, name):
                    print("dynamic attribute")
                    return self.__dict__["_store"][name]
            class Fixed:
                def __init__(self):
                    self.alpha = 2.0
                def __getattr__(self, name):
                    print("never asked: alpha is in the instance dict")
                    raise AttributeError(name)
            """,
        "pkg/model.py": """
            from torch import nn
            from .objs import Fixed, Params
            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.p = Params()
                    self.f = Fixed()
                def forward(self, x):
                    return x * self.p.alpha * self.f.alpha
            """,
    })
    assert ("pkg/objs.py", 5, "BL201") in got
    assert ("pkg/objs.py", 11, "BL201") not in got
