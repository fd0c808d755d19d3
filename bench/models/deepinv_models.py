"""deepinv 0.5.0 (dev split, bench/SPLITS.md "Dev split growth: deepinv and torchlibrosa", stop 41).

The rule written there before anything ran (no pretrained weights anywhere: pretrained=None, or False where the
argument is a bool; a model that cannot be built without a download is recorded as an error):
- denoisers: every concrete subclass of `deepinv.models.Denoiser` exported by `deepinv.models` whose constructor
  has no required argument, less the base `Denoiser`, the wrappers of another network or service (`Client`,
  `DiffusersDenoiserWrapper`, `ScoreModelWrapper`) and `MMSE` (needs a data set): 24 models, each built with one
  input and output channel and its width, depth and block counts cut to the smallest the constructor exposes
  (about 8-16 channels, 1-2 blocks, iterative ones at 2-5 iterations), called as `denoiser(x, 0.1)` on
  x = torch.rand(1, 1, 16, 16);
- physics: for each module of `deepinv.physics` that defines a physics class, the first class in sorted name order
  that builds with simple arguments (image sizes and counts only: no other physics, tensor or geometry object;
  bases, wrappers, noise models and `radio`/`scattering`/`ultrasound`, whose operators need tensors of positions,
  left out): 18 models, x = torch.rand(1, C, 16, 16) with C the channel count its `img_size` names (documented
  input shapes: 2 real channels and 4 frames for dynamic MRI, a complex object for ptychography); a linear
  operator returns A(x), A_adjoint(A(x)) and A_dagger(A(x)), another one A(x);
- optimisation: the documented algorithm classes of `deepinv.optim` that take (data_fidelity, prior) (ADMM, DRS,
  FISTA, GD, HQS, MD, PGD, PMD; the Poisson EM family, PDCP, SIRT and BlindRL take other arguments) and
  `optim_builder("PGD", ...)`: 9 models, each with L2() data fidelity, Tikhonov() prior, max_iter=5 and
  early_stop=True (its convergence check), solving y = physics(x) for a Gaussian blur (`Blur(gaussian_blur(1.0),
  padding="circular")`) on x = torch.rand(1, 1, 16, 16).
Every call is written as plain code in the forward below, one branch per model. Seed 0.
"""

LIBRARY = "deepinv"
PACKAGES = ["deepinv"]
DISTRIBUTIONS = ["deepinv", "torchvision", "torch"]
ENV = "benchenv-tv"

DENOISERS = ["ADMUNet", "BM3D", "BilateralFilter", "DRUNet", "DScCP", "DiffUNet", "DnCNN", "EPLLDenoiser", "FFDNet",
             "MPRNet", "MedianFilter", "NCSNpp", "Poisson2Sparse", "PromptIR", "RAM", "Restormer", "SCUNet", "SwinIR",
             "TGVDenoiser", "TVDenoiser", "TVL1Denoiser", "UNet", "WaveletDenoiser", "WaveletDictDenoiser"]
# module -> first class in sorted order that builds with simple arguments
PHYSICS = ["Blur", "CompressiveSpectralImaging", "CompressedSensing", "Denoising", "Haze", "Demosaicing",
           "SinglePhotonLidar", "DynamicMRI", "NonCartesianMRI", "PET", "Ptychography", "Decolorize", "Pansharpen",
           "SinglePixelCamera", "SpatialUnwrapping", "StructuredRandom", "Tomography", "HyperSpectralUnmixing"]
NONLINEAR = {"Haze", "SinglePhotonLidar", "Ptychography", "SpatialUnwrapping"}
OPTIM = ["ADMM", "DRS", "FISTA", "GD", "HQS", "MD", "PGD", "PMD", "optim_builder"]
MODELS = ([f"denoiser_{n}" for n in DENOISERS] + [f"physics_{n}" for n in PHYSICS] + [f"optim_{n}" for n in OPTIM])

SIZE = 16
CHANNELS = {"CompressiveSpectralImaging": 4, "Decolorize": 3, "Demosaicing": 3, "Pansharpen": 3,
            "SinglePhotonLidar": 3, "HyperSpectralUnmixing": 4}


