"""torchdiffeq ODE solvers (adaptive step control is data-dependent) on a small MLP field."""

LIBRARY = "torchdiffeq"
PACKAGES = ["torchdiffeq"]
DISTRIBUTIONS = ["torchdiffeq", "torch"]
ENV = "benchenv"

MODELS = ["dopri5", "dopri8", "bosh3", "adaptive_heun", "fehlberg2", "rk4", "euler", "midpoint",
          "explicit_adams", "implicit_adams", "dopri5-event"]


def build(name):
    import torch
    from torchdiffeq import odeint, odeint_event

    torch.manual_seed(0)

    class Field(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))

        def forward(self, t, y):
            return self.net(y)

    class Solve(torch.nn.Module):
        def __init__(self, method):
            super().__init__()
            self.field = Field()
            self.method = method

        def forward(self, y0, t):
            if self.method == "dopri5-event":
                def event(t, y):
                    return y[..., 0].sum() - 3.0
                event_t, solution = odeint_event(self.field, y0, t[0], event_fn=event, method="dopri5")
                return event_t, solution
            options = {"step_size": 0.1} if self.method in ("rk4", "euler", "midpoint", "explicit_adams", "implicit_adams") else None
            return odeint(self.field, y0, t, method=self.method, options=options, rtol=1e-4, atol=1e-5)

    generator = torch.Generator().manual_seed(0)
    return Solve(name), (torch.randn(3, 4, generator=generator), torch.linspace(0, 1, 5)), {}
