"""Issue #11, item 1: a model's forward is traced however its class reaches nn.Module."""
from .helpers import check_tree, scopes_of


def test_issue_repro_two_levels_local_and_imported(tmp_path):
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            from torch import nn
            class PreTrainedModel(nn.Module):
                pass
            """,
        "pkg/model.py": """
            from .base import PreTrainedModel
            class FooPreTrained(PreTrainedModel):
                pass
            class Foo(FooPreTrained):
                def forward(self, lengths):
                    assert lengths.max().item() <= 3
                    return lengths
            """,
    })
    assert ("pkg/model.py", 6, "BL103") in got


def test_reexport_absolute_import_mixins_and_three_files(tmp_path):
    got = check_tree(tmp_path, {
        "lib/__init__.py": "from .modeling_utils import PreTrainedModel\n",
        "lib/mixins.py": """
            class GenerationMixin:
                def generate(self):
                    return None
            """,
        "lib/modeling_utils.py": """
            import torch.nn as nn
            from .mixins import GenerationMixin
            class PreTrainedModel(nn.Module, GenerationMixin):
                def post_init(self):
                    pass
            """,
        "lib/models/__init__.py": "",
        "lib/models/bar.py": """
            from typing import Generic, TypeVar
            from lib import PreTrainedModel
            T = TypeVar("T")
            class BarPreTrained(PreTrainedModel):
                base_model_prefix = "bar"
            class BarMid(Generic[T], BarPreTrained):
                pass
            class Bar(BarMid):
                def forward(self, x):
                    print("x")
                    return x
            """,
    })
    assert ("lib/models/bar.py", 10, "BL201") in got


def test_single_file_chain_to_an_unresolvable_base_is_decided_by_evidence():
    scopes = scopes_of("""
        from somewhere import Base
        class Pre(Base):
            pass
        class Deep(Pre):
            pass
        class Model(Deep):
            def forward(self, x):
                return self.proj(x)
        class Config(Deep):
            def forward(self):
                return None
        """)
    assert "Model.forward" in scopes
    assert "unresolved" in scopes["Model.forward"].reason
    assert "Config.forward" not in scopes  # no tensor in, no submodule called: no evidence


def test_bases_under_type_checking_and_try_import():
    scopes = scopes_of("""
        from typing import TYPE_CHECKING
        try:
            from torch import nn
        except ImportError:
            nn = None
        if TYPE_CHECKING:
            import torch
        class A(nn.Module):
            pass
        if True:
            class B(A):
                pass
        class C(B):
            def forward(self, x):
                return x
        class D(torch.nn.Module):
            def forward(self, x):
                return x
        """)
    assert {"C.forward", "D.forward"} <= set(scopes)
    assert "torch.nn.Module" in scopes["C.forward"].reason


def test_decorated_forward_is_traced_unless_dynamo_is_disabled():
    scopes = scopes_of("""
        import functools
        import torch
        from torch import nn
        from torch.compiler import disable as no_compile
        from .utils import add_start_docstrings_to_model_forward
        class A(nn.Module):
            @add_start_docstrings_to_model_forward("doc")
            def forward(self, x):
                return x
        class B(nn.Module):
            @torch.no_grad()
            @functools.wraps(len)
            def forward(self, x):
                return x
        class C(nn.Module):
            @no_compile
            def forward(self, x):
                return x
        class D(nn.Module):
            @torch._dynamo.disable
            def forward(self, x):
                return x
        """)
    assert "A.forward" in scopes and "B.forward" in scopes
    assert "C.forward" not in scopes and "D.forward" not in scopes


def test_every_scope_says_why_it_is_traced():
    scopes = scopes_of("""
        import torch
        from torch import nn
        class Net(nn.Module):
            def forward(self, x):
                return helper(x)
        def helper(x):
            return x
        @torch.compile
        def step(x):
            return x
        """)
    assert "nn.Module" in scopes["Net.forward"].reason
    assert "Net.forward" in scopes["helper"].reason
    assert "torch.compile" in scopes["step"].reason


def test_a_module_without_evidence_is_found_through_the_tree(tmp_path):
    # forward(self) takes nothing and calls nothing on self: only the other file says it is a module.
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            import torch
            class Base(torch.nn.Module):
                pass
            """,
        "pkg/pos.py": """
            from .base import Base
            class Mid(Base):
                pass
            class Positions(Mid):
                def forward(self):
                    print("positions")
                    return None
            """,
    })
    assert ("pkg/pos.py", 6, "BL201") in got


def test_private_torch_module_bases():
    scopes = scopes_of("""
        from torch.nn.modules.instancenorm import _InstanceNorm
        class InstanceNorm(_InstanceNorm):
            def forward(self, x):
                return x
        """)
    assert "InstanceNorm.forward" in scopes


def test_an_override_a_torch_base_s_forward_calls_through_a_base_in_another_file(tmp_path):
    # nn.Conv1d.forward calls self._conv_forward: the override runs whenever the module is called, the
    # torch base reached through a class of another file (torch_api.FORWARD_HOOKS); another method does not
    got = check_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """
            from torch import nn
            class Conv1d(nn.Conv1d):
                pass
            """,
        "pkg/model.py": """
            from .base import Conv1d
            class MyConv(Conv1d):
                def _conv_forward(self, x, weight, bias):
                    print("conv")
                    return super()._conv_forward(x, weight, bias)
                def _check_input_dim(self, x):
                    print("not a Conv1d hook")
            """,
    })
    assert ("pkg/model.py", 4, "BL201") in got
    assert ("pkg/model.py", 7, "BL201") not in got
