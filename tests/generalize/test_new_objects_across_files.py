"""Objects built in traced code from classes of other files (issue #11, stop 27).

From the dev split's misses: torchdiffeq's `solver = SOLVERS[method](...); solver.integrate(t)` (10
models) and torchode's `adjoint = AutoDiffAdjoint(...); adjoint.solve(...)`, whose step methods come
from a registry the package's __init__ fills. Measured on torch 2.13 (CPU, backend="eager") on the
package below, compiled `solve(y, t, "heun", "loud")`: breaks at interface.py:15 (GB0092 at
`solver.integrate(t)`, whose helper `_prepare` breaks at steps.py:27), steps.py:9 (the print in
Base.__init__, met while the first trace inlines `METHODS[method]()`), then GB0119 at steps.py:19
(Heun.__init__'s super().__init__) and steps.py:7 (Base.__init__'s): `solve` runs eagerly, and each
module it builds starts its __init__ on a half-built self. With "euler", steps.py:14 instead of 19.
`solve_given`, which passes the new object to a helper that calls the method, breaks only at
steps.py:27; a table whose class does not break (`Quiet`) breaks nowhere.
"""
from .helpers import check_tree

STEPS = """
    import torch
    from torch import nn


    class Base(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k
            print("built", k)


    class Euler(Base):
        def __init__(self, k=2):
            super().__init__(k)


    class Heun(Base):
        def __init__(self, k=3):
            super().__init__(k)


    class Solver:
        def __init__(self, y0):
            self.y0 = y0

        def _prepare(self, t):
            if t.sum() > 0:
                return t * 2
            return t

        def integrate(self, t):
            t = self._prepare(t)
            return self.y0 + t


    class Quiet:
        def __init__(self, y0):
            self.y0 = y0

        def integrate(self, t):
            return self.y0 * t
    """

INTERFACE = """
    import torch
    from .steps import Solver, Quiet

    METHODS = {}
    SOLVERS = {"loud": Solver}


    def register(name, cls):
        METHODS[name] = cls


    def solve(y0, t, method="euler", kind="loud"):
        step = METHODS[method]()
        solver = SOLVERS[kind](y0)
        out = solver.integrate(t)
        return out * step.k


    def run(solver, t):
        return solver.integrate(t) + 1


    def solve_given(y0, t):
        return run(Solver(y0), t)
    """

INIT = """
    from .interface import register, solve
    from .steps import Euler, Heun
    register("euler", Euler)
    register("heun", Heun)
    """


def _model(call: str) -> str:
    return f"""
        import torch
        from torch import nn
        import pkg
        from pkg.interface import solve_given


        class Net(nn.Module):
            def forward(self, y, t):
                return {call}
        """


def _tree(tmp_path, call: str, interface: str = INTERFACE) -> set:
    return check_tree(tmp_path, {"pkg/__init__.py": INIT, "pkg/steps.py": STEPS, "pkg/interface.py": interface,
                                 "model.py": _model(call)})


def test_a_method_of_a_table_built_object_that_breaks_in_a_helper_of_another_file(tmp_path):
    got = _tree(tmp_path, 'pkg.solve(y, t, "heun", "loud")')
    assert ("pkg/interface.py", 15, "BL507") in got
    assert ("pkg/steps.py", 27, "BL101") in got


def test_modules_a_registry_builds_in_the_eagerly_run_function_start_half_built(tmp_path):
    got = _tree(tmp_path, 'pkg.solve(y, t, "heun", "loud")')
    # measured: GB0119 at each registered step's super().__init__ and at the base's
    assert {("pkg/steps.py", 19, "BL306"), ("pkg/steps.py", 14, "BL306"), ("pkg/steps.py", 7, "BL306")} <= got
    # the base's print is met while the first trace inlines the construction: still a break
    assert ("pkg/steps.py", 9, "BL201") in got


def test_an_object_passed_to_a_helper_is_not_a_new_object_there(tmp_path):
    got = _tree(tmp_path, "solve_given(y, t)")
    assert ("pkg/steps.py", 27, "BL101") in got
    assert not any(code == "BL507" for _, _, code in got)


def test_a_table_with_a_class_whose_method_does_not_break_gives_a_guarded_finding(tmp_path):
    interface = INTERFACE.replace('SOLVERS = {"loud": Solver}', 'SOLVERS = {"loud": Solver, "quiet": Quiet}')
    from breaklint.lint.config import Settings
    from breaklint.lint.runner import check_paths
    _tree(tmp_path, 'pkg.solve(y, t, "heun", "quiet")', interface)
    result = check_paths([str(tmp_path)], Settings(), jobs=1, use_cache=False)
    found = [f for f in result.findings if f.code == "BL507"]
    assert [f.row for f in found] == [15]
    assert found[0].breaks_when == "not isinstance(solver, Quiet)"
    # not a sure break: nothing is taken to run eagerly
    assert not any(f.code == "BL306" for f in result.findings)


def test_a_table_of_classes_whose_method_never_breaks(tmp_path):
    interface = INTERFACE.replace('SOLVERS = {"loud": Solver}', 'SOLVERS = {"quiet": Quiet}')
    got = _tree(tmp_path, 'pkg.solve(y, t, "heun", "quiet")', interface)
    assert not any(code in ("BL507", "BL306") for _, _, code in got)
