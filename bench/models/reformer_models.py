"""reformer-pytorch 1.4.4 (dev split, bench/SPLITS.md "Dev split growth: pytorch-crf, torch-struct and reformer-pytorch").

The rule written there before anything was observed: the README's ReformerLM, Reformer and LSHSelfAttention at a
small size (dim 32, depth 2, 2 heads, buckets of 8, 2 hashes, 64 positions), each also with causal=True.
"""

LIBRARY = "reformer_pytorch"
PACKAGES = ["reformer_pytorch"]
DISTRIBUTIONS = ["reformer-pytorch", "torch"]
ENV = "benchenv"

MODELS = [f"{kind}{suffix}" for kind in ("reformer_lm", "reformer", "lsh_self_attention") for suffix in ("", "_causal")]


def build(name):
    import torch
    from reformer_pytorch import LSHSelfAttention, Reformer, ReformerLM

    torch.manual_seed(0)
    causal = name.endswith("_causal")
    kind = name[: -len("_causal")] if causal else name
    if kind == "reformer_lm":
        model = ReformerLM(num_tokens=64, dim=32, depth=2, max_seq_len=64, heads=2, bucket_size=8, n_hashes=2,
                           causal=causal)
        return model, (torch.randint(0, 64, (1, 64)),), {}
    if kind == "reformer":
        model = Reformer(dim=32, depth=2, heads=2, bucket_size=8, n_hashes=2, causal=causal)
    else:
        model = LSHSelfAttention(dim=32, heads=2, bucket_size=8, n_hashes=2, causal=causal)
    return model, (torch.randn(1, 64, 32),), {}
