"""timm architectures from timm.create_model(pretrained=False) at their smallest sizes."""

LIBRARY = "timm"
PACKAGES = ["timm"]
DISTRIBUTIONS = ["timm", "torch"]
ENV = "benchenv-tv"  # timm imports torchvision

MODELS = [
    "resnet18", "resnet26d", "seresnext26d_32x4d", "resnest14d", "res2net50_14w_8s", "dla34", "dpn48b",
    "efficientnet_b0", "mobilenetv3_small_050", "mobilenetv4_conv_small", "ghostnetv2_100", "rexnet_100",
    "regnety_002", "densenet121", "cspresnet50", "darknet17", "hrnet_w18_small", "vovnet39a", "tresnet_m",
    "vit_tiny_patch16_224", "deit_tiny_distilled_patch16_224", "beit_base_patch16_224", "cait_xxs24_224",
    "convit_tiny", "crossvit_tiny_240", "pit_ti_224", "tnt_s_patch16_224", "twins_svt_small",
    "swin_tiny_patch4_window7_224", "swinv2_cr_tiny_ns_224", "maxvit_nano_rw_256", "coatnet_nano_rw_224",
    "efficientformer_l1", "efficientformerv2_s0", "levit_128s", "mobilevit_xxs", "mobilevitv2_050",
    "poolformer_s12", "convnext_atto", "convnextv2_atto", "edgenext_xx_small", "nest_tiny", "xcit_nano_12_p16_224",
    "gcvit_xxtiny", "fastvit_t8", "repvit_m1", "efficientvit_b0", "tiny_vit_5m_224", "eva02_tiny_patch14_224",
    "mixer_s32_224", "resmlp_12_224", "gmlp_ti16_224", "sequencer2d_s", "volo_d1_224", "visformer_tiny",
    "hgnetv2_b0", "inception_next_tiny", "nfnet_l0", "selecsls42b", "hardcorenas_a", "lcnet_050",
    "mambaout_femto", "rdnet_tiny", "davit_tiny", "focalnet_tiny_srf", "hiera_tiny_224", "vitamin_small_224",
    "ese_vovnet19b_dw", "skresnet18", "inception_v3",
]


def build(name):
    import torch
    import timm

    model = timm.create_model(name, pretrained=False, num_classes=10)
    channels, height, width = model.pretrained_cfg.get("input_size", (3, 224, 224))
    generator = torch.Generator().manual_seed(0)
    return model, (torch.randn(1, channels, height, width, generator=generator),), {}
