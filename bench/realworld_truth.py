"""Turn raw per-model observations into ground truth: break sites inside library source.

A break site is `file:line` in the library's own files. When Dynamo reports a break
inside torch (or another package) the innermost library frame of the user traceback is
the site instead, marked `via` the outside file: that library line is where a fix goes.

The cached truth is portable: a library file is stored as `PACKAGE/relative/path.py` (relative to
the folder that holds the package, e.g. site-packages), `roots` as the package names, and a file
outside every library as its path below `site-packages/` (or `lib/pythonX.Y/`). `resolve()` turns
that back into absolute paths against the library installed on this machine, and refuses, with one
line naming what is missing, when a library or a file of the truth is not there.
"""

from __future__ import annotations

import os
import re


def compress_lines(lines: list[int]) -> list[str]:
    """[1,2,3,7] -> ["1-3", "7"]: keeps the cached truth file small."""
    ranges: list[str] = []
    start = previous = None
    for line in sorted(set(lines)):
        if start is None:
            start = previous = line
        elif line == previous + 1:
            previous = line
        else:
            ranges.append(f"{start}-{previous}" if previous != start else str(start))
            start = previous = line
    if start is not None:
        ranges.append(f"{start}-{previous}" if previous != start else str(start))
    return ranges


def expand_lines(ranges: list[str]) -> set[int]:
    lines: set[int] = set()
    for item in ranges:
        low, _, high = item.partition("-")
        lines.update(range(int(low), int(high or low) + 1))
    return lines


def _under(path: str, roots: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real.startswith(root + os.sep) for root in roots)


def break_sites(observation: dict) -> list[dict]:
    """Unique break sites of one model, in library source, with their reasons."""
    roots = [os.path.realpath(r) for r in observation.get("roots", [])]
    sites: dict[tuple[str, int], dict] = {}
    outside: dict[tuple[str, int], dict] = {}
    for record in observation.get("breaks", []):
        if record.get("file") is None:
            continue
        file, line, via = record["file"], record["line"], None
        if not _under(file, roots):
            library_frames = [f for f in record.get("stack", []) if _under(f[0], roots)]
            if not library_frames:
                key = (file, line)
                outside.setdefault(key, {"file": file, "line": line, "gb_type": record.get("gb_type")})
                continue
            via = f"{file}:{line}"
            file, line = library_frames[-1][0], library_frames[-1][1]
        key = (os.path.realpath(file), line)
        site = sites.setdefault(key, {
            "file": key[0], "line": line, "gb_types": [], "gb_ids": [], "frame_skipped": False, "via": via,
            "skip_stack": [],
        })
        if record.get("frame_skipped"):
            # The frames that may have fallen back to eager: later lines in them went untraced.
            for frame in record.get("stack", []):
                if _under(frame[0], roots) and [os.path.realpath(frame[0]), frame[1]] not in site["skip_stack"]:
                    site["skip_stack"].append([os.path.realpath(frame[0]), frame[1]])
        if record.get("gb_type") and record["gb_type"] not in site["gb_types"]:
            site["gb_types"].append(record["gb_type"])
        for gb_id in record.get("gb_ids", []):
            if gb_id not in site["gb_ids"]:
                site["gb_ids"].append(gb_id)
        site["frame_skipped"] = site["frame_skipped"] or record.get("frame_skipped", False)
    return list(sites.values()) + [dict(s, outside_library=True) for s in outside.values()]


def summarise(observation: dict) -> dict:
    """What the cache keeps of one model: sites, executed lines (as ranges), versions."""
    if observation.get("status") != "ok":
        return {k: observation.get(k) for k in ("model", "status", "error")}
    return make_portable({
        "model": observation["model"],
        "library": observation["library"],
        "status": "ok",
        "torch": observation["torch"],
        "versions": observation["versions"],
        "roots": observation["roots"],
        "eager_s": observation.get("eager_s"),
        "compile_s": observation.get("compile_s"),
        "compiled_matches_eager": observation.get("compiled_matches_eager"),
        "break_records": len(observation.get("breaks", [])),
        "sites": break_sites(observation),
        "executed": {f: compress_lines(lines) for f, lines in observation.get("executed", {}).items()},
        **({"dynamo_code": observation["dynamo_code"]} if "dynamo_code" in observation else {}),
        # lines corrected in resume functions, no user stack suppressed (bench/realworld_relines.py)
        **({"break_log_complete": True}
           if observation.get("break_stacks_complete") and "resume_lines_corrected" in observation else {}),
    })


