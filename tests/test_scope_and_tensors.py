"""The analyses every rule relies on: which functions are traced, and which values are tensors."""
import ast
import textwrap

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.analysis.names import ImportMap
from breaklint.rules.base import Rule
from breaklint.analysis.scope import ModuleScopes, ScopeSettings


class _ReportTensorConditions(Rule):
    """Test probe: reports every `if` test the tensor inference calls a tensor."""

    code = "BL999"
    name = "probe"
    summary = "probe"
    node_types = (ast.If,)

    def check(self, node, ctx):
        if ctx.is_tensor(node.test):
            ctx.report(node.test, "tensor condition")


def tensor_condition_lines(source: str) -> list[int]:
    findings, _ = lint_source(textwrap.dedent(source), "probe.py", LintSettings(rules=[_ReportTensorConditions()]))
    return [f.row for f in findings]


def scopes_of(source: str, **settings) -> dict:
    tree = ast.parse(textwrap.dedent(source))
    return ModuleScopes(tree, ImportMap(tree), ScopeSettings(**settings)).scopes


def test_forward_of_module_subclasses_direct_and_indirect():
    scopes = scopes_of("""
        import torch.nn as nn
        from torch.nn import Module

        class A(nn.Module):
            def forward(self, x): return x
        class B(A):
            def forward(self, x): return x
        class C(Module):
            def forward(self, x): return x
        class D(nn.Linear):
            def forward(self, x): return x
        class NotAModule:
            def forward(self, x): return x
        class Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x): return x
    """)
    assert set(scopes) == {"A.forward", "B.forward", "C.forward", "D.forward"}


def test_compiled_functions_and_transitive_callees_keep_their_chain():
    scopes = scopes_of("""
        import torch
        from torch import nn

        def helper(x): return inner(x)
        def inner(x): return x
        def unused(x): return x

        @torch.compile
        def step(x): return helper(x)

        @torch.compile(mode="max-autotune")
        def step2(x): return x

        def plain(x): return x
        compiled = torch.compile(plain)

        class Block(nn.Module):
            def forward(self, x): return self._mix(x)
            def _mix(self, x): return x

        class Sub(Block):
            def forward(self, x): return super().forward(x)
    """)
    assert scopes["inner"].chain == ("step", "helper", "inner")
    assert scopes["Block._mix"].chain == ("Block.forward", "Block._mix")
    assert {"step", "step2", "plain", "helper", "Sub.forward"} <= set(scopes)
    assert "unused" not in scopes


def test_disabled_functions_are_not_traced_and_config_adds_entry_points():
    source = """
        import torch
        from mylib import compiled_fn, BaseLayer

        @torch.compiler.disable
        def logging_helper(x): return x

        @compiled_fn
        def f(x): return x

        class Thing(BaseLayer):
            def run(self, x): return x

        class Model(torch.nn.Module):
            def forward(self, x): return logging_helper(x)
    """
    assert "logging_helper" not in scopes_of(source)
    assert "f" in scopes_of(source, extra_decorators=("compiled_fn",))
    assert "f" not in scopes_of(source)


def test_torchscript_only_decorators_do_not_hide_a_function_from_dynamo():
    # Measured on 2.13: a print inside a @torch.jit.unused helper breaks the compiled caller.
    source = """
        import torch

        @torch.jit.unused
        def check(x): return x

        class Model(torch.nn.Module):
            def forward(self, x): return check(x)
    """
    assert "check" in scopes_of(source)


@pytest.mark.parametrize("condition", [
    "x.sum() > 0", "x", "x.any()", "torch.all(x > 0)", "(x * 2).mean() < y.mean()", "not x.any()",
    "x.max() > 1 and flag", "self.scale.abs().max() > 1", "mask.any()",
])
def test_tensor_conditions_are_tensors(condition):
    assert tensor_condition_lines(f"""
        import torch
        from torch import nn

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = nn.Parameter(torch.ones(3))

            def forward(self, x, y, flag: bool = True, mask=None):
                if {condition}:
                    return x
                return y
    """) == [11]


@pytest.mark.parametrize("condition", [
    "self.training", "x.shape[0] > 2", "x.size(1) == 3", "x.dim() == 4", "x.ndim == 3", "len(x) > 1",
    "mask is None", "mask is not None", "isinstance(x, torch.Tensor)", "torch.compiler.is_compiling()",
    "torch.jit.is_tracing()", "H % 2 == 1", "flag", "self.cfg.use_bias", "x.dtype == torch.float16",
    "x.device.type == 'cuda'", "x.requires_grad", "x.is_cuda", "3 > 2", "torch.is_grad_enabled()",
    "n_tokens > 0",
])
def test_non_tensor_conditions_stay_silent(condition):
    assert tensor_condition_lines(f"""
        import torch
        from torch import nn

        class M(nn.Module):
            def forward(self, x, H, W, flag: bool = True, mask=None):
                n_tokens = x.shape[1]
                if {condition}:
                    return x
                return x
    """) == []


