"""Write the spec modules of the dev libraries added on 2026-11-26 by the mechanical rules of
bench/SPLITS.md ("Dev split growth with new libraries"), from the libraries' public API only.

    /work/benchenv/bin/python bench/gen_devlib_specs.py torchdist|pml|torchmetrics

Each model is written out as its own nn.Module class, so that the library calls stand in forward as
a user writes them (breaklint reads the spec file as the user code that calls into the library).
Probes (entropy, log_abs_det_jacobian, inverse: implemented or NotImplementedError) run eagerly on
the spec's own inputs; nothing here compiles or observes a break.
"""

from __future__ import annotations

import inspect
import os
import sys
from pprint import pformat

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
SHAPES = {0: (4,), 1: (4, 3), 2: (4, 3, 3)}


def _class(name: str, init: list[str], forward_args: str, body: list[str]) -> list[str]:
    lines = [f"    class {name}(torch.nn.Module):"]
    if init:
        lines += ["        def __init__(self):", "            super().__init__()"] + [f"            {x}" for x in init] + [""]
    lines += [f"        def forward(self, {forward_args}):"] + [f"            {x}" for x in body]
    return lines + ["", f"    models[{name!r}] = {name}", ""]


def torchdist() -> str:
    import torch
    import torch.distributions as D
    from torch.distributions import transform_to
    from torch.distributions import transforms as T

    dists, classes, left_out = {}, [], {}
    for name in D.__all__:
        cls = getattr(D, name)
        if not (inspect.isclass(cls) and issubclass(cls, D.Distribution)):
            continue
        constraints = inspect.getattr_static(cls, "arg_constraints", None)
        if not isinstance(constraints, dict):
            left_out[name] = "arg_constraints is a property of the instance"
            continue
        params = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "validate_args"]
        required = [p.name for p in params if p.default is p.empty]
        missing = [p for p in required if p not in constraints]
        if missing:
            left_out[name] = f"required parameter(s) not in arg_constraints: {', '.join(missing)}"
            continue
        optional = [p.name for p in params if p.default is None and p.name in constraints]
        chosen = required + optional[:1]
        entry = [(p, constraints[p].event_dim) for p in chosen]
        generator = torch.Generator().manual_seed(0)
        values = {p: transform_to(constraints[p])(torch.randn(SHAPES[e], generator=generator)) for p, e in entry}
        entropy = True
        try:
            cls(**values, validate_args=True).entropy()
        except NotImplementedError:
            entropy = False
        except Exception:
            pass  # kept: the observation records the error
        dists[name] = entry
        args = ", ".join(p for p, _ in entry)
        keywords = ", ".join(f"{p}={p}" for p, _ in entry)
        draw = "rsample" if cls.has_rsample else "sample"
        for suffix, validate in (("", True), ("_unvalidated", False)):
            body = [f"d = D.{name}({keywords}, validate_args={validate})", f"x = d.{draw}()",
                    "return d.log_prob(x).sum()" + (" + d.entropy().sum()" if entropy else "")]
            classes += _class(f"dist_{name}{suffix}", [], args, body)
    transforms = {}
    for name in T.__all__:
        cls = getattr(T, name)
        if not inspect.isclass(cls) or cls is T.Transform:
            continue
        try:
            t = cls()
        except Exception:
            continue
        event_dim = 2 if t.domain.event_dim == 2 else 1
        x = torch.randn(SHAPES[event_dim], generator=torch.Generator().manual_seed(0))
        y = t(x)
        parts = ["y"]
        for part, call in (("ladj", lambda: t.log_abs_det_jacobian(x, y)), ("inv", lambda: t.inv(y))):
            try:
                call()
                parts.append("self.t.log_abs_det_jacobian(x, y)" if part == "ladj" else "self.t.inv(y)")
            except NotImplementedError:
                pass
            except Exception:
                parts.append("self.t.log_abs_det_jacobian(x, y)" if part == "ladj" else "self.t.inv(y)")
        transforms[name] = event_dim
        classes += _class(f"transform_{name}", [f"self.t = T.{name}()"], "x", ["y = self.t(x)", f"return {', '.join(parts)}"])
    header = f'''"""torch.distributions (dev split, bench/SPLITS.md "Dev split growth with new libraries (2026-11-26)").

The library root is the sub-package torch/distributions of torch {torch.__version__} (not the rest of torch).
Written by bench/gen_devlib_specs.py: one model per Distribution class of torch.distributions.__all__ that can be
built from tensors that satisfy its arg_constraints (each passed parameter
transform_to(constraint)(randn(shape)), batch (4,), event size 3), whose forward builds it with validate_args=True,
draws rsample() (sample() without one) and returns log_prob of it summed (plus entropy() where implemented), and
the same with validate_args=False (`_unvalidated`, added after the first observation: the validation's first
break sends the rest of a torch-internal frame to eager, where Dynamo never traces torch's own files); and
one model per Transform class of torch.distributions.transforms.__all__ constructible with no arguments,
returning t(x), log_abs_det_jacobian and inv (where implemented).
Left out by the rule:
{chr(10).join(f"  {k} ({v})" for k, v in left_out.items())}
"""

LIBRARY = "torch.distributions"
PACKAGES = ["torch.distributions"]
DISTRIBUTIONS = ["torch"]
ENV = "benchenv"

# Distribution -> the parameters passed, each with its constraint's event_dim (shape (4,), (4, 3), (4, 3, 3)).
DISTS = {pformat(dists, width=116)}
# Transform -> the event_dim of its input (randn(4, 3) or randn(4, 3, 3)).
TRANSFORMS = {pformat(transforms, width=116)}
SHAPES = {SHAPES!r}

ALL_MODELS = ([f"dist_{{name}}" for name in DISTS] + [f"transform_{{name}}" for name in TRANSFORMS]
              + [f"dist_{{name}}_unvalidated" for name in DISTS])
MODELS = list(ALL_MODELS)


def _models(torch, D, T):
    """One nn.Module class per model, written out so that the library calls stand in forward."""
    models = {{}}

'''
    footer = '''    return models


def build(name):
    import torch
    import torch.distributions as D
    from torch.distributions import transform_to
    from torch.distributions import transforms as T

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = _models(torch, D, T)[name]()
    if name.startswith("dist_"):
        dist = name[len("dist_"):].removesuffix("_unvalidated")
        constraints = getattr(D, dist).arg_constraints
        args = tuple(transform_to(constraints[p])(torch.randn(SHAPES[e], generator=generator))
                     for p, e in DISTS[dist])
        return model, args, {}
    return model, (torch.randn(SHAPES[TRANSFORMS[name[len("transform_"):]]], generator=generator),), {}
'''
    return header + "\n".join(classes) + footer


