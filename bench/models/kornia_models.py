"""kornia image operators, augmentations and feature modules on a small image batch."""

LIBRARY = "kornia"
PACKAGES = ["kornia"]
DISTRIBUTIONS = ["kornia", "torch"]
ENV = "benchenv"

SPECS = {
    "GaussianBlur2d": "K.filters.GaussianBlur2d((5, 5), (1.5, 1.5))",
    "Sobel": "K.filters.Sobel()",
    "Canny": "K.filters.Canny()",
    "MedianBlur": "K.filters.MedianBlur((3, 3))",
    "UnsharpMask": "K.filters.UnsharpMask((3, 3), (1.5, 1.5))",
    "BilateralBlur": "K.filters.BilateralBlur((5, 5), 0.1, (1.5, 1.5))",
    "RgbToHsv": "K.color.RgbToHsv()",
    "RgbToLab": "K.color.RgbToLab()",
    "equalize": "module_of(K.enhance.equalize)",
    "equalize_clahe": "module_of(lambda x: K.enhance.equalize_clahe(x, clip_limit=2.0, grid_size=(2, 2)))",
    "Rotate": "module_of(lambda x: K.geometry.transform.rotate(x, torch.tensor([30.0, 45.0])))",
    "warp_perspective": "module_of(lambda x: K.geometry.transform.warp_perspective(x, torch.eye(3).repeat(2, 1, 1) + 0.01, (32, 32)))",
    "dilation": "module_of(lambda x: K.morphology.dilation(x, torch.ones(3, 3)))",
    "SSIMLoss": "against_flipped(K.losses.SSIMLoss(5))",
    "ColorJitter": "K.augmentation.ColorJitter(0.2, 0.2, 0.2, 0.1, p=1.0)",
    "RandomAffine": "K.augmentation.RandomAffine(15.0, p=1.0)",
    "RandomResizedCrop": "K.augmentation.RandomResizedCrop((24, 24), p=1.0)",
    "RandomHorizontalFlip": "K.augmentation.RandomHorizontalFlip(p=0.5)",
    "RandomErasing": "K.augmentation.RandomErasing(p=1.0)",
    "RandomPerspective": "K.augmentation.RandomPerspective(0.3, p=1.0)",
    "RandomMotionBlur": "K.augmentation.RandomMotionBlur(3, 35.0, 0.5, p=1.0)",
    "RandomGaussianNoise": "K.augmentation.RandomGaussianNoise(std=0.1, p=1.0)",
    "AugmentationSequential": "K.augmentation.AugmentationSequential(K.augmentation.RandomAffine(10.0, p=0.7), K.augmentation.ColorJiggle(0.1, 0.1, 0.1, p=0.7), K.augmentation.RandomVerticalFlip(p=0.5))",
    "SIFTDescriptor": "K.feature.SIFTDescriptor(32)",
    "HardNet": "K.feature.HardNet(pretrained=False)",
    "ScaleSpaceDetector": "K.feature.ScaleSpaceDetector(num_features=16)",
    "harris_response": "module_of(lambda x: K.feature.harris_response(x))",
}

MODELS = sorted(SPECS)


def build(name):
    import torch
    import kornia as K

    from models._wrap import evaluate

    model = evaluate(SPECS[name], torch=torch, K=K)
    generator = torch.Generator().manual_seed(0)
    if name in ("SIFTDescriptor", "HardNet"):
        return model, (torch.rand(4, 1, 32, 32, generator=generator),), {}
    if name in ("ScaleSpaceDetector", "harris_response", "Canny") or name == "equalize_clahe":
        channels = 1 if name != "equalize_clahe" else 3
        return model, (torch.rand(2, channels, 32, 32, generator=generator),), {}
    return model, (torch.rand(2, 3, 32, 32, generator=generator),), {}
