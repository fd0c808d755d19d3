"""Which later breaks of a plain object's method Dynamo reports (BENCHMARKS 5.5).

After a graph break inside an inlined call, the rest of that call runs as a frame of its own, and
Dynamo traces such a frame only if a local holds a tensor or module or its code names a torch module
(`has_tensor_in_frame` in torch/_dynamo/convert_frame.py). A distribution-like object whose method
takes only `self` therefore shows its first break (met while inlining) and never its second.

    /work/benchenv/bin/python bench/frame_skip_probe.py     # torch 2.13 CPU: prints the lines Dynamo reports
"""
import os
import sys
import tempfile
import textwrap

SOURCE = textwrap.dedent("""
    from torch.distributions import Distribution, constraints

    class Rate(Distribution):
        arg_constraints = {}
        support = constraints.positive

        def __init__(self, rate):
            self.rate = rate
            super().__init__(rate.shape, validate_args=False)

        def entropy(self):
            n = int(self.rate.max())          # line 13: reported (met while inlining)
            if not self.rate.min() == n:      # line 14: a break too, never reported
                return self.rate.log()
            return self.rate
""")


def main() -> int:
    import torch

    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "rate_dist.py"), "w") as handle:
        handle.write(SOURCE)
    sys.path.insert(0, folder)
    from rate_dist import Rate

    import logging

    reported = []
    handler = logging.Handler()
    handler.emit = lambda record: reported.append(record.getMessage())
    torch._logging.set_logs(graph_breaks=True)
    logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks").addHandler(handler)

    def model(rate):
        return Rate(rate).entropy().sum()

    torch.compile(model, backend="eager")(torch.rand(3) + 0.5)
    lines = sorted({m.split("rate_dist.py:")[1].split()[0] for m in reported if "rate_dist.py:" in m})
    print("torch", torch.__version__, "- graph breaks reported in rate_dist.py at lines:", ", ".join(lines) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
