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


# BL504: the first use of a sparse tensor in a traced function: one it made, one a function of another file
# returns (the call graph's `returns_sparse`), and one sparse by contract (torch.sparse.mm's first argument,
# `m.coalesce()`). Dynamo 2.13 breaks there ("Attempted to wrap sparse Tensor") and runs the rest of the
# function eagerly. Found by the dev split's ptwt and torch_geometric misses (sparse wavelet and adjacency
# matrices handed between helpers).
SPARSE = {
    "pkg/__init__.py": "",
    "pkg/mats.py": """
        import torch


        def build(n):
            index = torch.tensor([[0, 1], [1, 0]])
            adj = torch.sparse_coo_tensor(index, torch.ones(2), (n, n))
            return adj


        def dense(n):
            return build(n).to_dense()
        """,
    "pkg/ops.py": """
        import torch
        from pkg.mats import build, dense


        def apply(x):
            adj = build(x.shape[0])
            y = x * 2
            return adj.to_dense() @ y


        def multiply(matrix, x):
            k = x.shape[0]
            if matrix.shape[1] != k:
                raise ValueError("shapes")
            return torch.sparse.mm(matrix, x)


        def plain(x):
            d = dense(x.shape[0])
            return d @ x


        def twice(matrix, x):
            y = x + 1
            return multiply(matrix, y)
        """,
    "entry.py": """
        import torch
        from pkg import ops


        class M(torch.nn.Module):
            def forward(self, x):
                y = ops.plain(x)
                z = ops.apply(x)
                return y + z + ops.multiply(torch.eye(4).to_sparse(), x[:, None])[:, 0]
        """,
}
# A parameter handed on to a call that takes it as sparse: the call is where the frame first uses it.
SPARSE_PASSED = dict(SPARSE, **{"entry.py": """
    import torch
    from pkg import ops


    class M(torch.nn.Module):
        def forward(self, x):
            return ops.twice(torch.eye(4).to_sparse(), x[:, None])[:, 0]
    """})


def test_first_use_of_a_sparse_tensor(tmp_path):
    found = {(path, row) for path, row, code in check_tree(tmp_path, SPARSE) if code == "BL504"}
    assert {("pkg/mats.py", 6), ("pkg/mats.py", 7), ("pkg/ops.py", 8), ("pkg/ops.py", 13)} <= found
    assert not {("pkg/ops.py", 18), ("pkg/ops.py", 19)} & found  # `dense(...)` is dense


def test_dynamo_breaks_at_each_first_use(tmp_path):
    pytest.importorskip("torch")
    rows = dynamo_package_rows(tmp_path, SPARSE)
    assert {("pkg/mats.py", 6), ("pkg/mats.py", 7), ("pkg/ops.py", 8), ("pkg/ops.py", 13)} <= rows
    assert not {("pkg/ops.py", 18), ("pkg/ops.py", 19)} & rows


def test_a_sparse_parameter_handed_on(tmp_path):
    found = {(path, row) for path, row, code in check_tree(tmp_path / "static", SPARSE_PASSED) if code == "BL504"}
    assert ("pkg/ops.py", 25) in found
    pytest.importorskip("torch")
    assert ("pkg/ops.py", 25) in dynamo_package_rows(tmp_path / "dynamo", SPARSE_PASSED)


POLYMORPHIC = '''import torch
from torch import nn


def lift(src, edge_index):
    if edge_index.is_sparse:
        index = edge_index._indices()[0]
    else:
        index = edge_index[0]
    return src[index]


class Net(nn.Module):
    def forward(self, x):
        return lift(x, torch.tensor([[0, 1], [1, 0]]))
'''


def test_a_value_tested_for_sparsity_is_not_sparse_by_its_methods(tmp_path):
    """torch_geometric's `_lift`: a sparse-only method under `if edge_index.is_sparse:` says nothing of the dense
    path (a dev false positive of the first version)."""
    from .helpers import codes_by_row

    assert not {row for row, code in codes_by_row(POLYMORPHIC) if code == "BL504"}
    pytest.importorskip("torch")
    from .helpers import dynamo_break_rows

    assert dynamo_break_rows(POLYMORPHIC, ["Net"], tmp_path) == set()


# Scope: `k in obj` runs the class's __contains__, `if obj:` / `not obj` its __bool__ (else __len__). Before, only
# operators, len() and for loops were read as special-method calls. Found by a synthetic package of implicit calls.
SPECIALS = '''import torch
from torch import nn


class Trace:
    def __init__(self):
        self.nodes = {"x": 1}

    def __contains__(self, name):
        print("contains")  # Dynamo 2.13: GB0209
        return name in self.nodes

    def __bool__(self):
        print("bool")  # Dynamo 2.13: GB0059
        return True


class Contains(nn.Module):
    def forward(self, x):
        trace = Trace()
        if "x" in trace:
            x = x + 1
        return x


class Bool(nn.Module):
    def forward(self, x):
        trace = Trace()
        if not trace:
            x = x - 1
        return x
'''


