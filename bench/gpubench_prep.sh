#!/usr/bin/env bash
# Build .gpubench/ for bench/gpu_realworld.sh with THIS checkout's fixes: the released library
# (from the benchmark venv, see bench/README-realworld.md) and a copy fixed with
# `breaklint check --fix --unsafe-fixes`, as bench/realworld.py --refix makes it (the spec file
# is linted beside the copy so that what it reaches is fixed; it is never imported).
# Carry it to the GPU machine with carry [".gpubench", ".whl"].
set -euo pipefail
cd "$(dirname "$0")/.."
SITE="${SITE:-$(ls -d /work/benchenv/lib/python3*/site-packages)}"
PY="${PYTHON:-/work/venv/bin/python}"
rm -rf .gpubench
declare -A PKG=([tde]=torchdiffeq [monai]=monai [pyg]=torch_geometric)
declare -A SPEC=([tde]=torchdiffeq_models [monai]=monai_models [pyg]=pyg_models)
for group in tde monai pyg; do
    pkg=${PKG[$group]}
    mkdir -p ".gpubench/orig/$group" ".gpubench/fixed/$group"
    cp -r "$SITE/$pkg" ".gpubench/orig/$group/"
    cp -r "$SITE/$pkg" ".gpubench/fixed/$group/"
    cp "bench/models/${SPEC[$group]}.py" ".gpubench/fixed/$group/_entry_${SPEC[$group]}.py"
    PYTHONPATH="$PWD/src" "$PY" -m breaklint check ".gpubench/fixed/$group" --fix --unsafe-fixes --no-cache \
        --exit-zero --quiet >/dev/null 2>".gpubench/fix_$group.log" || { cat ".gpubench/fix_$group.log"; exit 1; }
    rm -f ".gpubench/fixed/$group/_entry_${SPEC[$group]}.py"
    find .gpubench -name __pycache__ -prune -exec rm -rf {} +
    echo "$group: $(diff -rq ".gpubench/orig/$group/$pkg" ".gpubench/fixed/$group/$pkg" | grep -c differ) files changed"
done
git rev-parse --short HEAD > .gpubench/src_commit
du -sh .gpubench
