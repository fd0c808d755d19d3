"""Calls followed across files: re-exports, relative imports, base classes in other files,
overrides in subclasses, name dispatch on untyped receivers, argument facts, cache and fixes."""
import textwrap

import pytest

from breaklint.analysis.project import ProjectGraph, module_name
from breaklint.lint.runner import check_paths, fix_paths
from breaklint.lint.config import Settings

FILES = {
    "pkg/__init__.py": "",
    "pkg/utils/__init__.py": """
        from .num import maybe_num_nodes
        from .loop import remove_self_loops
        """,
    "pkg/utils/num.py": """
        def maybe_num_nodes(edge_index, num_nodes=None):
            if num_nodes is not None:
                return num_nodes
            return int(edge_index.max()) + 1
        """,
    "pkg/utils/loop.py": """
        from .num import maybe_num_nodes

        def remove_self_loops(edge_index):
            mask = edge_index[0] != edge_index[1]
            edge_index = edge_index[:, mask]
            n = maybe_num_nodes(edge_index)
            print("removed", n)
            return edge_index

        def never_called_from_traced_code(x):
            print(x)
        """,
    "pkg/base.py": """
        import torch

        class MessagePassing(torch.nn.Module):
            def propagate(self, x):
                return self.message(x)

            def message(self, x):
                return x
        """,
    "pkg/conv.py": """
        import torch
        from pkg.utils import remove_self_loops
        from .base import MessagePassing

        class Conv(MessagePassing):
            def forward(self, x, edge_index):
                edge_index = remove_self_loops(edge_index)
                return self.propagate(x)

            def message(self, x):
                print("message")
                return x
        """,
    "pkg/solvers.py": """
        class Solver:
            def integrate(self, t):
                print("integrating")
                return t
        """,
    "pkg/ode.py": """
        import torch
        from .solvers import Solver

        SOLVERS = {"s": Solver}

        class Ode(torch.nn.Module):
            def forward(self, t):
                solver = SOLVERS["s"]()
                return solver.integrate(t)
        """,
}


@pytest.fixture
def tree(tmp_path):
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return tmp_path


def found(result, root):
    return {(str(f.path)[len(str(root)) + 1:], f.row, f.code) for f in result.findings}


def test_module_names_follow_the_package_layout(tree):
    assert module_name(str(tree / "pkg/utils/loop.py")) == ("pkg.utils.loop", False)
    assert module_name(str(tree / "pkg/utils/__init__.py")) == ("pkg.utils", True)


def test_hazards_in_other_files_are_found_with_their_chain(tree):
    result = check_paths([str(tree)], Settings(), jobs=1, use_cache=False)
    got = found(result, tree)
    assert got == {
        ("pkg/utils/loop.py", 5, "BL401"),   # x[mask] in a helper reached through a re-export
        ("pkg/utils/loop.py", 7, "BL201"),
        ("pkg/utils/num.py", 4, "BL103"),    # one call deeper: needs the argument facts of round 2
        ("pkg/conv.py", 11, "BL201"),        # an override that the base class's propagate calls
        ("pkg/solvers.py", 3, "BL201"),      # solver.integrate(): dispatched by its rare name
        ("pkg/ode.py", 9, "BL507"),          # ... on an object forward builds: GB0092 (stop 27)
    }
    chains = {(f.path.rsplit("/", 1)[-1], f.row): f.chain for f in result.findings}
    assert chains[("num.py", 4)] == ("Conv.forward", "remove_self_loops", "maybe_num_nodes")
    assert chains[("conv.py", 11)] == ("Conv.forward", "MessagePassing.propagate", "Conv.message")
    message = next(f.message for f in result.findings if f.path.endswith("num.py"))
    assert message.endswith("(called from Conv.forward -> remove_self_loops)")


def test_one_file_alone_knows_nothing_of_its_callers(tree):
    result = check_paths([str(tree / "pkg/utils/loop.py")], Settings(), jobs=1, use_cache=False)
    assert result.findings == []


