#!/usr/bin/env bash
# One device call: time released libraries against breaklint's fixed copies on CUDA with Inductor.
# The copies travel in .gpubench/ (ignored by git; made from bench/realworld.py --refix's
# $cache/fixed/ and the benchmark venv, without __pycache__):
#   .gpubench/{orig,fixed}/tde/torchdiffeq  .gpubench/{orig,fixed}/monai/monai  .gpubench/{orig,fixed}/pyg/torch_geometric
# LIBS picks which libraries run (default: all three); results go to $OUT (default bench/results).
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
OUT="${OUT:-bench/results}"
GROUPS_TO_RUN="${LIBS:-tde monai pyg}"
mkdir -p "$OUT"
declare -A MODELS=(
    [tde]="models.torchdiffeq_models:rk4 models.torchdiffeq_models:euler models.torchdiffeq_models:midpoint models.torchdiffeq_models:explicit_adams models.torchdiffeq_models:implicit_adams models.torchdiffeq_models:dopri5"
    [monai]="models.monai_models:BasicUNet models.monai_models:SwinUNETR"
    [pyg]="models.pyg_models:ClusterGCNConv models.pyg_models:ChebConv models.pyg_models:SortAggregation"
)
"$PY" -c "import torch; print('torch', torch.__version__, torch.cuda.get_device_name())"
status=0
for group in $GROUPS_TO_RUN; do
    args=()
    for model in ${MODELS[$group]}; do args+=(--model "$model"); done
    "$PY" bench/gpu_realworld.py --original-root ".gpubench/orig/$group" --fixed-root ".gpubench/fixed/$group" \
        "${args[@]}" --timeout "${TIMEOUT:-240}" \
        --json "$OUT/gpu_realworld_$group.json" --markdown "$OUT/gpu_realworld_$group.md" || status=1
done
exit $status
