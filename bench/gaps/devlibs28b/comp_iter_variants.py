import torch

def skipped(x, d, names):
    for i in range(x.shape[0]):
        d[tuple(x[i].tolist())] = 0.0          # break in a loop: this frame is skipped (GB7000)
    a = [torch.tensor(k) for k in d.keys()]     # line 6: dict_keyiterator
    b = [torch.tensor(k) for k in list(d)]      # line 7: list_iterator
    c = {n: x[0] for n, _ in zip(names, names)} # line 8: zip
    e = [torch.tensor(k) for k in range(2)]     # line 9: range_iterator
    return a, b, c, e

@torch.compile(backend="eager")
def main(x):
    return skipped(x, {}, ["p", "q"])

ARGS = (torch.tensor([[1, 2], [3, 4]]),)
