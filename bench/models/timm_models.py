"""timm architectures from timm.create_model(pretrained=False) at their smallest sizes."""

LIBRARY = "timm"
PACKAGES = ["timm"]
DISTRIBUTIONS = ["timm", "torch"]
ENV = "benchenv-tv"  # timm imports torchvision

MODELS = [
    "resnet18", "seresnext26d_32x4d", "resnest14d", "dla34", "efficientnet_b0", "mobilenetv3_small_050",
    "ghostnetv2_100", "regnety_002", "hrnet_w18_small", "tresnet_m", "vit_tiny_patch16_224",
    "beit_base_patch16_224", "cait_xxs24_224", "convit_tiny", "crossvit_tiny_240", "tnt_s_patch16_224",
    "twins_svt_small", "swin_tiny_patch4_window7_224", "maxvit_nano_rw_256", "levit_128s", "mobilevit_xxs",
    "nest_tiny", "xcit_nano_12_p16_224", "gcvit_xxtiny", "fastvit_t8", "eva02_tiny_patch14_224",
    "volo_d1_224", "hiera_tiny_224", "davit_tiny", "efficientformerv2_s0",
]
# Dev split growth (bench/SPLITS.md, 2026-11-25): for each timm model module that none of the above
# comes from, its model with the fewest parameters (meta device, num_classes=10).
GROWTH = [
    "halonet_h1", "test_byobnet", "coat_tiny", "convmixer_768_32", "test_convnext", "cpubone_nano", "csatv2",
    "cs3darknet_focus_s", "cspnext_tiny", "deepseek_vit_412m", "deit_tiny_patch16_224", "densenet121",
    "dpn48b", "edgenext_xx_small", "efficientformer_l1", "efficientvim_m1", "efficientvit_b0",
    "efficientvit_m0", "fasternet_t0", "focalnet_tiny_srf", "gemma4_vit_167m_enc", "hardcorenas_b",
    "hgnetv2_b0", "sam2_hiera_tiny", "iformer_t", "inception_next_atto", "inception_resnet_v2",
    "inception_v3", "inception_v4", "lcnetv2_small", "lowformer_b0", "test_mambaout", "poolformerv2_s12",
    "gmlp_ti16_224", "mobilenetv5_base", "mvitv2_tiny", "naflexvit_base_patch16_parfac_gap", "nasnetalarge",
    "nextvit_small", "test_nfnet", "pit_ti_224", "pnasnet5large", "pvt_v2_b0", "qwen3_vit_88m", "rdnet_tiny",
    "repghostnet_050", "repvit_m1", "res2next50", "resnetv2_18", "rexnet_100", "selecsls42",
    "legacy_seresnet18", "sequencer2d_s", "shvit_s1", "skresnet18", "starnet_s050", "swiftformer_xs",
    "swinv2_tiny_window16_256", "swinv2_cr_tiny_224", "tiny_vit_5m_224", "vgg11", "visformer_tiny",
    "vit_tiny_r_s16_p8_224", "test_vit_relpos", "samvit_base_patch16_224", "vitamin_small_224",
    "ese_vovnet19b_slim_dw", "legacy_xception", "xception41p",
]

MODELS = MODELS + GROWTH


def build(name):
    import torch
    import timm

    model = timm.create_model(name, pretrained=False, num_classes=10)
    channels, height, width = model.pretrained_cfg.get("input_size", (3, 224, 224))
    generator = torch.Generator().manual_seed(0)
    return model, (torch.randn(1, channels, height, width, generator=generator),), {}
