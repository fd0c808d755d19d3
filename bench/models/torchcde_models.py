"""torchcde 0.2.5 (dev split, bench/SPLITS.md "Dev split growth: torchcde and nnAudio", stop 32, third round).

The rule written there before anything ran: for each interpolation scheme of the torchcde namespace (natural cubic,
the deprecated natural cubic spline, Hermite cubic with backward differences, linear, rectilinear), a model that
evaluates the control and its derivative at a tensor and a Python float time (plus TupleControl of two of them), and a
Neural CDE as in the README, `cdeint(..., adjoint=False, backend="torchdiffeq")` with rk4 and dopri5; the
coefficients are computed in the forward from x = randn(2, 10, 3), t = linspace(0, 1, 10). torchcde imports torchsde
(a test-split library) at module top for its torchsde backend, which no model here uses; a stand-in comes first on the
PYTHONPATH (_stubs_torchcde), so no torchsde code runs or is traced here. logsig_windows needs signatory: left out.
"""

import os

LIBRARY = "torchcde"
PACKAGES = ["torchcde"]
DISTRIBUTIONS = ["torchcde", "torchdiffeq", "torch"]
ENV = "benchenv"
EXTRA_PATH = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "_stubs_torchcde")]


# scheme -> the control of the path, written as the plain code a user writes (x: the path, t: its times)
def _natural_cubic(x, t):
    import torchcde
    return torchcde.CubicSpline(torchcde.natural_cubic_coeffs(x, t), t)


def _natural_cubic_spline(x, t):
    import torchcde
    return torchcde.CubicSpline(torchcde.natural_cubic_spline_coeffs(x, t), t)


def _hermite(x, t):
    import torchcde
    return torchcde.CubicSpline(torchcde.hermite_cubic_coefficients_with_backward_differences(x, t), t)


def _linear(x, t):
    import torchcde
    return torchcde.LinearInterpolation(torchcde.linear_interpolation_coeffs(x, t), t)


def _rectilinear(x, t):
    # the README's "standard setup": time is channel 0 of x, and t is not passed
    import torchcde
    return torchcde.LinearInterpolation(torchcde.linear_interpolation_coeffs(x, rectilinear=0))


def _tuple_control(x, t):
    import torchcde
    return torchcde.TupleControl(_natural_cubic(x, t), _linear(x, t))


SCHEMES = {"natural_cubic": _natural_cubic, "natural_cubic_spline": _natural_cubic_spline, "hermite": _hermite,
           "linear": _linear, "rectilinear": _rectilinear}
KINKED = ("linear", "rectilinear")
METHODS = ("rk4", "dopri5")

MODELS = [*(f"{s}_eval" for s in SCHEMES), "TupleControl_eval",
          *(f"{s}_cdeint_{m}" for s in SCHEMES for m in METHODS)]


def _solve_rk4(X, func, z0):
    import torchcde
    step_size = (X.grid_points[1:] - X.grid_points[:-1]).min()
    return torchcde.cdeint(X=X, func=func, z0=z0, t=X.interval, adjoint=False, backend="torchdiffeq", method="rk4",
                           options=dict(step_size=step_size))


def _solve_dopri5(X, func, z0):
    import torchcde
    return torchcde.cdeint(X=X, func=func, z0=z0, t=X.interval, adjoint=False, backend="torchdiffeq",
                           method="dopri5", rtol=1e-3, atol=1e-4)


def _solve_dopri5_kinked(X, func, z0):
    import torchcde
    return torchcde.cdeint(X=X, func=func, z0=z0, t=X.interval, adjoint=False, backend="torchdiffeq",
                           method="dopri5", rtol=1e-3, atol=1e-4, options=dict(jump_t=X.grid_points))


def build(name):
    import torch
    from torch import nn

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)

    scheme = name.split("_eval")[0].split("_cdeint_")[0]
    t = torch.linspace(0, 1, 10)
    if scheme == "rectilinear":
        t_ = t.unsqueeze(0).unsqueeze(-1).expand(2, 10, 1)
        x = torch.cat([t_, torch.randn(2, 10, 2, generator=generator)], dim=-1)
    else:
        x = torch.randn(2, 10, 3, generator=generator)

    if name.endswith("_eval"):
        control = _tuple_control if scheme == "TupleControl" else SCHEMES[scheme]

        class Evaluate(nn.Module):
            def forward(self, x, t, s):
                X = control(x, t)
                return X.evaluate(s), X.derivative(s), X.evaluate(0.62), X.derivative(0.62)

        return Evaluate(), (x, t, torch.tensor(0.37)), {}

    method = name.split("_cdeint_")[1]
    control = SCHEMES[scheme]
    if method == "rk4":
        solve = _solve_rk4
    elif scheme in KINKED:
        solve = _solve_dopri5_kinked
    else:
        solve = _solve_dopri5

    class CDEFunc(nn.Module):
        """The README's vector field: 4 hidden channels, 3 input channels."""

        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(4, 4 * 3)

        def forward(self, t, z):
            return torch.tanh(self.linear(z)).view(2, 4, 3)

    class NeuralCDE(nn.Module):
        def __init__(self):
            super().__init__()
            self.func = CDEFunc()
            self.register_buffer("z0", torch.randn(2, 4, generator=generator))

        def forward(self, x, t):
            X = control(x, t)
            return solve(X, self.func, self.z0)

    return NeuralCDE(), (x, t), {}
