"""torch_geometric models and layers on a small random graph (no data sets, no weights)."""

LIBRARY = "torch_geometric"
PACKAGES = ["torch_geometric"]
DISTRIBUTIONS = ["torch_geometric", "torch"]
ENV = "benchenv"

NODES, EDGES, FEATURES, HIDDEN = 24, 80, 16, 32

# name -> (constructor source, input kind). Evaluated lazily inside build().
SPECS = {
    "GCN": ("m.GCN(F, H, num_layers=2, out_channels=4)", "x_ei"),
    "GraphSAGE": ("m.GraphSAGE(F, H, num_layers=2)", "x_ei"),
    "GIN": ("m.GIN(F, H, num_layers=2)", "x_ei"),
    "GAT": ("m.GAT(F, H, num_layers=2, heads=2)", "x_ei"),
    "GATv2-model": ("m.GAT(F, H, num_layers=2, v2=True)", "x_ei"),
    "PNA": ("m.PNA(F, H, num_layers=2, aggregators=['mean','min','max','std'], scalers=['identity','amplification'], deg=torch.tensor([0, 4, 8, 6, 2]))", "x_ei"),
    "EdgeCNN": ("m.EdgeCNN(F, H, num_layers=2)", "x_ei"),
    "AttentiveFP": ("m.AttentiveFP(F, H, 4, edge_dim=5, num_layers=2, num_timesteps=2)", "x_ei_ea5_batch"),
    "GraphUNet": ("m.GraphUNet(F, H, 4, depth=2)", "x_ei"),
    "LINKX": ("m.LINKX(NODES, F, H, 4, num_layers=2)", "x_ei"),
    "PMLP": ("m.PMLP(F, H, 4, num_layers=2)", "x_ei"),
    "NeuralFingerprint": ("m.NeuralFingerprint(F, H, 8, num_layers=2)", "x_ei_batch"),
    "RECT_L": ("m.RECT_L(F, H)", "x_ei"),
    "MLP": ("m.MLP([F, H, 4])", "x"),
    "LightGCN": ("m.LightGCN(NODES, H, num_layers=2)", "ei"),
    "GCNConv": ("n.GCNConv(F, H)", "x_ei"),
    "GATConv": ("n.GATConv(F, H, heads=2)", "x_ei"),
    "GATv2Conv": ("n.GATv2Conv(F, H, heads=2)", "x_ei"),
    "SAGEConv": ("n.SAGEConv(F, H)", "x_ei"),
    "GINEConv": ("n.GINEConv(torch.nn.Linear(F, H), edge_dim=5)", "x_ei_ea5"),
    "TransformerConv": ("n.TransformerConv(F, H, heads=2, edge_dim=5)", "x_ei_ea5"),
    "ChebConv": ("n.ChebConv(F, H, K=3)", "x_ei"),
    "GraphConv": ("n.GraphConv(F, H)", "x_ei"),
    "GatedGraphConv": ("n.GatedGraphConv(H, num_layers=2)", "xH_ei"),
    "ResGatedGraphConv": ("n.ResGatedGraphConv(F, H)", "x_ei"),
    "ARMAConv": ("n.ARMAConv(F, H, num_stacks=2, num_layers=2)", "x_ei"),
    "SGConv": ("n.SGConv(F, H, K=2)", "x_ei"),
    "SSGConv": ("n.SSGConv(F, H, alpha=0.1, K=2)", "x_ei"),
    "APPNP": ("n.APPNP(K=3, alpha=0.1)", "x_ei"),
    "MFConv": ("n.MFConv(F, H)", "x_ei"),
    "RGCNConv": ("n.RGCNConv(F, H, num_relations=3)", "x_ei_type"),
    "FastRGCNConv": ("n.FastRGCNConv(F, H, num_relations=3)", "x_ei_type"),
    "SignedConv": ("n.SignedConv(F, H, first_aggr=True)", "x_ei_ei"),
    "PointNetConv": ("n.PointNetConv(torch.nn.Linear(F + 3, H))", "x_pos_ei"),
    "GMMConv": ("n.GMMConv(F, H, dim=3, kernel_size=4)", "x_ei_ea3"),
    "NNConv": ("n.NNConv(F, 8, torch.nn.Linear(5, F * 8))", "x_ei_ea5"),
    "CGConv": ("n.CGConv(F, dim=5)", "x_ei_ea5"),
    "FeaStConv": ("n.FeaStConv(F, H, heads=2)", "x_ei"),
    "PPFConv": ("n.PPFConv(torch.nn.Linear(F + 4, H))", "x_pos_norm_ei"),
    "ClusterGCNConv": ("n.ClusterGCNConv(F, H)", "x_ei"),
    "GENConv": ("n.GENConv(F, H, aggr='softmax', t=1.0, learn_t=True)", "x_ei"),
    "GCN2Conv": ("n.GCN2Conv(F, alpha=0.1)", "x_x0_ei"),
    "FiLMConv": ("n.FiLMConv(F, H)", "x_ei"),
    "SuperGATConv": ("n.SuperGATConv(F, 8, heads=2)", "x_ei"),
    "FAConv": ("n.FAConv(F)", "x_x0_ei"),
    "EGConv": ("n.EGConv(F, H, aggregators=['sum', 'max'], num_heads=4, num_bases=2)", "x_ei"),
    "PDNConv": ("n.PDNConv(F, H, edge_dim=5, hidden_channels=8)", "x_ei_ea5"),
    "GeneralConv": ("n.GeneralConv(F, H, in_edge_channels=5)", "x_ei_ea5"),
    "HypergraphConv": ("n.HypergraphConv(F, H)", "x_ei"),
    "LEConv": ("n.LEConv(F, H)", "x_ei"),
    "TAGConv": ("n.TAGConv(F, H, K=2)", "x_ei"),
    "AntiSymmetricConv": ("n.AntiSymmetricConv(F)", "x_ei"),
    "MixHopConv": ("n.MixHopConv(F, H)", "x_ei"),
    "PointTransformerConv": ("n.PointTransformerConv(F, H)", "x_pos_ei"),
    "DirGNNConv": ("n.DirGNNConv(n.GCNConv(F, H))", "x_ei"),
    "AGNNConv": ("n.AGNNConv()", "x_ei"),
    "DNAConv": ("n.DNAConv(F, heads=2)", "x3_ei"),
    "GPSConv": ("n.GPSConv(F, n.GCNConv(F, F), heads=2)", "x_ei"),
    "TopKPooling": ("n.TopKPooling(F, ratio=0.5)", "x_ei"),
    "SAGPooling": ("n.SAGPooling(F, ratio=0.5)", "x_ei"),
    "ASAPooling": ("n.ASAPooling(F, ratio=0.5)", "x_ei"),
    "EdgePooling": ("n.EdgePooling(F)", "x_ei_batch"),
    "PANPooling": ("n.PANPooling(F)", "x_panM"),
    "MemPooling": ("n.MemPooling(F, H, heads=2, num_clusters=3)", "x_batch"),
    "SortAggregation": ("n.aggr.SortAggregation(k=4)", "x_batch"),
    "Set2Set": ("n.aggr.Set2SetAggregation(F, processing_steps=2)", "x_batch"),
    "AttentionalAggregation": ("n.aggr.AttentionalAggregation(torch.nn.Linear(F, 1))", "x_batch"),
    "DeepGCNLayer": ("n.DeepGCNLayer(n.GENConv(F, F), torch.nn.LayerNorm(F), torch.nn.ReLU(), block='res+')", "x_ei"),
}

