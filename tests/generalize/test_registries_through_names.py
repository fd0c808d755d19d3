"""A class looked up by getattr on a module, kept in a name and built later (issue #11, stop 26).

`cls = getattr(pkg.dists, name); dist = cls(2)`, kept on self by a module class made in the same
factory: `self.dist.log_prob(x)` runs the log_prob of one of the classes pkg.dists exports. Found on
the dev library normflows, whose distributions were never in scope when built this way."""
from .helpers import check_tree

LIB = {
    "pkg/__init__.py": "from . import dists\n",
    "pkg/dists/__init__.py": "from .base import Diag, Mixture\n",
    "pkg/dists/base.py": """
        import torch
        class Diag:
            def log_prob(self, x):
                if x.sum() > 0:
                    return x
                return -x
        class Mixture:
            def log_prob(self, x):
                return x.tolist()
        """,
}


def test_a_name_bound_to_getattr_then_called_holds_one_of_the_module_classes(tmp_path):
    got = check_tree(tmp_path, dict(LIB, **{"user.py": """
        import torch
        import pkg
        def build(name):
            cls = getattr(pkg.dists, name)
            dist = cls(2)
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.dist = dist
                def forward(self, x):
                    return self.dist.log_prob(x)
            return M()
        """}))
    assert ("pkg/dists/base.py", 4, "BL101") in got
    assert ("pkg/dists/base.py", 9, "BL104") in got


def test_a_constant_name_is_not_a_registry(tmp_path):
    got = check_tree(tmp_path, dict(LIB, **{"user.py": """
        import torch
        import pkg
        def build():
            cls = getattr(pkg.dists, "Diag")
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.dist = cls()
                def forward(self, x):
                    return self.dist.log_prob(x)
            return M()
        """}))
    assert not any(code == "BL104" for _, _, code in got)
