"""torch-kmeans 0.2.0 (dev split, bench/SPLITS.md "Dev split growth: torch-kmeans, ptwt and bayesian-torch").

The rule written there before anything was observed: KMeans, SoftKMeans and ConstrainedKMeans built with
n_clusters=3, max_iter=20, verbose=False outside the compiled call, on x = randn(2, 32, 3); `<Name>` clusters with
the default number of clusters, `<Name>_k` with k = tensor([3, 2]); the constrained class gets
weights = 0.05 + 0.02 * rand(2, 32). Each returns the labels and centers of the ClusterResult.
"""

LIBRARY = "torch_kmeans"
PACKAGES = ["torch_kmeans"]
DISTRIBUTIONS = ["torch-kmeans", "torch"]
ENV = "benchenv"

CLASSES = ["KMeans", "SoftKMeans", "ConstrainedKMeans"]
MODELS = [f"{cls}{suffix}" for cls in CLASSES for suffix in ("", "_k")]


def build(name):
    import torch
    from torch import nn
    import torch_kmeans

    torch.manual_seed(0)
    per_instance_k = name.endswith("_k")
    cls_name = name[: -len("_k")] if per_instance_k else name
    clusterer = getattr(torch_kmeans, cls_name)(n_clusters=3, max_iter=20, verbose=False)
    x = torch.randn(2, 32, 3)
    kwargs = {}
    if per_instance_k:
        kwargs["k"] = torch.tensor([3, 2])
    if cls_name == "ConstrainedKMeans":
        kwargs["weights"] = 0.05 + 0.02 * torch.rand(2, 32)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.clusterer = clusterer

        def forward(self, x, **kw):
            result = self.clusterer(x, **kw)
            return result.labels, result.centers

    return Model(), (x,), kwargs
