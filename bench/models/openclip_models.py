"""open_clip (test split, bench/SPLITS.md): CLIP and CoCa towers, poolers, losses and generation.

Tiny configs built from CLIPVisionCfg/CLIPTextCfg dicts (width 32, two layers, 32px images, a 100-token
vocabulary, context 12), no weights, no tokenizer download, seed 0. Runs in the torchvision venv
(open_clip needs timm and torchvision).
"""

LIBRARY = "open_clip"
PACKAGES = ["open_clip"]
DISTRIBUTIONS = ["open_clip_torch", "torch"]
ENV = "benchenv-tv"

VISION = dict(layers=2, width=32, head_width=16, patch_size=8, image_size=32)
TEXT = dict(context_length=12, vocab_size=100, width=32, heads=2, layers=2)

# name -> (vision overrides, text overrides, CLIP keyword arguments)
CLIPS = {
    "CLIP_vit": ({}, {}, {}),
    "CLIP_resnet": ({"layers": (1, 1, 1, 1), "width": 16, "image_size": 64}, {}, {}),
    "CLIP_attentional_pool": ({"attentional_pool": True, "attn_pooler_queries": 4, "attn_pooler_heads": 2}, {}, {}),
    "CLIP_avg_pool": ({"pool_type": "avg", "final_ln_after_pool": True}, {"final_ln_after_pool": True}, {}),
    "CLIP_no_ln_pre_ls": ({"no_ln_pre": True, "ls_init_value": 0.1}, {"ls_init_value": 0.1}, {}),
    "CLIP_custom_block": ({"block_type": "custom", "qk_norm": True, "scale_attn": True, "scale_fc": True},
                          {"block_type": "custom", "scale_attn": True}, {}),
    "CLIP_sincos_pos": ({"pos_embed_type": "sin_cos_2d"}, {}, {}),
    "CLIP_text_pool_last": ({}, {"pool_type": "last", "no_causal_mask": True}, {}),
    "CLIP_text_pool_eos": ({}, {"pool_type": "eos", "eos_id": 3}, {}),
    "CLIP_text_mlp_proj": ({}, {"proj_type": "mlp", "proj_bias": True}, {}),
    "CLIP_siglip": ({"pool_type": "avg"}, {"pool_type": "last", "no_causal_mask": True},
                    {"init_logit_bias": -10.0}),
    "CLIP_output_dict": ({}, {}, {"output_dict": True}),
    "CLIP_quick_gelu": ({}, {}, {"quick_gelu": True}),
    "CLIP_timm_tower": ({"timm_model_name": "test_vit", "image_size": 64, "timm_pool": "avg", "timm_proj": "mlp"},
                        {}, {}),
    "CustomTextCLIP": ({}, {}, {"custom_text": True}),
}
# Not here: CoCa (its forward and generate need transformers, which this venv leaves out) and a text tower
# with embed_cls (its positional table is one longer than any input the tiny config accepts).
OTHER = ["encode_image", "encode_text", "ClipLoss", "SigLipLoss", "DistillClipLoss", "TextTransformer_tokens", "VisionTransformer_tokens",
         "AttentionalPooler"]
ALL_MODELS = sorted(CLIPS) + OTHER
# Observed: a subset, chosen before any truth was recorded, to bound the observation on two shared
# cores (about 30 s a model).
UNOBSERVED = ['CLIP_no_ln_pre_ls', 'CLIP_output_dict', 'CLIP_quick_gelu', 'CLIP_sincos_pos', 'CLIP_text_mlp_proj', 'CLIP_text_pool_last', 'DistillClipLoss', 'VisionTransformer_tokens', 'encode_image']
MODELS = [name for name in ALL_MODELS if name not in UNOBSERVED]


def build(name):
    import torch
    import open_clip
    from open_clip import transformer as TR

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    text = torch.randint(4, 99, (2, 12), generator=generator)
    text[:, 8] = 3  # an eos token for pool_type="eos"

    def image(size=32):
        return torch.randn(2, 3, size, size, generator=generator)

    if name in CLIPS:
        vision, text_cfg, kwargs = CLIPS[name]
        kwargs = dict(kwargs)
        cls = open_clip.CustomTextCLIP if kwargs.pop("custom_text", False) else open_clip.CLIP
        model = cls(16, VISION | vision, TEXT | text_cfg, **kwargs)
        size = (VISION | vision)["image_size"]
        return model, (image(size), text), {}
    if name in ("encode_image", "encode_text"):
        model = open_clip.CLIP(16, VISION, TEXT)

        class Encode(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, x):
                if name == "encode_image":
                    return self.model.encode_image(x, normalize=True)
                return self.model.encode_text(x, normalize=True)

        return Encode(), (image() if name == "encode_image" else text,), {}
    features = torch.nn.functional.normalize(torch.randn(4, 16, generator=generator), dim=-1)
    other = torch.nn.functional.normalize(torch.randn(4, 16, generator=generator), dim=-1)
    scale = torch.tensor(10.0)
    if name == "ClipLoss":
        class Loss(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.loss = open_clip.ClipLoss()

            def forward(self, a, b, s):
                return self.loss(a, b, s)

        return Loss(), (features, other, scale), {}
    if name == "SigLipLoss":
        from open_clip.loss import SigLipLoss

        class SigLoss(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.loss = SigLipLoss()

            def forward(self, a, b, s):
                return self.loss(a, b, s, torch.tensor(-10.0))

        return SigLoss(), (features, other, scale), {}
    if name == "DistillClipLoss":
        from models._wrap import module_of

        loss = open_clip.DistillClipLoss()
        return (module_of(lambda a, b, s: loss(a, b, s, other, features, s)), (features, other, scale), {})
    if name == "TextTransformer_tokens":
        return TR.TextTransformer(context_length=12, vocab_size=100, width=32, heads=2, layers=2, output_dim=16,
                                  output_tokens=True), (text,), {}
    if name == "VisionTransformer_tokens":
        return TR.VisionTransformer(image_size=32, patch_size=8, width=32, layers=2, heads=2, mlp_ratio=4.0,
                                    output_dim=16, output_tokens=True), (image(),), {}
    if name == "AttentionalPooler":
        return TR.AttentionalPooler(16, 32, n_head=2, n_queries=4), (torch.randn(2, 10, 32, generator=generator),), {}
    raise KeyError(name)
