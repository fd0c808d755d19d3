"""torchode 1.0.1 (dev split, bench/SPLITS.md "Dev split growth: normflows and torchode").

Every step method with FixedStepController; those with an error estimate also with IntegralController and
PIDController (Euler has none: with an adaptive controller its solve never returned at spec-writing time);
and solve_ivp with every registered method name. The README's API, a small MLP field, 3 batch rows.
"""

LIBRARY = "torchode"
PACKAGES = ["torchode"]
DISTRIBUTIONS = ["torchode", "torch"]
ENV = "benchenv"

METHODS = ["Dopri5", "Tsit5", "Heun", "Euler"]
ADAPTIVE = ["Dopri5", "Tsit5", "Heun"]
REGISTERED = ["heun", "dopri5", "tsit5"]
MODELS = ([f"{method}_fixed" for method in METHODS]
          + [f"{method}_{controller}" for method in ADAPTIVE for controller in ("integral", "pid")]
          + [f"solve_ivp_{name}" for name in REGISTERED])


def build(name):
    import torch
    import torchode as to

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))

    def field(t, y):
        return net(y)

    # Built outside the compiled call, as the README builds its solver before torch.compile.
    term = to.ODETerm(field)
    if name.startswith("solve_ivp_"):
        solve = lambda y0, t_eval: to.solve_ivp(term, y0, t_eval, method=name[len("solve_ivp_"):])  # noqa: E731
    else:
        method, _, controller = name.partition("_")
        step = getattr(to, method)(term=term)
        extra = {}
        if controller == "fixed":
            control = to.FixedStepController()
            extra = {"dt0": torch.full((3,), 0.05)}
        elif controller == "integral":
            control = to.IntegralController(atol=1e-5, rtol=1e-4, term=term)
        else:
            control = to.PIDController(atol=1e-5, rtol=1e-4, pcoeff=0.2, icoeff=0.5, dcoeff=0.0, term=term)
        solver = to.AutoDiffAdjoint(step, control)
        solve = lambda y0, t_eval: solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval), **extra)  # noqa: E731

    class Solve(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, y0, t_eval):
            return solve(y0, t_eval).ys

    y0 = torch.randn(3, 4, generator=generator)
    return Solve(), (y0, torch.linspace(0, 1, 5).repeat(3, 1)), {}
