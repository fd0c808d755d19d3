"""Mends of stop 34, each shape run through Dynamo 2.13 (CPU, eager backend).

A function that returns a class itself, picked at run time, and a caller that builds what it returns:
`solver_fn = methods.select(method); solver = solver_fn(sde, bm)`, or `methods.select(method)(sde, bm)`.
Before, only `return Euler` on a line of its own was read, and only to type the object's attributes: the
class's __init__ was never in scope, and a pick out of a dict literal, a conditional, a dict the function
builds or a module-level table of another file typed nothing (so `self.bm(t0, t1)` reached nothing).
Found by a synthetic solver-shaped package (no library's code), the factory shape of SDE and ODE solvers.
"""
import pytest

from .helpers import check_tree, dynamo_package_rows

SELECTS = {
    "dict": 'return {"euler": base.Euler, "heun": base.Heun}[method]',
    "conditional": 'return base.Euler if method == "euler" else base.Heun',
    "local dict": 'table = {"euler": base.Euler, "heun": base.Heun}\n    return table[method]',
    "table": "return base.SOLVERS[method]",
    "table get": "return base.SOLVERS.get(method)",
    "imported table": "return SOLVERS[method]",
}
BUILDS = {
    "bound": "solver_fn = methods.select(method)\n    solver = solver_fn(sde, bm)",
    "at once": "solver = methods.select(method)(sde, bm)",
}


def select_package(select: str, build: str) -> dict:
    # the templates below are dedented as a whole: a second line of a body keeps their indentation
    select, build = (text.replace("\n    ", "\n" + " " * 16) for text in (select, build))
    return {
        "pkg/__init__.py": "from pkg.api import integrate\n",
        "pkg/base.py": """
            import torch


            class Brownian:
                def __init__(self, size):
                    self.size = size

                def __call__(self, ta, tb):
                    print("draw")  # Dynamo 2.13: GB0209
                    return torch.randn(self.size) * (tb - ta)


            class Solver:
                def __init__(self, sde, bm):
                    print("built")  # Dynamo 2.13: GB0209
                    self.sde = sde
                    self.bm = bm


            class Euler(Solver):
                def step(self, t0, t1, y):
                    return y + self.sde(y) * (t1 - t0) + self.bm(t0, t1)


            class Heun(Solver):
                def step(self, t0, t1, y):
                    return y + self.bm(t0, t1)


            SOLVERS = {"euler": Euler, "heun": Heun}
            """,
        "pkg/methods.py": f"""
            from pkg import base
            from pkg.base import SOLVERS


            def select(method):
                {select}
            """,
        "pkg/api.py": f"""
            from pkg import methods
            from pkg.base import Brownian


            def integrate(sde, y0, method="euler"):
                bm = Brownian(y0.shape)
                {build}
                return solver.step(0.0, 1.0, y0)
            """,
        "entry.py": """
            import torch
            import pkg


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.sde = torch.nn.Linear(4, 4)

                def forward(self, x):
                    return pkg.integrate(self.sde, x)
            """,
    }


@pytest.mark.parametrize("build", sorted(BUILDS))
@pytest.mark.parametrize("select", sorted(SELECTS))
def test_a_class_a_function_picks_is_built_where_its_result_is_called(tmp_path, select, build):
    found = check_tree(tmp_path, select_package(SELECTS[select], BUILDS[build]))
    prints = {(path, row) for path, row, code in found if code == "BL201"}
    assert ("pkg/base.py", 9) in prints  # Brownian.__call__, through the solver's self.bm
    assert ("pkg/base.py", 15) in prints  # Solver.__init__, the class the function returned being built


def test_a_class_picked_but_never_called_is_not_built(tmp_path):
    """`kind = methods.select(method)` only compared: no constructor runs, and nothing types `self.bm`."""
    files = select_package(SELECTS["dict"], "kind = methods.select(method)\n    solver = base_solver")
    files["pkg/api.py"] = files["pkg/api.py"].replace("from pkg.base import Brownian",
                                                      "from pkg.base import Brownian, Euler\nbase_solver = None")
    files["pkg/api.py"] = files["pkg/api.py"].replace("return solver.step(0.0, 1.0, y0)",
                                                      "return y0 if isinstance(bm, kind) else -y0")
    found = check_tree(tmp_path, files)
    assert not {("pkg/base.py", 9, "BL201"), ("pkg/base.py", 15, "BL201")} & found


def test_dynamo_breaks_where_marked(tmp_path):
    pytest.importorskip("torch")
    rows = dynamo_package_rows(tmp_path, select_package(SELECTS["dict"], BUILDS["bound"]))
    assert {("pkg/base.py", 9), ("pkg/base.py", 15)} <= rows


# BL106: a tensor turned into a tuple or list (`tuple(lengths)`) compared with a display: its elements are 0-d
# tensors and Python compares them one by one (GB6622). Found by probing Dynamo 2.13 with the registry's
# list_richcompare_nonconst; before, only displays that spell a tensor (`[a.sum(), 1] == ...`) were read.
CONVERTED = '''import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x):
        lengths = (x[:, 0] > 0).long()
        if tuple(lengths) == (1, 0, 1, 0):  # Dynamo 2.13: GB6622
            x = x * 2
        if list(lengths) == [1, 1, 1, 1]:  # Dynamo 2.13: GB6622
            x = x * 3
        if tuple(x.shape) == (4, 4):  # ints: no break
            x = x + 1
        if list(lengths) == []:  # lengths differ: decided without the elements
            x = x + 2
        return x
'''


def test_a_tensor_turned_into_a_tuple_compared_with_a_display():
    from .helpers import codes_by_row

    got = {row for row, code in codes_by_row(CONVERTED) if code == "BL106"}
    assert got == {8, 10}


def test_dynamo_breaks_where_marked_converted(tmp_path):
    pytest.importorskip("torch")
    from .helpers import dynamo_break_rows

    marked = {i for i, line in enumerate(CONVERTED.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert dynamo_break_rows(CONVERTED, ["Net"], tmp_path) == marked

