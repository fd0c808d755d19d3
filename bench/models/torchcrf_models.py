"""pytorch-crf 0.7.2 (dev split, bench/SPLITS.md "Dev split growth: pytorch-crf, torch-struct and reformer-pytorch").

The rule written there before anything was observed: CRF(num_tags=5, batch_first=True) on emissions randn(2, 7, 5),
tags randint(0, 5, (2, 7)) and, for the masked models, the mask of lengths [7, 4]; the log-likelihood and decode.
"""

LIBRARY = "torchcrf"
PACKAGES = ["torchcrf"]
DISTRIBUTIONS = ["pytorch-crf", "torch"]
ENV = "benchenv"

MODELS = ["crf_forward", "crf_forward_masked", "crf_decode", "crf_decode_masked"]


def build(name):
    import torch
    from torch import nn
    from torchcrf import CRF

    torch.manual_seed(0)
    crf = CRF(num_tags=5, batch_first=True)
    emissions = torch.randn(2, 7, 5)
    tags = torch.randint(0, 5, (2, 7))
    mask = (torch.arange(7)[None, :] < torch.tensor([7, 4])[:, None]) if name.endswith("_masked") else None
    decode = name.startswith("crf_decode")

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.crf = crf

        def forward(self, emissions, tags, mask=None):
            if decode:
                # a list of tag lists, ragged under a mask: the first tag of each, as a tensor to compare
                return torch.tensor([tags[0] for tags in self.crf.decode(emissions, mask=mask)])
            return self.crf(emissions, tags, mask=mask)

    kwargs = {"mask": mask} if mask is not None else {}
    return Model(), (emissions, tags), kwargs
