"""Observe one real-world model: executed library lines (eager) and Dynamo break sites.

Runs in a child process under a benchmark venv (see bench/realworld.py), one model per
process, so that a crash or a hang in one model never takes the run down. Prints one JSON
object on the last line of stdout.

Ground truth comes from Dynamo's own `graph_breaks` log, never from `explain()` (which
undercounts) nor from fullgraph=True (which hides `.item()` and dynamic-shape breaks).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import json
import logging
import os
import re
import sys
import time
import traceback

BREAK_AT = re.compile(r"Graph break .*?in user code at (.+):(\d+)\s*$")
GB_URL = re.compile(r"/gb/(gb\d+)\.html")
TRACEBACK_FRAME = re.compile(r'^\s*File "(.+)", line (\d+), in (.+)$')


def parse_break_record(message: str) -> dict:
    """Split one `__graph_breaks` record into location, gb_type, GB ids and user stack."""
    lines = message.splitlines()
    match = BREAK_AT.match(lines[0]) if lines else None
    record = {
        "file": match.group(1) if match else None,
        "line": int(match.group(2)) if match else None,
        "gb_type": None,
        "gb_ids": sorted(set(GB_URL.findall(message))),
        "frame_skipped": "falling back to eager" in message,
        "stack": [],
    }
    reason_lines: list[str] = []
    in_reason = False
    for text in lines[1:]:
        if text.startswith("Graph Break Reason:"):
            in_reason = True
            first = text[len("Graph Break Reason:"):].strip()
            if first:
                reason_lines.append(first)
            continue
        if in_reason:
            if text.strip():
                reason_lines.append(text.strip())
            if len(reason_lines) >= 3:
                in_reason = False
        frame = TRACEBACK_FRAME.match(text)
        if frame and "User code traceback" in message:
            record["stack"].append([frame.group(1), int(frame.group(2)), frame.group(3)])
    # "Encountered graph break when attempting to trace X:" and "Failed to handle graph
    # break gracefully..." are wrappers; the registry gb_type is the next line.
    for reason in reason_lines:
        if reason.startswith("Encountered graph break") or reason.startswith("Failed to handle graph break"):
            continue
        record["gb_type"] = reason
        break
    return record


class RecordCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # a broken record must not break the observation
            pass


class LineRecorder:
    """sys.settrace coverage limited to files under the library roots (cheap elsewhere)."""

    def __init__(self, roots: list[str]) -> None:
        self.roots = tuple(os.path.realpath(r) + os.sep for r in roots)
        self.lines: dict[str, set[int]] = {}
        self._wanted: dict[str, bool] = {}

    def _is_library(self, filename: str) -> bool:
        wanted = self._wanted.get(filename)
        if wanted is None:
            wanted = os.path.realpath(filename).startswith(self.roots)
            self._wanted[filename] = wanted
        return wanted

    def _global(self, frame, event, arg):
        if self._is_library(frame.f_code.co_filename):
            self.lines.setdefault(os.path.realpath(frame.f_code.co_filename), set()).add(frame.f_lineno)
            return self._local
        return None

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines[os.path.realpath(frame.f_code.co_filename)].add(frame.f_lineno)
        return self._local

    def __enter__(self):
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        sys.settrace(None)


class DynamoCodeRecorder:
    """The code objects Dynamo starts to trace (each frame it compiles and each function it inlines),
    limited to the library's files: the functions Dynamo really traced, as scope recall needs them.
    Wraps InstructionTranslatorBase.__init__, which every translator (top-level or inlining) runs."""

    def __init__(self, roots: list[str], torch) -> None:
        self.roots = tuple(os.path.realpath(r) + os.sep for r in roots)
        self.code: dict[str, set[tuple[int, str]]] = {}
        self._base = torch._dynamo.symbolic_convert.InstructionTranslatorBase
        self._original = self._base.__init__

    def __enter__(self):
        recorder, original = self, self._original

        def init(translator, *args, **kwargs):
            original(translator, *args, **kwargs)
            code = getattr(translator, "f_code", None)
            if code is not None:
                file = os.path.realpath(code.co_filename)
                if file.startswith(recorder.roots):
                    recorder.code.setdefault(file, set()).add(
                        (code.co_firstlineno, getattr(code, "co_qualname", code.co_name)))

        self._base.__init__ = init
        return self

    def __exit__(self, *exc):
        self._base.__init__ = self._original

    def as_json(self) -> dict:
        return {file: sorted([line, name] for line, name in code) for file, code in self.code.items()}


def flatten_tensors(value, torch) -> list:
    """Every tensor in a nested output, in a stable order, detached on the CPU, for allclose."""
    return [t.detach().float().cpu() if t.is_floating_point() else t.detach().cpu() for t in _tensors(value, torch)]


def gradients(spec, model_name: str, torch) -> list | None:
    """Issue #12 item 5: `torch.where` evaluates both sides, so a fix can keep outputs and still change
    gradients (NaN from the unselected side). A fresh model (same seeds) runs with grad enabled on its
    floating inputs; the sum of its floating outputs is backpropagated. Returns the parameters' grads
    (by name) and the inputs' grads, a zero-size tensor where one has none; None when nothing in the
    output depends on a parameter or an input (a model that does not train)."""
    torch.manual_seed(0)
    model, args, kwargs = spec.build(model_name)
    if hasattr(model, "eval"):
        model.eval()

    def with_grad(value):
        if isinstance(value, torch.Tensor) and value.is_floating_point():
            return value.detach().clone().requires_grad_(True)
        return value

    args = [with_grad(a) for a in args]
    kwargs = {k: with_grad(v) for k, v in kwargs.items()}
    with torch.enable_grad():
        torch.manual_seed(1)
        out = model(*args, **kwargs)
        live = [t for t in _tensors(out, torch) if t.is_floating_point() and t.requires_grad]
        if not live:
            return None
        sum(t.float().sum() for t in live).backward()
    named = sorted(model.named_parameters(), key=lambda p: p[0]) if hasattr(model, "named_parameters") else []
    leaves = [p for _, p in named] + [a for a in [*args, *kwargs.values()]
                                      if isinstance(a, torch.Tensor) and a.requires_grad]
    empty = torch.zeros(0)
    return [leaf.grad.detach().float().cpu() if leaf.grad is not None else empty for leaf in leaves]


def _tensors(value, torch) -> list:
    """Every tensor in a nested output, in a stable order, as it is (gradients need them attached)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        return [t for k in sorted(value, key=str) for t in _tensors(value[k], torch)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v, torch)]
    if hasattr(value, "to_tuple"):  # diffusers/ModelOutput-style dataclasses
        return _tensors(value.to_tuple(), torch)
    if hasattr(value, "__dict__") and not callable(value):
        return _tensors(vars(value), torch)
    return []


