"""gluonts 0.17.0, its torch side (dev split, bench/SPLITS.md "Dev split growth: openai-whisper and gluonts").

The rule written there before anything was observed:
- one model `<sub>` for every `<X>Estimator` of a `gluonts.torch.model.<sub>` module that has
  `create_lightning_module` and whose model has `describe_inputs`: the estimator built with prediction_length=4,
  freq="H" where it takes one, context_length=8 where it takes one (PatchTST also patch_len=4, its one other
  required argument) and its other defaults; the model is `create_lightning_module().model`, built outside the
  compiled call, eval(); its inputs are `model.describe_inputs(batch_size=2)`: float inputs `rand(shape)`, those
  whose name contains "observed" `ones(shape)`, integer inputs `zeros(shape)`; it returns `model(**inputs)`.
- one model `distr_<Name>` for every `<Name>Output` class of `gluonts.torch.distributions` (not `Output` nor
  `DistributionOutput`) constructible with no arguments: `args_proj = out.get_args_proj(16)` built outside the
  compiled call; on x = randn(2, 4, 16), the forward returns `out.loss(target, args_proj(x))` and
  `out.distribution(args_proj(x)).sample()`, target = randint(0, 5, (2, 4)).float() for the count distributions
  (NegativeBinomial, Poisson), rand(2, 4) * 0.8 + 0.1 otherwise.
"""

LIBRARY = "gluonts"
PACKAGES = ["gluonts"]
DISTRIBUTIONS = ["gluonts", "lightning", "torch"]
ENV = "benchenv"

ESTIMATORS = ["d_linear", "deepar", "i_transformer", "lag_tst", "mqf2", "patch_tst", "simple_feedforward", "tft",
              "tide"]
DISTRS = ["Beta", "Gamma", "ImplicitQuantileNetwork", "Laplace", "NegativeBinomial", "Normal", "Poisson",
          "StudentT"]
MODELS = ESTIMATORS + [f"distr_{name}" for name in DISTRS]


def _estimator(name):
    if name == "d_linear":
        from gluonts.torch.model.d_linear import DLinearEstimator
        return DLinearEstimator(prediction_length=4, context_length=8)
    if name == "deepar":
        from gluonts.torch.model.deepar import DeepAREstimator
        return DeepAREstimator(freq="H", prediction_length=4, context_length=8)
    if name == "i_transformer":
        from gluonts.torch.model.i_transformer import ITransformerEstimator
        return ITransformerEstimator(prediction_length=4, context_length=8)
    if name == "lag_tst":
        from gluonts.torch.model.lag_tst import LagTSTEstimator
        return LagTSTEstimator(freq="H", prediction_length=4, context_length=8)
    if name == "mqf2":
        from gluonts.torch.model.mqf2 import MQF2MultiHorizonEstimator
        return MQF2MultiHorizonEstimator(freq="H", prediction_length=4, context_length=8)
    if name == "patch_tst":
        from gluonts.torch.model.patch_tst import PatchTSTEstimator
        return PatchTSTEstimator(prediction_length=4, context_length=8, patch_len=4)
    if name == "simple_feedforward":
        from gluonts.torch.model.simple_feedforward import SimpleFeedForwardEstimator
        return SimpleFeedForwardEstimator(prediction_length=4, context_length=8)
    if name == "tft":
        from gluonts.torch.model.tft import TemporalFusionTransformerEstimator
        return TemporalFusionTransformerEstimator(freq="H", prediction_length=4, context_length=8)
    if name == "tide":
        from gluonts.torch.model.tide import TiDEEstimator
        return TiDEEstimator(freq="H", prediction_length=4, context_length=8)
    raise KeyError(name)


def _distr_output(name):
    from gluonts.torch import distributions as D
    if name == "Beta":
        return D.BetaOutput()
    if name == "Gamma":
        return D.GammaOutput()
    if name == "ImplicitQuantileNetwork":
        return D.ImplicitQuantileNetworkOutput()
    if name == "Laplace":
        return D.LaplaceOutput()
    if name == "NegativeBinomial":
        return D.NegativeBinomialOutput()
    if name == "Normal":
        return D.NormalOutput()
    if name == "Poisson":
        return D.PoissonOutput()
    if name == "StudentT":
        return D.StudentTOutput()
    raise KeyError(name)


def build(name):
    import torch
    from torch import nn

    torch.manual_seed(0)
    if name in ESTIMATORS:
        model = _estimator(name).create_lightning_module().model.eval()
        inputs = {}
        for key, spec in model.describe_inputs(batch_size=2).items():
            if spec.dtype.is_floating_point:
                inputs[key] = torch.ones(spec.shape) if "observed" in key else torch.rand(spec.shape)
            else:
                inputs[key] = torch.zeros(spec.shape, dtype=spec.dtype)
        return model, (), inputs

    distr_name = name[len("distr_"):]
    out = _distr_output(distr_name)
    args_proj = out.get_args_proj(16)
    x = torch.randn(2, 4, 16)
    if distr_name in ("NegativeBinomial", "Poisson"):
        target = torch.randint(0, 5, (2, 4)).float()
    else:
        target = torch.rand(2, 4) * 0.8 + 0.1

    class DistrLossSample(nn.Module):
        def __init__(self):
            super().__init__()
            self.args_proj = args_proj

        def forward(self, x, target):
            distr_args = self.args_proj(x)
            loss = out.loss(target, distr_args)
            sample = out.distribution(distr_args).sample()
            return loss, sample

    return DistrLossSample(), (x, target), {}
