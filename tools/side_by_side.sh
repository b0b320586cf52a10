#!/bin/bash
# One side-by-side run of the bench programs, as docs/BENCH.md reports them:
#   limits.c; oxla bench; run_anchors.py (IREE, numpy); tools/xla_anchors.py (XLA CPU);
#   oxla bench again; sidebyside.py over the anchors and both oxla passes; then the GEMM
#   rounds (tools/gemm_rounds.sh).
#
#   tools/side_by_side.sh OUT_DIR [GEMM_ROUNDS]     (from the repository root)
#
# PYTHON: a Python with jax/jaxlib 0.10.2 and IREE 3.13 (default: python). The table is
# OUT_DIR/table.md, the GEMM rounds OUT_DIR/gemm_rounds.txt, the times OUT_DIR/times.
set -euo pipefail
D=${1:?usage: tools/side_by_side.sh OUT_DIR [GEMM_ROUNDS]}
PY=${PYTHON:-python}
B=../shared/bench
mkdir -p "$D"
cargo build --release -q -p oxla --bin oxla
cargo build --release -q -p oxla-kernels --example gemm_bench
# For this CPU: built for AVX-512, limits.c dies of an illegal instruction on an AVX2 one.
gcc -fopenmp -O2 -march=native $B/anchors/limits.c -o "$D/limits" -lm
date -u +%FT%TZ > "$D/times"
"$D/limits" > "$D/limits.txt" 2>&1
target/release/oxla bench $B --json "$D/o1.json" > "$D/o1.log" 2>&1
"$PY" $B/anchors/run_anchors.py --bench $B --out "$D/a.json" > "$D/anchors.log" 2>&1
"$PY" tools/xla_anchors.py --bench $B --out "$D/a.json" --single > "$D/xla.log" 2>&1
target/release/oxla bench $B --json "$D/o2.json" > "$D/o2.log" 2>&1
"$PY" $B/anchors/sidebyside.py "$D/a.json" "$D/o1.json" "$D/o2.json" > "$D/table.md" 2>&1
date -u +%FT%TZ >> "$D/times"
LIMITS="$D/limits" GEMM_BENCH=target/release/examples/gemm_bench \
  tools/gemm_rounds.sh "${2:-5}" > "$D/gemm_rounds.txt" 2>&1
date -u +%FT%TZ >> "$D/times"
tail -3 "$D/table.md"
cat "$D/gemm_rounds.txt"
