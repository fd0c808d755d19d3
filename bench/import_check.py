"""Issue #12 item 7: does `--fix --unsafe-fixes` make torch a harder dependency anywhere?

For every module that the fix changed in the fixed library copies `bench/realworld.py --refix` leaves
under <cache-dir>/fixed/, compared with the installed original it came from:
- does the fixed module still parse;
- did the fix add an unconditional module-level `import torch` (or `from torch ...`) to a module that
  had none (then a module that imported without torch may no longer);
- did it add a torch import at all (under a condition or inside a function) to a module that had none.

A live import in a venv without torch is not possible for these libraries: each of them imports torch
in its package `__init__`, so every module fails without torch before and after the fix. The static
test above is what decides whether a module that imported before still does.

Only aggregate counts are printed per library (the test split's per-module results are not shown;
pass --list to see the changed modules of one library).

    python bench/import_check.py [--cache-dir /work/benchcache] [--list LIBRARY]
"""
from __future__ import annotations

import argparse
import ast
import glob
import os
import sys

SITE_PACKAGES = ("/work/benchenv*/lib/python3*/site-packages", "/work/benchenv-libs/*")


def torch_imports(tree: ast.Module) -> tuple[bool, bool]:
    """(an unconditional module-level torch import, a torch import anywhere)."""
    def is_torch(node) -> bool:
        if isinstance(node, ast.Import):
            return any(a.name == "torch" or a.name.startswith("torch.") for a in node.names)
        return isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "torch"
    top = any(is_torch(node) for node in tree.body)
    anywhere = any(is_torch(node) for node in ast.walk(tree))
    return top, anywhere


def original_root(package: str, fixed_root: str) -> str | None:
    """The installed copy of `package` the fixed copy came from: the one with most identical files."""
    best, best_same = None, -1
    fixed_files = sorted(glob.glob(os.path.join(fixed_root, "**", "*.py"), recursive=True))[:400]
    for pattern in SITE_PACKAGES:
        for site in glob.glob(pattern):
            candidate = os.path.join(site, package)
            if not os.path.isdir(candidate):
                continue
            same = 0
            for path in fixed_files:
                other = os.path.join(candidate, os.path.relpath(path, fixed_root))
                if os.path.isfile(other) and open(other, "rb").read() == open(path, "rb").read():
                    same += 1
            if same > best_same:
                best, best_same = candidate, same
    return best


def check_library(folder: str) -> dict:
    counts = {"changed": 0, "unparsable": 0, "added_top_level_torch": 0, "added_any_torch": 0,
              "no_original": 0, "modules": []}
    for package in sorted(os.listdir(folder)):
        fixed_root = os.path.join(folder, package)
        if not os.path.isdir(fixed_root):
            continue
        original = original_root(package, fixed_root)
        if original is None:
            counts["no_original"] += 1
            continue
        for path in glob.glob(os.path.join(fixed_root, "**", "*.py"), recursive=True):
            before_path = os.path.join(original, os.path.relpath(path, fixed_root))
            if not os.path.isfile(before_path):
                continue
            after_text, before_text = open(path, "rb").read(), open(before_path, "rb").read()
            if after_text == before_text:
                continue
            counts["changed"] += 1
            counts["modules"].append(os.path.relpath(path, folder))
            try:
                after = ast.parse(after_text)
            except SyntaxError:
                counts["unparsable"] += 1
                continue
            before = ast.parse(before_text)
            (top_before, any_before), (top_after, any_after) = torch_imports(before), torch_imports(after)
            counts["added_top_level_torch"] += top_after and not top_before
            counts["added_any_torch"] += any_after and not any_before
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", default=os.environ.get("BREAKLINT_BENCH_CACHE", "/work/benchcache"))
    parser.add_argument("--list", metavar="LIBRARY", help="also list the changed modules of this library folder")
    options = parser.parse_args()
    fixed = os.path.join(options.cache_dir, "fixed")
    if not os.path.isdir(fixed):
        print(f"error: no fixed copies under {fixed}: run bench/realworld.py --refix first", file=sys.stderr)
        return 2
    print("| library copy | modules changed | unparsable | top-level torch import added | any torch import added |")
    print("|---|---:|---:|---:|---:|")
    total = dict.fromkeys(("changed", "unparsable", "added_top_level_torch", "added_any_torch"), 0)
    for name in sorted(os.listdir(fixed)):
        counts = check_library(os.path.join(fixed, name))
        if counts["no_original"]:
            print(f"error: no installed original for {name}", file=sys.stderr)
            return 2
        for key in total:
            total[key] += counts[key]
        print(f"| {name} | {counts['changed']} | {counts['unparsable']} | {counts['added_top_level_torch']} "
              f"| {counts['added_any_torch']} |")
        if options.list == name:
            print("\n".join(f"  {m}" for m in counts["modules"]), file=sys.stderr)
    print(f"| **all** | {total['changed']} | {total['unparsable']} | {total['added_top_level_torch']} "
          f"| {total['added_any_torch']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
