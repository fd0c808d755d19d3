"""Shapes the review of stop 27 compiled through Dynamo 2.13 (CPU, backend="eager") against the
cross-file BL507 / BL306, BL304-on-inputs and class-default changes: each case here gave a false positive
or a miss before its mend, and matches Dynamo's graph_breaks log now."""
from .helpers import check_tree, codes_by_row

SOLVERS = """
    import torch


    class Loud:
        def __init__(self, y):
            self.y = y

        def integrate(self, t):
            print("integrating")
            return self.y + t


    class Chatty:
        def __init__(self, y, verbose=False):
            self.y = y
            self.verbose = verbose

        def _log(self, t):
            print("step", t)

        def integrate(self, t):
            if self.verbose:
                self._log(t)
            return self.y + t


    class Guarded:
        def __init__(self, y):
            self.y = y

        def _log(self, t):
            print("step", t)

        def integrate(self, t):
            if not torch.compiler.is_compiling():
                self._log(t)
            return self.y + t


    class Factory:
        def __init__(self, y):
            self.y = y

        @classmethod
        def integrate(cls, t):
            print("class")
            return t
    """


def _api(body: str) -> dict:
    return {"pkg/__init__.py": "", "pkg/solvers.py": SOLVERS, "pkg/api.py": body, "model.py": """
        from torch import nn
        from pkg.api import run

        class Net(nn.Module):
            def forward(self, y, t):
                return run(y, t)
        """}


def _bl507(tmp_path, body: str) -> set:
    return {row for path, row, code in check_tree(tmp_path, _api(body)) if code == "BL507"}


def test_a_helper_called_under_a_condition_is_no_sure_break(tmp_path):
    # measured: no break at all (the flag is False), so no GB0092
    assert _bl507(tmp_path, """
        from .solvers import Chatty

        def run(y, t):
            solver = Chatty(y)
            return solver.integrate(t)
        """) == set()


def test_a_helper_called_only_when_not_compiling_is_no_sure_break(tmp_path):
    assert _bl507(tmp_path, """
        from .solvers import Guarded

        def run(y, t):
            solver = Guarded(y)
            return solver.integrate(t)
        """) == set()


def test_a_classmethod_is_rebuilt_from_its_class(tmp_path):
    # measured: the print breaks, but no GB0092: Dynamo can rebuild a method bound to a class
    assert _bl507(tmp_path, """
        from .solvers import Factory

        def run(y, t):
            solver = Factory(y)
            return solver.integrate(t)
        """) == set()


def test_a_call_in_a_loop_breaks_in_the_loop_first(tmp_path):
    # measured: only the print, inside the loop, which skips the frame before any rebuild
    assert _bl507(tmp_path, """
        from .solvers import Loud

        def run(y, t):
            out = y
            for _ in range(2):
                solver = Loud(out)
                out = solver.integrate(t)
            return out
        """) == set()


def test_a_table_extended_at_module_level_holds_more_than_its_literal(tmp_path):
    assert _bl507(tmp_path, """
        from .solvers import Loud, Chatty

        SOLVERS = {"loud": Loud}
        SOLVERS["chatty"] = Chatty

        def run(y, t, kind="chatty"):
            solver = SOLVERS[kind](y)
            return solver.integrate(t)
        """) == set()


def test_a_constant_key_picks_its_entry(tmp_path):
    assert _bl507(tmp_path, """
        from .solvers import Loud, Chatty

        SOLVERS = {"loud": Loud, "chatty": Chatty}

        def run(y, t):
            solver = SOLVERS["chatty"](y)
            return solver.integrate(t)
        """) == set()


def test_a_registry_filled_by_keyword_is_not_known(tmp_path):
    files = _api("""
        from .solvers import Loud

        TABLE = {}

        def register(name, cls):
            TABLE[name] = cls

        def run(y, t, kind="quiet"):
            solver = TABLE[kind](y)
            return solver.integrate(t)
        """)
    files["pkg/__init__.py"] = """
        from .api import register
        from .solvers import Loud, Chatty
        register("loud", Loud)
        register(name="chatty", cls=Chatty)
        """
    assert not any(code == "BL507" for _, _, code in check_tree(tmp_path, files))


def test_a_module_built_under_a_condition_in_an_eager_function_carries_it(tmp_path):
    from breaklint.lint.config import Settings
    from breaklint.lint.runner import check_paths
    files = _api("""
        from torch import nn
        from .solvers import Loud

        class Plain(nn.Module):
            def __init__(self):
                super().__init__()

        def run(y, t, flag=False):
            if flag:
                p = Plain()
            solver = Loud(y)
            return solver.integrate(t)
        """)
    check_tree(tmp_path, files)
    found = [f for f in check_paths([str(tmp_path)], Settings(), jobs=1, use_cache=False).findings if f.code == "BL306"]
    assert [(f.row, f.breaks_when) for f in found] == [(6, "flag")]


def test_requires_grad_on_a_loop_over_modules_is_not_flagged():
    # measured: no break (modules have requires_grad_ too)
    got = codes_by_row("""
        from torch import nn

        def unfreeze(mods, t):
            for m in mods:
                m.requires_grad_(True)
            return mods[0](t)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.mods = nn.ModuleList([nn.Linear(3, 3), nn.Linear(3, 3)])

            def forward(self, t):
                return unfreeze(self.mods, t)
        """)
    assert not any(code == "BL304" for _, code in got)


def test_numpy_over_a_tuple_shape_is_flagged():
    # measured: int(np.prod(shape)) of a tuple breaks too (numpy turns it into an array, a tensor to Dynamo)
    got = codes_by_row("""
        import numpy as np
        from torch import nn

        class Net(nn.Module):
            def forward(self, x):
                return x.reshape(int(np.prod((x.shape[0], x.shape[1]))))
        """)
    assert (7, "BL103") in got


def test_an_object_the_function_builds_and_keeps_on_self(tmp_path):
    # measured: `self.solver = Loud(y); self.solver.integrate(t)` in forward gives GB0092 at the call,
    # whether or not __init__ made one before; an object only __init__ made does not
    got = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/solvers.py": SOLVERS, "pkg/net.py": """
        import torch
        from torch import nn
        from .solvers import Loud

        class Rebuilds(nn.Module):
            def __init__(self):
                super().__init__()
                self.solver = Loud(torch.ones(3))

            def forward(self, y, t):
                self.solver = Loud(y)
                return self.solver.integrate(t) + 1

        class Keeps(nn.Module):
            def __init__(self):
                super().__init__()
                self.solver = Loud(torch.ones(3))

            def forward(self, y, t):
                return self.solver.integrate(t) + 1
        """})
    assert {row for path, row, code in got if code == "BL507"} == {12}


def test_a_same_file_object_kept_on_self():
    got = codes_by_row("""
        import torch
        from torch import nn

        class Loud:
            def __init__(self, y):
                self.y = y

            def integrate(self, t):
                print("x")
                return self.y + t

        class Net(nn.Module):
            def forward(self, y, t):
                self.solver = Loud(y)
                out = t * 2
                return self.solver.integrate(out) + 1
        """)
    assert (17, "BL507") in got
