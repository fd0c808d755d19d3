"""Issue #11, scope: a subclass of a torch.distributions class is model code. A model's forward
builds distributions and transforms and calls their methods (`Normal(mu, s).log_prob(x)`,
`t(x)`, `t.inv(y)`), so Dynamo traces them: their API methods are entry points, like forward."""
from .helpers import check_tree, scopes_of


def test_same_file_subclasses_of_each_kind():
    scopes = scopes_of("""
        import torch
        import torch.distributions as dist
        from torch.distributions import constraints
        from torch.distributions.transforms import Transform

        class Spiky(dist.Normal):
            def log_prob(self, value):
                return self._helper(value)
            def _helper(self, value):
                return value
            def _unused(self, value):
                return value
            def __repr__(self):
                return "Spiky()"
            @property
            def mean(self):
                return self.loc

        class Shift(Transform):
            def __init__(self, shift):
                super().__init__()
                self.shift = shift
            def _call(self, x):
                return x + self.shift
            def _inverse(self, y):
                return y - self.shift
            def log_abs_det_jacobian(self, x, y):
                return torch.zeros_like(x)

        class Shifted(Shift):
            def _call(self, x):
                return x + 2 * self.shift

        class Positive(constraints.Constraint):
            def check(self, value):
                return value > 0

        class Plain:
            def log_prob(self, value):
                return value
        """)
    assert {"Spiky.log_prob", "Spiky._helper", "Spiky.mean", "Shift.__init__", "Shift._call", "Shift._inverse",
            "Shift.log_abs_det_jacobian", "Shifted._call", "Positive.check"} <= set(scopes)
    assert not {"Spiky._unused", "Spiky.__repr__", "Plain.log_prob"} & set(scopes)
    assert "a torch.distributions transform (subclass of Shift, subclass of torch.distributions.transforms" \
           ".Transform)" in scopes["Shifted._call"].reason


def test_base_in_another_file_reaches_the_subclass_methods(tmp_path):
    got = check_tree(tmp_path, {
        "flows/__init__.py": "",
        "flows/base.py": """
            import torch
            class TorchDistribution(torch.distributions.Distribution):
                pass
            """,
        "flows/spline.py": """
            from .base import TorchDistribution
            class Spline(TorchDistribution):
                def log_prob(self, value):
                    if (value < 0).any():
                        raise ValueError("out of support")
                    return value
                def sample(self, sample_shape=()):
                    n = self.count.item()
                    return n
            class NotADistribution:
                def log_prob(self, value):
                    if (value < 0).any():
                        raise ValueError("out of support")
                    return value
            """,
    })
    assert ("flows/spline.py", 4, "BL101") in got
    assert ("flows/spline.py", 8, "BL103") in got
    assert not {row for path, row, _ in got if path == "flows/spline.py" and row > 10}



def test_torchs_own_classes_when_the_tree_is_torch(tmp_path):
    """Linting torch.distributions itself: the base classes are defined in the tree, so no import
    names them. A class whose own dotted name is a torch.distributions class is one, and so are its
    subclasses in the same file (the dev split lints torch/distributions/)."""
    found = check_tree(tmp_path, {
        "torch/__init__.py": "",
        "torch/distributions/__init__.py": "",
        "torch/distributions/transforms.py": """
            class Transform:
                def __call__(self, x):
                    return self._call(x)
                def _call(self, x):
                    raise NotImplementedError

            class PowerTransform(Transform):
                def _call(self, x):
                    print("power", x)
                    return x.pow(2)

            class NotTorch:
                def _call(self, x):
                    print("plain", x)
                    return x
            """,
        "torch/distributions/utils.py": """
            def helper(x):
                return x
            """,
    })
    assert ("torch/distributions/transforms.py", 9, "BL201") in found
    assert not any(row == 14 for path, row, _ in found if path.endswith("transforms.py"))
