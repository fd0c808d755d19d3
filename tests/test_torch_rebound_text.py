"""The text test that spares most files a tree walk before a guard fix (fix/rewrite.py) must never
say "not rebound" where the walk says "rebound"."""
import ast

import pytest

from breaklint.fix.rewrite import _never_rebound, _only_attribute_reads

CASES = {
 "import torch\nx = torch.ones(1)\n": True,
 "import torch.nn\nimport os, torch\ny = torch .zeros\n": True,
 "import torch\ndef f():\n    import torch.nn\n": False,
 "import torch\nif c: import torch.nn\n": False,
 "import torch\nx = 1; import torch.nn\n": False,
 "import torch\nfrom torch.nn import functional as F\ndef f():\n    from torch.nn import x\n    return torch.x\n": True,
 "import torch\nfrom a import torch\n": False,
 "import torch as torch\n": False,
 "import torch\ndef f(torch):\n    return torch.x\n": False,
 "import torch\nfor torch in y:\n    pass\n": False,
 "try:\n    import torch\nexcept ImportError:\n    torch = None\n": False,
 "import torch\nglobal torch\n": False,
 "import torch\nx = 'torch'\n": False,
 "import torch\nfrom torch import nn\nfrom torch import (\n    Tensor,\n)\nx = torch.ones(1)\n": True,
 "from torch import nn\n": True,
 "import torch\nfrom torch import torch\n": False,
 "import torch\nfrom torch import nn as torch\n": False,
 "import torch\nfrom torch import nn, torch\n": False,
 "import torch\nfrom torch import (\n    torch,\n)\n": False,
}


@pytest.mark.parametrize("source", list(CASES))
def test_the_text_test_never_contradicts_the_walk(source):
    text = _only_attribute_reads(source, "torch")
    assert text == CASES[source]
    assert not text or _never_rebound(ast.parse(source), "torch")
