"""Which of the dev split's remaining break patterns a source rewrite or a Dynamo flag removes
(issue #12, "Remove more breaks"). Each case is a minimal version of a real dev site, compiled with
backend="eager" under each setting; prints graph breaks per setting and whether the rewritten form's
value equals the original's. Run: python bench/removal_probe.py (torch 2.13 CPU, about 20 s)."""
import torch
import torch._dynamo as dynamo

SETTINGS = {
    "default": {},
    "capture_scalar_outputs": {"capture_scalar_outputs": True},
    "capture_dynamic_output_shape_ops": {"capture_dynamic_output_shape_ops": True},
}


def breaks(fn, args, config) -> int:
    """Graph breaks Dynamo reports."""
    dynamo.reset()
    with dynamo.config.patch(**config):
        return dynamo.explain(fn)(*args).graph_break_count


# PyG utils/_scatter.py:48, aggr/base.py:128: a scatter size read from the data.
def size_from_item(src, index):
    n = int(index.max()) + 1
    return src.new_zeros(n, src.size(1)).index_add_(0, index, src)


def size_from_item_checked(src, index):  # the candidate rewrite: state the range
    n = int(index.max()) + 1
    torch._check(n >= 1)
    return src.new_zeros(n, src.size(1)).index_add_(0, index, src)


# kornia color_jiggle.py:95 (an int tensor), torchdiffeq rk_common.py:244 (a float tensor).
def tolist_int(t):
    values = (t * 2).tolist()
    return t + len(values)


def tolist_float(t):
    values = (t * 2).tolist()
    return t + len(values)


# PyG utils/loop.py (remove_self_loops / add_remaining_self_loops): 53 of the 306 dev sites left.
def mask_index(edge_index):
    mask = edge_index[0] != edge_index[1]
    return edge_index[:, mask] * 2


# e3nn gate_points_networks.py:25: nonzero() whose result indexes.
def nonzero_index(r, batch):
    index = ((r < 1.5) & (r > 0)).nonzero().T
    return index[:, batch[index[0]] == batch[index[1]]]


# torchdiffeq rk_common.py:325-328: a literal assigned over a tensor flag.
def accept_original(error_ratio, dt, max_step, min_step):
    accept = error_ratio <= 1
    if dt > max_step:
        accept = False
    if dt <= min_step:
        accept = True
    return accept


def accept_where(error_ratio, dt, max_step, min_step):
    accept = error_ratio <= 1
    accept = torch.where(dt > max_step, False, accept)
    accept = torch.where(dt <= min_step, True, accept)
    return accept


def main() -> None:
    src, index = torch.randn(4, 3), torch.tensor([0, 2, 2, 1])
    edge_index = torch.tensor([[0, 1, 2, 2], [1, 1, 0, 2]])
    pos = torch.tensor([[0.0], [1.0], [2.0], [5.0]])
    cases = [
        ("item as a size", size_from_item, (src, index)),
        ("item as a size + torch._check", size_from_item_checked, (src, index)),
        ("tolist, int tensor", tolist_int, (torch.arange(3),)),
        ("tolist, float tensor", tolist_float, (torch.arange(3.0),)),
        ("x[:, mask]", mask_index, (edge_index,)),
        ("nonzero() used as an index", nonzero_index, (torch.cdist(pos, pos), torch.tensor([0, 0, 1, 1]))),
        ("literal over a tensor flag (original)", accept_original, (torch.tensor(0.5), torch.tensor(2.0), 1.0, 0.1)),
        ("literal over a tensor flag (torch.where)", accept_where, (torch.tensor(0.5), torch.tensor(2.0), 1.0, 0.1)),
    ]
    print("| case | " + " | ".join(SETTINGS) + " |")
    print("|---|" + "---:|" * len(SETTINGS))
    for name, fn, args in cases:
        print(f"| {name} | " + " | ".join(str(breaks(fn, args, c)) for c in SETTINGS.values()) + " |")
    # The where form keeps the flag's truth value, but as a tensor where the original had a bool,
    # and with the broadcast shape of the condition and the flag: provable only when both are 0-d.
    grid = [(torch.tensor(e), torch.tensor(d), 1.0, 0.1) for e in (0.5, 3.0) for d in (0.05, 0.5, 2.0)]
    same = all(bool(accept_original(*a)) == bool(accept_where(*a)) for a in grid)
    print(f"\nliteral over a tensor flag: truth values equal on {len(grid)} inputs: {same}; "
          f"shape with a (1,) condition: {tuple(accept_where(torch.tensor(0.5), torch.tensor([2.0]), 1.0, 0.1).shape)}"
          f" (original: a Python bool)")


if __name__ == "__main__":
    main()
