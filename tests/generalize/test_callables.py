"""Issue #11, item 5: callables the call graph did not follow: function-valued names, dicts of
functions, functools.partial, callables kept on self, methods of an attribute's class, properties,
and `__call__` of plain classes."""
from .helpers import check_tree, codes_by_row, scopes_of


def test_function_valued_names_dicts_and_partials_in_one_file():
    scopes = scopes_of("""
        import functools
        import torch
        from torch import nn
        def rq(x): return x
        def unconstrained_rq(x): return x
        def relu_act(x): return x
        def gelu_act(x): return x
        def scaled(x, s): return x * s
        ACTS = {"relu": relu_act, "gelu": gelu_act}
        class Flow(nn.Module):
            def forward(self, x, tails=None, act="relu"):
                spline_fn = rq if tails is None else unconstrained_rq
                y = spline_fn(x)
                y = ACTS[act](y)
                f = functools.partial(scaled, s=2)
                return f(y)
        """)
    assert {"rq", "unconstrained_rq", "relu_act", "gelu_act", "scaled"} <= set(scopes)


def test_callables_and_objects_kept_on_self():
    scopes = scopes_of("""
        from functools import partial
        import torch
        from torch import nn
        def norm(x): return x
        class Spline:
            def __init__(self, bins):
                self.bins = bins
            def inverse(self, x):
                return x
            def __call__(self, x):
                return self.inverse(x)
            @property
            def width(self):
                return 2
        class Flow(nn.Module):
            def __init__(self):
                super().__init__()
                self._transform = Spline(4)
                self.norm_fn = partial(norm)
            @property
            def scale(self):
                return 3
            def forward(self, x):
                x = self._transform.inverse(x) * self.scale
                x = self._transform(x)
                return self.norm_fn(x)
        """)
    assert {"Spline.inverse", "Spline.__call__", "Flow.scale", "norm"} <= set(scopes)


def test_a_hazard_reached_through_a_function_valued_name_across_files(tmp_path):
    got = check_tree(tmp_path, {
        "flows/__init__.py": "",
        "flows/splines.py": """
            def rq_spline(inputs):
                print("rq")
                return inputs
            def unconstrained_rq_spline(inputs):
                return inputs.nonzero()
            """,
        "flows/transform.py": """
            import torch
            from . import splines
            class Spline:
                def inverse(self, x):
                    print("inverse")
                    return x
            class Coupling(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self._transform = Spline()
                def forward(self, inputs, tails=None):
                    spline_fn = splines.rq_spline if tails is None else splines.unconstrained_rq_spline
                    out = spline_fn(inputs)
                    return self._transform.inverse(out)
            """,
    })
    assert {("flows/splines.py", 2, "BL201"), ("flows/splines.py", 5, "BL401"),
            ("flows/transform.py", 5, "BL201")} <= got


def test_a_property_read_in_forward_is_traced():
    got = codes_by_row("""
        import torch
        from torch import nn
        class Net(nn.Module):
            @property
            def limit(self):
                print("limit")
                return 3
            def forward(self, x):
                return x * self.limit
        """)
    assert (7, "BL201") in got
