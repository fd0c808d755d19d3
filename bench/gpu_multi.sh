#!/usr/bin/env bash
# Issue #17: breaklint confirm over the five composite fixtures (factory_gpu size, --unsafe-fixes) as
# ONE command, so that confirm itself spreads the targets one per GPU. Run it once on a multi-GPU
# machine as is, and once with CUDA_VISIBLE_DEVICES=0; then bench/gpu_multi.py compares the two.
#   RUN=multi bash bench/gpu_multi.sh      -> $OUT/gpu_multi_multi.json, .log
#   RUN=single CUDA_VISIBLE_DEVICES=0 bash bench/gpu_multi.sh -> $OUT/gpu_multi_single.json, .log
# The libcst wheel travels in .whl/ (bench/gpu_env.sh installs it offline).
set -uo pipefail
cd "$(dirname "$0")/.."
RUN="${RUN:-multi}"
. bench/gpu_env.sh
targets=()
for name in $COMPOSITES; do
    targets+=("fixtures.$name:factory_gpu")
done
log="$OUT/gpu_multi_$RUN.log"
{ nvidia-smi -L; echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-<unset>}"; } 2>&1 | tee "$log"
t0=$(date +%s)
COLUMNS=100 "$PY" -m breaklint confirm "${targets[@]}" --unsafe-fixes --device cuda --max-breaks 1000 \
    --timeout 240 --json "$OUT/gpu_multi_$RUN.json" 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
t1=$(date +%s)
echo "wall_s $(( t1 - t0 )) exit $rc" | tee -a "$log"
exit $rc
