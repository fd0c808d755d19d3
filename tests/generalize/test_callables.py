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


def test_a_bound_method_chosen_by_a_conditional_in_a_base_class_elsewhere(tmp_path):
    """pytorch-metric-learning's GenericPairLoss: `self.loss_method = (self.mat_based_loss if m else
    self.pair_based_loss)` in the base's __init__, and each subclass's `_compute_loss` behind it."""
    got = check_tree(tmp_path, {
        "losses/__init__.py": "",
        "losses/base.py": """
            import torch
            from torch import nn
            class GenericPair(nn.Module):
                def __init__(self, mat_based):
                    super().__init__()
                    self.loss_method = (
                        self.mat_loss if mat_based else self.pair_loss
                    )
                def forward(self, x):
                    return self.loss_method(x)
                def mat_loss(self, x):
                    return self._compute_loss(x)
                def pair_loss(self, x):
                    return self._compute_loss(x)
                def _compute_loss(self, x):
                    raise NotImplementedError
            """,
        "losses/contrastive.py": """
            from .base import GenericPair
            class Contrastive(GenericPair):
                def _compute_loss(self, x):
                    if x.sum() > 0:
                        return x
                    return -x
            """,
    })
    assert ("losses/contrastive.py", 4, "BL101") in got


def test_methods_named_by_a_getattr_template_on_self(tmp_path):
    """pytorch-metric-learning's reducers: `getattr(self, "{}_reduction".format(kind))` and
    `getattr(self, f"assert_sizes_{kind}")` run methods of the object's class or its subclasses; a
    method the template does not match, and getattr with a plain variable, reach nothing."""
    got = check_tree(tmp_path, {
        "reducers/__init__.py": "",
        "reducers/base.py": """
            from torch import nn
            class BaseReducer(nn.Module):
                def forward(self, losses, kind, name):
                    getattr(self, f"assert_sizes_{kind}")(losses)
                    getattr(self, name)
                    return self.get_reduction_func(kind)(losses)
                def get_reduction_func(self, kind):
                    return getattr(self, "{}_reduction".format(kind))
                def assert_sizes_pair(self, losses):
                    print("checked", losses.shape)
                def log_stats(self, losses):
                    print(losses)
            """,
        "reducers/divisor.py": """
            from .base import BaseReducer
            class DivisorReducer(BaseReducer):
                def pair_reduction(self, losses):
                    if losses.sum() != 0:
                        return losses / 2
                    return losses
                def unrelated(self, losses):
                    print(losses)
            """,
    })
    assert ("reducers/base.py", 10, "BL201") in got
    assert ("reducers/divisor.py", 4, "BL101") in got
    assert not {row for path, row, _ in got if (path, row) in {("reducers/base.py", 12), ("reducers/divisor.py", 8)}}


def test_getattr_templates_read_as_patterns():
    import ast
    from breaklint.analysis.summary import getattr_template

    def template(text):
        return getattr_template(ast.parse(text, mode="eval").body, "self")

    assert template('getattr(self, f"{kind}_reduction")') == r"\w+_reduction"
    assert template('getattr(self, "assert_sizes_{}".format(kind))') == r"assert_sizes_\w+"
    assert template('getattr(self, "forward_" + mode)') == r"forward_\w+"
    assert template('getattr(self, "%s_hook" % name)') == r"\w+_hook"
    assert template('getattr(self, name)') is None               # nothing constant: any method
    assert template('getattr(self, "weight")') is None           # a constant: an attribute read
    assert template('getattr(other, f"{kind}_x")') is None       # not the object's own class


def test_getattr_templates_never_reach_dunders_nor_any_private_method(tmp_path):
    """`getattr(self, "_" + self.reduction)` read as `_\\w+` matched `__init__` and every private
    method; a template needs some real name in its constant text, and dunders never match."""
    got = check_tree(tmp_path, {
        "m.py": """
            import torch
            from torch import nn
            class Model(nn.Module):
                def __init__(self, reduction="mean"):
                    super().__init__()
                    self.reduction = reduction
                    print("built")
                def forward(self, x):
                    return getattr(self, "_" + self.reduction)(x)
                def _debug_report(self, x):
                    print(x.tolist())
            """,
        "other.py": "x = 1\n",
    })
    assert not got


def test_the_default_of_a_getattr_is_still_followed(tmp_path):
    got = check_tree(tmp_path, {
        "base.py": """
            from torch import nn
            class Base(nn.Module):
                def forward(self, x):
                    return getattr(self, f"run_{self.mode}", self.fallback)(x)
                def fallback(self, x):
                    return x
            """,
        "child.py": """
            from base import Base
            class Child(Base):
                mode = "fast"
                def fallback(self, x):
                    print(x.tolist())
                    return x
            """,
    })
    assert ("child.py", 5, "BL201") in got


def test_a_getattr_in_a_comment_or_a_string_is_no_call(tmp_path):
    got = check_tree(tmp_path, {
        "base.py": """
            class Base:
                def dispatch(self, x):
                    # old way: return getattr(self, f"debug_{self.mode}")(x)
                    note = 'getattr(self, f"debug_{self.mode}")'
                    return x
                def debug_dump(self, x):
                    print(x.tolist())
            """,
        "model.py": """
            from torch import nn
            from base import Base
            class Model(nn.Module, Base):
                def forward(self, x):
                    return self.dispatch(x)
            """,
    })
    assert not {row for path, row, _ in got if path == "base.py"}


def test_an_annotated_attribute_keeps_its_annotation_whatever_its_value(tmp_path):
    """`self.tail: Head = {...}[name]`: the value is no name, the annotation still types the attribute."""
    got = check_tree(tmp_path, {
        "heads.py": """
            class Head:
                def run(self, x):
                    print(x.tolist())
                    return x
            """,
        "model.py": """
            from torch import nn
            from heads import Head
            class Model(nn.Module):
                def __init__(self, name="a"):
                    super().__init__()
                    self.tail: Head = {"a": Head()}[name]
                def forward(self, x):
                    return self.tail.run(x)
            """,
    })
    assert ("heads.py", 3, "BL201") in got


def test_a_comment_inside_a_conditional_bound_method_keeps_both_branches():
    from breaklint.analysis.project import _rhs_bindings

    rhs = "(\n    self.mat_loss  # matrix form\n    if mat_based else self.pair_loss\n)"
    assert _rhs_bindings(rhs) == [("self method", "mat_loss"), ("self method", "pair_loss")]
