"""Scope shapes from stop 30's battery of common library idioms (35 multi-file packages, each run
through Dynamo 2.13 and `--show-scope`) that were out of scope, mended in stop 30.

Each package's `entry.py` builds `M`; every function that Dynamo traces holds `int(x.sum().item())`, so
a finding there (BL103) shows the function is in scope. `test_dynamo_traces_every_flagged_helper`
checks, where torch is installed, that Dynamo breaks on exactly those rows.

- `act = staticmethod(swish)` in a class body, `swish` imported from another file.
- `self.ops = fns` with `fns` an imported module: `self.ops.helper(x)`.
- `self.ts = [T() for T in TRANSFORMS]` and `{k: cls() for k, cls in HEADS.items()}` with the classes in
  another file's list or dict; elements read through `.values()`.
- `type(self).helper(x)` and `self.__class__.helper(x)`.
- `Out(x).norm()`: a method of an object just made whose name is also a tensor method's.
- `Chain([cb1, cb2])` keeping `self.fns = list(fns)` and calling each.
- `norm_cls = MyNorm` in a class body and `self.norm = self.norm_cls()`; `act_fn = staticmethod(gelu)`
  in a base class of another file.
- `try: from fast_ext import kern` / `except ImportError: from pkg.slow import kern`: the tree's fallback.
- Method aliases in a class body (`__call__ = apply`, `forward = _forward_impl`).
- `self.flows = nn.ModuleList(flows)` with `Seq([Planar(), Planar()])`: the elements' methods.
- A function that a lambda in another file's dict calls (`ACTS = {"gelu": lambda x: gelu_tanh(x)}`).
- `self.bijector.inverse(y, ctx)` on an object of unknown class: Tensor.inverse takes no argument, so
  the tree's methods of that name are followed (as other names are).
- A function registered with `torch.distributions.register_kl`, where traced code calls `kl_divergence`
  (where nothing calls it, the function stays out: test_review_stop30).
- Registries a decorator fills (`REG[name] = cls` inside `def register(name)`), of classes or functions,
  read through `REG[name]` or a factory returning `REG[name]()`.
"""

import pytest

from .helpers import check_tree, dynamo_package_rows, package_files

