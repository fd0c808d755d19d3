"""The same diffusers models on an older release (diffusers-0.21.4), installed with
`pip install --no-deps --target /work/benchenv-libs/diffusers-0.21.4` (see bench/README-realworld.md).
Older releases are plain PyPI wheels and often break more; a model the old API lacks fails and is listed."""

import os

from models.diffusers_models import *  # noqa: F401,F403
from models.diffusers_models import build  # noqa: F401

EXTRA_PATH = [os.path.join(os.environ.get("BENCHENV_LIBS", "/work/benchenv-libs"), "diffusers-0.21.4")]

# Classes that 0.21 already had; the newer transformers did not exist yet.
MODELS = ["UNet2DModel", "UNet2DConditionModel", "AutoencoderKL", "VQModel", "AutoencoderTiny", "UNet1DModel",
          "ControlNetModel", "PriorTransformer", "UNet3DConditionModel", "T2IAdapter"]
