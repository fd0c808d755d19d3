"""A package-layout example for `breaklint confirm`: the model lives in one module of the package,
the factory in another, which imports it through the package (`from mypkg.model import Net`)."""
