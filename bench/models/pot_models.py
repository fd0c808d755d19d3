"""POT 0.9.7.post1, package `ot` (dev split, bench/SPLITS.md "Dev split growth: POT and piq", stop 41).

The rule written there before anything ran: every function named in `ot.__all__` (the timers tic/toc/toq left out,
and `emd_1d_dual`, which 0.9.7.post1 lists but does not define), called through POT's torch backend on small seeded
float64 torch inputs with its required arguments only (documented defaults for the rest; reg = reg_m = 1.0 as in
the docstrings' examples). Every call is written as plain code in the forward below, one branch per model.
"""

LIBRARY = "ot"
PACKAGES = ["ot"]
DISTRIBUTIONS = ["POT", "torch"]
ENV = "benchenv"

MODELS = [
    # ot.lp
    "emd", "emd2", "emd2_lazy", "emd_1d", "emd2_1d", "emd_1d_dual_backprop", "wasserstein_1d",
    # ot.bregman
    "sinkhorn", "sinkhorn2", "barycenter",
    # ot.utils
    "dist", "unif",
    # ot.da
    "sinkhorn_lpl1_mm",
    # ot.unbalanced
    "sinkhorn_unbalanced", "sinkhorn_unbalanced2", "barycenter_unbalanced", "uot_1d", "unbalanced_sliced_ot",
    "sliced_unbalanced_ot",
    # ot.sliced
    "sliced_wasserstein_distance", "max_sliced_wasserstein_distance", "sliced_wasserstein_sphere",
    "sliced_wasserstein_sphere_unif", "linear_sliced_wasserstein_sphere", "min_sliced_transport_plan",
    "expected_sliced_plan",
    # ot.gromov
    "gromov_wasserstein", "gromov_wasserstein2", "fused_gromov_wasserstein", "fused_gromov_wasserstein2",
    "gromov_barycenters", "lowrank_gromov_wasserstein_samples",
    # ot.weak, ot.factored, ot.lowrank
    "weak_optimal_transport", "factored_optimal_transport", "lowrank_sinkhorn",
    # ot.solvers
    "solve", "solve_gromov", "solve_sample", "solve_bary_sample",
    # ot.lp.solver_circle
    "binary_search_circle", "wasserstein_circle", "semidiscrete_wasserstein2_unif_circle", "linear_circular_ot",
    # ot.batch
    "solve_batch", "solve_gromov_batch", "solve_sample_batch", "dist_batch",
    # ot.bsp
    "compute_bspot_bijection", "merge_bijections",
]

REG = 1.0
REG_M = 1.0


