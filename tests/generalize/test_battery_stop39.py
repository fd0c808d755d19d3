"""Mends of stop 39, each shape run through Dynamo 2.13 (CPU, eager backend) in the test itself.

- A function a registrar of the same file puts in a module-level table (`@register("clip")` over `def clip`,
  with `def register(name): def deco(fn): ACTS[name] = fn`), or a module-level `ACTS["clip"] = clip`, is
  traced when traced code calls `ACTS[key](x)`: Dynamo looks the function up in the table and inlines it.
  Through other files the call graph followed it already; in one file the table's empty literal was all
  the scope read.
- A method that breaks, called on an object that a function of the same file builds and returns
  (`solver = make_solver(sde); solver.integrate(y)`), has no source for Dynamo to rebuild it from, as one built
  in the traced function itself: "Reconstruction failure" at the call, and the function runs eagerly (BL507).
"""
import pytest

from .helpers import assert_breaks_at, check_tree

REGISTRY_ENTRY = """
    import torch
    from pkg.acts import Net


    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = Net()

        def forward(self, x):
            return self.net(x)
    """


def _registry(register: str, decorate: str, store: str = "") -> dict:
    return {"pkg/__init__.py": "", "entry.py": REGISTRY_ENTRY, "pkg/acts.py": f"""
        from torch import nn

        ACTS = {{}}

{register}


        {decorate}
        def clip(x):
            if x.max() > 1:
                return x.clamp(max=1)
            return x
        {store}

        class Net(nn.Module):
            def __init__(self, act="clip"):
                super().__init__()
                self.act = act

            def forward(self, x):
                return ACTS[self.act](x)
        """}


FACTORY = """
        def register(name):
            def deco(fn):
                ACTS[name] = fn
                return fn
            return deco"""
DIRECT = """
        def add(fn):
            ACTS[fn.__name__] = fn
            return fn"""


@pytest.mark.parametrize("register, decorate, store", [
    (FACTORY, '@register("clip")', ""),
    (DIRECT, "@add", ""),
    ("", "", 'ACTS["clip"] = clip'),
], ids=["decorator-factory", "decorator", "module-level-store"])
def test_a_function_registered_in_a_table_of_the_same_file_is_traced(tmp_path, register, decorate, store):
    files = _registry(register, decorate, store)
    row = files["pkg/acts.py"].splitlines().index("        def clip(x):") + 1  # the `if` below the def
    assert_breaks_at(tmp_path, files, "pkg/acts.py", row, "BL101")


def test_a_registrar_of_another_table_does_not_fill_this_one(tmp_path):
    files = _registry(FACTORY.replace("ACTS[name]", "OTHER[name]"), '@register("clip")')
    files["pkg/acts.py"] = files["pkg/acts.py"].replace("ACTS = {}", "ACTS = {}\n        OTHER = {}")
    assert not {f for f in check_tree(tmp_path, files) if f[0] == "pkg/acts.py" and f[2] == "BL101"}


FACTORY_MADE = {
    "pkg/__init__.py": "",
    "entry.py": """
        import torch
        from pkg.solve import sdeint


        class M(torch.nn.Module):
            def forward(self, x):
                return sdeint(x)
        """,
    "pkg/solve.py": """
        class Euler:
            def __init__(self, dt):
                self.dt = dt

            def integrate(self, y):
                if y.abs().max() > 10:
                    y = y.clamp(-10, 10)
                return y * (1 - self.dt)


        SOLVERS = {"euler": Euler}


        def make_solver(method, dt):
            return SOLVERS[method](dt)


        def sdeint(y, method="euler"):
            solver = make_solver(method, 0.1)
            return solver.integrate(y)
        """,
}


def test_a_breaking_method_of_an_object_a_factory_of_the_file_returns_is_bl507(tmp_path):
    assert_breaks_at(tmp_path, FACTORY_MADE, "pkg/solve.py", 20, "BL507")


def test_a_factory_that_may_return_something_else_is_not_followed(tmp_path):
    files = dict(FACTORY_MADE)
    files["pkg/solve.py"] = files["pkg/solve.py"].replace(
        "            return SOLVERS[method](dt)", "            if dt is None:\n                return None\n"
        "            return SOLVERS[method](dt)")
    assert not {f for f in check_tree(tmp_path, files) if f[2] == "BL507"}
