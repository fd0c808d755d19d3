"""x-transformers stacks with their many options (rotary, alibi, memory tokens, masks)."""

LIBRARY = "x_transformers"
PACKAGES = ["x_transformers"]
DISTRIBUTIONS = ["x_transformers", "torch"]
ENV = "benchenv"

SPECS = {
    "Decoder": "X.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=X.Decoder(dim=16, depth=1, heads=2))",
    "Encoder-rotary": "X.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=X.Encoder(dim=16, depth=1, heads=2, rotary_pos_emb=True))",
    "Decoder-alibi": "X.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=X.Decoder(dim=16, depth=1, heads=2, alibi_pos_bias=True))",
    "Decoder-memtokens": "X.TransformerWrapper(num_tokens=32, max_seq_len=16, num_memory_tokens=2, attn_layers=X.Decoder(dim=16, depth=1, heads=2, attn_num_mem_kv=2))",
    "Encoder-relpos": "X.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=X.Encoder(dim=16, depth=1, heads=2, rel_pos_bias=True))",
    "Decoder-ff-glu": "X.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=X.Decoder(dim=16, depth=2, heads=2, ff_glu=True, use_rmsnorm=True, residual_attn=True))",
    "ContinuousTransformer": "X.ContinuousTransformerWrapper(dim_in=8, dim_out=4, max_seq_len=16, attn_layers=X.Encoder(dim=16, depth=1, heads=2))",
    "ViTransformer": "X.ViTransformerWrapper(image_size=32, patch_size=8, num_classes=5, attn_layers=X.Encoder(dim=16, depth=1, heads=2))",
    "XTransformer": "X.XTransformer(dim=16, enc_num_tokens=32, enc_depth=1, enc_heads=2, enc_max_seq_len=16, dec_num_tokens=32, dec_depth=1, dec_heads=2, dec_max_seq_len=16)",
}

MODELS = sorted(SPECS)


def build(name):
    import torch
    import x_transformers as X

    from models._wrap import evaluate

    model = evaluate(SPECS[name], torch=torch, X=X)
    generator = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, 32, (2, 16), generator=generator)
    if name == "ContinuousTransformer":
        return model, (torch.randn(2, 16, 8, generator=generator),), {}
    if name == "ViTransformer":
        return model, (torch.randn(2, 3, 32, 32, generator=generator),), {}
    if name == "XTransformer":
        return model, (tokens, tokens), {"mask": torch.ones(2, 16, dtype=torch.bool)}
    return model, (tokens,), {"mask": torch.ones(2, 16, dtype=torch.bool)} if name.startswith("Encoder") else {}
