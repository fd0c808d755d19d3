"""Held-out check: Hugging Face transformers, never used to tune a rule (see the brief).

Run only to measure, with `python bench/heldout.py`. The architectures below were chosen as widely
used ones, before any result was looked at; each is built from its default config, shrunk to two
small layers, with random weights (no download).
"""

LIBRARY = "transformers"
PACKAGES = ["transformers"]
DISTRIBUTIONS = ["transformers", "torch"]
ENV = "benchenv"

TEXT = ["albert", "bart", "bert", "big_bird", "biogpt", "bloom", "codegen", "cohere", "ctrl", "deberta",
        "deberta-v2", "distilbert", "electra", "falcon", "funnel", "gemma", "gemma2", "gpt2", "gpt_bigcode",
        "gpt_neo", "gpt_neox", "gptj", "granite", "llama", "longformer", "m2m_100", "marian", "mbart",
        "mistral", "mixtral", "mpnet", "mpt", "olmo", "opt", "pegasus", "persimmon", "phi", "phi3", "qwen2",
        "qwen2_moe", "qwen3", "reformer", "roberta", "stablelm", "starcoder2", "t5", "xglm", "xlm-roberta",
        "xlnet"]
VISION = ["beit", "convnext", "deit", "dinov2", "levit", "mobilevit", "poolformer", "regnet", "resnet",
          "segformer", "swin", "vit"]
MODELS = [f"text:{name}" for name in TEXT] + [f"vision:{name}" for name in VISION]

# Config fields shrunk wherever a config has them (two layers, tiny widths).
SMALL = {
    "num_hidden_layers": 2, "num_layers": 2, "n_layer": 2, "encoder_layers": 2, "decoder_layers": 2,
    "num_decoder_layers": 2, "hidden_size": 32, "d_model": 32, "n_embd": 32, "embed_dim": 32,
    "num_attention_heads": 4, "n_head": 4, "num_heads": 4, "encoder_attention_heads": 4,
    "decoder_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 64, "d_ff": 64,
    "encoder_ffn_dim": 64, "decoder_ffn_dim": 64, "ffn_dim": 64, "n_inner": 64, "d_kv": 8, "head_dim": 8,
    "vocab_size": 512, "num_experts": 4, "num_local_experts": 4, "num_experts_per_tok": 2,
    "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32, "embedding_size": 32,
}
VISION_SMALL = {"image_size": 64, "num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 4,
                "intermediate_size": 64}


def build(name):
    import torch
    from transformers import AutoModel, CONFIG_MAPPING

    kind, model_type = name.split(":")
    config = CONFIG_MAPPING[model_type]()
    for field, value in (SMALL if kind == "text" else VISION_SMALL).items():
        if hasattr(config, field) and isinstance(getattr(config, field), int) and not isinstance(
                getattr(config, field), bool):
            setattr(config, field, value)
    if hasattr(config, "pad_token_id") and isinstance(config.pad_token_id, int) and config.pad_token_id >= 512:
        config.pad_token_id = 0
    model = AutoModel.from_config(config).eval()
    generator = torch.Generator().manual_seed(0)
    if kind == "vision":
        size = getattr(config, "image_size", 64)
        size = size if isinstance(size, int) else 64
        return model, (), {"pixel_values": torch.randn(1, 3, size, size, generator=generator)}
    ids = torch.randint(3, 500, (1, 16), generator=generator)
    kwargs = {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
    if getattr(config, "is_encoder_decoder", False):
        kwargs["decoder_input_ids"] = ids[:, :8]
    return model, (), kwargs