# Dev split growth (bench/SPLITS.md, 2026-11-25): every class of torch_geometric.nn.conv, .pool and .aggr
# not yet above (bases, KNNIndex, CUDA-only, heterogeneous and mesh convolutions left out), and the
# molecular models that take (z, pos, batch).
DEG = "torch.tensor([0, 4, 8, 6, 2])"
GROWTH = {
    "SimpleConv": ("n.SimpleConv()", "x_ei"),
    "GravNetConv": ("n.GravNetConv(F, H, space_dimensions=3, propagate_dimensions=8, k=4)", "x_batch"),
    "GINConv": ("n.GINConv(torch.nn.Sequential(torch.nn.Linear(F, H), torch.nn.ReLU(), torch.nn.Linear(H, H)))", "x_ei"),
    "RGATConv": ("n.RGATConv(F, H, num_relations=3)", "x_ei_type"),
    "SplineConv": ("n.SplineConv(F, H, dim=3, kernel_size=3)", "x_ei_ea3"),
    "EdgeConv": ("n.EdgeConv(torch.nn.Linear(2 * F, H))", "x_ei"),
    "DynamicEdgeConv": ("n.DynamicEdgeConv(torch.nn.Linear(2 * F, H), k=4)", "x_batch"),
    "XConv": ("n.XConv(F, H, dim=3, kernel_size=4)", "x_pos_batch"),
    "PNAConv": ("n.PNAConv(F, H, aggregators=['mean', 'max'], scalers=['identity', 'amplification'], deg=" + DEG + ")", "x_ei"),
    "PANConv": ("n.PANConv(F, H, filter_size=2)", "x_ei"),
    "WLConv": ("n.WLConv()", "xint_ei"),
    "WLConvContinuous": ("n.WLConvContinuous()", "x_ei"),
    "LGConv": ("n.LGConv()", "x_ei"),
    "PointGNNConv": ("n.PointGNNConv(mlp_h=torch.nn.Linear(F, 3), mlp_f=torch.nn.Linear(F + 3, F), mlp_g=torch.nn.Linear(F, F))", "x_pos_ei"),
    "ClusterPooling": ("n.ClusterPooling(F)", "x_ei_batch"),
    "MultiAggregation": ("n.aggr.MultiAggregation(['mean', 'max', 'std'])", "x_batch"),
    "SumAggregation": ("n.aggr.SumAggregation()", "x_batch"),
    "MeanAggregation": ("n.aggr.MeanAggregation()", "x_batch"),
    "MaxAggregation": ("n.aggr.MaxAggregation()", "x_batch"),
    "MinAggregation": ("n.aggr.MinAggregation()", "x_batch"),
    "MulAggregation": ("n.aggr.MulAggregation()", "x_batch"),
    "VarAggregation": ("n.aggr.VarAggregation()", "x_batch"),
    "StdAggregation": ("n.aggr.StdAggregation()", "x_batch"),
    "SoftmaxAggregation": ("n.aggr.SoftmaxAggregation(learn=True)", "x_batch"),
    "PowerMeanAggregation": ("n.aggr.PowerMeanAggregation(learn=True)", "x_batch"),
    "MedianAggregation": ("n.aggr.MedianAggregation()", "x_batch"),
    "QuantileAggregation": ("n.aggr.QuantileAggregation(0.25)", "x_batch"),
    "LSTMAggregation": ("n.aggr.LSTMAggregation(F, H)", "x_batch"),
    "GRUAggregation": ("n.aggr.GRUAggregation(F, H)", "x_batch"),
    "DegreeScalerAggregation": ("n.aggr.DegreeScalerAggregation('mean', 'amplification', deg=" + DEG + ")", "x_batch"),
    "GraphMultisetTransformer": ("n.aggr.GraphMultisetTransformer(F, k=4, heads=2)", "x_batch"),
    "EquilibriumAggregation": ("n.aggr.EquilibriumAggregation(F, H, num_layers=[8], grad_iter=2)", "x_batch"),
    "MLPAggregation": ("n.aggr.MLPAggregation(F, H, max_num_elements=8, num_layers=1)", "x_batch"),
    "DeepSetsAggregation": ("n.aggr.DeepSetsAggregation(torch.nn.Linear(F, H), torch.nn.Linear(H, H))", "x_batch"),
    "SetTransformerAggregation": ("n.aggr.SetTransformerAggregation(F, heads=2)", "x_batch"),
    "LCMAggregation": ("n.aggr.LCMAggregation(F, H)", "x_batch"),
    "VariancePreservingAggregation": ("n.aggr.VariancePreservingAggregation()", "x_batch"),
    "PatchTransformerAggregation": ("n.aggr.PatchTransformerAggregation(F, H, patch_size=4, hidden_channels=8)", "x_batch"),
    "SchNet": ("m.SchNet(hidden_channels=16, num_filters=16, num_interactions=2, num_gaussians=10, cutoff=3.0)", "mol_radius"),
    "DimeNet": ("m.DimeNet(hidden_channels=16, out_channels=1, num_blocks=1, num_bilinear=4, num_spherical=3, num_radial=4, cutoff=3.0)", "mol_radius"),
    "DimeNetPlusPlus": ("m.DimeNetPlusPlus(hidden_channels=16, out_channels=1, num_blocks=1, int_emb_size=8, basis_emb_size=4, out_emb_channels=16, num_spherical=3, num_radial=4, cutoff=3.0)", "mol_radius"),
    "ViSNet": ("m.ViSNet(num_heads=2, num_layers=1, hidden_channels=16, num_rbf=8, cutoff=3.0)", "mol_radius"),
}
assert not set(GROWTH) & set(SPECS)
SPECS.update(GROWTH)

