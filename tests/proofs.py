"""Shared by the fix proofs (tests/test_fixtures.py, tests/rules/test_bl101_fixes.py): a fix must keep
gradients as well as outputs."""
import copy


def gradients(model, args, kwargs, seed: int):
    """Gradients of the sum of every floating output with respect to the floating inputs and the
    parameters, or None when the original cannot be differentiated (in-place on an input, integer
    outputs only). torch.where runs both sides: its outputs can match while its gradient is NaN."""
    import torch
    import torch.nn as nn

    leaves = []

    def track(value):
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            value = value.detach().clone().requires_grad_()
            leaves.append(value)
            return value
        if isinstance(value, (list, tuple)):
            return type(value)(track(v) for v in value)
        if isinstance(value, dict):
            return {k: track(v) for k, v in value.items()}
        return value

    args, kwargs = track(copy.deepcopy(args)), track(copy.deepcopy(kwargs))
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad] if isinstance(model, nn.Module) else []
    names = [f"input {i}" for i in range(len(leaves))] + [n for n, _ in params]
    wrt = leaves + [p for _, p in params]
    torch.manual_seed(seed)
    try:
        with torch.enable_grad():
            out = model(*args, **kwargs)
            parts = [t.float().sum() for t in _tensors(out) if t.requires_grad and t.is_floating_point()]
            if not parts or not wrt:
                return None
            grads = torch.autograd.grad(sum(parts), wrt, allow_unused=True)
    except RuntimeError:
        return None
    return {n: torch.zeros_like(w) if g is None else g for n, g, w in zip(names, grads, wrt)}


def _tensors(value):
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors(v)]
    return []


def assert_same_gradients(before, after, where: str) -> None:
    import torch

    if before is None:
        return
    # The fixed model may hold more parameters (BL301 hoists a layer into __init__): compare the
    # inputs and the parameters both have.
    assert after is not None and set(before) <= set(after), f"{where}: the fix lost the gradient"
    for name, a in before.items():
        b = after[name]
        assert torch.allclose(a.float(), b.float(), atol=1e-5, rtol=1e-4, equal_nan=True), \
            f"{where}: gradient of {name} differs (NaN in the fixed one: {bool(torch.isnan(b).any())})"
