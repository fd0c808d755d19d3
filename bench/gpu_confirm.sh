#!/usr/bin/env bash
# breaklint confirm on the composite fixtures with Inductor on CUDA: eager, compiled original and
# compiled fixed timings, compile times, device and torch version, into $OUT (default bench/results).
# On the GPU image (torch 2.11, no libcst) carry wheels in .whl/: they are installed offline first.
# Then: python bench/confirm_table.py "$OUT/gpu_confirm.json" >> BENCHMARKS.md
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python}"
OUT="${OUT:-bench/results}"
MODE="${MODE:-default}"
mkdir -p "$OUT"
if ! "$PY" -c "import libcst, click, rich" 2>/dev/null && [ -d .whl ]; then
    "$PY" -m pip install --quiet --no-index --find-links .whl libcst click rich
fi
COMPOSITES="${COMPOSITES:-attention_padding greedy_decoder moe_router norm_rescale varlen_pooling}"
targets=()
for name in $COMPOSITES; do
    # factory_gpu builds the benchmark-sized model; factory is the small CPU test size.
    if grep -q "^def factory_gpu" "fixtures/$name.py" 2>/dev/null; then
        targets+=("fixtures.$name:factory_gpu")
    elif [ -f "fixtures/$name.py" ]; then
        targets+=("fixtures.$name:factory")
    fi
done
PYTHONPATH=src "$PY" -m breaklint confirm "${targets[@]}" --unsafe-fixes --device cuda --mode "$MODE" \
    --max-breaks 1000 --timeout 600 --json "$OUT/gpu_confirm.json" --markdown "$OUT/gpu_confirm.md" "$@"
status=$?
"$PY" -c "import torch; print('torch', torch.__version__, torch.cuda.get_device_name() if torch.cuda.is_available() else 'no GPU')"
exit $status
