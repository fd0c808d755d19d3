"""Score static findings against Dynamo's break sites (pure Python, no torch, fast).

recall    = break sites with a finding on that line / break sites
precision = findings on executed lines that are break sites / findings on executed lines

A finding covers the lines from its start row to its end row when that span is short
(a multi-line call reports its break on an inner line); a long span covers its start row
only, so that a finding on a whole block cannot claim every break inside it.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import subprocess
from collections import Counter, defaultdict

from realworld_truth import expand_lines

MAX_COVER_SPAN = 3
GREP_BASELINE = re.compile(r"\.item\(\)|\bprint\(|\.tolist\(\)|\blogger\.")


def merge_truth(models: list[dict]) -> tuple[dict, dict]:
    """Union over models of one library: sites by (file, line) and executed lines by file."""
    sites: dict[tuple[str, int], dict] = {}
    executed: dict[str, set[int]] = defaultdict(set)
    for model in models:
        if model.get("status") != "ok":
            continue
        for file, ranges in model["executed"].items():
            executed[os.path.realpath(file)].update(expand_lines(ranges))
        for site in model["sites"]:
            if site.get("outside_library"):
                continue
            key = (site["file"], site["line"])
            merged = sites.setdefault(key, dict(site, models=[], gb_types=[], skip_stack=[], frame_skipped=False))
            merged["models"].append(model["model"])
            merged["frame_skipped"] = merged.get("frame_skipped") or site.get("frame_skipped", False)
            merged["skip_stack"] = merged.get("skip_stack", []) + [
                f for f in site.get("skip_stack", []) if f not in merged.get("skip_stack", [])]
            for gb_type in site["gb_types"]:
                if gb_type not in merged["gb_types"]:
                    merged["gb_types"].append(gb_type)
            executed[site["file"]].add(site["line"])
    return sites, executed


def breaklint_env() -> dict:
    """Run the checkout's breaklint even where it is not pip-installed."""
    source = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path)


def run_breaklint(python: str, files: list[str], extra_args: tuple[str, ...] = ()) -> list[dict]:
    """`breaklint check PATHS --output-format json`, in one run: calls are followed across the files
    of one run, so splitting it would lose the findings reached through another chunk."""
    command = [python, "-m", "breaklint", "check", *files, "--output-format", "json",
               "--no-cache", "--exit-zero", *extra_args]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=900, env=breaklint_env())
    if completed.returncode not in (0, 1) or not completed.stdout.strip():
        raise RuntimeError(f"breaklint failed ({completed.returncode}): {completed.stderr[-2000:]}")
    return json.loads(completed.stdout)


def grep_findings(files: list[str]) -> list[dict]:
    """The transformers-mlinter-style baseline: a regex on each source line."""
    findings = []
    for file in files:
        with open(file, encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, start=1):
                if text.lstrip().startswith("#"):
                    continue
                if GREP_BASELINE.search(text):
                    findings.append({"code": "GREP", "message": "grep baseline", "filename": file,
                                     "location": {"row": number, "column": 1},
                                     "end_location": {"row": number, "column": len(text)}})
    return findings


def covered_lines(finding: dict) -> range:
    row = finding["location"]["row"]
    end = (finding.get("end_location") or {}).get("row", row)
    if end - row > MAX_COVER_SPAN:
        end = row
    return range(row, end + 1)


class SourceLines:
    def __init__(self) -> None:
        self._cache: dict[str, list[str]] = {}

    def __call__(self, file: str, line: int) -> str:
        if file not in self._cache:
            try:
                with open(file, encoding="utf-8", errors="replace") as handle:
                    self._cache[file] = handle.read().splitlines()
            except OSError:
                self._cache[file] = []
        lines = self._cache[file]
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""


@functools.lru_cache(maxsize=None)
def _function_spans(file: str) -> tuple[tuple[int, int], ...]:
    try:
        with open(file, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError):
        return ()
    return tuple((node.lineno, node.end_lineno) for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))


def enclosing_function(file: str, line: int) -> tuple[int, int] | None:
    """Line span of the innermost def around `line` (for frames that Dynamo skipped)."""
    best = None
    for start, end in _function_spans(file):
        if start <= line <= end and (best is None or start >= best[0]):
            best = (start, end)
    return best


def skipped_spans(sites: dict) -> dict[str, list[tuple[int, int]]]:
    """After a whole-frame skip Dynamo traces nothing more of that function, so a finding
    later in it can be neither confirmed nor refuted: it is counted apart, not as a false positive."""
    spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for (file, line), site in sites.items():
        if not site.get("frame_skipped"):
            continue
        for frame_file, frame_line in [[file, line], *site.get("skip_stack", [])]:
            span = enclosing_function(frame_file, frame_line)
            if span:
                spans[frame_file].append((frame_line, span[1]))
    return spans


