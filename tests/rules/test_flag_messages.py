"""Issue #12: where no source rewrite keeps the meaning, the finding names the torch._dynamo.config
flag that absorbs the break. Each case is a minimal version of a dev-split site left after
`--fix --unsafe-fixes` (bench/removal_probe.py); the message is checked, and so is the claim, through
Dynamo on the installed torch: one break by default, none under the flag the message names."""
import textwrap

import pytest

from breaklint.lint.engine import LintSettings, lint_source
from breaklint.rules import rule_by_code

torch = pytest.importorskip("torch")
import torch._dynamo as dynamo

HEAD = "import torch\n\n\n@torch.compile\n"
SCATTER_SIZE = HEAD + """def scatter_sum(src, index):
    n = int(index.max()) + 1  # PyG utils/_scatter.py
    return src.new_zeros(n, src.size(1)).index_add_(0, index, src)
"""
INT_TOLIST = HEAD + """def greedy_order(x, edge_score):
    perm = torch.argsort(edge_score, descending=True).tolist()  # PyG nn/pool/edge_pool.py
    return x + len(perm)
"""
FLOAT_TOLIST = HEAD + """def step_times(x, step_t):
    times = (step_t * 2).tolist()  # torchdiffeq rk_common.py: self.step_t.tolist()
    return x + len(times)
"""
SELF_LOOPS = HEAD + """def remove_self_loops(edge_index):
    mask = edge_index[0] != edge_index[1]  # PyG utils/loop.py
    return edge_index[:, mask] * 2
"""
CASES = {
    "BL103": (SCATTER_SIZE, "capture_scalar_outputs", (torch.randn(4, 3), torch.tensor([0, 2, 2, 1]))),
    "BL104": (INT_TOLIST, "capture_scalar_outputs", (torch.randn(3), torch.tensor([0.2, 0.9, 0.4]))),
    "BL401": (SELF_LOOPS, "capture_dynamic_output_shape_ops", (torch.tensor([[0, 1, 2, 2], [1, 1, 0, 2]]),)),
}


def _messages(code: str, source: str) -> list[str]:
    found, _ = lint_source(source, "example.py", LintSettings(rules=[rule_by_code(code)()]))
    return [f.message for f in found]


def _breaks(source: str, flag: str | None, args) -> int:
    namespace: dict = {}
    exec(compile(textwrap.dedent(source).replace("@torch.compile\n", ""), "case.py", "exec"), namespace)
    fn = next(v for k, v in namespace.items() if callable(v) and k != "torch")
    dynamo.reset()
    with dynamo.config.patch(**({flag: True} if flag else {})):
        return dynamo.explain(fn)(*args).graph_break_count


@pytest.mark.parametrize("code", sorted(CASES))
def test_message_names_the_flag_that_absorbs_the_break(code):
    source, flag, args = CASES[code]
    messages = _messages(code, source)
    assert messages and all(f"torch._dynamo.config.{flag} = True" in m for m in messages), messages
    assert _breaks(source, None, args) == 1
    assert _breaks(source, flag, args) == 0


def test_item_message_does_not_offer_torch_check_as_a_removal():
    # Measured: torch._check(n >= 1) after the .item() leaves the break; only the flag removes it.
    messages = _messages("BL103", SCATTER_SIZE)
    assert messages and all("torch._check alone does not remove the break" in m for m in messages)
    checked = SCATTER_SIZE.replace("    return", "    torch._check(n >= 1)\n    return")
    args = CASES["BL103"][2]
    assert _breaks(checked, None, args) == 1


def test_float_tolist_message_says_the_flag_does_not_help():
    messages = _messages("BL104", FLOAT_TOLIST)
    assert messages and all("not for a float tensor" in m for m in messages)
    args = (torch.randn(3), torch.tensor([0.5, 1.0]))
    assert _breaks(FLOAT_TOLIST, None, args) == 1
    assert _breaks(FLOAT_TOLIST, "capture_scalar_outputs", args) == 1