def pml() -> str:
    import importlib.metadata

    import torch
    from pytorch_metric_learning import losses, miners

    def constructible(module) -> list[str]:
        names = []
        for name in sorted(dir(module)):
            cls = getattr(module, name)
            if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module)) or name.startswith("Base"):
                continue
            if not cls.__module__.startswith("pytorch_metric_learning"):
                continue
            try:
                cls()
            except Exception:
                continue
            names.append(name)
        return names

    loss_names, miner_names = constructible(losses), constructible(miners)
    classes = []
    for name in loss_names:
        classes += _class(f"loss_{name}", [f"self.loss = losses.{name}()"], "embeddings, labels",
                          ["return self.loss(embeddings, labels)"])
    for name in miner_names:
        classes += _class(f"miner_{name}", [f"self.miner = miners.{name}()", "self.loss = losses.TripletMarginLoss()"],
                          "embeddings, labels",
                          ["indices = self.miner(embeddings, labels)", "return self.loss(embeddings, labels, indices)"])
    version = importlib.metadata.version("pytorch-metric-learning")
    header = f'''"""pytorch-metric-learning {version} (dev split, bench/SPLITS.md "Dev split growth with new libraries (2026-11-26)").

Written by bench/gen_devlib_specs.py: one model per nn.Module class of pytorch_metric_learning.losses (names not
starting with Base) constructible with no arguments, returning loss(embeddings, labels); one per such class of
pytorch_metric_learning.miners, feeding its tuples to TripletMarginLoss(). Embeddings randn(16, 8), labels
arange(16) % 4 (4 classes), seed 0.
"""

LIBRARY = "pytorch_metric_learning"
PACKAGES = ["pytorch_metric_learning"]
DISTRIBUTIONS = ["pytorch-metric-learning", "torch"]
ENV = "benchenv"

LOSSES = {pformat(loss_names, width=116)}
MINERS = {pformat(miner_names, width=116)}
ALL_MODELS = [f"loss_{{name}}" for name in LOSSES] + [f"miner_{{name}}" for name in MINERS]
MODELS = list(ALL_MODELS)


def _models(torch, losses, miners):
    """One nn.Module class per model, written out so that the library calls stand in forward."""
    models = {{}}

'''
    footer = '''    return models


def build(name):
    import torch
    from pytorch_metric_learning import losses, miners

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = _models(torch, losses, miners)[name]()
    return model, (torch.randn(16, 8, generator=generator), torch.arange(16) % 4), {}
'''
    return header + "\n".join(classes) + footer


