"""pytorch-metric-learning 2.9.0 (dev split, bench/SPLITS.md "Dev split growth with new libraries (2026-11-26)").

Written by bench/gen_devlib_specs.py: one model per nn.Module class of pytorch_metric_learning.losses (names not
starting with Base) constructible with no arguments, returning loss(embeddings, labels); one per such class of
pytorch_metric_learning.miners, feeding its tuples to TripletMarginLoss(). Embeddings randn(16, 8), labels
arange(16) % 4 (4 classes), seed 0.
"""

LIBRARY = "pytorch_metric_learning"
PACKAGES = ["pytorch_metric_learning"]
DISTRIBUTIONS = ["pytorch-metric-learning", "torch"]
ENV = "benchenv"

LOSSES = ['AngularLoss',
 'CircleLoss',
 'ContrastiveLoss',
 'DynamicSoftMarginLoss',
 'FastAPLoss',
 'GeneralizedLiftedStructureLoss',
 'HistogramLoss',
 'InstanceLoss',
 'IntraPairVarianceLoss',
 'LiftedStructureLoss',
 'MarginLoss',
 'MultiSimilarityLoss',
 'NCALoss',
 'NPairsLoss',
 'NTXentLoss',
 'PNPLoss',
 'SignalToNoiseRatioContrastiveLoss',
 'SmoothAPLoss',
 'SupConLoss',
 'ThresholdConsistentMarginLoss',
 'TripletMarginLoss',
 'TupletMarginLoss',
 'VICRegLoss']
MINERS = ['AngularMiner',
 'BatchEasyHardMiner',
 'BatchHardMiner',
 'DistanceWeightedMiner',
 'EmbeddingsAlreadyPackagedAsTriplets',
 'HDCMiner',
 'MultiSimilarityMiner',
 'PairMarginMiner',
 'TripletMarginMiner',
 'UniformHistogramMiner']
ALL_MODELS = [f"loss_{name}" for name in LOSSES] + [f"miner_{name}" for name in MINERS]
MODELS = list(ALL_MODELS)


def _models(torch, losses, miners):
    """One nn.Module class per model, written out so that the library calls stand in forward."""
    models = {}

    class loss_AngularLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.AngularLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_AngularLoss'] = loss_AngularLoss

    class loss_CircleLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.CircleLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_CircleLoss'] = loss_CircleLoss

    class loss_ContrastiveLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.ContrastiveLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_ContrastiveLoss'] = loss_ContrastiveLoss

    class loss_DynamicSoftMarginLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.DynamicSoftMarginLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_DynamicSoftMarginLoss'] = loss_DynamicSoftMarginLoss

    class loss_FastAPLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.FastAPLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_FastAPLoss'] = loss_FastAPLoss

    class loss_GeneralizedLiftedStructureLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.GeneralizedLiftedStructureLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_GeneralizedLiftedStructureLoss'] = loss_GeneralizedLiftedStructureLoss

    class loss_HistogramLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.HistogramLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_HistogramLoss'] = loss_HistogramLoss

    class loss_InstanceLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.InstanceLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_InstanceLoss'] = loss_InstanceLoss

    class loss_IntraPairVarianceLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.IntraPairVarianceLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_IntraPairVarianceLoss'] = loss_IntraPairVarianceLoss

    class loss_LiftedStructureLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.LiftedStructureLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_LiftedStructureLoss'] = loss_LiftedStructureLoss

    class loss_MarginLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.MarginLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_MarginLoss'] = loss_MarginLoss

    class loss_MultiSimilarityLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.MultiSimilarityLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_MultiSimilarityLoss'] = loss_MultiSimilarityLoss

    class loss_NCALoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.NCALoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_NCALoss'] = loss_NCALoss

    class loss_NPairsLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.NPairsLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_NPairsLoss'] = loss_NPairsLoss

    class loss_NTXentLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.NTXentLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_NTXentLoss'] = loss_NTXentLoss

    class loss_PNPLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.PNPLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_PNPLoss'] = loss_PNPLoss

    class loss_SignalToNoiseRatioContrastiveLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.SignalToNoiseRatioContrastiveLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_SignalToNoiseRatioContrastiveLoss'] = loss_SignalToNoiseRatioContrastiveLoss

    class loss_SmoothAPLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.SmoothAPLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_SmoothAPLoss'] = loss_SmoothAPLoss

    class loss_SupConLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.SupConLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_SupConLoss'] = loss_SupConLoss

    class loss_ThresholdConsistentMarginLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.ThresholdConsistentMarginLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_ThresholdConsistentMarginLoss'] = loss_ThresholdConsistentMarginLoss

    class loss_TripletMarginLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_TripletMarginLoss'] = loss_TripletMarginLoss

    class loss_TupletMarginLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.TupletMarginLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_TupletMarginLoss'] = loss_TupletMarginLoss

    class loss_VICRegLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = losses.VICRegLoss()

        def forward(self, embeddings, labels):
            return self.loss(embeddings, labels)

    models['loss_VICRegLoss'] = loss_VICRegLoss

    class miner_AngularMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.AngularMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_AngularMiner'] = miner_AngularMiner

    class miner_BatchEasyHardMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.BatchEasyHardMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_BatchEasyHardMiner'] = miner_BatchEasyHardMiner

    class miner_BatchHardMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.BatchHardMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_BatchHardMiner'] = miner_BatchHardMiner

    class miner_DistanceWeightedMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.DistanceWeightedMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_DistanceWeightedMiner'] = miner_DistanceWeightedMiner

    class miner_EmbeddingsAlreadyPackagedAsTriplets(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.EmbeddingsAlreadyPackagedAsTriplets()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_EmbeddingsAlreadyPackagedAsTriplets'] = miner_EmbeddingsAlreadyPackagedAsTriplets

    class miner_HDCMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.HDCMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_HDCMiner'] = miner_HDCMiner

    class miner_MultiSimilarityMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.MultiSimilarityMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_MultiSimilarityMiner'] = miner_MultiSimilarityMiner

    class miner_PairMarginMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.PairMarginMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_PairMarginMiner'] = miner_PairMarginMiner

    class miner_TripletMarginMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.TripletMarginMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_TripletMarginMiner'] = miner_TripletMarginMiner

    class miner_UniformHistogramMiner(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.miner = miners.UniformHistogramMiner()
            self.loss = losses.TripletMarginLoss()

        def forward(self, embeddings, labels):
            indices = self.miner(embeddings, labels)
            return self.loss(embeddings, labels, indices)

    models['miner_UniformHistogramMiner'] = miner_UniformHistogramMiner
    return models


def build(name):
    import torch
    from pytorch_metric_learning import losses, miners

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = _models(torch, losses, miners)[name]()
    return model, (torch.randn(16, 8, generator=generator), torch.arange(16) % 4), {}
