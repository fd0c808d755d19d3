"""torchvision models built with weights=None from small inputs (classification, detection,
segmentation, video, optical flow). Detection heads are where the dynamic shapes live."""

LIBRARY = "torchvision"
PACKAGES = ["torchvision"]
DISTRIBUTIONS = ["torchvision", "torch"]
ENV = "benchenv-tv"  # PyPI torchvision does not import beside the local torch 2.13 CPU build

CLASSIFICATION = ["resnet18", "resnext50_32x4d", "wide_resnet50_2", "mobilenet_v2", "mobilenet_v3_small",
                  "efficientnet_b0", "efficientnet_v2_s", "regnet_y_400mf", "regnet_x_400mf",
                  "shufflenet_v2_x0_5", "squeezenet1_1", "densenet121", "googlenet", "inception_v3",
                  "mnasnet0_5", "convnext_tiny", "vit_b_16", "swin_t", "swin_v2_t", "maxvit_t", "alexnet", "vgg11_bn"]
DETECTION = ["fasterrcnn_mobilenet_v3_large_320_fpn", "fasterrcnn_resnet50_fpn", "fasterrcnn_resnet50_fpn_v2",
             "retinanet_resnet50_fpn", "retinanet_resnet50_fpn_v2", "fcos_resnet50_fpn", "ssd300_vgg16",
             "ssdlite320_mobilenet_v3_large", "maskrcnn_resnet50_fpn", "keypointrcnn_resnet50_fpn"]
SEGMENTATION = ["fcn_resnet50", "deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large"]
VIDEO = ["r3d_18", "mc3_18", "r2plus1d_18", "mvit_v2_s", "swin3d_t"]
FLOW = ["raft_small"]

# Dev split growth (bench/SPLITS.md, 2026-11-25): every remaining builder of torchvision.models.list_models()
# in these modules whose weights metadata gives at most 100 M parameters.
CLASSIFICATION_GROWTH = [
    "convnext_base", "convnext_small", "densenet161", "densenet169", "densenet201", "efficientnet_b1",
    "efficientnet_b2", "efficientnet_b3", "efficientnet_b4", "efficientnet_b5", "efficientnet_b6",
    "efficientnet_b7", "efficientnet_v2_m", "mnasnet0_75", "mnasnet1_0", "mnasnet1_3", "mobilenet_v3_large",
    "regnet_x_16gf", "regnet_x_1_6gf", "regnet_x_3_2gf", "regnet_x_800mf", "regnet_x_8gf", "regnet_y_16gf",
    "regnet_y_1_6gf", "regnet_y_3_2gf", "regnet_y_800mf", "regnet_y_8gf", "resnet101", "resnet152",
    "resnet34", "resnet50", "resnext101_32x8d", "resnext101_64x4d", "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5", "shufflenet_v2_x2_0", "squeezenet1_0", "swin_b", "swin_s", "swin_v2_b",
    "swin_v2_s", "vit_b_32",
]
CLASSIFICATION += CLASSIFICATION_GROWTH
DETECTION += ["fasterrcnn_mobilenet_v3_large_fpn", "maskrcnn_resnet50_fpn_v2"]
SEGMENTATION += ["deeplabv3_resnet101", "deeplabv3_resnet50", "fcn_resnet101"]
VIDEO += ["mvit_v1_b", "s3d", "swin3d_b", "swin3d_s"]
FLOW += ["raft_large"]
# quantizable float models (quantize=False): QuantStub/DeQuantStub and FloatFunctional around the same nets
QUANTIZATION = [
    "quantized_googlenet", "quantized_inception_v3", "quantized_mobilenet_v2", "quantized_mobilenet_v3_large",
    "quantized_resnet18", "quantized_resnet50", "quantized_resnext101_32x8d", "quantized_resnext101_64x4d",
    "quantized_shufflenet_v2_x0_5", "quantized_shufflenet_v2_x1_0", "quantized_shufflenet_v2_x1_5",
    "quantized_shufflenet_v2_x2_0",
]

MODELS = CLASSIFICATION + DETECTION + SEGMENTATION + VIDEO + FLOW + QUANTIZATION


def build(name):
    import torch
    import torchvision.models as models
    import torchvision.models.detection as detection
    import torchvision.models.optical_flow as optical_flow
    import torchvision.models.segmentation as segmentation
    import torchvision.models.video as video

    generator = torch.Generator().manual_seed(0)
    if name in CLASSIFICATION or name in QUANTIZATION:
        kwargs = {"weights": None, "num_classes": 10}
        size = 224
        if name.endswith("inception_v3"):
            kwargs.update(aux_logits=False, init_weights=False)
            size = 299
        if name.endswith("googlenet"):
            kwargs.update(aux_logits=False, init_weights=False)
        if name in QUANTIZATION:
            import torchvision.models.quantization as quantization

            model = getattr(quantization, name[len("quantized_"):])(quantize=False, **kwargs)
        else:
            model = getattr(models, name)(**kwargs)
        return model, (torch.randn(1, 3, size, size, generator=generator),), {}
    if name in DETECTION:
        kwargs = {"weights": None, "weights_backbone": None, "num_classes": 5}
        if "keypoint" in name:
            kwargs["num_keypoints"] = 5
            kwargs["num_classes"] = 2
        if "ssd" not in name:
            kwargs.update(min_size=160, max_size=224)
        model = getattr(detection, name)(**kwargs)
        images = [torch.rand(3, 160, 200, generator=generator), torch.rand(3, 180, 160, generator=generator)]
        return model, (images,), {}
    if name in SEGMENTATION:
        kwargs = {"weights": None, "weights_backbone": None, "num_classes": 5}
        if name != "lraspp_mobilenet_v3_large":
            kwargs["aux_loss"] = False
        model = getattr(segmentation, name)(**kwargs)
        return model, (torch.randn(1, 3, 128, 128, generator=generator),), {}
    if name in VIDEO:
        model = getattr(video, name)(weights=None, num_classes=5)
        frames, size = (16, 224) if name in ("mvit_v2_s", "mvit_v1_b", "s3d") else (8, 112)
        return model, (torch.randn(1, 3, frames, size, size, generator=generator),), {}
    if name in FLOW:
        model = getattr(optical_flow, name)(weights=None)
        first = torch.rand(1, 3, 128, 128, generator=generator)
        second = torch.rand(1, 3, 128, 128, generator=generator)
        return model, (first, second), {"num_flow_updates": 3}
    raise KeyError(name)
