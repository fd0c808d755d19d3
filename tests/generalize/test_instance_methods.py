"""What a method of a same-file class returns, called on a local built from that class (`solver = Solver(model);
solver.run(x, solver.t(torch.tensor(s)))`): the dev split's k-diffusion DPM-Solver, whose step bounds are tensors
that `solver.t(...)` returns, and whose `if not t_end > t_start` and `1 if forward else -1` break (GB0170). Each
marked row is where Dynamo 2.13 (CPU, eager backend) reports a break."""
from .helpers import codes_by_row, dynamo_break_rows

SOURCE = '''import torch
from torch import nn


class Solver(nn.Module):
    def __init__(self, model):
        super().__init__()  # Dynamo 2.13: a module built in traced code whose method breaks (BL306)
        self.model = model

    def t(self, sigma):
        return -sigma.log()

    def run(self, x, t_start, t_end, eta=0.):
        if not t_end > t_start and eta:  # Dynamo 2.13: GB0170
            raise ValueError("eta must be 0 for reverse sampling")
        forward = t_end > t_start
        h = 0.1 * (1 if forward else -1)  # Dynamo 2.13: GB0170
        return x * h


def sample(model, x, sigma_min, sigma_max):
    solver = Solver(model)
    return solver.run(x, solver.t(torch.tensor(sigma_max)), solver.t(torch.tensor(sigma_min)))  # Dynamo 2.13: BL507


class Net(nn.Module):
    def forward(self, x):
        return sample(self, x, 0.1, 10.)
'''


def test_findings_where_dynamo_breaks(tmp_path):
    marked = {i for i, line in enumerate(SOURCE.splitlines(), 1) if "# Dynamo 2.13:" in line}
    assert dynamo_break_rows(SOURCE, ["Net"], tmp_path) == marked
    assert {(14, "BL101"), (17, "BL101")} <= codes_by_row(SOURCE)
    assert {row for row, _ in codes_by_row(SOURCE)} == marked