PACKAGES = {
    "staticmethod_of_an_imported_function": {
        "pkg/acts.py": """
            import torch
            def swish(x):
                int(x.sum().item())
                return x * torch.sigmoid(x)
            """,
        "entry.py": """
            import torch
            from pkg.acts import swish
            class M(torch.nn.Module):
                act = staticmethod(swish)
                def forward(self, x):
                    return self.act(x)
            """,
    },
    "module_kept_on_self": {
        "pkg/fns.py": """
            def helper(x):
                int(x.sum().item())
                return x * 2
            """,
        "entry.py": """
            import torch
            from pkg import fns
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.ops = fns
                def forward(self, x):
                    return self.ops.helper(x)
            """,
    },
    "instances_of_a_list_of_classes": {
        "pkg/lib.py": """
            class A:
                def __call__(self, x):
                    int(x.sum().item())
                    return x + 1
            class B:
                def __call__(self, x):
                    int(x.sum().item())
                    return x * 2
            TRANSFORMS = [A, B]
            """,
        "entry.py": """
            import torch
            from pkg.lib import TRANSFORMS
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.ts = [T() for T in TRANSFORMS]
                def forward(self, x):
                    for t in self.ts:
                        x = t(x)
                    return x
            """,
    },
    "instances_of_a_dict_of_classes": {
        "pkg/heads.py": """
            class Head:
                def __call__(self, x):
                    int(x.sum().item())
                    return x * 2
            HEADS = {"a": Head}
            """,
        "entry.py": """
            import torch
            from pkg.heads import HEADS
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.heads = {k: cls() for k, cls in HEADS.items()}
                def forward(self, x):
                    out = x
                    for h in self.heads.values():
                        out = out + h(x)
                    return out
            """,
    },
    "methods_of_the_objects_own_class": {
        "pkg/base.py": """
            import torch
            class Base(torch.nn.Module):
                @staticmethod
                def helper(x):
                    int(x.sum().item())
                    return x * 3
                @classmethod
                def other(cls, x):
                    int(x.sum().item())
                    return x * 2
            """,
        "entry.py": """
            import torch
            from pkg.base import Base
            class M(Base):
                def forward(self, x):
                    return type(self).helper(x) + self.__class__.other(x)
            """,
    },
    "tensor_method_name_on_an_object_just_made": {
        "pkg/out.py": """
            class Out:
                def __init__(self, x):
                    self.x = x
                def norm(self):
                    int(self.x.sum().item())
                    return self.x / 2
            """,
        "entry.py": """
            import torch
            from pkg.out import Out
            class M(torch.nn.Module):
                def forward(self, x):
                    return Out(x).norm()
            """,
    },
    "functions_listed_to_a_constructor": {
        "pkg/fns.py": """
            def cb1(x):
                int(x.sum().item())
                return x + 1
            def cb2(x):
                int(x.sum().item())
                return x * 2
            """,
        "entry.py": """
            import torch
            from pkg.fns import cb1, cb2
            class Chain(torch.nn.Module):
                def __init__(self, fns):
                    super().__init__()
                    self.fns = list(fns)
                def forward(self, x):
                    for f in self.fns:
                        x = f(x)
                    return x
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.chain = Chain([cb1, cb2])
                def forward(self, x):
                    return self.chain(x)
            """,
    },
    "classes_a_decorator_registers": {
        "pkg/reg.py": """
            REG = {}
            def register(name):
                def deco(cls):
                    REG[name] = cls
                    return cls
                return deco
            def build(name):
                return REG[name]()
            """,
        "pkg/ops.py": """
            from .reg import register
            @register("scale")
            class Scale:
                def __call__(self, x):
                    int(x.sum().item())
                    return x * 2
            """,
        "entry.py": """
            import torch
            import pkg.ops
            from pkg.reg import build
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.op = build("scale")
                def forward(self, x):
                    return self.op(x)
            """,
    },
    "functions_a_decorator_registers": {
        "pkg/reg.py": """
            LOSSES = {}
            def register_loss(fn):
                LOSSES[fn.__name__] = fn
                return fn
            """,
        "pkg/losses.py": """
            from . import reg
            @reg.register_loss
            def l2(x):
                int(x.sum().item())
                return (x ** 2).mean()
            """,
        "entry.py": """
            import torch
            import pkg.losses
            from pkg.reg import LOSSES
            class M(torch.nn.Module):
                def __init__(self, loss="l2"):
                    super().__init__()
                    self.loss = LOSSES[loss]
                def forward(self, x):
                    return self.loss(x)
            """,
    },
    "class_attribute_holding_a_class": {
        "pkg/norm.py": """
            class MyNorm:
                def __call__(self, x):
                    int(x.sum().item())
                    return x / 2
            """,
        "pkg/base.py": """
            import torch
            from .norm import MyNorm
            class Base(torch.nn.Module):
                norm_cls = MyNorm
                def __init__(self):
                    super().__init__()
                    self.norm = self.norm_cls()
            """,
        "entry.py": """
            from pkg.base import Base
            class M(Base):
                def forward(self, x):
                    return self.norm(x)
            """,
    },
    "staticmethod_in_a_base_class_of_another_file": {
        "pkg/acts.py": """
            def gelu(x):
                int(x.sum().item())
                return x * 0.5
            """,
        "pkg/base.py": """
            import torch
            from .acts import gelu
            class Base(torch.nn.Module):
                act_fn = staticmethod(gelu)
            """,
        "entry.py": """
            from pkg.base import Base
            class M(Base):
                def forward(self, x):
                    return self.act_fn(x)
            """,
    },
    "fallback_import_of_an_optional_kernel": {
        "pkg/slow.py": """
            def kern(x):
                int(x.sum().item())
                return x * 2
            """,
        "entry.py": """
            import torch
            try:
                from fastkern_not_installed import kern
            except ImportError:
                from pkg.slow import kern
            class M(torch.nn.Module):
                def forward(self, x):
                    return kern(x)
            """,
    },
    "method_aliases_in_a_class_body": {
        "pkg/steps.py": """
            import torch
            class Shift:
                def apply(self, x):
                    int(x.sum().item())
                    return x + 1
                __call__ = apply
            class Block(torch.nn.Module):
                def _forward_impl(self, x):
                    int(x.sum().item())
                    return x * 2
                forward = _forward_impl
            """,
        "entry.py": """
            import torch
            from pkg.steps import Block, Shift
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.shift = Shift()
                    self.block = Block()
                def forward(self, x):
                    return self.block(self.shift(x))
            """,
    },
    "modulelist_of_a_constructor_argument": {
        "pkg/flows.py": """
            import torch
            class Planar(torch.nn.Module):
                def forward(self, x):
                    return x
                def inverse(self, y):
                    int(y.sum().item())
                    return y
            class Seq(torch.nn.Module):
                def __init__(self, flows):
                    super().__init__()
                    self.flows = torch.nn.ModuleList(flows)
                def inverse(self, y):
                    for f in reversed(self.flows):
                        y = f.inverse(y)
                    return y
            """,
        "entry.py": """
            import torch
            from pkg.flows import Planar, Seq
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.flow = Seq([Planar(), Planar()])
                def forward(self, x):
                    return self.flow.inverse(x)
            """,
    },
    "function_a_lambda_in_another_files_dict_calls": {
        "pkg/acts.py": """
            def gelu_tanh(x):
                int(x.sum().item())
                return x * 0.5
            ACTS = {"gelu": lambda x: gelu_tanh(x), "id": lambda x: x}
            """,
        "entry.py": """
            import torch
            from pkg.acts import ACTS
            class M(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.act = ACTS["gelu"]
                def forward(self, x):
                    return self.act(x)
            """,
    },
    "tensor_method_name_called_with_arguments": {
        "pkg/flows.py": """
            import torch
            class Bijector(torch.nn.Module):
                def forward(self, x):
                    return x
                def inverse(self, y, context=None):
                    return self._inverse(y)
            class Shift(Bijector):
                def _inverse(self, y):
                    x = y
                    int(x.sum().item())
                    return y - 1
            class Flow(torch.nn.Module):
                def __init__(self, bijector):
                    super().__init__()
                    self.bijector = bijector(shape=(4,))
                def forward(self, y):
                    return self.bijector.inverse(y, None)
            """,
        "entry.py": """
            from pkg.flows import Flow, Shift
            class M(Flow):
                def __init__(self):
                    super().__init__(lambda shape: Shift())
            """,
    },
    "kl_function_registered_with_torch": {
        "pkg/di.py": """
            import torch
            from torch.distributions import Distribution, constraints
            class MyDist(Distribution):
                arg_constraints = {}
                support = constraints.real
                def __init__(self, loc):
                    self.loc = loc
                    super().__init__(loc.shape, validate_args=False)
            """,
        "pkg/kl.py": """
            from torch.distributions import register_kl
            from .di import MyDist
            @register_kl(MyDist, MyDist)
            def _kl_my(p, q):
                x = p.loc
                int(x.sum().item())
                return (p.loc - q.loc) ** 2
            """,
        "entry.py": """
            import torch
            from torch.distributions import kl_divergence
            import pkg.kl
            from pkg.di import MyDist
            class M(torch.nn.Module):
                def forward(self, x):
                    return kl_divergence(MyDist(x), MyDist(x * 2))
            """,
    },
}

