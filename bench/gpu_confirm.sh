#!/usr/bin/env bash
# breaklint confirm on the five composite fixtures (factory_gpu size) with Inductor on CUDA: breaks
# before/after, outputs, eager / compiled original / compiled fixed timings with their spread,
# compile times, device and torch version. Writes into $OUT (default bench/results):
#   gpu_confirm.json, gpu_confirm.md (confirm's own summary), gpu_confirm.log, gpu_confirm_table.md
# On the GPU image (torch 2.11, no libcst) carry the libcst wheel in .whl/: it is installed
# offline into /tmp/site first (nothing comes from the network). About 5 minutes on an H100.
set -uo pipefail
cd "$(dirname "$0")/.."
MODE="${MODE:-default}"
. bench/gpu_env.sh
targets=()
for name in $COMPOSITES; do
    # factory_gpu builds the benchmark-sized model; factory is the small CPU test size.
    if grep -q "^def factory_gpu" "fixtures/$name.py" 2>/dev/null; then
        targets+=("fixtures.$name:factory_gpu")
    elif [ -f "fixtures/$name.py" ]; then
        targets+=("fixtures.$name:factory")
    fi
done
"$PY" -c "import torch, libcst; print('torch', torch.__version__, torch.cuda.get_device_name() if torch.cuda.is_available() else 'no GPU', '| libcst', libcst.__version__ if hasattr(libcst, '__version__') else 'ok')" 2>&1 | tee "$OUT/gpu_confirm.log"
# One confirm per target, merged into $OUT after each, so that a run cut short (the device tool's
# 10-minute limit) still leaves every finished target in the JSON and the table; BUDGET (seconds)
# stops starting new targets.
BUDGET="${BUDGET:-400}"
parts="$(mktemp -d)"
merge() {
    "$PY" - "$parts" "$OUT/gpu_confirm.json" <<'PYEOF'
import glob, json, os, sys
parts, out = sys.argv[1], sys.argv[2]
runs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(parts, "*.json")))]
json.dump({"targets": [t for r in runs for t in r["targets"]],
           "exit_code": max((r["exit_code"] for r in runs), default=2)}, open(out, "w"), indent=2)
PYEOF
    cat "$parts"/*.md > "$OUT/gpu_confirm.md" 2>/dev/null
    "$PY" bench/confirm_table.py "$OUT/gpu_confirm.json" > "$OUT/gpu_confirm_table.md"
}
start=$(date +%s)
status=0
for target in "${targets[@]}"; do
    if (( $(date +%s) - start > BUDGET )); then
        echo "skipped $target: over the ${BUDGET}s budget" | tee -a "$OUT/gpu_confirm.log"; status=1; continue
    fi
    t0=$(date +%s)
    name="${target//[^A-Za-z0-9_]/_}"
    COLUMNS=100 "$PY" -m breaklint confirm "$target" --unsafe-fixes --device cuda --mode "$MODE" \
        --max-breaks 1000 --timeout 240 --json "$parts/$name.json" --markdown "$parts/$name.md" "$@" \
        2>&1 | tee -a "$OUT/gpu_confirm.log"
    rc=${PIPESTATUS[0]}
    (( rc > status )) && status=$rc
    echo "$target: exit $rc, wall $(( $(date +%s) - t0 )) s" | tee -a "$OUT/gpu_confirm.log"
    merge
done
echo "confirm over ${#targets[@]} target(s): exit $status, wall $(( $(date +%s) - start )) s" | tee -a "$OUT/gpu_confirm.log"
cat "$OUT/gpu_confirm_table.md"
rm -rf "$parts"
exit $status
