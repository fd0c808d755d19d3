"""The same pyg models on an older release (pyg-2.3.1), installed with
`pip install --no-deps --target /work/benchenv-libs/pyg-2.3.1` (see bench/README-realworld.md).
Older releases are plain PyPI wheels and often break more; a model the old API lacks fails and is listed."""

import os

from models.pyg_models import *  # noqa: F401,F403
from models.pyg_models import build  # noqa: F401

EXTRA_PATH = [os.path.join(os.environ.get("BENCHENV_LIBS", "/work/benchenv-libs"), "pyg-2.3.1")]