def test_common_method_names_are_not_dispatched_by_name(tree):
    (tree / "pkg/solvers.py").write_text("class Cache:\n    def update(self, t):\n        print(t)\n")
    (tree / "pkg/ode.py").write_text(textwrap.dedent("""
        import torch

        class Ode(torch.nn.Module):
            def forward(self, t, d):
                d.update(t)
                return t
        """))
    result = check_paths([str(tree)], Settings(), jobs=1, use_cache=False)
    assert not any(f.path.endswith("solvers.py") for f in result.findings)


def test_warm_cache_gives_the_same_findings(tree, monkeypatch):
    monkeypatch.chdir(tree)
    settings = Settings(root=str(tree))
    cold = found(check_paths([str(tree)], settings, jobs=1), tree)
    warm = found(check_paths([str(tree)], settings, jobs=1), tree)
    assert cold == warm and len(cold) == 6


def test_parallel_run_gives_the_same_findings(tree):
    for i in range(20):  # above the pool threshold
        (tree / "pkg" / f"extra{i}.py").write_text("x = 1\n")
    serial = found(check_paths([str(tree)], Settings(), jobs=1, use_cache=False), tree)
    parallel = found(check_paths([str(tree)], Settings(), jobs=2, use_cache=False), tree)
    assert serial == parallel and len(serial) == 6


def test_fix_reaches_cross_file_findings(tree):
    # The guard reuses the module's own torch import (#12: a fix never adds a hard torch dependency).
    loop = tree / "pkg/utils/loop.py"
    loop.write_text("import torch\n" + loop.read_text())
    settings = Settings()
    result = check_paths([str(tree)], settings, jobs=1, use_cache=False)
    fix_paths(result, settings, unsafe=False, write=True)
    text = (tree / "pkg/utils/loop.py").read_text()
    assert "if not torch.compiler.is_compiling():\n        print(\"removed\", n)" in text
    again = check_paths([str(tree)], settings, jobs=1, use_cache=False)
    left = [f for f in again.findings if f.code == "BL201"]
    # solvers.py imports no torch: a guard would make torch a hard dependency, so no fix, and why.
    assert [f.path.rsplit("/", 1)[-1] for f in left] == ["solvers.py"]
    assert "does not import torch" in left[0].message and left[0].fix is None


def test_graph_resolves_relative_and_reexported_names(tree):
    from breaklint.lint.engine import FileLinter
    from breaklint.lint.runner import lint_settings

    summaries = {}
    for path in tree.rglob("*.py"):
        linter = FileLinter(str(path), path.read_text(), lint_settings(Settings()), want_summary=True)
        linter.run()
        summaries[str(path)] = linter.summary
    graph = ProjectGraph(summaries)
    kind, path, name = graph.resolve("pkg.utils.remove_self_loops")
    assert (kind, path.endswith("pkg/utils/loop.py"), name) == ("function", True, "remove_self_loops")
    assert graph.resolve("pkg.utils.nothing_here") is None
    external = graph.external_entries()
    loop = next(v for k, v in external.items() if k.endswith("loop.py"))
    assert set(loop) == {"remove_self_loops"}  # never_called_from_traced_code stays out
    assert loop["remove_self_loops"].sites[0][0] == (True,)  # forward's edge_index is a tensor


def test_the_last_definition_of_an_overloaded_function_is_the_one_traced(tmp_path):
    (tmp_path / "lib.py").write_text(textwrap.dedent("""
        from typing import overload

        @overload
        def drop(x: int) -> int: ...

        def drop(x):
            print("dropping")
            return x
        """))
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        import torch
        from lib import drop

        class Net(torch.nn.Module):
            def forward(self, x):
                return drop(x)
        """))
    result = check_paths([str(tmp_path)], Settings(), jobs=1, use_cache=False)
    assert [(f.path.rsplit("/", 1)[-1], f.row, f.code) for f in result.findings] == [("lib.py", 8, "BL201")]