def test_helper_parameters_are_tensors_only_when_every_call_passes_one():
    source = """
        import torch
        from torch import nn

        def clip(t, limit):
            if t.abs().max() > limit:
                return t
            if limit > 3:
                return t
            return t

        def maybe(v):
            if v:
                return 1
            return 0

        class M(nn.Module):
            def forward(self, x):
                y = clip(x * 2, 5)
                return maybe(x.shape[0]) + maybe(True) + y
    """
    assert tensor_condition_lines(source) == [6]


def test_locals_follow_assignments_and_tuple_unpacking():
    source = """
        import torch
        from torch import nn

        class M(nn.Module):
            def forward(self, x):
                a, b = x.chunk(2, dim=-1)
                n, c = x.shape[:2]
                scores = torch.softmax(a, -1)
                best = scores.max()
                count = 0
                if best > 0.5:
                    pass
                if b.sum():
                    pass
                if n > c:
                    pass
                if count:
                    pass
                return x
    """
    assert tensor_condition_lines(source) == [12, 14]


def test_code_guarded_from_dynamo_is_not_visited():
    source = """
        import torch
        from torch import nn

        class M(nn.Module):
            def forward(self, x):
                if not torch.compiler.is_compiling():
                    if x.sum() > 0:
                        pass
                if torch.jit.is_scripting():
                    if x.sum() > 0:
                        pass
                if torch.compiler.is_compiling():
                    pass
                else:
                    if x.sum() > 0:
                        pass
                return x
    """
    assert tensor_condition_lines(source) == []


def test_lowercase_single_letters_are_not_sizes():
    # `h` is an RNN's hidden state: found as a missed break by the greedy-decoder fixture.
    assert tensor_condition_lines("""
        import torch
        from torch import nn

        class Cell(nn.Module):
            def forward(self, x, h):
                if h.norm() > 1:
                    return x
                return h
    """) == [7]


def test_same_file_helpers_returning_tensors_are_tensors():
    assert tensor_condition_lines("""
        import torch
        from torch import nn

        def any_padding(mask):
            return mask.any()

        def describe(mask):
            return "padded"

        class Attn(nn.Module):
            def _has_padding(self, mask):
                return (mask == 0).any()

            def forward(self, x, mask):
                if self._has_padding(mask):
                    x = x * 2
                if any_padding(mask):
                    x = x * 3
                if describe(mask):
                    x = x * 4
                return x
    """) == [16, 18]


def test_a_folder_named_explicitly_is_linted_even_inside_site_packages(tmp_path):
    from breaklint.lint.files import discover

    pkg = tmp_path / "venv" / "lib" / "site-packages" / "lib_under_test"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "model.py").write_text("x = 1\n")
    (pkg / "__pycache__" / "cached.py").write_text("x = 1\n")
    files, missing = discover([str(pkg)], root=str(tmp_path))
    assert files == [str(pkg / "model.py")] and not missing
    # ...while walking from above, site-packages itself stays excluded.
    assert discover([str(tmp_path)], root=str(tmp_path))[0] == []


def test_only_torch_functions_and_tensor_namespaces_return_tensors():
    # torch.accelerator.current_accelerator() or "cpu" was a false BL101 on torch's own flex_attention.
    assert tensor_condition_lines("""
        import torch
        from torch import nn

        class M(nn.Module):
            def forward(self, x):
                if torch.accelerator.current_accelerator() or x.is_cuda:
                    pass
                if torch.nn.functional.relu(x).any() or torch.linalg.norm(x) > 1:
                    pass
                return x
    """) == [9]


def test_compile_called_then_invoked_marks_the_function_compiled():
    assert "step" in scopes_of("""
        import torch

        def step(x):
            return x

        def run(x):
            return torch.compile(step)(x)
    """)


