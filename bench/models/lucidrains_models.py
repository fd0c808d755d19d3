"""vector-quantize-pytorch quantizers (codebook lookups, k-means init, masks)."""

LIBRARY = "vector_quantize_pytorch"
PACKAGES = ["vector_quantize_pytorch"]
DISTRIBUTIONS = ["vector_quantize_pytorch", "torch"]
ENV = "benchenv"

SPECS = {
    "VectorQuantize": "V.VectorQuantize(dim=16, codebook_size=32)",
    "VectorQuantize-cosine": "V.VectorQuantize(dim=16, codebook_size=32, use_cosine_sim=True, codebook_dim=8)",
    "VectorQuantize-kmeans": "V.VectorQuantize(dim=16, codebook_size=8, kmeans_init=True, kmeans_iters=2)",
    "ResidualVQ": "V.ResidualVQ(dim=16, num_quantizers=3, codebook_size=32)",
    "GroupedResidualVQ": "V.GroupedResidualVQ(dim=16, num_quantizers=2, groups=2, codebook_size=32)",
    "FSQ": "V.FSQ(levels=[8, 5, 5], dim=16)",
    "ResidualFSQ": "V.ResidualFSQ(dim=16, levels=[8, 5, 5], num_quantizers=2)",
    "LFQ": "V.LFQ(dim=16, codebook_size=256)",
    "ResidualLFQ": "V.ResidualLFQ(dim=16, codebook_size=256, num_quantizers=2)",
    "LatentQuantize": "V.LatentQuantize(levels=[5, 5, 8], dim=16, commitment_loss_weight=0.1, quantization_loss_weight=0.1)",
    "RandomProjectionQuantizer": "V.RandomProjectionQuantizer(dim=16, codebook_size=32, codebook_dim=8)",
    "SimVQ": "V.SimVQ(dim=16, codebook_size=32)",
}

MODELS = sorted(SPECS)


def build(name):
    import torch
    import vector_quantize_pytorch as V

    from models._wrap import evaluate

    model = evaluate(SPECS[name], torch=torch, V=V)
    generator = torch.Generator().manual_seed(0)
    return model, (torch.randn(2, 10, 16, generator=generator),), {}
