"""Mends of stop 39, each shape run through Dynamo 2.13 (CPU, eager backend) in the test itself.

- A function a registrar of the same file puts in a module-level table (`@register("clip")` over `def clip`,
  with `def register(name): def deco(fn): ACTS[name] = fn`), or a module-level `ACTS["clip"] = clip`, is
  traced when traced code calls `ACTS[key](x)`: Dynamo looks the function up in the table and inlines it.
  Through other files the call graph followed it already; in one file the table's empty literal was all
  the scope read.
- A method that breaks, called on an object that a function of the same file builds and returns
  (`solver = make_solver(sde); solver.integrate(y)`), has no source for Dynamo to rebuild it from, as one built
  in the traced function itself: "Reconstruction failure" at the call, and the function runs eagerly (BL507).
  So for a function of another file whose every return builds an object of the tree (`make(x).sample()`).
- An object passed to a function of the tree runs the methods the function calls on it through a name bound
  to it (`f = fn; f()`) or through a dict or list display holding it (`msg = {"fn": fn}; msg["fn"]()`), as
  when called on the parameter itself.
  The object is followed into the functions of the tree it, or a display holding it, is passed on to
  (`apply_stack(msg)` calling `msg["fn"](*msg["args"])`).
- So too for an object built by a method of self's class that builds on every path (`self._dist(x).rsample()`),
  by a class self holds (`dist_class = Gauss` in the class body), or by a table of classes another file
  defines and a registrar fills (`SOLVERS[method](dt).step(y)`): BL507 where the method surely breaks.
- `self.act = get_act(name)` with get_act in another file returning `{"swish": swish, ...}[name]`: swish runs.
- `getattr(ops, "act_" + name)(x)` with ops a module of the tree: its functions so named run.
- A subclass reads as tensors the attributes a base of another file makes tensors (buffers, parameters,
  `self.x = torch...`), and `self.score(x)` as a tensor where a base of another file defines `score` returning
  one on every path (judged there without its callers' facts).
- The review of these paths (a helper, 91 shapes through Dynamo 2.13): the false positives it found and the
  shapes it found broken are kept in review39_cases/, each with the rows Dynamo reported.
- A module-level name bound to an imported one (`from .core import clip as _clip; clip = _clip`) re-exports
  it: `from ._impl import clip` elsewhere is core's function.
"""
import json
import pathlib

import pytest

from .helpers import assert_breaks_at, check_tree, dynamo_package_rows, entry_calling

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


def _api_calling(body: str) -> dict:
    return {
        "pkg/__init__.py": "",
        "entry.py": entry_calling("api", "run"),
        "pkg/dist.py": """
            class D:
                def __init__(self, loc):
                    self.loc = loc

                def __call__(self):
                    return self.loc * self.loc.norm().item()
            """,
        "pkg/api.py": "from .dist import D\n\n\n" + body + "\n\ndef run(x):\n    return sample(D(x))\n",
    }


@pytest.mark.parametrize("body", [
    "def sample(fn):\n    f = fn\n    return f()\n",
    "def sample(fn):\n    msg = {\"fn\": fn, \"args\": ()}\n    return msg[\"fn\"](*msg[\"args\"])\n",
], ids=["alias", "dict-display"])
def test_an_object_passed_runs_its_call_through_a_name_or_display_holding_it(tmp_path, body):
    assert_breaks_at(tmp_path, _api_calling(body), "pkg/dist.py", 6, "BL103")


def test_an_object_passed_and_rebound_to_something_else_is_not_called_through_the_alias(tmp_path):
    body = "def sample(fn):\n    f = fn\n    f = print\n    return f\n"
    assert not {f for f in check_tree(tmp_path, _api_calling(body)) if f[0] == "pkg/dist.py"}


REBOUND = {
    "pkg/__init__.py": "",
    "entry.py": entry_calling("api", "run"),
    "pkg/_impl/core.py": "def clip(x):\n    return x * x.sum().item()\n",
    "pkg/_impl/__init__.py": "from .core import clip as _clip\n\nclip = _clip\n",
    "pkg/api.py": "from ._impl import clip\n\n\ndef run(x):\n    return clip(x)\n",
}


def test_a_module_level_name_bound_to_an_imported_function_re_exports_it(tmp_path):
    assert_breaks_at(tmp_path, REBOUND, "pkg/_impl/core.py", 2, "BL103")


OTHER_FILE_FACTORY = {
    "pkg/__init__.py": "",
    "entry.py": entry_calling("layer", "run"),
    "pkg/dist.py": """
        import torch


        class Dist:
            def __init__(self, loc):
                self.loc = loc

            def sample(self):
                return self.loc + torch.randn_like(self.loc) * self.loc.std().item()
        """,
    "pkg/make.py": "from .dist import Dist\n\n\ndef make(x):\n    return Dist(x)\n",
    "pkg/layer.py": "from .make import make\n\n\ndef run(x):\n    return make(x).sample()\n",
}