def test_isinstance_narrows_a_tensor_parameter_away():
    assert tensor_condition_lines("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, x, s):
                if isinstance(s, (int, float)):
                    if s > 0:                     # 7: s is a number here
                        x = x + 1
                else:
                    if s > 0:                     # 10: still the tensor parameter
                        x = x + 2
                if isinstance(x, torch.Tensor):
                    if x.sum() > 0:               # 13: a tensor
                        x = x * 2
                    return x
                if x == 1:                        # 16: past the tensor case's return
                    return x
                return x
        """) == [10, 13]


@pytest.mark.parametrize("annotation", ["float | torch.Tensor", "Union[float, torch.Tensor]", "int | Tensor"])
def test_a_union_with_a_number_is_not_taken_for_a_tensor(annotation):
    assert tensor_condition_lines(f"""
        import torch
        from torch import Tensor
        from typing import Union

        class Net(torch.nn.Module):
            def forward(self, x, clip: {annotation}, y: Tensor | None):
                if clip > 0:
                    x = x + 1
                if y.sum() > 0:
                    x = x + 2
                return x
        """) == [10]


def test_a_tensor_handed_to_an_unknown_helper_and_back_stays_a_tensor():
    assert tensor_condition_lines("""
        import torch
        from lib import remove_self_loops

        class Net(torch.nn.Module):
            def forward(self, edge_index, w):
                edge_index, w = remove_self_loops(edge_index, w)
                if (edge_index[0] == edge_index[1]).any():    # 8
                    w = w + 1
                n = helper(w.shape)
                if n:                                         # 11: unknown, not passed back
                    w = w * 2
                return w
        """) == [8]


def test_a_module_call_override_is_traced_like_forward():
    # PyG's Aggregation overrides __call__ to compute dim_size; calling the module runs it.
    scopes = scopes_of("""
        import torch

        class Aggregation(torch.nn.Module):
            def __call__(self, x, index=None):
                return super().__call__(x, index)

            def forward(self, x, index=None):
                return x

        class Plain:
            def __call__(self, x):
                return x
        """)
    assert "Aggregation.__call__" in scopes and "Aggregation.forward" in scopes
    assert "Plain.__call__" not in scopes


def test_indexing_with_a_tensor_makes_the_indexed_value_a_tensor():
    # The helper's `batch` and `names` come from attributes the inference cannot type.
    lines = tensor_condition_lines("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, pos):
                return pairs(pos, self.batch_ids, self.names)

        def pairs(pos, batch, names):
            index = (pos > 0).nonzero().T
            if batch[index[0]] == batch[index[1]]:
                pass
            if names[0] == names[1]:
                pass
            if names[1:2]:
                pass
            return index
        """)
    assert lines == [10]


def test_the_assignment_that_reaches_a_use_decides_when_bindings_disagree():
    assert tensor_condition_lines("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, x, adj=None):
                if adj is None:
                    row, col = x.sum(0), x.sum(1)
                else:
                    row, col = adj.coo()          # unknown: row is not a tensor everywhere
                if row == col:                    # 10: either binding may reach
                    x = x + 1
                row, col = x[0], x[1]
                if row == col:                    # 13: this binding reaches
                    x = x + 2
                flag = x.sum() > 0
                for _ in range(3):
                    if flag:                      # 17: a later binding in the loop may come back
                        x = x * 2
                    flag = len(x) > 2
                return x
        """) == [13]


def test_zip_and_enumerate_hand_out_their_iterables_elements():
    assert tensor_condition_lines("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, x):
                times = x.cumsum(0)
                for i, (t0, t1) in enumerate(zip(times[:-1], times[1:])):
                    if t0 == t1:                  # 8: elements of a tensor are tensors
                        x = x + 1
                    if i == 2:                    # 10: the counter is an int
                        x = x * 2
                for name, value in zip(["a", "b"], [1, 2]):
                    if value:                     # 13: elements of a list of ints
                        x = x - 1
                return x
        """) == [8]


def test_array_only_subscripts_and_elementwise_logic_are_tensors():
    assert tensor_condition_lines("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, x, scores, t0, t, t1, cfg: dict):
                if scores[:, 0].sum() > 0:        # 6: a tuple of slices: only arrays take one
                    x = x + 1
                if (t0 <= t) & (t <= t1):         # 8: `&` joining comparisons is elementwise
                    x = x + 2
                if cfg["a", 1]:                   # 10: a dict with tuple keys
                    x = x + 3
                return self.pool(x, (1, 1), (2, 2))

            def pool(self, x, stride: tuple[int, int], size: tuple[int, int]):
                if (stride[0] > size[0]) | (stride[1] > size[1]):   # 15: `|` on Python bools (kornia)
                    raise ValueError("stride larger than the window")
                return x
        """) == [6, 8]


def test_a_call_site_with_a_tensor_and_none_against_it_makes_a_tensor_parameter():
    assert tensor_condition_lines("""
        import torch

        def interp(t0, t):
            if t == t0:                           # 5: one site passes a tensor t, none passes a non-tensor
                return t
            return t0

        def scale(v):
            if v > 0:                             # 10: one site passes a tensor, another an int
                return v
            return v

        class Net(torch.nn.Module):
            def forward(self, x, y=None):
                a = interp(y, x[0])
                b = interp(y, y)
                return a + b + scale(x.sum()) + scale(3)
        """) == [5]


def test_a_flag_that_holds_a_bool_tensor_on_some_paths_is_a_tensor():
    assert tensor_condition_lines("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, x, dt: float):
                accept = x.abs().max() <= 1
                if dt > 10:
                    accept = False
                if accept:                        # 9: a tensor unless dt > 10
                    x = x * 2
                done = False
                if dt > 1:
                    done = True
                if done:                          # 14: only literals
                    x = x + 1
                return x
        """) == [9]


