#!/bin/bash
# GEMM against the machine's FMA peak, each measurement bracketed by limits.c:
#   limits; gemm_bench 1024 f32 ISA 2 9 (or 2048 ... 2 3), best run; limits;
# the ratio against the higher of the two peaks, for AVX-512 and AVX2 at 1024^3 and 2048^3.
#
#   tools/gemm_rounds.sh [ROUNDS]      (default 5; from the repository root)
#
# LIMITS: a built limits.c (default: built here from ../shared/bench/anchors/limits.c);
# GEMM_BENCH: the gemm_bench example (default: built with cargo). An ISA this CPU lacks is
# skipped by gemm_bench with an error line.
set -euo pipefail
ROUNDS=${1:-5}
if [ -z "${LIMITS:-}" ]; then
  LIMITS=$(mktemp -d)/limits
  # For this CPU: built for AVX-512, limits.c dies of an illegal instruction on an AVX2 one.
  gcc -fopenmp -O2 -march=native ../shared/bench/anchors/limits.c -o "$LIMITS" -lm
fi
if [ -z "${GEMM_BENCH:-}" ]; then
  cargo build --release -q -p oxla-kernels --example gemm_bench
  GEMM_BENCH=target/release/examples/gemm_bench
fi
peaks() {
  "$LIMITS" | tail -1 | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["fma_avx512_f32_GFLOPS"], d["fma_avx2_f32_GFLOPS"], d["stream_triad_GBs"])'
}
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs); $(date -u +%FT%TZ)"
# The AVX-512 rounds only where the CPU has it (gemm_bench stops on an ISA it lacks).
specs=("1024 avx2 9" "2048 avx2 3")
if grep -qw avx512f /proc/cpuinfo; then
  specs=("1024 avx512 9" "2048 avx512 3" "${specs[@]}")
fi
for r in $(seq 1 "$ROUNDS"); do
  for spec in "${specs[@]}"; do
    set -- $spec
    before=$(peaks)
    out=$("$GEMM_BENCH" "$1" f32 "$2" 2 "$3" | tail -1)
    after=$(peaks)
    python3 - "$r" "$1" "$2" "$before" "$after" "$out" <<'PY'
import re, sys
r, n, isa, before, after, out = sys.argv[1:]
m = re.search(r"best [0-9.]+ ms, ([0-9.]+) GFLOPS", out)
if not m:
    print(f"round {r} {n}^3 {isa}: {out}")
    sys.exit()
g = float(m.group(1))
b, a = list(map(float, before.split())), list(map(float, after.split()))
i = 0 if isa == "avx512" else 1
p = max(b[i], a[i])
print(f"round {r} {n}^3 {isa}: {g:.1f} GFLOPS, peak before/after {b[i]:.1f}/{a[i]:.1f} "
      f"-> {100 * g / p:.1f}% (triad {b[2]:.0f}/{a[2]:.0f})")
PY
  done
done
