"""A callable a parameter defaults to, called in traced code (issue #11 item 5, stop 26).

Measured on Dynamo 2.13 (backend="eager"): `self.norm = norm` in `__init__(self, norm=rms_norm)` and
`def helper(x, act=loud): return act(x)` trace into the default, whose `if` on a tensor and print
break at their own lines. Found on the dev library torchode (`rms_norm`, the controllers' default norm)."""
from .helpers import check_tree, codes_by_row

SOURCE = """
    import torch
    from torch import nn
    def rms_norm(y):
        if y.sum() > 0:
            return y.pow(2).mean().sqrt()
        return y
    def loud(y):
        print("loud")
        return y
    class Ctrl(nn.Module):
        def __init__(self, norm=rms_norm):
            super().__init__()
            self.norm = norm
        def forward(self, x):
            return self.norm(x)
    def helper(x, act=loud):
        return act(x)
    class Net(nn.Module):
        def forward(self, x):
            return helper(x)
    """


def test_a_default_kept_on_self_is_followed():
    assert (5, "BL101") in codes_by_row(SOURCE)


def test_a_default_called_directly_is_followed():
    assert (9, "BL201") in codes_by_row(SOURCE)


def test_a_parameter_the_function_rebinds_is_left_to_its_binding():
    got = codes_by_row("""
        import torch
        from torch import nn
        def loud(y):
            print("loud")
            return y
        def quiet(y):
            return y
        def helper(x, act=loud):
            act = quiet
            return act(x)
        class Net(nn.Module):
            def forward(self, x):
                return helper(x)
        """)
    assert not any(code == "BL201" for _, code in got)


def test_a_default_imported_from_another_file(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/norms.py": """
            def rms_norm(y):
                print("norm")
                return y
            """,
        "pkg/ctrl.py": """
            from torch import nn
            from .norms import rms_norm
            class Ctrl(nn.Module):
                def __init__(self, norm=rms_norm):
                    super().__init__()
                    self.norm = norm
                def forward(self, x):
                    return self.norm(x)
            """,
    })
    assert ("pkg/norms.py", 2, "BL201") in got
