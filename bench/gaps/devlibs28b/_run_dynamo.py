"""Run a repro's main() under torch.compile(backend='eager') and print the graph breaks."""
import logging, sys, runpy, torch
recs = []
class H(logging.Handler):
    def emit(self, r):
        L = [l.strip() for l in r.getMessage().splitlines() if l.strip()]
        gb = next((l for l in L[2:] if not l.startswith(("Graph Break Reason", "Explanation"))), "")
        recs.append([L[0].split("user code at ")[-1], gb])
torch._logging.set_logs(graph_breaks=True)
lg = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks"); lg.addHandler(H()); lg.propagate = False
ns = runpy.run_path(sys.argv[1])
torch._dynamo.reset()
out = ns["main"](*ns.get("ARGS", ()))  # main is @torch.compile(backend="eager") in the repro
print("compiled ok")
for r in recs:
    print(" | ".join(x.strip() for x in r)[:300])
