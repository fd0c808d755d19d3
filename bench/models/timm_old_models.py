"""The same timm models on an older release (timm-0.6.13), installed with
`pip install --no-deps --target /work/benchenv-libs/timm-0.6.13` (see bench/README-realworld.md).
Older releases are plain PyPI wheels and often break more; a model the old API lacks fails and is listed."""

import os

from models.timm_models import *  # noqa: F401,F403
from models.timm_models import build  # noqa: F401

EXTRA_PATH = [os.path.join(os.environ.get("BENCHENV_LIBS", "/work/benchenv-libs"), "timm-0.6.13")]

# A subset that 0.6.13 already had, to bound the run.
MODELS = ["resnet18", "efficientnet_b0", "tresnet_m", "vit_tiny_patch16_224", "beit_base_patch16_224",
          "convit_tiny", "crossvit_tiny_240", "tnt_s_patch16_224", "swin_tiny_patch4_window7_224", "levit_128s",
          "mobilevit_xxs", "nest_tiny", "xcit_nano_12_p16_224", "gcvit_xxtiny", "volo_d1_224"]
