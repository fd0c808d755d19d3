"""piq 0.8.0 (dev split, bench/SPLITS.md "Dev split growth: POT and piq", stop 41).

The rule written there before anything ran: every metric or loss function and class that `piq/__init__.py` imports
(piq has no `__all__`), except those that download weights or tokens (LPIPS, DISTS, PieAPP, ContentLoss and
StyleLoss with their default pretrained VGG16, BRISQUELoss and brisque, CLIPIQA), built with its documented defaults
and called on x, y = torch.rand(2, 3, 64, 64) in [0, 1]; those whose documented minimum size is above 64
(multi-scale SSIM and IW-SSIM: (kernel_size - 1) * 2 ** (levels - 1) + 1 = 161) on torch.rand(2, 3, 256, 256), the
docstrings' example size; the feature-space metrics (FID, KID, PR, MSID, GS, IS, inception_score) on features
torch.rand(64, 32). Every call is written as plain code in the forward below, one branch per model.
"""

LIBRARY = "piq"
PACKAGES = ["piq"]
DISTRIBUTIONS = ["piq", "torchvision", "torch"]
ENV = "benchenv-tv"

FUNCTIONS = ["ssim", "multi_scale_ssim", "total_variation", "gmsd", "multi_scale_gmsd", "inception_score", "vif_p",
             "psnr", "fsim", "vsi", "mdsi", "haarpsi", "srsim", "dss", "information_weighted_ssim"]
CLASSES = ["SSIMLoss", "MultiScaleSSIMLoss", "MSID", "FID", "KID", "PR", "TVLoss", "GMSDLoss", "MultiScaleGMSDLoss",
           "GS", "IS", "VIFLoss", "FSIMLoss", "VSILoss", "MDSILoss", "HaarPSILoss", "SRSIMLoss", "DSSLoss",
           "InformationWeightedSSIMLoss"]
MODELS = FUNCTIONS + CLASSES

LARGE = {"multi_scale_ssim", "MultiScaleSSIMLoss", "information_weighted_ssim", "InformationWeightedSSIMLoss"}
FEATURES = {"FID", "KID", "PR", "MSID", "GS", "IS", "inception_score"}


def build(name):
    import torch
    from torch import nn
    import piq

    torch.manual_seed(0)
    if name in FEATURES:
        x, y = torch.rand(64, 32), torch.rand(64, 32)
    else:
        side = 256 if name in LARGE else 64
        x, y = torch.rand(2, 3, side, side), torch.rand(2, 3, side, side)

    class Model(nn.Module):
        def __init__(self, which):
            super().__init__()
            self.which = which
            if which == "SSIMLoss":
                self.metric = piq.SSIMLoss()
            elif which == "MultiScaleSSIMLoss":
                self.metric = piq.MultiScaleSSIMLoss()
            elif which == "MSID":
                self.metric = piq.MSID()
            elif which == "FID":
                self.metric = piq.FID()
            elif which == "KID":
                self.metric = piq.KID()
            elif which == "PR":
                self.metric = piq.PR()
            elif which == "TVLoss":
                self.metric = piq.TVLoss()
            elif which == "GMSDLoss":
                self.metric = piq.GMSDLoss()
            elif which == "MultiScaleGMSDLoss":
                self.metric = piq.MultiScaleGMSDLoss()
            elif which == "GS":
                self.metric = piq.GS()
            elif which == "IS":
                self.metric = piq.IS()
            elif which == "VIFLoss":
                self.metric = piq.VIFLoss()
            elif which == "FSIMLoss":
                self.metric = piq.FSIMLoss()
            elif which == "VSILoss":
                self.metric = piq.VSILoss()
            elif which == "MDSILoss":
                self.metric = piq.MDSILoss()
            elif which == "HaarPSILoss":
                self.metric = piq.HaarPSILoss()
            elif which == "SRSIMLoss":
                self.metric = piq.SRSIMLoss()
            elif which == "DSSLoss":
                self.metric = piq.DSSLoss()
            elif which == "InformationWeightedSSIMLoss":
                self.metric = piq.InformationWeightedSSIMLoss()

        def forward(self, x, y):
            which = self.which
            if which == "ssim":
                return piq.ssim(x, y)
            if which == "multi_scale_ssim":
                return piq.multi_scale_ssim(x, y)
            if which == "total_variation":
                return piq.total_variation(x)
            if which == "gmsd":
                return piq.gmsd(x, y)
            if which == "multi_scale_gmsd":
                return piq.multi_scale_gmsd(x, y)
            if which == "inception_score":
                return piq.inception_score(x)
            if which == "vif_p":
                return piq.vif_p(x, y)
            if which == "psnr":
                return piq.psnr(x, y)
            if which == "fsim":
                return piq.fsim(x, y)
            if which == "vsi":
                return piq.vsi(x, y)
            if which == "mdsi":
                return piq.mdsi(x, y)
            if which == "haarpsi":
                return piq.haarpsi(x, y)
            if which == "srsim":
                return piq.srsim(x, y)
            if which == "dss":
                return piq.dss(x, y)
            if which == "information_weighted_ssim":
                return piq.information_weighted_ssim(x, y)
            if which == "TVLoss":
                return self.metric(x)
            return self.metric(x, y)

    return Model(name), (x, y), {}
