"""diffusers denoisers and autoencoders from tiny configs (the shapes diffusers' own tests use)."""

LIBRARY = "diffusers"
PACKAGES = ["diffusers"]
DISTRIBUTIONS = ["diffusers", "torch"]
ENV = "benchenv"

CONFIGS = {
    "UNet2DModel": dict(block_out_channels=(32, 64), down_block_types=("DownBlock2D", "AttnDownBlock2D"),
                        up_block_types=("AttnUpBlock2D", "UpBlock2D"), attention_head_dim=3, in_channels=3,
                        out_channels=3, layers_per_block=2, sample_size=32),
    "UNet2DConditionModel": dict(block_out_channels=(32, 64), down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                                 up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"), cross_attention_dim=32,
                                 attention_head_dim=8, in_channels=4, out_channels=4, layers_per_block=1,
                                 sample_size=16),
    "AutoencoderKL": dict(block_out_channels=[32, 64], in_channels=3, out_channels=3,
                          down_block_types=["DownEncoderBlock2D", "DownEncoderBlock2D"],
                          up_block_types=["UpDecoderBlock2D", "UpDecoderBlock2D"], latent_channels=4),
    "VQModel": dict(block_out_channels=[8, 16], norm_num_groups=8, in_channels=3, out_channels=3,
                    down_block_types=["DownEncoderBlock2D", "DownEncoderBlock2D"],
                    up_block_types=["UpDecoderBlock2D", "UpDecoderBlock2D"], latent_channels=3),
    "AutoencoderTiny": dict(in_channels=3, out_channels=3, encoder_block_out_channels=(32, 32),
                            decoder_block_out_channels=(32, 32), num_encoder_blocks=(1, 1),
                            num_decoder_blocks=(1, 1), latent_channels=4),
    "UNet1DModel": dict(block_out_channels=(8, 8, 16, 16), in_channels=14, out_channels=14,
                        time_embedding_type="positional", use_timestep_embedding=True, flip_sin_to_cos=False,
                        freq_shift=1.0, out_block_type="OutConv1DBlock", mid_block_type="MidResTemporalBlock1D",
                        down_block_types=("DownResnetBlock1D",) * 4, up_block_types=("UpResnetBlock1D",) * 3,
                        act_fn="swish"),
    "DiTTransformer2DModel": dict(in_channels=4, out_channels=8, activation_fn="gelu-approximate",
                                  num_attention_heads=2, attention_head_dim=4, num_layers=1,
                                  norm_type="ada_norm_zero", sample_size=8, patch_size=2, num_embeds_ada_norm=1000),
    "PixArtTransformer2DModel": dict(sample_size=8, num_layers=1, patch_size=2, attention_head_dim=2,
                                     num_attention_heads=2, in_channels=4, cross_attention_dim=8, out_channels=8,
                                     attention_bias=True, activation_fn="gelu-approximate", num_embeds_ada_norm=8,
                                     norm_type="ada_norm_single", norm_elementwise_affine=False, norm_eps=1e-6,
                                     use_additional_conditions=False, caption_channels=None),
    "SD3Transformer2DModel": dict(sample_size=8, patch_size=1, in_channels=4, num_layers=1, attention_head_dim=8,
                                  num_attention_heads=4, caption_projection_dim=32, joint_attention_dim=32,
                                  pooled_projection_dim=64, out_channels=4),
    "FluxTransformer2DModel": dict(patch_size=1, in_channels=4, num_layers=1, num_single_layers=1,
                                   attention_head_dim=16, num_attention_heads=2, joint_attention_dim=32,
                                   pooled_projection_dim=32, axes_dims_rope=[4, 4, 8]),
    "ControlNetModel": dict(block_out_channels=(32, 64), down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                            cross_attention_dim=32, attention_head_dim=8, in_channels=4, layers_per_block=1,
                            conditioning_embedding_out_channels=(16, 32)),
    "PriorTransformer": dict(num_attention_heads=2, attention_head_dim=4, num_layers=2, embedding_dim=8,
                             num_embeddings=7, additional_embeddings=4),
    "UNet3DConditionModel": dict(block_out_channels=(32, 64), norm_num_groups=32,
                                 down_block_types=("CrossAttnDownBlock3D", "DownBlock3D"),
                                 up_block_types=("UpBlock3D", "CrossAttnUpBlock3D"), cross_attention_dim=8,
                                 attention_head_dim=4, in_channels=4, out_channels=4, layers_per_block=1,
                                 sample_size=16),
    "CogVideoXTransformer3DModel": dict(num_attention_heads=2, attention_head_dim=8, in_channels=4, out_channels=4,
                                        time_embed_dim=2, text_embed_dim=8, num_layers=1, sample_width=8,
                                        sample_height=8, sample_frames=8, patch_size=2,
                                        temporal_compression_ratio=4, max_text_seq_length=8),
    "SanaTransformer2DModel": dict(patch_size=1, in_channels=4, out_channels=4, num_layers=1, attention_head_dim=4,
                                   num_attention_heads=2, num_cross_attention_heads=2, cross_attention_head_dim=4,
                                   cross_attention_dim=8, caption_channels=8, sample_size=8),
    "AuraFlowTransformer2DModel": dict(sample_size=8, patch_size=2, in_channels=4, num_mmdit_layers=1,
                                       num_single_dit_layers=1, attention_head_dim=8, num_attention_heads=4,
                                       caption_projection_dim=32, joint_attention_dim=32, out_channels=4,
                                       pos_embed_max_size=64),
    "HunyuanDiT2DModel": dict(sample_size=8, patch_size=2, in_channels=4, num_layers=1, attention_head_dim=8,
                              num_attention_heads=2, cross_attention_dim=16, cross_attention_dim_t5=8,
                              pooled_projection_dim=4, hidden_size=16, text_len=3, text_len_t5=4,
                              activation_fn="gelu-approximate"),
    "UVit2DModel": dict(hidden_size=32, cond_embed_dim=32, micro_cond_encode_dim=2, micro_cond_embed_dim=10,
                        encoder_hidden_size=32, vocab_size=32, codebook_size=32, in_channels=32,
                        block_out_channels=32, num_res_blocks=1, downsample=True, upsample=True,
                        block_num_heads=1, num_hidden_layers=1, num_attention_heads=1, attention_dropout=0.0,
                        intermediate_size=32, layer_norm_eps=1e-06, ln_elementwise_affine=True),
    "T2IAdapter": dict(in_channels=3, channels=[32, 64], num_res_blocks=2, downscale_factor=4,
                       adapter_type="full_adapter"),
}

