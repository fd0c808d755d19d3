# Sourced by the GPU benchmark scripts (bench/gpu_confirm.sh, bench/gpu_multi.sh) after `cd` to the
# repository root: the interpreter, the output folder, this checkout's breaklint on the path, and
# libcst from the wheel carried in .whl/ (the GPU image has none; installed offline into /tmp/site).
PY="${PYTHON:-python3}"
OUT="${OUT:-bench/results}"
mkdir -p "$OUT"
if ! "$PY" -c "import libcst" 2>/dev/null && [ -d .whl ]; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
        && export PYTHONPATH="/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
# The five composite fixtures, each with a factory_gpu of benchmark size.
COMPOSITES="${COMPOSITES:-attention_padding greedy_decoder moe_router norm_rescale varlen_pooling}"
