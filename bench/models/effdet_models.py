"""effdet 0.4.1 (dev split, bench/SPLITS.md "Dev split growth: effdet").

The rule written there before anything was observed: every config name of efficientdet_model_param_dict ending in
d0 or lite0, built as the predict bench (10 classes, no weights, 128x128) with and without Soft-NMS, on
randn(2, 3, 128, 128), returning the detections.
"""

LIBRARY = "effdet"
PACKAGES = ["effdet"]
DISTRIBUTIONS = ["effdet", "timm", "torch"]
ENV = "benchenv-tv"

CONFIGS = ["efficientdet_d0", "efficientdet_lite0", "tf_efficientdet_d0", "tf_efficientdet_lite0"]
MODELS = [f"{config}_predict{suffix}" for config in CONFIGS for suffix in ("", "_softnms")]


def build(name):
    import torch
    import effdet

    torch.manual_seed(0)
    soft_nms = name.endswith("_softnms")
    config = name.split("_predict")[0]
    model = effdet.create_model(config, bench_task="predict", num_classes=10, pretrained=False,
                                pretrained_backbone=False, image_size=(128, 128), soft_nms=soft_nms)
    return model, (torch.randn(2, 3, 128, 128),), {}
