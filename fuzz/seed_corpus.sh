#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs: the StableHLO conformance suite and the bench
# programs (text), the VHLO goldens and jax.export artifacts (bytecode), the HLO filetests,
# and the committed .npy/.npz files. Run from the repository root; ../shared must exist.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
mk() { mkdir -p "fuzz/corpus/$1"; }
mk stablehlo_text; mk mlir_bytecode; mk hlo_text; mk npy; mk jit_diff
n=0
for f in "$shared"/conformance/stablehlo-interpret/*.mlir "$shared"/bench/*/*.mlir; do
  [ -f "$f" ] && cp "$f" "fuzz/corpus/stablehlo_text/$(basename "$(dirname "$f")")_$(basename "$f")" && n=$((n+1))
done
for f in "$shared"/vhlo/*.mlir.bc crates/oxla/tests/data/jax_export/*.jax_export \
    crates/oxla-stablehlo/tests/data/*.mlirbc crates/oxla-stablehlo/tests/data/nesting/*.mlirbc; do
  [ -f "$f" ] && cp "$f" fuzz/corpus/mlir_bytecode/ && n=$((n+1))
done
find crates/oxla/tests/filetests -name '*.hlo' | while read -r f; do
  # The module without the filetest's comment lines.
  grep -v '^//' "$f" > "fuzz/corpus/hlo_text/$(echo "$f" | tr / _)"
done
find crates/oxla/tests/data -name '*.npy' -o -name '*.npz' | head -500 | while read -r f; do
  cp "$f" "fuzz/corpus/npy/$(echo "$f" | tr / _)"
done
# jit_diff: a few random byte strings (each steers one program).
for i in $(seq 1 64); do head -c 256 /dev/urandom > "fuzz/corpus/jit_diff/r$i"; done
echo "seeded: $(find fuzz/corpus -type f | wc -l) files"
