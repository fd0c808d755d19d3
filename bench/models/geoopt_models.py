"""geoopt 0.5.1 (dev split, bench/SPLITS.md "Dev split growth: flowtorch, geoopt and torchquad").

One model per Manifold class of geoopt.manifolds constructible with no arguments (left out by the rule:
ProductManifold, StereographicProductManifold, Scaled). The forward projects its inputs and returns the
operations that did not raise at spec-writing time (MANIFOLDS); BoundedDomain and UpperHalf raised in projx
(they want complex points) and stay in as errors.
"""

LIBRARY = "geoopt"
PACKAGES = ["geoopt"]
DISTRIBUTIONS = ["geoopt", "torch"]
ENV = "benchenv"

_ALL = ("retr", "expmap", "dist", "egrad2rgrad")
_NO_DIST = ("retr", "expmap", "egrad2rgrad")
# Manifold -> (point shape, the operations the forward returns), as found at spec-writing time.
MANIFOLDS = {
    "BirkhoffPolytope": ((4, 3, 3), _NO_DIST), "BoundedDomain": ((4, 3), _ALL),
    "CanonicalStiefel": ((4, 3), _NO_DIST), "Euclidean": ((4, 3), _ALL), "EuclideanStiefel": ((4, 3), _NO_DIST),
    "EuclideanStiefelExact": ((4, 3), _NO_DIST), "Lorentz": ((4, 3), _ALL), "PoincareBall": ((4, 3), _ALL),
    "PoincareBallExact": ((4, 3), _ALL), "Sphere": ((4, 3), _ALL), "SphereExact": ((4, 3), _ALL),
    "SphereProjection": ((4, 3), _ALL), "SphereProjectionExact": ((4, 3), _ALL), "Stereographic": ((4, 3), _ALL),
    "StereographicExact": ((4, 3), _ALL), "Stiefel": ((4, 3), _NO_DIST),
    "SymmetricPositiveDefinite": ((4, 3, 3), _ALL), "UpperHalf": ((4, 3), _ALL),
}
MODELS = [f"manifold_{name}" for name in MANIFOLDS]


def build(name):
    import torch
    import geoopt

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    cls = name[len("manifold_"):]
    shape, operations = MANIFOLDS[cls]
    manifold = getattr(geoopt.manifolds, cls)()

    class ManifoldModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.manifold = manifold

        def forward(self, x, v):
            m = self.manifold
            x = m.projx(x)
            u = m.proju(x, v)
            out = []
            for operation in operations:
                if operation == "dist":
                    out.append(m.dist(x, m.retr(x, u)))
                else:
                    out.append(getattr(m, operation)(x, u))
            return tuple(out)

    return ManifoldModel(), (torch.randn(*shape, generator=generator), torch.randn(*shape, generator=generator)), {}