def test_a_breaking_method_of_an_object_a_factory_of_another_file_builds_is_bl507(tmp_path):
    assert_breaks_at(tmp_path, OTHER_FILE_FACTORY, "pkg/layer.py", 5, "BL507")


def test_a_factory_of_another_file_that_may_return_a_kept_object_is_not_bl507(tmp_path):
    files = dict(OTHER_FILE_FACTORY)
    files["pkg/make.py"] = ("from .dist import Dist\n\n_KEPT = None\n\n\ndef make(x):\n"
                            "    if _KEPT is not None:\n        return _KEPT\n    return Dist(x)\n")
    assert not {f for f in check_tree(tmp_path, files) if f[2] == "BL507"}


MSG_PASSED_DOWN = {
    "pkg/__init__.py": "",
    "entry.py": entry_calling("api", "run"),
    "pkg/dist.py": "class D:\n    def __init__(self, loc):\n        self.loc = loc\n\n    def __call__(self):\n"
                   "        return self.loc * self.loc.norm().item()\n",
    "pkg/runtime.py": "def default_process(msg):\n    msg['value'] = msg['fn'](*msg['args'])\n\n\n"
                      "def apply_stack(msg):\n    default_process(msg)\n    return msg\n",
    "pkg/api.py": "from .dist import D\nfrom .runtime import apply_stack\n\n\ndef sample(fn):\n"
                  "    msg = {'fn': fn, 'args': (), 'value': None}\n    apply_stack(msg)\n    return msg['value']\n\n\n"
                  "def run(x):\n    return sample(D(x))\n",
}


def test_an_object_in_a_display_passed_down_two_functions_runs_its_call(tmp_path):
    assert_breaks_at(tmp_path, MSG_PASSED_DOWN, "pkg/dist.py", 6, "BL103")


HEADS = {
    "pkg/__init__.py": "",
    "pkg/dist.py": "import torch\n\n\nclass Gauss:\n    def __init__(self, loc):\n        self.loc = loc\n\n"
                   "    def rsample(self):\n        return self.loc * float(self.loc.sum())\n",
}


@pytest.mark.parametrize("head, row", [
    ("class Head(torch.nn.Module):\n    dist_class = Gauss\n\n    def forward(self, x):\n"
     "        return self.dist_class(x).rsample()\n", 10),
    ("class Head(torch.nn.Module):\n    def _dist(self, x):\n        return Gauss(x)\n\n    def forward(self, x):\n"
     "        return self._dist(x).rsample()\n", 11),
], ids=["class-attribute", "method-factory"])
def test_a_breaking_method_of_what_self_builds_is_bl507(tmp_path, head, row):
    files = dict(HEADS)
    files["pkg/head.py"] = "import torch\n\nfrom .dist import Gauss\n\n\n" + head
    files["entry.py"] = ("import torch\nfrom pkg.head import Head\n\n\nclass M(torch.nn.Module):\n"
                         "    def __init__(self):\n        super().__init__()\n        self.h = Head()\n\n"
                         "    def forward(self, x):\n        return self.h(x)\n")
    assert_breaks_at(tmp_path, files, "pkg/head.py", row, "BL507")


REGISTERED_SOLVERS = {
    "pkg/__init__.py": "",
    "entry.py": entry_calling("api", "run"),
    "pkg/solvers/__init__.py": "SOLVERS = {}\n\n\ndef register(name):\n    def deco(cls):\n        SOLVERS[name] = cls\n"
                               "        return cls\n    return deco\n\n\nfrom . import euler  # noqa: E402\n",
    "pkg/solvers/euler.py": "from . import register\n\n\n@register('euler')\nclass Euler:\n    def __init__(self, dt):\n"
                            "        self.dt = dt\n\n    def step(self, y):\n        if y.abs().max() > 5:\n"
                            "            y = y.clamp(-5, 5)\n        return y * self.dt\n",
    "pkg/api.py": "from .solvers import SOLVERS\n\n\ndef run(x, method='euler'):\n    s = SOLVERS[method](0.1)\n"
                  "    return s.step(x)\n",
}


def test_a_breaking_method_of_an_object_from_another_files_registered_table_is_bl507(tmp_path):
    assert_breaks_at(tmp_path, REGISTERED_SOLVERS, "pkg/api.py", 6, "BL507")