def score_library(sites: dict, executed: dict, findings: list[dict], source: SourceLines, root_prefix: str) -> dict:
    by_line: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for finding in findings:
        file = os.path.realpath(finding["filename"])
        for line in covered_lines(finding):
            by_line[(file, line)].append(finding)

    def short(file: str) -> str:
        return os.path.relpath(file, root_prefix)

    hits, misses = [], []
    for key, site in sorted(sites.items()):
        record = {"site": f"{short(key[0])}:{key[1]}", "gb_types": site["gb_types"],
                  "via": site.get("via"), "frame_skipped": site.get("frame_skipped", False),
                  "models": sorted(set(site["models"])), "source": source(*key)}
        if by_line.get(key):
            record["codes"] = sorted({f["code"] for f in by_line[key]})
            hits.append(record)
        else:
            misses.append(record)

    masked_spans = skipped_spans(sites)
    true_positives, false_positives, unexecuted, masked = 0, [], 0, []
    for finding in findings:
        file = os.path.realpath(finding["filename"])
        lines = covered_lines(finding)
        if not any(line in executed.get(file, ()) for line in lines):
            unexecuted += 1
            continue
        row = finding["location"]["row"]
        if any((file, line) in sites for line in lines):
            true_positives += 1
        elif any(start < row <= end for start, end in masked_spans.get(file, ())):
            masked.append({"site": f"{short(file)}:{row}", "code": finding["code"], "source": source(file, row)})
        else:
            false_positives.append({"site": f"{short(file)}:{row}", "code": finding["code"],
                                    "message": finding.get("message", ""), "source": source(file, row),
                                    "breaks_when": finding.get("breaks_when")})

    judged = true_positives + len(false_positives)
    return {
        "break_sites": len(sites),
        "sites_hit": len(hits),
        "recall": round(len(hits) / len(sites), 4) if sites else None,
        "findings_on_executed_lines": judged,
        "true_positives": true_positives,
        "precision": round(true_positives / judged, 4) if judged else None,
        # The same, counting every finding after a frame skip as a false positive (the strict bound).
        "after_skip": len(masked),
        "precision_counting_after_skip": (round(true_positives / (judged + len(masked)), 4)
                                          if judged + len(masked) else None),
        # False positives whose finding names the condition it breaks under (`breaks_when`, issue #11
        # item 4: reported on purpose, e.g. an fp16-only test), which this run's inputs did not meet.
        "guarded_false_positives": sum(1 for fp in false_positives if fp["breaks_when"]),
        "findings_on_unexecuted_lines": unexecuted,
        "findings_after_a_frame_skip": masked,
        "gb_types": dict(Counter(t for s in sites.values() for t in s["gb_types"][:1]).most_common()),
        "misses": misses,
        "false_positives": false_positives,
        "hits": hits,
    }


def overall(per_library: dict[str, dict]) -> dict:
    sites = sum(r["break_sites"] for r in per_library.values())
    hit = sum(r["sites_hit"] for r in per_library.values())
    judged = sum(r["findings_on_executed_lines"] for r in per_library.values())
    true_positives = sum(r["true_positives"] for r in per_library.values())
    after_skip = sum(r.get("after_skip", 0) for r in per_library.values())
    guarded = sum(r.get("guarded_false_positives", 0) for r in per_library.values())
    result = {
        "break_sites": sites, "sites_hit": hit, "recall": round(hit / sites, 4) if sites else None,
        "findings_on_executed_lines": judged, "true_positives": true_positives,
        "precision": round(true_positives / judged, 4) if judged else None,
        "after_skip": after_skip,
        "precision_counting_after_skip": (round(true_positives / (judged + after_skip), 4)
                                          if judged + after_skip else None),
        "guarded_false_positives": guarded,
    }
    traced = sum(r["scope"]["traced"] for r in per_library.values() if r.get("scope"))
    in_scope = sum(r["scope"]["in_scope"] for r in per_library.values() if r.get("scope"))
    if traced:
        result["scope_recall"] = round(in_scope / traced, 4)
        result["scope"] = {"traced": traced, "in_scope": in_scope}
    traced = sum(r["scope_dynamo"]["traced"] for r in per_library.values() if r.get("scope_dynamo"))
    in_scope = sum(r["scope_dynamo"]["in_scope"] for r in per_library.values() if r.get("scope_dynamo"))
    if traced:
        result["scope_recall_dynamo"] = round(in_scope / traced, 4)
        result["scope_dynamo"] = {"traced": traced, "in_scope": in_scope}
    return result


