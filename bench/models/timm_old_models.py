"""The same timm models on an older release (timm-0.6.13), installed with
`pip install --no-deps --target /work/benchenv-libs/timm-0.6.13` (see bench/README-realworld.md).
Older releases are plain PyPI wheels and often break more; a model the old API lacks fails and is listed."""

import os

from models.timm_models import *  # noqa: F401,F403
from models.timm_models import build  # noqa: F401

EXTRA_PATH = [os.path.join(os.environ.get("BENCHENV_LIBS", "/work/benchenv-libs"), "timm-0.6.13")]