ACTIVATIONS = {
    "pkg/__init__.py": "",
    "pkg/acts.py": "import torch\n\n\ndef swish(x):\n    if x.min() < -10:\n        x = x.clamp(min=-10)\n"
                   "    return x * torch.sigmoid(x)\n\n\ndef get_act(name):\n"
                   "    return {'swish': swish, 'relu': torch.relu}[name]\n",
    "pkg/layer.py": "import torch\n\nfrom .acts import get_act\n\n\nclass L(torch.nn.Module):\n"
                    "    def __init__(self, act='swish'):\n        super().__init__()\n        self.act = get_act(act)\n\n"
                    "    def forward(self, x):\n        return self.act(x)\n",
    "entry.py": "import torch\nfrom pkg.layer import L\n\n\nclass M(torch.nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n        self.l = L()\n\n    def forward(self, x):\n        return self.l(x)\n",
}


def test_a_function_a_getter_of_another_file_returns_out_of_a_display_is_traced(tmp_path):
    assert_breaks_at(tmp_path, ACTIVATIONS, "pkg/acts.py", 5, "BL101")


MODULE_GETATTR = {
    "pkg/__init__.py": "",
    "pkg/ops.py": "def act_double(x):\n    print('double')\n    return x * 2\n\n\ndef act_half(x):\n    return x / 2\n",
    "pkg/layer.py": "import torch\n\nfrom . import ops\n\n\nclass L(torch.nn.Module):\n    def __init__(self):\n"
                    "        super().__init__()\n        self.name = 'double'\n\n    def forward(self, x):\n"
                    "        return getattr(ops, 'act_' + self.name)(x)\n",
    "entry.py": ACTIVATIONS["entry.py"],
}


def test_a_function_getattr_names_on_a_module_of_the_tree_is_traced(tmp_path):
    assert_breaks_at(tmp_path, MODULE_GETATTR, "pkg/ops.py", 2, "BL201")


INHERITED = {
    "pkg/__init__.py": "",
    "pkg/base.py": "import torch\n\n\nclass Base(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                   "        self.register_buffer('scale', torch.ones(()))\n        self.temp = torch.nn.Parameter(torch.ones(()))\n\n"
                   "    def score(self, x):\n        return x.abs().mean()\n",
    "pkg/layer.py": "from .base import Base\n\n\nclass L(Base):\n    def forward(self, x):\n{body}",
    "entry.py": ACTIVATIONS["entry.py"],
}


@pytest.mark.parametrize("body, row", [
    ("        if self.scale > 0:\n            return x * self.scale\n        return x\n", 6),
    ("        if self.temp < 0:\n            return x\n        return x * self.temp\n", 6),
    ("        s = self.score(x)\n        if s > 0.5:\n            return x / s\n        return x\n", 7),
], ids=["buffer", "parameter", "method-return"])
def test_what_a_base_of_another_file_makes_a_tensor_is_one_in_the_subclass(tmp_path, body, row):
    files = dict(INHERITED)
    files["pkg/layer.py"] = files["pkg/layer.py"].format(body=body)
    assert_breaks_at(tmp_path, files, "pkg/layer.py", row, "BL101")


def test_an_attribute_the_subclass_assigns_itself_is_not_the_bases_tensor(tmp_path):
    files = dict(INHERITED)
    files["pkg/layer.py"] = ("from .base import Base\n\n\nclass L(Base):\n    def __init__(self):\n        super().__init__()\n"
                             "        self.scale = 2.0\n\n    def forward(self, x):\n        if self.scale > 0:\n"
                             "            return x * self.scale\n        return x\n")
    assert not {f for f in check_tree(tmp_path, files) if f[0] == "pkg/layer.py"}


REVIEW_CASES = pathlib.Path(__file__).parent / "review39_cases"
REVIEW_ROWS = json.loads((REVIEW_CASES / "dynamo_rows.json").read_text())
# Rows breaklint reports beyond Dynamo's, left on purpose: a class attribute a same-file subclass overrides, and a
# table entry a constant key leaves out, still put the other class's method in scope (no BL507 any more).
REVIEW_EXTRA = {"p2_class_attr_overridden_same_file": {("pkg/dists.py", 6)},
                "p2_imported_table_const_key_calm": {("pkg/solvers.py", 6)}}


def _case_files(name: str) -> dict:
    root = REVIEW_CASES / name
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.py"))}


@pytest.mark.parametrize("name", sorted(REVIEW_ROWS))
def test_the_reviews_shapes_get_dynamos_rows(tmp_path, name):
    found = {(f, r) for f, r, _code in check_tree(tmp_path, _case_files(name)) if f.startswith("pkg/")}
    assert found == {tuple(row) for row in REVIEW_ROWS[name]} | REVIEW_EXTRA.get(name, set())


@pytest.mark.parametrize("name", sorted(REVIEW_ROWS))
def test_the_reviews_rows_are_dynamos(tmp_path, name):
    pytest.importorskip("torch")
    assert dynamo_package_rows(tmp_path, _case_files(name)) == {tuple(row) for row in REVIEW_ROWS[name]}