# -- portable truth -------------------------------------------------------------------------------

_SITE = re.compile(r".*/(?:site-packages|dist-packages|lib/python\d+\.\d+)/")


class TruthError(Exception):
    """The truth cannot be scored on this machine (a library, version or file is missing)."""


def is_portable(model: dict) -> bool:
    return all(not os.path.isabs(root) for root in model.get("roots", []))


def _relative(path: str, roots: list[str]) -> str:
    """`/x/site-packages/pkg/a/b.py` -> `pkg/a/b.py` when under a library root, else the part below
    site-packages (an outside file such as torch's, informational only)."""
    real = os.path.realpath(path)
    for root in roots:
        if real == root or real.startswith(root + os.sep):
            return os.path.join(os.path.basename(root), os.path.relpath(real, root))
    return _SITE.sub("", path, count=1)


def make_portable(model: dict) -> dict:
    """One summarised model with absolute paths (as observed) -> the portable form that is cached."""
    if model.get("status") != "ok" or is_portable(model):
        return model
    roots = [os.path.realpath(r) for r in model["roots"]]
    sites = []
    for site in model["sites"]:
        site = dict(site)
        site["file"] = _relative(site["file"], roots)
        if site.get("via"):
            file, _, line = site["via"].rpartition(":")
            site["via"] = f"{_relative(file, roots)}:{line}"
        if "skip_stack" in site:
            site["skip_stack"] = [[_relative(f, roots), line] for f, line in site["skip_stack"]]
        sites.append(site)
    executed = {_relative(file, roots): ranges for file, ranges in model["executed"].items()}
    portable = dict(model, roots=[os.path.basename(r) for r in roots], sites=sites, executed=executed)
    if "dynamo_code" in model:
        portable["dynamo_code"] = {_relative(file, roots): code for file, code in model["dynamo_code"].items()}
    return portable


def resolve(model: dict, locations: dict[str, str]) -> dict:
    """The portable form -> absolute paths under `locations` (package name -> its folder on this
    machine). Raises TruthError naming the first missing package or file."""
    if model.get("status") != "ok":
        return model
    if not is_portable(model):
        raise TruthError(f"{model['model']}: truth holds absolute paths; run bench/realworld.py --migrate-truth")
    for package in model["roots"]:
        if package not in locations:
            raise TruthError(f"{model['model']}: library package {package!r} is not installed")

    def absolute(file: str) -> str:
        package = file.split("/", 1)[0]
        if package in locations:
            return os.path.join(os.path.dirname(locations[package]), file)
        return file  # outside every library (informational)

    missing = [absolute(f) for f in model["executed"] if not os.path.exists(absolute(f))]
    if missing:
        raise TruthError(f"{model['model']}: {len(missing)} executed file(s) of the truth are missing, "
                         f"first {missing[0]}")
    sites = []
    for site in model["sites"]:
        site = dict(site)
        if not site.get("outside_library"):
            site["file"] = os.path.realpath(absolute(site["file"]))
            if not os.path.exists(site["file"]):
                raise TruthError(f"{model['model']}: break site file {site['file']} is missing")
        if "skip_stack" in site:
            site["skip_stack"] = [[os.path.realpath(absolute(f)), line] for f, line in site["skip_stack"]]
        sites.append(site)
    resolved = dict(model, roots=[locations[p] for p in model["roots"]], sites=sites,
                    executed={os.path.realpath(absolute(f)): r for f, r in model["executed"].items()})
    if "dynamo_code" in model:
        resolved["dynamo_code"] = {os.path.realpath(absolute(f)): c for f, c in model["dynamo_code"].items()}
    return resolved