def test_contains_and_bool_of_an_object_are_in_scope():
    from .helpers import codes_by_row

    assert {(10, "BL201"), (14, "BL201")} <= codes_by_row(SPECIALS)


def test_dynamo_breaks_where_marked_specials(tmp_path):
    pytest.importorskip("torch")
    from .helpers import dynamo_break_rows

    marked = {i for i, line in enumerate(SPECIALS.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert dynamo_break_rows(SPECIALS, ["Contains", "Bool"], tmp_path) == marked


# Scope: a property read on an object a factory of the same file makes (`d = make_dist(x)` with
# `def make_dist(x) -> Dist` or `return Dist(...)`; `d.mean`). Before, only `d = Dist(...)` typed the local.
FACTORY = '''import torch
from torch import nn


class Dist:
    def __init__(self, loc):
        self.loc = loc

    @property
    def mean(self):
        print("mean")  # Dynamo 2.13: GB0209
        return self.loc

    def sample(self):
        print("sample")  # Dynamo 2.13: GB0209
        return self.loc


def annotated(x) -> Dist:
    return Dist(x)


def built(x):
    return Dist(x + 1)


class Annotated(nn.Module):
    def forward(self, x):
        d = annotated(x)
        return d.mean


class Built(nn.Module):
    def forward(self, x):
        e = built(x)
        return e.sample()  # Dynamo 2.13: the print inside, at the call too
'''


def test_objects_a_factory_of_the_file_makes():
    from .helpers import codes_by_row

    assert {(11, "BL201"), (15, "BL201")} <= codes_by_row(FACTORY)


def test_dynamo_breaks_where_marked_factory(tmp_path):
    pytest.importorskip("torch")
    from .helpers import dynamo_break_rows

    marked = {i for i, line in enumerate(FACTORY.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert dynamo_break_rows(FACTORY, ["Annotated", "Built"], tmp_path) == marked


# Scope: an effect-handler stack. Handlers push `self` on a module-level list in `__enter__`; a function of
# another file calls a method on each element (`for frame in reversed(_STACK): frame.process(msg)`). With more
# handler classes than the guess by name allows (16), no handler method was in scope. Now the classes whose
# methods push `self` there (and their subclasses) type the elements. Found by a synthetic package in the
# shape of effect-handler libraries' documented design (no library's code).
def handler_package(count: int) -> dict:
    handlers = "".join(f'''

class H{i}(Handler):
    def process(self, msg):
        msg["scale"] = msg["scale"] * {i + 1}
''' for i in range(count))
    return {
        "pkg/__init__.py": "",
        "pkg/runtime.py": """
            _STACK = []


            def apply_stack(msg):
                for frame in reversed(_STACK):
                    frame.process(msg)
                return msg
            """,
        "pkg/handlers.py": '''from pkg.runtime import _STACK


class Handler:
    def __enter__(self):
        _STACK.append(self)
        return self

    def __exit__(self, *args):
        _STACK.pop()

    def process(self, msg):
        pass


class Loud(Handler):
    def process(self, msg):
        print("loud")
        msg["scale"] = msg["scale"] * 2
''' + handlers,
        "entry.py": """
            import torch
            from pkg.handlers import Loud
            from pkg.runtime import apply_stack


            class M(torch.nn.Module):
                def forward(self, x):
                    with Loud():
                        msg = apply_stack({"scale": 1.0})
                    return x * msg["scale"]
            """,
    }


def test_methods_of_handlers_on_a_module_level_stack(tmp_path):
    found = check_tree(tmp_path, handler_package(20))
    assert ("pkg/handlers.py", 18, "BL201") in found  # Loud.process, through `for frame in reversed(_STACK)`


def test_dynamo_breaks_in_the_handler(tmp_path):
    pytest.importorskip("torch")
    assert ("pkg/handlers.py", 18) in dynamo_package_rows(tmp_path, handler_package(20))


# Scope: the implementations registered for a functools.singledispatch function of the same file
# (`@norm.register(torch.Tensor)`): Dynamo 2.13 traces the dispatch into them.
DISPATCH = '''import functools

import torch
from torch import nn


@functools.singledispatch
def norm(x):
    return x


@norm.register(torch.Tensor)
def _norm_tensor(x):
    print("impl")  # Dynamo 2.13: GB0059
    return x / 2


class Net(nn.Module):
    def forward(self, x):
        return norm(x) + 1
'''


def test_singledispatch_implementations_are_in_scope():
    from .helpers import codes_by_row

    assert (14, "BL201") in codes_by_row(DISPATCH)


def test_dynamo_breaks_where_marked_dispatch(tmp_path):
    pytest.importorskip("torch")
    from .helpers import dynamo_break_rows

    marked = {i for i, line in enumerate(DISPATCH.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert dynamo_break_rows(DISPATCH, ["Net"], tmp_path) == marked


def test_handlers_pushed_through_a_helper_onto_an_aliased_stack(tmp_path):
    """`push_stack(self)` with `def push_stack(frame): _STACK.append(frame)`, and `stack = _STACK` before the loop."""
    files = handler_package(20)
    files["pkg/runtime.py"] = files["pkg/runtime.py"].replace("""def apply_stack(msg):
                for frame in reversed(_STACK):""", """def push_stack(frame):
                _STACK.append(frame)


            def apply_stack(msg):
                stack = _STACK
                for frame in reversed(stack):""")
    files["pkg/handlers.py"] = files["pkg/handlers.py"].replace("_STACK.append(self)", "push_stack(self)").replace(
        "from pkg.runtime import _STACK", "from pkg.runtime import _STACK, push_stack")
    assert "push_stack(self)" in files["pkg/handlers.py"] and "stack = _STACK" in files["pkg/runtime.py"]
    assert ("pkg/handlers.py", 18, "BL201") in check_tree(tmp_path, files)



# The review of stop 34 (a helper; each case run through Dynamo 2.13): BL504 took `.coalesce()` on any object for
# a sparse tensor, missed a sparsity test kept in a variable, read a parameter bound again on some path as sparse
# from its first assignment, took a nested def's parameter for the enclosing function's, and gave up where the
# caller's file never spells "sparse"; `if obj:` ran __len__ beside __bool__; handlers pushed onto an aliased or
# star-imported stack were missed; BL106 read `tuple(t) == (None, None)` as an element-wise test.
REVIEWED_SPARSE = {
    "graph object with coalesce": ('"""Message passing over a sparse graph."""\nimport torch\nfrom torch import nn\n\n\nclass Graph:\n    def __init__(self, edges):\n        self.edges = edges\n\n    def coalesce(self):\n        return Graph(torch.sort(self.edges).values)\n\n\nclass Net(nn.Module):\n    def forward(self, graph, x):\n        g = graph.coalesce()\n        return x + graph.edges.float().sum() + g.edges.float().sum()\n\n', set()),
    "sparsity test in a variable": ('import torch\nfrom torch import nn\n\n\ndef propagate(adj, x):\n    sparse = adj.is_sparse\n    if sparse:\n        return torch.sparse.mm(adj, x)\n    return adj @ x\n\n\nclass Net(nn.Module):\n    def forward(self, adj, x):\n        return propagate(adj, x).relu()\n\n', set()),
    "parameter bound again": ('import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def forward(self, x, adj, layout: str = "csr"):\n        if layout == "coo":\n            adj = adj.to_sparse_coo()\n        elif adj.shape[0] == adj.shape[1]:\n            adj = adj.to_sparse_csr()\n        else:\n            adj = adj.to_sparse_csc()\n        return torch.sparse.mm(adj, x)\n\n', {10, 13}),
    "nested def parameter": ('import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.weight = nn.Parameter(torch.randn(4, 4))\n\n    def forward(self, x):\n        def spmm(adj, h):\n            return torch.sparse.mm(adj, h)\n\n        adj = self.weight\n        return x @ adj\n\n', set()),
}
# the classes built and their inputs, as the review ran them
_INPUTS = {
    "graph object with coalesce": "(Graph(torch.tensor([2, 0, 1])), torch.randn(3))",
    "sparsity test in a variable": "(torch.eye(3), torch.randn(3, 4))",
    "parameter bound again": "(torch.randn(3, 4), torch.eye(3))",
    "nested def parameter": "(torch.randn(3, 4),)",
}


@pytest.mark.parametrize("case", sorted(REVIEWED_SPARSE))
def test_reviewed_sparse_cases(case):
    from .helpers import codes_by_row

    source, dynamo_rows = REVIEWED_SPARSE[case]
    made = {8, 12} if case == "parameter bound again" else set()  # constructors on paths not taken
    assert {row for row, code in codes_by_row(source) if code == "BL504"} - made == dynamo_rows - made


@pytest.mark.parametrize("case", sorted(REVIEWED_SPARSE))
def test_dynamo_on_reviewed_sparse_cases(tmp_path, case):
    pytest.importorskip("torch")
    import importlib.util
    import logging
    import re

    import torch

    source, dynamo_rows = REVIEWED_SPARSE[case]
    path = tmp_path / "reviewed.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("reviewed", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = set()

    class Sites(logging.Handler):
        def emit(self, record):
            rows.update(int(m.group(1)) for m in re.finditer(rf"Graph break in user code at {re.escape(str(path))}:(\d+)",
                                                             record.getMessage()))

    handler = Sites()
    logger = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")
    torch._logging.set_logs(graph_breaks=True)
    logger.addHandler(handler)
    try:
        torch._dynamo.reset()
        inputs = eval(_INPUTS[case], {"torch": torch, **vars(module)})
        torch.compile(module.Net(), backend="eager")(*inputs)
    finally:
        logger.removeHandler(handler)
        torch._logging.set_logs()
        torch._dynamo.reset()
    assert rows == dynamo_rows


CROSS_FILE_SPARSE = {
    "pkg/__init__.py": "",
    "pkg/graph.py": """
        import torch


        def build_adj(n):
            i = torch.arange(n)
            return torch.sparse_coo_tensor(torch.stack([i, i]), torch.ones(n), (n, n))
        """,
    "entry.py": """
        import torch
        from pkg.graph import build_adj


        class M(torch.nn.Module):
            def forward(self, x):
                adj = build_adj(x.shape[0])
                y = x * 2
                return adj.to_dense() @ y
        """,
}


def test_a_sparse_tensor_from_another_file_where_the_caller_never_says_sparse(tmp_path):
    assert "sparse" not in CROSS_FILE_SPARSE["entry.py"]
    assert ("entry.py", 9, "BL504") in check_tree(tmp_path, CROSS_FILE_SPARSE)


TRUTH = '''import torch
from torch import nn


class Cache:
    def __bool__(self):
        return True

    def __len__(self):
        print("len")  # runs only outside truth tests
        return 0


class OnlyLen:
    def __len__(self):
        print("only len")
        return 1


class Net(nn.Module):
    def forward(self, x):
        if Cache():
            x = x + 1
        if not OnlyLen():
            x = x * 2
        return x
'''


def test_truth_runs_len_only_without_bool():
    from .helpers import codes_by_row

    got = {row for row, code in codes_by_row(TRUTH) if code == "BL201"}
    assert got == {16}


def test_a_stack_aliased_or_star_imported(tmp_path):
    files = handler_package(20)
    files["pkg/handlers.py"] = files["pkg/handlers.py"].replace(
        "from pkg.runtime import _STACK", "from pkg.runtime import _STACK as S").replace("_STACK.append(self)", "S.append(self)")
    assert ("pkg/handlers.py", 18, "BL201") in check_tree(tmp_path / "alias", files)
    files = handler_package(20)
    files["pkg/runtime.py"] = files["pkg/runtime.py"].replace("_STACK", "STACK")
    files["pkg/handlers.py"] = files["pkg/handlers.py"].replace("from pkg.runtime import _STACK", "from pkg.runtime import *") \
        .replace("_STACK.append(self)", "STACK.append(self)")
    assert ("pkg/handlers.py", 18, "BL201") in check_tree(tmp_path / "star", files)


def test_a_display_starting_with_none_is_decided_at_once():
    from .helpers import codes_by_row

    source = CONVERTED.replace("if tuple(lengths) == (1, 0, 1, 0):", "if tuple(lengths) == (None, None, None, None):")
    assert (8, "BL106") not in codes_by_row(source)


# `matrix.coalesce()` counts as sparse evidence on a parameter annotated as a tensor only (ptwt's
# `_get_to_orthogonalize(matrix: torch.Tensor, ...)`), not on any object (a graph's coalesce()).
ANNOTATED = '''import torch
from torch import nn


def rows(matrix: torch.Tensor):
    return matrix.coalesce().indices()[0]  # Dynamo 2.13: GB0015


def orth(matrix, n):
    kept = rows(matrix)  # Dynamo 2.13: GB0015 (the sparse parameter handed on)
    return kept + n


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.adj = [torch.eye(4).to_sparse()]

    def forward(self, x):
        for m in self.adj:
            x = x + orth(m, 1).sum()
        return x
'''


def test_coalesce_on_an_annotated_tensor_parameter(tmp_path):
    from .helpers import codes_by_row

    marked = {i for i, line in enumerate(ANNOTATED.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert {row for row, code in codes_by_row(ANNOTATED) if code == "BL504"} == marked
    pytest.importorskip("torch")
    from .helpers import dynamo_break_rows

    assert dynamo_break_rows(ANNOTATED, ["Net"], tmp_path) == marked