MODELS = sorted(SPECS)


class Fn:
    """Wrap a function as a module so that torch.compile sees a forward."""

    def __new__(cls, function):
        import torch

        class _Fn(torch.nn.Module):
            def forward(self, *args):
                return function(*args)

        return _Fn()


def _inputs(kind):
    import torch

    generator = torch.Generator().manual_seed(0)
    x = torch.randn(NODES, FEATURES, generator=generator)
    edge_index = torch.randint(0, NODES, (2, EDGES), generator=generator)
    batch = torch.arange(NODES) // (NODES // 3)
    if kind == "x":
        return (x,)
    if kind == "ei":
        return (edge_index,)
    if kind == "x_ei":
        return (x, edge_index)
    if kind == "xH_ei":
        return (torch.randn(NODES, HIDDEN, generator=generator), edge_index)
    if kind == "x3_ei":
        return (torch.randn(NODES, 3, FEATURES, generator=generator), edge_index)
    if kind == "xint_ei":
        return (torch.randint(0, 5, (NODES,), generator=generator), edge_index)
    if kind == "x_pos_batch":
        return (x, torch.randn(NODES, 3, generator=generator), batch)
    if kind == "x_ei_batch":
        return (x, edge_index, batch)
    if kind == "x_batch":
        return (x, batch)
    if kind == "x_ei_ea5":
        return (x, edge_index, torch.randn(EDGES, 5, generator=generator))
    if kind == "x_ei_ea3":
        return (x, edge_index, torch.rand(EDGES, 3, generator=generator))
    if kind == "x_ei_ea5_batch":
        return (x, edge_index, torch.randn(EDGES, 5, generator=generator), batch)
    if kind == "x_ei_type":
        return (x, edge_index, torch.randint(0, 3, (EDGES,), generator=generator))
    if kind == "x_ei_ei":
        return (x, edge_index, torch.randint(0, NODES, (2, EDGES), generator=generator))
    if kind == "x_x0_ei":
        return (x, x.clone(), edge_index)
    if kind == "x_pos_ei":
        return (x, torch.randn(NODES, 3, generator=generator), edge_index)
    if kind == "x_pos_norm_ei":
        pos = torch.randn(NODES, 3, generator=generator)
        return (x, pos, torch.nn.functional.normalize(torch.randn(NODES, 3, generator=generator), dim=-1), edge_index)
    if kind == "x_panM":
        from torch_geometric.nn import PANConv

        conv = PANConv(FEATURES, FEATURES, filter_size=2)
        _, panm = conv(x, edge_index)
        return (x, panm)
    if kind == "mol_radius":
        z = torch.randint(1, 10, (NODES,), generator=generator)
        pos = torch.randn(NODES, 3, generator=generator) * 2
        return (z, pos, batch)
    raise ValueError(kind)


def build(name):
    import torch
    import torch_geometric.nn as n
    import torch_geometric.nn.models as m

    source, kind = SPECS[name]
    namespace = {"torch": torch, "n": n, "m": m, "F": FEATURES, "H": HIDDEN, "NODES": NODES, "Fn": Fn}
    model = eval(source, namespace)
    return model, _inputs(kind), {}
