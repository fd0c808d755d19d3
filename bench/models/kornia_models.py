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

# Dev split growth (bench/SPLITS.md, 2026-11-25): every nn.Module class of kornia.augmentation (2-D Random*
# and PatchMix, p=1.0), kornia.color, .enhance, .filters, .geometry (top level) and .losses constructible with no
# arguments and not above (abstract bases, containers, model fitters and 3-D classes left out); all on
# rand(2, 3, 32, 32), a two-input loss against the image's mirror.
GROWTH = {
    "PatchMix": "K.augmentation.PatchMix(p=1.0)",
    "RandomAutoContrast": "K.augmentation.RandomAutoContrast(p=1.0)",
    "RandomBoxBlur": "K.augmentation.RandomBoxBlur(p=1.0)",
    "RandomBrightness": "K.augmentation.RandomBrightness(p=1.0)",
    "RandomChannelDropout": "K.augmentation.RandomChannelDropout(p=1.0)",
    "RandomChannelShuffle": "K.augmentation.RandomChannelShuffle(p=1.0)",
    "RandomClahe": "K.augmentation.RandomClahe(p=1.0)",
    "RandomContrast": "K.augmentation.RandomContrast(p=1.0)",
    "RandomCutMixV2": "K.augmentation.RandomCutMixV2(p=1.0)",
    "RandomElasticTransform": "K.augmentation.RandomElasticTransform(p=1.0)",
    "RandomEqualize": "K.augmentation.RandomEqualize(p=1.0)",
    "RandomGamma": "K.augmentation.RandomGamma(p=1.0)",
    "RandomGaussianIllumination": "K.augmentation.RandomGaussianIllumination(p=1.0)",
    "RandomGrayscale": "K.augmentation.RandomGrayscale(p=1.0)",
    "RandomHue": "K.augmentation.RandomHue(p=1.0)",
    "RandomInvert": "K.augmentation.RandomInvert(p=1.0)",
    "RandomJPEG": "K.augmentation.RandomJPEG(p=1.0)",
    "RandomJigsaw": "K.augmentation.RandomJigsaw(p=1.0)",
    "RandomLinearCornerIllumination": "K.augmentation.RandomLinearCornerIllumination(p=1.0)",
    "RandomLinearIllumination": "K.augmentation.RandomLinearIllumination(p=1.0)",
    "RandomMedianBlur": "K.augmentation.RandomMedianBlur(p=1.0)",
    "RandomMixUpV2": "K.augmentation.RandomMixUpV2(p=1.0)",
    "RandomMosaic": "K.augmentation.RandomMosaic(p=1.0)",
    "RandomPlanckianJitter": "K.augmentation.RandomPlanckianJitter(p=1.0)",
    "RandomPlasmaBrightness": "K.augmentation.RandomPlasmaBrightness(p=1.0)",
    "RandomPlasmaContrast": "K.augmentation.RandomPlasmaContrast(p=1.0)",
    "RandomPlasmaShadow": "K.augmentation.RandomPlasmaShadow(p=1.0)",
    "RandomPosterize": "K.augmentation.RandomPosterize(p=1.0)",
    "RandomRGBShift": "K.augmentation.RandomRGBShift(p=1.0)",
    "RandomRain": "K.augmentation.RandomRain(p=1.0)",
    "RandomSaltAndPepperNoise": "K.augmentation.RandomSaltAndPepperNoise(p=1.0)",
    "RandomSaturation": "K.augmentation.RandomSaturation(p=1.0)",
    "RandomSharpness": "K.augmentation.RandomSharpness(p=1.0)",
    "RandomSnow": "K.augmentation.RandomSnow(p=1.0)",
    "RandomSolarize": "K.augmentation.RandomSolarize(p=1.0)",
    "RandomThinPlateSpline": "K.augmentation.RandomThinPlateSpline(p=1.0)",
    "RandomTranslate": "K.augmentation.RandomTranslate(p=1.0)",
    "RandomTransplantation": "K.augmentation.RandomTransplantation(p=1.0)",
    "BgrToGrayscale": "K.color.BgrToGrayscale()",
    "BgrToRgb": "K.color.BgrToRgb()",
    "GrayscaleToRgb": "K.color.GrayscaleToRgb()",
    "HlsToRgb": "K.color.HlsToRgb()",
    "HsvToRgb": "K.color.HsvToRgb()",
    "LabToRgb": "K.color.LabToRgb()",
    "LinearRgbToRgb": "K.color.LinearRgbToRgb()",
    "LuvToRgb": "K.color.LuvToRgb()",
    "NormalsToRgb255": "K.color.NormalsToRgb255()",
    "Rgb255ToNormals": "K.color.Rgb255ToNormals()",
    "Rgb255ToRgb": "K.color.Rgb255ToRgb()",
    "RgbToBgr": "K.color.RgbToBgr()",
    "RgbToGrayscale": "K.color.RgbToGrayscale()",
    "RgbToHls": "K.color.RgbToHls()",
    "RgbToLinearRgb": "K.color.RgbToLinearRgb()",
    "RgbToLuv": "K.color.RgbToLuv()",
    "RgbToRgb255": "K.color.RgbToRgb255()",
    "RgbToXyz": "K.color.RgbToXyz()",
    "RgbToYcbcr": "K.color.RgbToYcbcr()",
    "RgbToYuv": "K.color.RgbToYuv()",
    "RgbToYuv420": "K.color.RgbToYuv420()",
    "RgbToYuv422": "K.color.RgbToYuv422()",
    "RgbaToBgr": "K.color.RgbaToBgr()",
    "RgbaToRgb": "K.color.RgbaToRgb()",
    "Sepia": "K.color.Sepia()",
    "XyzToRgb": "K.color.XyzToRgb()",
    "YcbcrToRgb": "K.color.YcbcrToRgb()",
    "Yuv420ToRgb": "K.color.Yuv420ToRgb()",
    "Yuv422ToRgb": "K.color.Yuv422ToRgb()",
    "YuvToRgb": "K.color.YuvToRgb()",
    "AdjustLog": "K.enhance.AdjustLog()",
    "AdjustSigmoid": "K.enhance.AdjustSigmoid()",
    "IntegralImage": "K.enhance.IntegralImage()",
    "IntegralTensor": "K.enhance.IntegralTensor()",
    "Invert": "K.enhance.Invert()",
    "JPEGCodecDifferentiable": "K.enhance.JPEGCodecDifferentiable()",
    "ZCAWhitening": "K.enhance.ZCAWhitening()",
    "OtsuThreshold": "K.filters.OtsuThreshold()",
    "SpatialGradient": "K.filters.SpatialGradient()",
    "ConvSoftArgmax2d": "K.geometry.ConvSoftArgmax2d()",
    "Hflip": "K.geometry.Hflip()",
    "PyrDown": "K.geometry.PyrDown()",
    "PyrUp": "K.geometry.PyrUp()",
    "Rot180": "K.geometry.Rot180()",
    "ScalePyramid": "K.geometry.ScalePyramid()",
    "SpatialSoftArgmax2d": "K.geometry.SpatialSoftArgmax2d()",
    "Vflip": "K.geometry.Vflip()",
    "CauchyLoss": "against_flipped(K.losses.CauchyLoss())",
    "CharbonnierLoss": "against_flipped(K.losses.CharbonnierLoss())",
    "DiceLoss": "against_flipped(K.losses.DiceLoss())",
    "GemanMcclureLoss": "against_flipped(K.losses.GemanMcclureLoss())",
    "HausdorffERLoss": "against_flipped(K.losses.HausdorffERLoss())",
    "InverseDepthSmoothnessLoss": "against_flipped(K.losses.InverseDepthSmoothnessLoss())",
    "LovaszHingeLoss": "against_flipped(K.losses.LovaszHingeLoss())",
    "LovaszSoftmaxLoss": "against_flipped(K.losses.LovaszSoftmaxLoss())",
    "MS_SSIMLoss": "against_flipped(K.losses.MS_SSIMLoss())",
    "TotalVariation": "K.losses.TotalVariation()",
    "WelschLoss": "against_flipped(K.losses.WelschLoss())",
}
assert not set(GROWTH) & set(SPECS)
SPECS.update(GROWTH)

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
