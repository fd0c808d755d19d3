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

MODELS = CLASSIFICATION + DETECTION + SEGMENTATION + VIDEO + FLOW


def build(name):
    import torch
    import torchvision.models as models
    import torchvision.models.detection as detection
    import torchvision.models.optical_flow as optical_flow
    import torchvision.models.segmentation as segmentation
    import torchvision.models.video as video

    generator = torch.Generator().manual_seed(0)
    if name in CLASSIFICATION:
        kwargs = {"weights": None, "num_classes": 10}
        size = 224
        if name == "inception_v3":
            kwargs.update(aux_logits=False, init_weights=False)
            size = 299
        if name == "googlenet":
            kwargs.update(aux_logits=False, init_weights=False)
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
        frames, size = (16, 224) if name in ("mvit_v2_s",) else (8, 112)
        return model, (torch.randn(1, 3, frames, size, size, generator=generator),), {}
    if name in FLOW:
        model = getattr(optical_flow, name)(weights=None)
        first = torch.rand(1, 3, 128, 128, generator=generator)
        second = torch.rand(1, 3, 128, 128, generator=generator)
        return model, (first, second), {"num_flow_updates": 3}
    raise KeyError(name)