def _gradients_or_error(spec, model_name: str, torch):
    try:
        return gradients(spec, model_name, torch)
    except Exception as error:  # a model that cannot run backward: recorded, not compared
        return f"{type(error).__name__}: {error}"[:300]


def grad_path(output_path: str) -> str:
    return output_path[:-3] + ".grad.pt" if output_path.endswith(".pt") else output_path + ".grad"


def outputs_match(reference: list, candidate: list, torch) -> tuple[bool, str]:
    if len(reference) != len(candidate):
        return False, f"{len(reference)} vs {len(candidate)} tensors"
    for index, (a, b) in enumerate(zip(reference, candidate)):
        if a.shape != b.shape:
            return False, f"tensor {index}: shape {tuple(a.shape)} vs {tuple(b.shape)}"
        if a.is_floating_point():
            if not torch.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True):
                return False, f"tensor {index}: max abs diff {(a - b).abs().max().item():.3g}"
        elif not torch.equal(a, b):
            return False, f"tensor {index}: integer values differ"
    return True, "ok"


def library_roots(packages: list[str]) -> list[str]:
    roots = []
    for name in packages:
        module = importlib.import_module(name)
        roots.append(os.path.dirname(os.path.realpath(module.__file__)))
    return roots


def distribution_versions(dists: list[str]) -> dict[str, str]:
    versions = {}
    for dist in dists:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = "unknown"
    return versions