def pattern_groups(per_library: dict[str, dict]) -> dict:
    """Misses grouped by gb_type and false positives grouped by code, for study."""
    misses: dict[str, list[str]] = defaultdict(list)
    false_positives: dict[str, list[str]] = defaultdict(list)
    for library, result in per_library.items():
        for miss in result["misses"]:
            key = miss["gb_types"][0] if miss["gb_types"] else "unknown"
            misses[key].append(f"{library} {miss['site']}: {miss['source']}")
        for fp in result["false_positives"]:
            false_positives[fp["code"]].append(f"{library} {fp['site']}: {fp['source']}")
    return {"misses_by_gb_type": dict(misses), "false_positives_by_code": dict(false_positives)}


# -- scope recall -----------------------------------------------------------------------------------

# Decorators under which Dynamo runs a function eagerly (it never traces it, nor what it calls).
DISABLE_DECORATOR = re.compile(r"\b(compiler\.disable|_dynamo\.disable|_disable_dynamo)\b")


@functools.lru_cache(maxsize=None)
def function_table(file: str) -> tuple[tuple[int, int, int, str, bool, int], ...]:
    """Every def of a file: (def line, first body line, last line, qualname, run eagerly by Dynamo,
    first line of the def with its decorators, which is the code object's co_firstlineno)."""
    try:
        with open(file, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError):
        return ()
    rows = []

    def visit(node, prefix: str, disabled: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qualname = prefix + child.name
                off = disabled or any(DISABLE_DECORATOR.search(ast.unparse(d)) for d in child.decorator_list)
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                rows.append((child.lineno, child.body[0].lineno, child.end_lineno, qualname, off, start))
                visit(child, qualname + ".<locals>.", off)
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".", disabled)
            else:
                visit(child, prefix, disabled)

    visit(tree, "", False)
    return tuple(rows)


def traced_functions(executed: dict[str, set[int]]) -> dict[tuple[str, int], str]:
    """The functions that Dynamo really traces, from the lines the eager forward executed: the
    innermost def around each executed body line, minus those Dynamo runs eagerly
    (`torch.compiler.disable` and the like, and everything defined inside them).
    Keyed by (file, def line); the value is the qualname."""
    traced: dict[tuple[str, int], str] = {}
    for file, lines in executed.items():
        table = function_table(file)
        if not table:
            continue
        for line in lines:
            best = None
            for row in table:
                if row[1] <= line <= row[2] and (best is None or row[1] >= best[1]):
                    best = row
            if best is not None and not best[4]:
                traced[(file, best[0])] = best[3]
    return traced


def scope_recall(traced: dict[tuple[str, int], str], scope: list[dict], root_prefix: str) -> dict:
    """The share of really-traced functions that `breaklint check --show-scope` has in scope."""
    in_scope = {(os.path.realpath(entry["file"]), entry["line"]) for entry in scope}
    by_name = {(os.path.realpath(entry["file"]), entry["qualname"]) for entry in scope}
    missing = sorted(f"{os.path.relpath(file, root_prefix)}:{line} {qualname}"
                     for (file, line), qualname in traced.items()
                     if (file, line) not in in_scope and (file, qualname) not in by_name)
    return {"traced": len(traced), "in_scope": len(traced) - len(missing),
            "recall": round(1 - len(missing) / len(traced), 4) if traced else None,
            "not_in_scope": missing}


def dynamo_traced_functions(models: list[dict]) -> dict[tuple[str, int], str]:
    """The functions whose code objects Dynamo started to trace (`dynamo_code` in the truth), keyed
    like traced_functions. Lambdas and comprehensions are left out (their def is what counts)."""
    traced: dict[tuple[str, int], str] = {}
    for model in models:
        for file, codes in model.get("dynamo_code", {}).items():
            rows = {row[5]: row for row in function_table(file)}
            for first_line, name in codes:
                row = rows.get(first_line)
                if row is not None and not name.endswith(("<lambda>", "<genexpr>", "<listcomp>", "<dictcomp>",
                                                          "<setcomp>", "<module>")):
                    traced[(file, row[0])] = row[3]
    return traced


def compare_traced(by_lines: dict, by_dynamo: dict) -> dict:
    """How the executed-lines definition of 'really traced' agrees with Dynamo's own code objects."""
    both = set(by_lines) & set(by_dynamo)
    return {"executed": len(by_lines), "dynamo": len(by_dynamo), "both": len(both),
            "executed_not_dynamo": len(set(by_lines) - both), "dynamo_not_executed": len(set(by_dynamo) - both)}
