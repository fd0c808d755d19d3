"""entmax 1.3 (dev split, bench/SPLITS.md "Dev split growth: entmax and asteroid-filterbanks")."""

LIBRARY = "entmax"
PACKAGES = ["entmax"]
DISTRIBUTIONS = ["entmax", "torch"]
ENV = "benchenv"

MODELS = ["BudgetBisect", "Entmax15", "Entmax15Loss", "EntmaxBisect", "EntmaxBisectLoss", "NormmaxBisect",
          "NormmaxBisectLoss", "Sparsemax", "SparsemaxBisect", "SparsemaxBisectLoss", "SparsemaxLoss"]


def build(name):
    import torch
    import entmax

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(8, 10, generator=generator)
    if "Loss" in name:
        return getattr(entmax, name)(), (x, torch.randint(0, 10, (8,), generator=generator)), {}
    return getattr(entmax, name)(), (x,), {}
