"""torch-struct 0.5 (dev split, bench/SPLITS.md "Dev split growth: pytorch-crf, torch-struct and reformer-pytorch").

Models by the rule written there before anything was observed: every StructDistribution class of the namespace
whose constructor requires only log_potentials, on randn(2, *event shape) as its docstring states (N = 5, C = 3,
K = 2, NT = 3, M = 4), returning the sum of partition, marginals and argmax where each did not raise at
spec-writing time. Left out by the rule: HMM, SentCFG. DependencyCRF and AlignmentCRF raised on all three at
spec-writing time: kept with `partition`, as the rule keeps a model that does not run (recorded as an error).
"""

LIBRARY = "torch_struct"
PACKAGES = ["torch_struct"]
DISTRIBUTIONS = ["torch-struct", "torch"]
ENV = "benchenv"

N, C, K, NT, M = 5, 3, 2, 3, 4
# class -> (event shape, the attributes summed)
STRUCTS = {
    "LinearChainCRF": ((N - 1, C, C), ("partition", "marginals", "argmax")),
    "SemiMarkovCRF": ((N - 1, K, C, C), ("partition", "marginals", "argmax")),
    "DependencyCRF": ((N, N), ("partition",)),
    "NonProjectiveDependencyCRF": ((N, N), ("partition", "marginals")),
    "TreeCRF": ((N, N, NT), ("partition", "marginals", "argmax")),
    "AlignmentCRF": ((N, M, 3), ("partition",)),
}
MODELS = [f"struct_{name}" for name in STRUCTS]


def build(name):
    import torch
    from torch import nn
    import torch_struct

    torch.manual_seed(0)
    cls_name = name[len("struct_"):]
    shape, attributes = STRUCTS[cls_name]
    cls = getattr(torch_struct, cls_name)

    class Model(nn.Module):
        def forward(self, log_potentials):
            dist = cls(log_potentials)
            return sum(getattr(dist, attribute).sum() for attribute in attributes)

    return Model(), (torch.randn(2, *shape),), {}
