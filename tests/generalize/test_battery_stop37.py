"""Mends of stop 37, each shape run through Dynamo 2.13 (CPU, eager backend) in the test itself.

- A builtin generic alias defined in another file (`Detail = dict[str, Tensor]` in `pkg/kinds.py`) and
  used as a type key in traced code (`cast(list[Detail], parts)`): it breaks (BL508; ptwt's `_util.py`).
  So does building a TypedDict with optional keys imported from another file (GB0257; BL502 knew the
  building file's own TypedDicts only): the same import facts serve both.
- `x.requires_grad_(True)` on a parameter nothing types, handed a tensor by its caller, breaks
  ("Unsupported Tensor.requires_grad_() call"); only typed parameters were flagged (torch_struct's
  `logpartition`). A parameter used as a module (called, asked for its parameters) is not flagged: a
  module's `requires_grad_(True)` is traced.
- A tree inside a foreign root (torch's own `torch/distributions`): `from torch.distributions.utils import f`
  names a function of the linted tree, which the call graph followed nowhere (torch was a root whose
  callees are never linted).
- `self.inner.infer(x)` on an object nothing types, in a file whose own package defines no `infer` (a
  script wrapping a library's model, torchaudio's `Tacotron2.infer`): the classes of the other packages
  linted with it that define one, where few do (the rare-name dispatch looked in the caller's package only).
- `abs(n)` of a number is a number, and so is `a if c else b` of two: `n = round(n.item()) if isinstance(n,
  torch.Tensor) else round(n)` with `n` computed from shapes and `abs(diag)` is no tensor read
  (torch.distributions' `vec_to_tril_matrix`).
"""
import os

import pytest

from breaklint.lint.config import Settings
from breaklint.lint.runner import check_paths

from .helpers import assert_breaks_at, check_tree, dynamo_package_rows, entry_calling, write_tree


ALIAS_ACROSS_FILES = {
    "pkg/__init__.py": "",
    "pkg/kinds.py": """
        import torch

        Detail = dict[str, torch.Tensor]
        """,
    "pkg/ops.py": """
        from typing import cast

        import torch

        from .kinds import Detail


        def split(x):
            parts: list[Detail] = [{"a": x}]          # an annotation: never evaluated
            return cast(list[Detail], parts)[0]["a"] * 2
        """,
    "entry.py": entry_calling("ops", "split"),
}


def test_generic_alias_from_another_file_as_a_type_key_breaks(tmp_path):
    assert_breaks_at(tmp_path, ALIAS_ACROSS_FILES, "pkg/ops.py", 10, "BL508")


def test_alias_in_an_annotation_or_a_typing_alias_is_not_flagged(tmp_path):
    files = dict(ALIAS_ACROSS_FILES)
    files["pkg/kinds.py"] = """
        from typing import Dict

        import torch

        Detail = Dict[str, torch.Tensor]
        """
    assert not {f for f in check_tree(tmp_path, files) if f[2] == "BL508"}
    assert {f for f in check_tree(tmp_path / "own", ALIAS_ACROSS_FILES) if f[2] == "BL508"} == {("pkg/ops.py", 10, "BL508")}


REQUIRES_GRAD = {
    "pkg/__init__.py": "",
    "pkg/chain.py": """
        import torch


        class Chain:
            def score(self, potentials, scale):
                potentials.requires_grad_(True)
                return potentials.sum() * scale

            def tune(self, block, x):
                block.requires_grad_(True)
                return block(x)
        """,
    "entry.py": """
        import torch
        from pkg.chain import Chain


        class M(torch.nn.Module):
            def forward(self, x):
                chain = Chain()
                held = {"x": x}               # what the caller hands is not typed
                return chain.score(held["x"], 2.0) + chain.tune(torch.nn.Identity(), x).sum()
        """,
}


def test_requires_grad_on_an_untyped_parameter_breaks(tmp_path):
    assert_breaks_at(tmp_path, REQUIRES_GRAD, "pkg/chain.py", 6, "BL304")


