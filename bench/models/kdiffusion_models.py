"""k-diffusion 0.1.1.post1 (dev split, bench/SPLITS.md "Dev split growth: k-diffusion and torch-audiomentations",
stop 32, second round).

The rule written there before anything ran: every sample_* function of k_diffusion.sampling except the SDE samplers
(`*_sde`, whose default noise is torchsde's Brownian tree), for a few steps on a Karras Denoiser around a tiny
spec-defined net; the k_diffusion.layers classes that take no module (and the two attention layers with AdaGN as
their norm factory); the losses of Denoiser and SimpleLossDenoiser; the two image models, small; and the external wrappers
that need no foreign model. Everything is built outside the compiled call. k-diffusion imports torchsde (a
test-split library), torchvision, clip, cleanfid, skimage and jsonmerge at module top; stand-ins for them come first
on the PYTHONPATH (_stubs_kdiffusion), so no torchsde code runs or is traced here.
"""

import os

LIBRARY = "k_diffusion"
PACKAGES = ["k_diffusion"]
DISTRIBUTIONS = ["k-diffusion", "dctorch", "torch"]
ENV = "benchenv"
EXTRA_PATH = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "_stubs_kdiffusion")]

# sampler -> one call of it (m: the denoiser, x: the noise, s: the Karras sigmas), written as the plain code a user
# writes: these were strings evaluated at build time until stop 32's first rescore, which hid the calls from any
# static reader (the same calls with the same arguments; the library lines they run are the same)
def _sample_euler(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_euler(m, x, s, disable=True)


def _sample_euler_ancestral(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_euler_ancestral(m, x, s, disable=True)


def _sample_heun(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_heun(m, x, s, disable=True)


def _sample_dpm_2(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_dpm_2(m, x, s, disable=True)


def _sample_dpm_2_ancestral(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_dpm_2_ancestral(m, x, s, disable=True)


def _sample_lms(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_lms(m, x, s, disable=True)


def _sample_dpmpp_2m(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_dpmpp_2m(m, x, s, disable=True)


def _sample_dpmpp_2s_ancestral(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_dpmpp_2s_ancestral(m, x, s, disable=True)


def _sample_dpm_fast(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_dpm_fast(m, x, 0.1, 10., 4, disable=True)


def _sample_dpm_adaptive(m, x, s):
    import k_diffusion as K
    return K.sampling.sample_dpm_adaptive(m, x, 0.1, 10., rtol=0.5, atol=0.5, disable=True)


SAMPLERS = {
    "sample_euler": _sample_euler, "sample_euler_ancestral": _sample_euler_ancestral, "sample_heun": _sample_heun,
    "sample_dpm_2": _sample_dpm_2, "sample_dpm_2_ancestral": _sample_dpm_2_ancestral, "sample_lms": _sample_lms,
    "sample_dpmpp_2m": _sample_dpmpp_2m, "sample_dpmpp_2s_ancestral": _sample_dpmpp_2s_ancestral,
    "sample_dpm_fast": _sample_dpm_fast, "sample_dpm_adaptive": _sample_dpm_adaptive,
}
# name -> constructor (L: k_diffusion.layers); all on randn(2, 8, 8, 8) with COND, except where INPUTS says
LAYERS = {
    "AdaGN": "L.AdaGN(8, 8, 2)",
    "Downsample2d": "L.Downsample2d()",
    "Upsample2d": "L.Upsample2d()",
    "FourierFeatures": "L.FourierFeatures(1, 8)",
    "SelfAttention2d": "L.SelfAttention2d(8, 2, lambda c_in: L.AdaGN(8, c_in, 1))",
    "CrossAttention2d": "L.CrossAttention2d(8, 8, 2, lambda c_in: L.AdaGN(8, c_in, 1))",
}
UNCONDITIONED = {"Downsample2d": (2, 3, 8, 8), "Upsample2d": (2, 3, 8, 8), "FourierFeatures": (2, 1)}
LOSSES = {
    "Denoiser_loss": "L.Denoiser(TinyNet(), sigma_data=1.)",
    "SimpleLossDenoiser_loss": "L.SimpleLossDenoiser(TinyNet(), sigma_data=1.)",
}
# name -> constructor, called as model(x, sigma)
SIGMA_MODELS = {
    "ImageDenoiserModelV1": "M.ImageDenoiserModelV1(c_in=3, feats_in=16, depths=[1, 1], channels=[8, 16],"
                            " self_attn_depths=[False, True])",
    "ImageTransformerDenoiserModelV1": "M.ImageTransformerDenoiserModelV1(n_layers=2, d_model=32, d_ff=64,"
                                       " in_features=3, out_features=3, patch_size=(2, 2))",
    "VDenoiser": "E.VDenoiser(TinyNet())",
    "DiscreteEpsDDPMDenoiser": "E.DiscreteEpsDDPMDenoiser(TinyNet(), alphas_cumprod, quantize=False)",
    "DiscreteVDDPMDenoiser": "E.DiscreteVDDPMDenoiser(TinyNet(), alphas_cumprod, quantize=False)",
}

MODELS = [*SAMPLERS, *LAYERS, *LOSSES, *SIGMA_MODELS]


def build(name):
    import torch
    from torch import nn
    import k_diffusion as K
    import k_diffusion.layers as L
    import k_diffusion.models as M
    import k_diffusion.external as E

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)

    class TinyNet(nn.Module):
        """Two 3x3 convolutions, 3 -> 8 -> 3 channels, SiLU and a linear embedding of the noise level between."""

        def __init__(self):
            super().__init__()
            self.conv_in = nn.Conv2d(3, 8, 3, padding=1)
            self.embed = nn.Linear(1, 8)
            self.conv_out = nn.Conv2d(8, 3, 3, padding=1)

        def forward(self, x, sigma):
            h = self.conv_in(x) + self.embed(sigma.reshape(-1, 1).to(x.dtype))[:, :, None, None]
            return self.conv_out(nn.functional.silu(h))

    if name in SAMPLERS:
        call = SAMPLERS[name]

        class Sampler(nn.Module):
            def __init__(self):
                super().__init__()
                self.denoiser = L.Denoiser(TinyNet(), sigma_data=1.)
                self.register_buffer("sigmas", K.sampling.get_sigmas_karras(n=4, sigma_min=0.1, sigma_max=10.))

            def forward(self, x):
                return call(self.denoiser, x, self.sigmas)

        return Sampler(), (torch.randn(1, 3, 8, 8, generator=generator) * 10.,), {}

    if name in LAYERS:
        layer = eval(LAYERS[name], {"L": L})
        if name in UNCONDITIONED:
            return layer, (torch.randn(*UNCONDITIONED[name], generator=generator),), {}
        cond = {"cond": torch.randn(2, 8, generator=generator), "cross": torch.randn(2, 4, 8, generator=generator),
                "cross_padding": torch.zeros(2, 4, dtype=torch.bool)}

        class Conditioned(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = layer

            def forward(self, x, cond_, cross, cross_padding):
                return self.layer(x, {"cond": cond_, "cross": cross, "cross_padding": cross_padding})

        return Conditioned(), (torch.randn(2, 8, 8, 8, generator=generator), cond["cond"], cond["cross"],
                               cond["cross_padding"]), {}

    x = torch.randn(2, 3, 8, 8, generator=generator)
    sigma = torch.tensor([0.5, 2.])
    if name in LOSSES:
        denoiser = eval(LOSSES[name], {"L": L, "TinyNet": TinyNet})

        class Loss(nn.Module):
            def __init__(self):
                super().__init__()
                self.denoiser = denoiser

            def forward(self, x, noise, sigma):
                return self.denoiser.loss(x, noise, sigma)

        return Loss(), (x, torch.randn(2, 3, 8, 8, generator=generator), sigma), {}

    alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 2e-2, 100), dim=0)
    model = eval(SIGMA_MODELS[name], {"M": M, "E": E, "TinyNet": TinyNet, "alphas_cumprod": alphas_cumprod})
    return model, (x, sigma), {}