def test_a_name_used_with_a_tensor_only_method_is_a_tensor():
    assert tensor_condition_lines("""
        import torch
        from lib import count

        class Net(torch.nn.Module):
            def forward(self, x, batch):
                num_nodes = count(batch)
                offsets = num_nodes.cumsum(0)
                if num_nodes.max() > 4:           # 9: cumsum is a tensor's method
                    x = x * 2
                names = count(x)
                names.sort()
                if names:                         # 13: lists have sort() too
                    x = x + 1
                return x
        """) == [9]


def test_i_and_j_parameters_of_a_forward_are_sizes():
    assert tensor_condition_lines("""
        import torch

        class Bias(torch.nn.Module):
            def forward(self, i, j):
                if j - i > 4:                     # 6: sequence lengths
                    return torch.zeros(i, j)
                return torch.ones(i, j)
        """) == []


def test_an_attribute_bound_to_a_method_or_a_returned_closure_is_followed():
    scopes = scopes_of("""
        import torch

        def halve(x): return x / 2

        class Solver(torch.nn.Module):
            def __init__(self, step=None):
                super().__init__()
                if step is None:
                    self.grid = lambda t: t
                else:
                    self.grid = self._grid_from_step(step)
                self.post = self._finish
                self.pre = halve
                self.scale = torch.nn.Linear(2, 2)

            def _grid_from_step(self, step):
                def _grid(t):
                    return torch.arange(0, t[-1], step)
                return _grid

            def _finish(self, y): return y

            def forward(self, t):
                return self.post(self.pre(self.grid(t))) + self.scale(t)
    """)
    assert {"Solver._grid_from_step._grid", "Solver._finish", "halve"} <= set(scopes)
    assert "Solver._grid_from_step" not in scopes  # only the closure it returns runs traced
    assert scopes["Solver._grid_from_step._grid"].cls is None


def test_a_foreign_sparse_container_and_a_device_attribute_are_not_tensors():
    # Found in the fixed copy of PyG: `if not adj_t.has_value()` under isinstance(.., SparseTensor)
    # (torch_sparse's class, whose has_value() is a bool), and `self.src_device = torch.device(...)`.
    assert tensor_condition_lines("""
        import torch
        from torch_sparse import SparseTensor

        class Norm(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.src_device = torch.device("cpu")
                self.scale = torch.ones(3)

            def forward(self, x, edge_index):
                if isinstance(edge_index, SparseTensor):
                    adj_t = edge_index
                    if not adj_t.has_value():            # 14: a torch_sparse method
                        x = x + 1
                if x.device != self.src_device:          # 16: devices
                    x = x.cpu()
                if self.scale.sum() > 0:                 # 18: a tensor attribute
                    x = x * 2
                return x
        """) == [18]


def test_comprehension_lambda_and_closure_names_are_not_judged_by_an_outer_assignment():
    from breaklint.lint.runner import lint_settings
    from breaklint.lint.config import Settings

    source = textwrap.dedent("""
        import torch

        class Net(torch.nn.Module):
            def forward(self, x, sizes, pairs):
                n = x.sum()
                outs = [x[:n] for n in sizes]             # 7: this n is the comprehension's int
                s = x.mean()
                key = sorted(pairs, key=lambda s: s[0] if s else 0)   # 9: the lambda's s
                flag = x.max() > 1

                def later():
                    if flag:                              # 13: runs when called, flag may change
                        return 1
                    return 0

                flag = len(sizes) > 2
                if n > 0:                                 # 18: the outer n
                    x = x * 2
                return x, outs, key, later()
    """)
    findings, _ = lint_source(source, "probe.py", lint_settings(Settings()))
    assert sorted({f.row for f in findings}) == [18]


def test_optional_containers_of_tensors_are_not_tensors():
    """torchmetrics' `concat_preds: Optional[List[Tensor]] = None; concat_preds = concat_preds or []`
    was read as `or` on a tensor (BL101): the Optional hid the container."""
    import ast as _ast

    from breaklint.analysis.tensors import annotation_kind

    def kind(text):
        return annotation_kind(_ast.parse(text, mode="eval").body)

    for container in ("Optional[List[Tensor]]", "List[Tensor] | None", "None | list[Tensor]",
                      "typing.Optional[typing.Sequence[torch.Tensor]]", "Optional[Dict[str, Tensor]]"):
        assert kind(container) is False, container
    for tensor in ("Tensor", "Optional[Tensor]", "torch.Tensor | None"):
        assert kind(tensor) is True, tensor
