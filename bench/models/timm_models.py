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


def build(name):
    import torch
    import timm

    model = timm.create_model(name, pretrained=False, num_classes=10)
    channels, height, width = model.pretrained_cfg.get("input_size", (3, 224, 224))
    generator = torch.Generator().manual_seed(0)
    return model, (torch.randn(1, channels, height, width, generator=generator),), {}
