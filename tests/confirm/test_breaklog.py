"""Parsing recorded graph_breaks messages (torch 2.13 text); no torch needed."""
from breaklint.confirm.breaklog import UserCode, merge_breaks, parse_record, to_graph_break
from breaklint.confirm.observation import StackFrame
from breaklint.confirm.registry import Registry

LOOP_SKIP = """Graph break in user code at /u/model.py:18
Graph Break Reason: Failed to handle graph break gracefully. Skipping the function and falling back to eager. Graph break encountered:

Failed to trace builtin operator
  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types ['str'] (has_kwargs False)
  Hint: Avoid calling builtin `print` with argument types ['str'].

  Developer debug context: builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False

 For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html

*** While handling this graph break, another graph break occurred: ***

graph break in loop
  Explanation: torch.compile detected a graph break in a for/while loop.

  Developer debug context: frame skipped: f_loop (/u/model.py line 15)

 For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb7000.html

User code traceback:
  File "/u/run.py", line 53, in <module>
    c(torch.randn(4))
  File "/u/model.py", line 18, in f_loop
    print("hi")
"""

INSIDE_TORCH = """Graph break in user code at /site/torch/nn/init.py:114
Graph Break Reason: Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):

Unsupported Tensor.item() call with capture_scalar_outputs=False
  Explanation: Dynamo does not support tracing `Tensor.item()`.

 For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html

User code traceback:
  File "/u/model.py", line 119, in forward
    torch.nn.init.trunc_normal_(x)
  File "/site/torch/nn/init.py", line 334, in trunc_normal_
    return _no_grad_trunc_normal_(tensor, mean, std, a, b, generator=generator)
  File "/site/torch/nn/init.py", line 114, in _no_grad_trunc_normal_
    l = norm_cdf((a - mean) / std)
"""

DUPLICATE = """Graph break (user stack suppressed due to duplicate graph break) in user code at /u/model.py:38
Graph Break Reason: Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):

Dynamic shape operator
  Explanation: Operator `aten.nonzero.default`'s output shape depends on input Tensor data.

 For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0036.html"""

REGISTRY = Registry.from_json({
    "GB0059": [{"Gb_type": "Failed to trace builtin operator", "Hints": ["h"]}],
    "GB7000": [{"Gb_type": "graph break in loop"}],
    "GB0124": [{"Gb_type": "Unsupported Tensor.item() call with capture_scalar_outputs=False"}],
    "GB0036": [{"Gb_type": "Dynamic shape operator"}],
})


def test_loop_skip_record_has_both_gb_types():
    rec = parse_record(LOOP_SKIP)
    assert (rec.reported_file, rec.reported_line) == ("/u/model.py", 18)
    assert rec.gb_type == "Failed to trace builtin operator" and rec.url_id == "GB0059"
    assert rec.frame_skipped and rec.skip_gb_type == "graph break in loop" and rec.skip_url_id == "GB7000"
    assert [f.line for f in rec.stack] == [53, 18]
    assert rec.hints == ["Avoid calling builtin `print` with argument types ['str']."]


def test_break_inside_torch_moves_to_user_frame():
    user = UserCode(library_roots=["/site/torch"])
    b = to_graph_break(parse_record(INSIDE_TORCH), REGISTRY, user)
    assert (b.file, b.line, b.function) == ("/u/model.py", 119, "forward")
    assert b.reported_at == "/site/torch/nn/init.py:114"
    assert b.gb_id == "GB0124" and not b.frame_skipped


def test_duplicate_record_parses_and_merges():
    rec = parse_record(DUPLICATE)
    assert rec.duplicate and rec.stack == [] and rec.gb_type == "Dynamic shape operator"
    user = UserCode(library_roots=["/site/torch"])
    first = to_graph_break(rec, REGISTRY, user)
    second = to_graph_break(parse_record(DUPLICATE), REGISTRY, user)
    [merged] = merge_breaks([first, second])
    assert merged.hits == 2 and merged.gb_id == "GB0036"


def test_registry_prefers_type_over_a_disagreeing_url():
    # A url id that names another gb_type must not win over the registry's own mapping.
    entry = REGISTRY.resolve("Dynamic shape operator", "GB0124")
    assert entry.gb_id == "GB0036"
    assert REGISTRY.resolve("not in registry", "GB9999").gb_id == "GB9999"
    assert REGISTRY.resolve("not in registry") is None


def test_unrelated_message_is_ignored():
    assert parse_record("Something else entirely") is None
    assert parse_record("") is None


def test_installed_registry_loads_when_torch_present():
    import pytest

    pytest.importorskip("torch")
    from breaklint.confirm.registry import load_registry

    reg = load_registry()
    assert len(reg) > 400
    assert reg.resolve("Data-dependent branching").gb_id == "GB0170"


def test_installed_packages_are_dependencies_unless_they_are_the_target():
    user = UserCode(library_roots=["/site/torch"])
    assert user.is_user("/srv/proj/model.py")
    assert not user.is_user("/venv/lib/python3.11/site-packages/transformers/models/bert.py")
    target = UserCode(library_roots=["/site/torch"], user_roots=["/venv/lib/python3.11/site-packages/transformers"])
    assert target.is_user("/venv/lib/python3.11/site-packages/transformers/models/bert.py")
    assert not target.is_user("/venv/lib/python3.11/site-packages/timm/models/vit.py")


def test_a_break_inside_an_installed_library_moves_to_the_users_call_and_keeps_the_library_frame():
    rec = parse_record(INSIDE_TORCH)
    user = UserCode(library_roots=["/site/torch"])
    lib = StackFrame("/venv/lib/python3.11/site-packages/somelib/x.py", 3, "helper")
    b = to_graph_break(rec, REGISTRY, user, exc_stack=[StackFrame("/u/model.py", 119, "forward"), lib])
    assert (b.file, b.line) == ("/u/model.py", 119) and b.library_frame == "/site/torch/nn/init.py:114"
    assert b.where_note() == " (in a library called from here)"
    # Two records of two reasons at one line are one site.
    other = to_graph_break(parse_record(DUPLICATE), REGISTRY, user)
    other.file, other.line = "/u/model.py", 119
    [site] = merge_breaks([b, other])
    assert site.hits == 2 and site.also == ["Dynamic shape operator"]