def observe(spec_module: str, model_name: str, save_output: str | None, compare_output: str | None) -> dict:
    import torch
    import torch._dynamo

    # Dynamo's line numbers in resume functions, corrected as `breaklint confirm` corrects them (the
    # checkout's own module: the benchmark venv does not install breaklint)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
    from breaklint.confirm.dynamo_lines import correct_resume_lines

    spec = importlib.import_module(spec_module)
    roots = library_roots(spec.PACKAGES)
    result: dict = {
        "model": model_name,
        "library": spec.LIBRARY,
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "versions": distribution_versions(spec.DISTRIBUTIONS),
        "roots": roots,
    }
    torch.set_num_threads(1)
    torch.manual_seed(0)
    started = time.perf_counter()
    model, args, kwargs = spec.build(model_name)
    if hasattr(model, "eval"):
        model.eval()

    recorder = LineRecorder(roots)
    with torch.no_grad():
        torch.manual_seed(1)
        with recorder:
            eager_out = model(*args, **kwargs)
    eager_tensors = flatten_tensors(eager_out, torch)
    result["executed"] = {f: sorted(lines) for f, lines in recorder.lines.items()}
    result["eager_s"] = round(time.perf_counter() - started, 2)

    if save_output:
        torch.save(eager_tensors, save_output)
        if os.environ.get("BENCH_GRADIENTS"):
            torch.save(_gradients_or_error(spec, model_name, torch), grad_path(save_output))
    if compare_output:
        reference = torch.load(compare_output)
        ok, detail = outputs_match(reference, eager_tensors, torch)
        result["fixed_matches_original"] = ok
        result["fixed_match_detail"] = detail
        if os.environ.get("BENCH_GRADIENTS") and os.path.exists(grad_path(compare_output)):
            reference_grads = torch.load(grad_path(compare_output))
            grads = _gradients_or_error(spec, model_name, torch)
            if isinstance(reference_grads, str) or reference_grads is None:
                result["fixed_grads_match"] = None  # the original has none to compare (or failed)
                result["fixed_grads_detail"] = reference_grads or "no gradient"
            elif isinstance(grads, str) or grads is None:
                result["fixed_grads_match"] = False
                result["fixed_grads_detail"] = grads or "no gradient after the fix"
            else:
                ok, detail = outputs_match(reference_grads, grads, torch)
                result["fixed_grads_match"] = ok
                result["fixed_grads_detail"] = detail

    # A fresh model (same seed, same weights) for the compiled run: many models set state
    # lazily on their first call (torchvision's poolers, cached graphs), and the eager run
    # must not hide those lines from Dynamo.
    torch.manual_seed(0)
    model, args, kwargs = spec.build(model_name)
    if hasattr(model, "eval"):
        model.eval()

    torch._dynamo.reset()
    # BENCH_DYNAMO_CONFIG="capture_scalar_outputs=1,capture_dynamic_output_shape_ops=1": observe with
    # the Dynamo settings breaklint's messages suggest (bench/realworld.py --dynamo-config).
    for setting in filter(None, os.environ.get("BENCH_DYNAMO_CONFIG", "").split(",")):
        name, _, value = setting.partition("=")
        setattr(torch._dynamo.config, name.strip(), value.strip() not in ("0", "false", "False", ""))
    result["dynamo_config"] = os.environ.get("BENCH_DYNAMO_CONFIG", "")
    torch._logging.set_logs(graph_breaks=True)
    # Every break's record with its user stack: Dynamo logs a second break of the same gb_type at the
    # same frame location (a torch polyfill's line, say) without one, and the truth could not then name
    # the library line that made it (encodec's json.dumps after its io.BytesIO, both at polyfills:505).
    raw = bool(os.environ.get("BENCH_RAW_BREAK_LOG"))  # Dynamo's log as it is: the control run of relines
    if not raw:
        torch._dynamo.utils.graph_break_dup_warning_checker.add = lambda key: True
        result["break_stacks_complete"] = True
    collector = RecordCollector()
    break_logger = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")
    break_logger.addHandler(collector)
    torch._dynamo.utils.counters.clear()
    compiled = torch.compile(model, backend="eager", fullgraph=False)
    started = time.perf_counter()
    with torch.no_grad(), DynamoCodeRecorder(roots, torch) as seen, \
            (contextlib.nullcontext(False) if raw else correct_resume_lines()) as corrected:
        torch.manual_seed(1)
        compiled_out = compiled(*args, **kwargs)
    result["resume_lines_corrected"] = corrected
    result["dynamo_code"] = seen.as_json()
    result["compile_s"] = round(time.perf_counter() - started, 2)
    ok, detail = outputs_match(eager_tensors, flatten_tensors(compiled_out, torch), torch)
    result["compiled_matches_eager"] = ok
    result["breaks"] = [parse_break_record(m) for m in collector.messages]
    counters = torch._dynamo.utils.counters
    result["counters"] = {
        "graph_break": dict(counters.get("graph_break", {})),
        "frames": dict(counters.get("frames", {})),
        "unimplemented": len(counters.get("unimplemented", {})),
    }
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True, help="module under bench/models, e.g. models.timm_models")
    parser.add_argument("--model", required=True)
    parser.add_argument("--save-output")
    parser.add_argument("--compare-output")
    options = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    # Keep Dynamo's own log chatter off stdout: the last stdout line is our JSON.
    logging.basicConfig(stream=sys.stderr)
    try:
        result = observe(options.spec, options.model, options.save_output, options.compare_output)
        result["status"] = "ok"
    except BaseException as error:  # report, never crash the harness
        result = {"model": options.model, "status": "error",
                  "error": f"{type(error).__name__}: {error}"[:2000],
                  "traceback": traceback.format_exc()[-4000:]}
    sys.stdout.write("\n" + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