# (file, row) of each `int(x.sum().item())` that Dynamo traces, per package.
EXPECTED = {
    "staticmethod_of_an_imported_function": {("pkg/acts.py", 3)},
    "module_kept_on_self": {("pkg/fns.py", 2)},
    "instances_of_a_list_of_classes": {("pkg/lib.py", 3), ("pkg/lib.py", 7)},
    "instances_of_a_dict_of_classes": {("pkg/heads.py", 3)},
    "methods_of_the_objects_own_class": {("pkg/base.py", 5), ("pkg/base.py", 9)},
    "tensor_method_name_on_an_object_just_made": {("pkg/out.py", 5)},
    "functions_listed_to_a_constructor": {("pkg/fns.py", 2), ("pkg/fns.py", 5)},
    "classes_a_decorator_registers": {("pkg/ops.py", 5)},
    "functions_a_decorator_registers": {("pkg/losses.py", 4)},
    "class_attribute_holding_a_class": {("pkg/norm.py", 3)},
    "staticmethod_in_a_base_class_of_another_file": {("pkg/acts.py", 2)},
    "fallback_import_of_an_optional_kernel": {("pkg/slow.py", 2)},
    "method_aliases_in_a_class_body": {("pkg/steps.py", 4), ("pkg/steps.py", 9)},
    "modulelist_of_a_constructor_argument": {("pkg/flows.py", 6)},
    "function_a_lambda_in_another_files_dict_calls": {("pkg/acts.py", 2)},
    "tensor_method_name_called_with_arguments": {("pkg/flows.py", 10)},
    "kl_function_registered_with_torch": {("pkg/kl.py", 6)},
}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_every_helper_dynamo_traces_is_in_scope(tmp_path, name):
    found = check_tree(tmp_path, package_files(PACKAGES, name))
    flagged = {(path, row) for path, row, code in found if code == "BL103" and path.startswith("pkg/")}
    assert flagged == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_dynamo_traces_every_flagged_helper(tmp_path, name):
    pytest.importorskip("torch")
    assert dynamo_package_rows(tmp_path, package_files(PACKAGES, name)) == EXPECTED[name]