def test_requires_grad_on_a_parameter_used_as_a_module_is_not_flagged(tmp_path):
    found = check_tree(tmp_path, REQUIRES_GRAD)
    assert ("pkg/chain.py", 10, "BL304") not in found
    pytest.importorskip("torch")
    assert ("pkg/chain.py", 10) not in dynamo_package_rows(tmp_path / "dynamo", REQUIRES_GRAD)


INSIDE_TORCH = {
    # a tree whose top package is named torch, as torch/distributions is: its absolute imports are its own
    "torch/__init__.py": "",
    "torch/dist/__init__.py": "",
    "torch/dist/utils.py": """
        def pick(x):
            print("pick")
            return x
        """,
    "torch/dist/transforms.py": """
        from torch.dist.utils import pick


        class Transform:
            def __call__(self, x):
                return pick(x)
        """,
    "torch/dist/model.py": """
        from torch import nn

        from torch.dist.transforms import Transform


        class Model(nn.Module):
            def forward(self, x):
                return Transform()(x)
        """,
}


def test_a_tree_inside_a_foreign_root_follows_its_own_absolute_imports(tmp_path):
    # only torch/dist is linted, as torch/distributions is: torch.nn stays torch's
    write_tree(tmp_path, INSIDE_TORCH)
    result = check_paths([str(tmp_path / "torch" / "dist")], Settings(), jobs=1, use_cache=False)
    assert ("utils.py", 2, "BL201") in {(os.path.basename(str(f.path)), f.row, f.code) for f in result.findings}


