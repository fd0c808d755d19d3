"""Turn raw per-model observations into ground truth: break sites inside library source.

A break site is `file:line` in the library's own files. When Dynamo reports a break
inside torch (or another package) the innermost library frame of the user traceback is
the site instead, marked `via` the outside file: that library line is where a fix goes.
"""

from __future__ import annotations

import os


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
    return {
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
    }