MODELS = sorted(CONFIGS)


def _inputs(name, torch):
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    t = torch.tensor([10])
    table = {
        "UNet2DModel": lambda: {"sample": r(1, 3, 32, 32), "timestep": t},
        "UNet2DConditionModel": lambda: {"sample": r(1, 4, 16, 16), "timestep": t, "encoder_hidden_states": r(1, 4, 32)},
        "AutoencoderKL": lambda: {"sample": r(1, 3, 32, 32)},
        "VQModel": lambda: {"sample": r(1, 3, 32, 32)},
        "AutoencoderTiny": lambda: {"sample": r(1, 3, 32, 32)},
        "UNet1DModel": lambda: {"sample": r(2, 14, 16), "timestep": t},
        "DiTTransformer2DModel": lambda: {"hidden_states": r(1, 4, 8, 8), "timestep": t, "class_labels": torch.tensor([1])},
        "PixArtTransformer2DModel": lambda: {"hidden_states": r(1, 4, 8, 8), "encoder_hidden_states": r(1, 8, 8), "timestep": t,
                                             "added_cond_kwargs": {"aspect_ratio": None, "resolution": None}},
        "SD3Transformer2DModel": lambda: {"hidden_states": r(1, 4, 8, 8), "encoder_hidden_states": r(1, 8, 32),
                                          "pooled_projections": r(1, 64), "timestep": t},
        "FluxTransformer2DModel": lambda: {"hidden_states": r(1, 16, 4), "encoder_hidden_states": r(1, 8, 32),
                                           "pooled_projections": r(1, 32), "img_ids": r(16, 3), "txt_ids": r(8, 3),
                                           "timestep": torch.tensor([1.0])},
        "ControlNetModel": lambda: {"sample": r(1, 4, 16, 16), "timestep": t, "encoder_hidden_states": r(1, 4, 32),
                                    "controlnet_cond": r(1, 3, 32, 32)},
        "PriorTransformer": lambda: {"hidden_states": r(1, 8), "timestep": 2, "proj_embedding": r(1, 8),
                                     "encoder_hidden_states": r(1, 7, 8)},
        "UNet3DConditionModel": lambda: {"sample": r(1, 4, 2, 16, 16), "timestep": t, "encoder_hidden_states": r(1, 4, 8)},
        "CogVideoXTransformer3DModel": lambda: {"hidden_states": r(1, 1, 4, 8, 8), "encoder_hidden_states": r(1, 8, 8), "timestep": t},
        "SanaTransformer2DModel": lambda: {"hidden_states": r(1, 4, 8, 8), "encoder_hidden_states": r(1, 8, 8), "timestep": t},
        "AuraFlowTransformer2DModel": lambda: {"hidden_states": r(1, 4, 8, 8), "encoder_hidden_states": r(1, 8, 32), "timestep": t},
        "HunyuanDiT2DModel": lambda: {"hidden_states": r(1, 4, 8, 8), "timestep": t, "encoder_hidden_states": r(1, 3, 16),
                                      "text_embedding_mask": torch.ones(1, 3), "encoder_hidden_states_t5": r(1, 4, 8),
                                      "text_embedding_mask_t5": torch.ones(1, 4),
                                      "image_meta_size": None, "style": None, "image_rotary_emb": [r(16, 8), r(16, 8)]},
        "UVit2DModel": lambda: {"input_ids": torch.randint(0, 32, (1, 8, 8), generator=g), "encoder_hidden_states": r(1, 4, 32),
                                "pooled_text_emb": r(1, 32), "micro_conds": r(1, 5)},
        "T2IAdapter": lambda: {"x": r(1, 3, 64, 64)},
    }
    return table[name]()


def build(name):
    import torch
    import diffusers

    model = getattr(diffusers, name)(**CONFIGS[name])
    return model, (), _inputs(name, torch)