def test_abs_of_a_number_is_no_tensor(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/tri.py": """
            import torch
            from torch import nn


            class Tri(nn.Module):
                def forward(self, vec, diag: int = 0):
                    n = (8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5 / 2
                    k = round(n.item()) if isinstance(n, torch.Tensor) else round(n)
                    m = (8 * vec.shape[-1]) ** 0.5 / 2
                    m = round(m.item()) if isinstance(m, torch.Tensor) else round(m)  # re-bound so: no tensor
                    return vec * k * m
            """,
    }
    assert not {f for f in check_tree(tmp_path, files) if f[2] == "BL103"}


FROM_ANOTHER_PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/models.py": """
        import torch


        class Speech(torch.nn.Module):
            def forward(self, x):
                return x

            def infer(self, x):
                print("infer")
                return x * 2
        """,
    # a script (no package) holding a library's model it got untyped, as a user's training script does
    "entry.py": """
        import importlib

        import torch


        class Wrap(torch.nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, x):
                return self.inner.infer(x)


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.wrap = Wrap(importlib.import_module("pkg.models").Speech())

            def forward(self, x):
                return self.wrap(x)
        """,
}


def test_a_method_called_on_an_untyped_object_reaches_another_packages_classes(tmp_path):
    # the caller's own package defines no `infer`: the rare name is looked up in the packages linted with it
    assert_breaks_at(tmp_path, FROM_ANOTHER_PACKAGE, "pkg/models.py", 9, "BL201")


# The review of stop 37 (a helper, 98 shapes through breaklint and Dynamo 2.13).
REVIEWED_ALIASES = {
    "pkg/__init__.py": "",
    "pkg/kinds.py": """
        from typing import TYPE_CHECKING

        import torch

        Detail = dict[str, torch.Tensor]
        if TYPE_CHECKING:
            Guarded = dict[str, torch.Tensor]
        else:
            Guarded = dict
        """,
    "pkg/ops.py": """
        from typing import cast

        from .kinds import Detail, Guarded


        def union(x):
            return cast(Detail | None, {"a": x})["a"] * 2


        def guarded(x):
            return cast(list[Guarded], [{"a": x}])[0]["a"] * 2


        def shadowed(x):
            return (lambda Detail: cast(list[Detail], [x]))(int)[0] * 2
        """,
    "entry.py": """
        import torch
        from pkg.ops import guarded, shadowed, union


        class M(torch.nn.Module):
            def forward(self, x):
                return guarded(x) + shadowed(x) + union(x)
        """,
}


def test_review_a_union_of_an_alias_breaks_and_a_twice_bound_or_shadowed_name_does_not(tmp_path):
    found = {(p, r) for p, r, c in check_tree(tmp_path / "static", REVIEWED_ALIASES) if c == "BL508"}
    assert found == {("pkg/ops.py", 7)}
    pytest.importorskip("torch")
    rows = dynamo_package_rows(tmp_path / "dynamo", REVIEWED_ALIASES)
    assert ("pkg/ops.py", 7) in rows and not {("pkg/ops.py", 11), ("pkg/ops.py", 15)} & rows


def test_review_requires_grad_on_a_parameter_read_as_a_module_is_not_flagged(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/tune.py": """
            def tune(m, x):
                m.requires_grad_(True)
                return x @ m.weight.t()


            def run(m, x):
                m.requires_grad_(True)
                return m.forward(x)
            """,
        "entry.py": """
            import importlib

            import torch
            from pkg.tune import run, tune


            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = torch.nn.Linear(4, 4)

                def forward(self, x):
                    held = {"m": self.lin}
                    return tune(held["m"], x) + run(held["m"], x)
            """,
    }
    assert not {f for f in check_tree(tmp_path / "static", files) if f[2] == "BL304"}
    pytest.importorskip("torch")
    assert not {r for r in dynamo_package_rows(tmp_path / "dynamo", files) if r[0] == "pkg/tune.py"}


OPTIONAL_TYPEDDICT = {
    "pkg/__init__.py": "",
    "pkg/kinds.py": """
        from typing import TypedDict


        class Opts(TypedDict, total=False):
            scale: float


        class Required(TypedDict):
            scale: float
        """,
    "pkg/use.py": """
        from .kinds import Opts, Required


        def scaled(x):
            kept = Required(scale=3.0)               # every key required: traced
            return x * Opts(scale=2.0)["scale"] * kept["scale"]
        """,
    "entry.py": entry_calling("use", "scaled"),
}


def test_a_typeddict_with_optional_keys_from_another_file_breaks_where_it_is_built(tmp_path):
    # BL502 knew only the TypedDicts of the file that builds them (GB0257, "TypedDict with optional keys")
    assert_breaks_at(tmp_path, OPTIONAL_TYPEDDICT, "pkg/use.py", 6, "BL502")
    assert ("pkg/use.py", 5, "BL502") not in check_tree(tmp_path / "again", OPTIONAL_TYPEDDICT)


def test_review_numbers_through_locals_and_rebinding_are_no_tensor_reads(tmp_path):
    # the review: known numbers were decided in one pass over the function's bindings (met in reverse order),
    # so `diag = 1; n = diag + 1` and the self-reading `k = k.item() if isinstance(k, Tensor) else k` stayed open
    files = {
        "pkg/__init__.py": "",
        "pkg/tri.py": """
            import torch
            from torch import nn


            class Tri(nn.Module):
                def forward(self, x, y):
                    k = abs(x.shape[0] - 5)
                    k = k.item() if isinstance(k, torch.Tensor) else k
                    diag = 1
                    n = diag + 1
                    n = round(n.item()) if isinstance(n, torch.Tensor) else round(n)
                    y = y + 1                                  # an untyped parameter: still maybe a tensor
                    return x * k * n + y.item()
            """,
    }
    found = {(r, c) for p, r, c in check_tree(tmp_path, files) if c == "BL103"}
    assert found == {(13, "BL103")}


def test_review_requires_grad_with_a_variable_flag_on_an_untyped_parameter_breaks(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/grad.py": """
            def lift(p, flag):
                p.requires_grad_(flag)
                return p * 2
            """,
        "entry.py": """
            import torch
            from pkg.grad import lift


            class M(torch.nn.Module):
                def forward(self, x):
                    held = {"x": x}
                    return lift(held["x"], True)
            """,
    }
    assert_breaks_at(tmp_path, files, "pkg/grad.py", 2, "BL304")