def torchmetrics() -> str:
    import importlib.metadata

    import torchmetrics.functional.classification as C
    import torchmetrics.functional.regression as R

    def takes(function, first: list[str], fixed: set[str]) -> bool:
        params = [p for p in inspect.signature(function).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        names = [p.name for p in params]
        return (names[:len(first)] == first
                and all(p.default is not p.empty for p in params if p.name not in set(first) | fixed))

    classification = sorted({n for n in C.__all__ if n.startswith("multiclass_")
                             and takes(getattr(C, n), ["preds", "target"], {"num_classes"})})
    regression = sorted({n for n in R.__all__ if takes(getattr(R, n), ["preds", "target"], set())})
    chosen = (classification + regression)[:60]
    classes = []
    for name in chosen:
        call = f"C.{name}(preds, target, num_classes=4)" if name in classification else f"R.{name}(preds, target)"
        classes += _class(name, [], "preds, target", [f"return {call}"])
    version = importlib.metadata.version("torchmetrics")
    header = f"""\"\"\"torchmetrics {version} (dev split, bench/SPLITS.md "Dev split growth with new libraries (2026-11-26)").

Written by bench/gen_devlib_specs.py, in sorted order and capped at 60: every multiclass_* function of
torchmetrics.functional.classification.__all__ whose parameters other than preds, target and num_classes have
defaults, with num_classes=4 on preds = softmax(randn(16, 4), -1) and target = randint(0, 4, (16,)); then every
function of torchmetrics.functional.regression.__all__ taking (preds, target) with every other parameter defaulted,
on preds = rand(16) + 0.5 and target = rand(16) + 0.5. Seed 0.
\"\"\"

LIBRARY = "torchmetrics"
PACKAGES = ["torchmetrics"]
DISTRIBUTIONS = ["torchmetrics", "torch"]
ENV = "benchenv"

CLASSIFICATION = {pformat([n for n in chosen if n in classification], width=116)}
REGRESSION = {pformat([n for n in chosen if n in regression], width=116)}
ALL_MODELS = CLASSIFICATION + REGRESSION
MODELS = list(ALL_MODELS)


def _models(torch, C, R):
    \"\"\"One nn.Module class per model, written out so that the library calls stand in forward.\"\"\"
    models = {{}}

"""
    footer = """    return models


def build(name):
    import torch
    import torchmetrics.functional.classification as C
    import torchmetrics.functional.regression as R

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = _models(torch, C, R)[name]()
    if name in CLASSIFICATION:
        preds = torch.softmax(torch.randn(16, 4, generator=generator), -1)
        return model, (preds, torch.randint(0, 4, (16,), generator=generator)), {}
    return model, (torch.rand(16, generator=generator) + 0.5, torch.rand(16, generator=generator) + 0.5), {}
"""
    return header + "\n".join(classes) + footer


if __name__ == "__main__":
    which = sys.argv[1]
    text = {"torchdist": torchdist, "pml": pml, "torchmetrics": torchmetrics}[which]()
    path = os.path.join(HERE, {"torchdist": "torchdist_models.py", "pml": "pml_models.py",
            "torchmetrics": "torchmetrics_models.py"}[which])
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(path)