def build(name):
    import torch
    from torch import nn
    import ot

    torch.manual_seed(0)
    f64 = torch.float64
    x, y = torch.randn(8, 2, dtype=f64), torch.randn(10, 2, dtype=f64)
    a, b = torch.ones(8, dtype=f64) / 8, torch.ones(10, dtype=f64) / 10
    hists = torch.rand(8, 2, dtype=f64)
    xs = torch.randn(8, 3, dtype=f64)
    ys = torch.randn(10, 3, dtype=f64)
    xb, yb = torch.randn(2, 8, 2, dtype=f64), torch.randn(2, 10, 2, dtype=f64)
    inputs = {
        "x": x, "y": y, "a": a, "b": b,
        "M": torch.cdist(x, y) ** 2,                            # squared Euclidean ground cost, ot.dist's default
        "C1": torch.cdist(x, x) ** 2, "C2": torch.cdist(y, y) ** 2,
        "u": torch.randn(8, dtype=f64), "v": torch.randn(10, dtype=f64),     # 1D samples
        "uc": torch.rand(8, dtype=f64), "vc": torch.rand(10, dtype=f64),     # samples on the circle [0, 1)
        "xs": xs / xs.norm(dim=1, keepdim=True), "ys": ys / ys.norm(dim=1, keepdim=True),   # on the sphere
        "A": hists / hists.sum(0, keepdim=True),                # two histograms on 8 bins, shape (dim, n_hists)
        "MA": torch.cdist(x, x) ** 2,                           # their ground cost, (dim, dim)
        "labels": torch.randint(0, 2, (8,)),
        "xb": xb, "yb": yb, "Mb": torch.cdist(xb, yb) ** 2,
        "C1b": torch.cdist(xb, xb) ** 2, "C2b": torch.cdist(yb, yb) ** 2,
        "y8": torch.randn(8, 2, dtype=f64),                     # a cloud of x's size, for the bijections
        "perms": torch.stack([torch.randperm(8), torch.randperm(8)]),
    }

    class Model(nn.Module):
        def __init__(self, which):
            super().__init__()
            self.which = which

        def forward(self, x, y, a, b, M, C1, C2, u, v, uc, vc, xs, ys, A, MA, labels, xb, yb, Mb, C1b, C2b, y8,
                    perms):
            which = self.which
            if which == "emd":
                return ot.emd(a, b, M)
            if which == "emd2":
                return ot.emd2(a, b, M)
            if which == "emd2_lazy":
                return ot.emd2_lazy(x, y)
            if which == "emd_1d":
                return ot.emd_1d(u, v)
            if which == "emd2_1d":
                return ot.emd2_1d(u, v)
            if which == "emd_1d_dual_backprop":
                return ot.emd_1d_dual_backprop(u, v)
            if which == "wasserstein_1d":
                return ot.wasserstein_1d(u, v)
            if which == "sinkhorn":
                return ot.sinkhorn(a, b, M, REG)
            if which == "sinkhorn2":
                return ot.sinkhorn2(a, b, M, REG)
            if which == "barycenter":
                return ot.barycenter(A, MA, REG)
            if which == "dist":
                return ot.dist(x, y)
            if which == "unif":
                return ot.unif(x.shape[0], type_as=x)
            if which == "sinkhorn_lpl1_mm":
                return ot.sinkhorn_lpl1_mm(a, labels, b, M, REG)
            if which == "sinkhorn_unbalanced":
                return ot.sinkhorn_unbalanced(a, b, M, REG, REG_M)
            if which == "sinkhorn_unbalanced2":
                return ot.sinkhorn_unbalanced2(a, b, M, REG, REG_M)
            if which == "barycenter_unbalanced":
                return ot.barycenter_unbalanced(A, MA, REG, REG_M)
            if which == "uot_1d":
                return ot.uot_1d(u, v, REG_M)
            if which == "unbalanced_sliced_ot":
                return ot.unbalanced_sliced_ot(x, y, REG_M)
            if which == "sliced_unbalanced_ot":
                return ot.sliced_unbalanced_ot(x, y, REG_M)
            if which == "sliced_wasserstein_distance":
                return ot.sliced_wasserstein_distance(x, y)
            if which == "max_sliced_wasserstein_distance":
                return ot.max_sliced_wasserstein_distance(x, y)
            if which == "sliced_wasserstein_sphere":
                return ot.sliced_wasserstein_sphere(xs, ys)
            if which == "sliced_wasserstein_sphere_unif":
                return ot.sliced_wasserstein_sphere_unif(xs)
            if which == "linear_sliced_wasserstein_sphere":
                return ot.linear_sliced_wasserstein_sphere(xs, ys)
            if which == "min_sliced_transport_plan":
                return ot.min_sliced_transport_plan(x, y)
            if which == "expected_sliced_plan":
                return ot.expected_sliced_plan(x, y)
            if which == "gromov_wasserstein":
                return ot.gromov_wasserstein(C1, C2)
            if which == "gromov_wasserstein2":
                return ot.gromov_wasserstein2(C1, C2)
            if which == "fused_gromov_wasserstein":
                return ot.fused_gromov_wasserstein(M, C1, C2)
            if which == "fused_gromov_wasserstein2":
                return ot.fused_gromov_wasserstein2(M, C1, C2)
            if which == "gromov_barycenters":
                return ot.gromov_barycenters(5, [C1, C2])
            if which == "lowrank_gromov_wasserstein_samples":
                return ot.lowrank_gromov_wasserstein_samples(x, y)
            if which == "weak_optimal_transport":
                return ot.weak_optimal_transport(x, y)
            if which == "factored_optimal_transport":
                return ot.factored_optimal_transport(x, y)
            if which == "lowrank_sinkhorn":
                return ot.lowrank_sinkhorn(x, y)
            if which == "solve":
                return ot.solve(M).value
            if which == "solve_gromov":
                return ot.solve_gromov(C1, C2).value
            if which == "solve_sample":
                return ot.solve_sample(x, y).value
            if which == "solve_bary_sample":
                return ot.solve_bary_sample([x, y], 5).value
            if which == "binary_search_circle":
                return ot.binary_search_circle(uc, vc)
            if which == "wasserstein_circle":
                return ot.wasserstein_circle(uc, vc)
            if which == "semidiscrete_wasserstein2_unif_circle":
                return ot.semidiscrete_wasserstein2_unif_circle(uc)
            if which == "linear_circular_ot":
                return ot.linear_circular_ot(uc, vc)
            if which == "solve_batch":
                return ot.solve_batch(Mb).value
            if which == "solve_gromov_batch":
                return ot.solve_gromov_batch(C1b, C2b).value
            if which == "solve_sample_batch":
                return ot.solve_sample_batch(xb, yb).value
            if which == "dist_batch":
                return ot.dist_batch(xb, yb)
            if which == "compute_bspot_bijection":
                return ot.compute_bspot_bijection(x, y8)
            if which == "merge_bijections":
                return ot.merge_bijections(x, y8, perms)
            raise KeyError(which)

    return Model(name), (), inputs
