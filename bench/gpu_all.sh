#!/usr/bin/env bash
# Every GPU benchmark in one command: `breaklint confirm` over the composite fixtures
# (bench/gpu_confirm.sh, about 5 minutes on an H100) and the real-world models whose breaks the
# fixes removed (bench/gpu_realworld.sh). On the `device` tool a command may run 10 minutes, so
# there run the two as separate calls (LIBS=... picks parts of the second; see BENCHMARKS.md 1.2).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-bench/results}"
status=0
OUT="$OUT" bash bench/gpu_confirm.sh || status=1
OUT="$OUT" bash bench/gpu_realworld.sh || status=1
exit $status