def build(name):
    import torch
    from torch import nn
    import deepinv as dinv
    from deepinv.physics.blur import gaussian_blur

    torch.manual_seed(0)
    kind, which = name.split("_", 1)
    if kind == "physics" and which == "DynamicMRI":
        x = torch.rand(1, 2, 4, SIZE, SIZE)
    elif kind == "physics" and which == "Ptychography":
        x = torch.exp(1j * torch.rand(1, 1, SIZE, SIZE))
    elif kind == "physics":
        x = torch.rand(1, CHANNELS.get(which, 1), SIZE, SIZE)
    else:
        x = torch.rand(1, 1, SIZE, SIZE)

    class Denoiser(nn.Module):
        def __init__(self, which):
            super().__init__()
            self.which = which
            m = dinv.models
            if which == "ADMUNet":
                self.net = m.ADMUNet(img_resolution=SIZE, in_channels=1, out_channels=1, model_channels=16,
                                     channel_mult=(1, 2), num_blocks=1, attn_resolutions=(8,), pretrained=None)
            elif which == "BM3D":
                self.net = m.BM3D()
            elif which == "BilateralFilter":
                self.net = m.BilateralFilter()
            elif which == "DRUNet":
                self.net = m.DRUNet(in_channels=1, out_channels=1, nc=(8, 16, 32, 64), nb=1, pretrained=None)
            elif which == "DScCP":
                self.net = m.DScCP(depth=4, n_channels_per_layer=8, pretrained=None)
            elif which == "DiffUNet":
                self.net = m.DiffUNet(in_channels=1, out_channels=1, pretrained=None)
            elif which == "DnCNN":
                self.net = m.DnCNN(in_channels=1, out_channels=1, depth=3, nf=8, pretrained=None)
            elif which == "EPLLDenoiser":
                self.net = m.EPLLDenoiser(n_components=4, pretrained=None, patch_size=6, channels=1)
            elif which == "FFDNet":
                self.net = m.FFDNet(n_conv_layers=3, nf=8, img_channels=1, pretrained=None)
            elif which == "MPRNet":
                self.net = m.MPRNet(in_channels=1, out_channels=1, n_feat=8, scale_unetfeats=4, scale_orsnetfeats=4,
                                    num_cab=1, pretrained=None)
            elif which == "MedianFilter":
                self.net = m.MedianFilter(kernel_size=3)
            elif which == "NCSNpp":
                self.net = m.NCSNpp(img_resolution=SIZE, in_channels=1, out_channels=1, model_channels=16,
                                    channel_mult=(1, 2), num_blocks=1, attn_resolutions=(8,), pretrained=None)
            elif which == "Poisson2Sparse":
                self.net = m.Poisson2Sparse(num_iter=2)
            elif which == "PromptIR":
                self.net = m.PromptIR(in_channels=1, out_channels=1, dim=8, num_blocks=(1, 1, 1, 1),
                                      num_refinement_blocks=1, heads=(1, 1, 1, 1), pretrained=None)
            elif which == "RAM":
                self.net = m.RAM(pretrained=False)
            elif which == "Restormer":
                self.net = m.Restormer(in_channels=1, out_channels=1, dim=8, num_blocks=(1, 1, 1, 1),
                                       num_refinement_blocks=1, heads=(1, 1, 1, 1), pretrained=None)
            elif which == "SCUNet":
                self.net = m.SCUNet(in_nc=1, config=(1, 1, 1, 1, 1, 1, 1), dim=16, input_resolution=SIZE,
                                    pretrained=None)
            elif which == "SwinIR":
                self.net = m.SwinIR(img_size=SIZE, in_chans=1, embed_dim=12, depths=(1,), num_heads=(2,),
                                    window_size=4, pretrained=None)
            elif which == "TGVDenoiser":
                self.net = m.TGVDenoiser(n_it_max=5)
            elif which == "TVDenoiser":
                self.net = m.TVDenoiser(n_it_max=5)
            elif which == "TVL1Denoiser":
                self.net = m.TVL1Denoiser(n_it_max=5)
            elif which == "UNet":
                self.net = m.UNet(in_channels=1, out_channels=1, scales=2, channels_per_scale=(8, 16))
            elif which == "WaveletDenoiser":
                self.net = m.WaveletDenoiser(level=2, wv="db2")
            elif which == "WaveletDictDenoiser":
                self.net = m.WaveletDictDenoiser(level=2, list_wv=("db2", "haar"), max_iter=3)

        def forward(self, x):
            return self.net(x, 0.1)

    class Physics(nn.Module):
        def __init__(self, which):
            super().__init__()
            self.which = which
            p = dinv.physics
            c = CHANNELS.get(which, 1)
            if which == "Blur":
                self.physics = p.Blur(filter=gaussian_blur(sigma=1.0), padding="circular")
            elif which == "CompressiveSpectralImaging":
                self.physics = p.CompressiveSpectralImaging(img_size=(c, SIZE, SIZE))
            elif which == "CompressedSensing":
                self.physics = p.CompressedSensing(m=64, img_size=(1, SIZE, SIZE))
            elif which == "Denoising":
                self.physics = p.Denoising(p.GaussianNoise(sigma=0.1))
            elif which == "Haze":
                self.physics = p.Haze()
            elif which == "Demosaicing":
                self.physics = p.Demosaicing(img_size=(c, SIZE, SIZE))
            elif which == "SinglePhotonLidar":
                self.physics = p.SinglePhotonLidar(bins=16)
            elif which == "DynamicMRI":
                self.physics = p.DynamicMRI(img_size=(4, SIZE, SIZE))
            elif which == "NonCartesianMRI":
                self.physics = p.NonCartesianMRI(img_size=(SIZE, SIZE), num_shots=4, num_samples_per_shot=16)
            elif which == "PET":
                self.physics = p.PET(img_size=(1, SIZE, SIZE))
            elif which == "Ptychography":
                self.physics = p.Ptychography(img_size=(1, SIZE, SIZE))
            elif which == "Decolorize":
                self.physics = p.Decolorize(channels=c)
            elif which == "Pansharpen":
                self.physics = p.Pansharpen(img_size=(c, SIZE, SIZE))
            elif which == "SinglePixelCamera":
                self.physics = p.SinglePixelCamera(m=64, img_size=(1, SIZE, SIZE))
            elif which == "SpatialUnwrapping":
                self.physics = p.SpatialUnwrapping()
            elif which == "StructuredRandom":
                self.physics = p.StructuredRandom(img_size=(1, SIZE, SIZE), output_size=(1, SIZE, SIZE))
            elif which == "Tomography":
                self.physics = p.Tomography(angles=8, img_width=SIZE)
            elif which == "HyperSpectralUnmixing":
                self.physics = p.HyperSpectralUnmixing(E=c, C=8)

        def forward(self, x):
            if self.which in NONLINEAR:
                return self.physics.A(x)
            y = self.physics.A(x)
            return y, self.physics.A_adjoint(y), self.physics.A_dagger(y)

    class Optim(nn.Module):
        def __init__(self, which):
            super().__init__()
            self.which = which
            o = dinv.optim
            self.physics = dinv.physics.Blur(filter=gaussian_blur(sigma=1.0), padding="circular")
            fidelity, prior = o.L2(), o.Tikhonov()
            if which == "ADMM":
                self.algo = o.ADMM(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "DRS":
                self.algo = o.DRS(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "FISTA":
                self.algo = o.FISTA(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "GD":
                self.algo = o.GD(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "HQS":
                self.algo = o.HQS(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "MD":
                self.algo = o.MD(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "PGD":
                self.algo = o.PGD(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "PMD":
                self.algo = o.PMD(data_fidelity=fidelity, prior=prior, max_iter=5, early_stop=True)
            elif which == "optim_builder":
                self.algo = o.optim_builder("PGD", max_iter=5, data_fidelity=fidelity, prior=prior, early_stop=True)

        def forward(self, x):
            y = self.physics(x)
            return self.algo(y, self.physics)

    model = {"denoiser": Denoiser, "physics": Physics, "optim": Optim}[kind](which)
    return model, (x,), {}
