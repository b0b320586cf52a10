#!/bin/bash
# The broad bench side by side (bench/broad/README.md), in one run on this machine:
#   oxla bench (pass 1, one process per program, so that a crash or a hang costs one row);
#   IREE (tools/iree_anchors.py: default and data tiling, local-task); XLA CPU
#   (tools/xla_anchors.py); oxla bench (pass 2); then ../shared/bench/anchors/sidebyside.py and
#   tools/broad_table.py over the anchors and both passes.
#
#   tools/broad_bench.sh OUT_DIR [BENCH_DIR]      (from the repository root)
#
# BENCH_DIR defaults to target/broad-bench and is generated (bench/broad/gen.py) when it has
# no index.json. PYTHON: a Python with jax/jaxlib 0.10.2, ml_dtypes and IREE 3.13 (default:
# python). OXLA: the oxla binary (default: cargo build --release, target/release/oxla).
# MIN_TIME (default 0.5 s) and TIMEOUT (default 120 s) apply to every measurement.
# Results: OUT_DIR/table.md (the broad table), OUT_DIR/sidebyside.md (sidebyside.py's),
# OUT_DIR/machine.txt (CPU, load at start and end), logs and JSON beside them.
set -uo pipefail
D=${1:?usage: tools/broad_bench.sh OUT_DIR [BENCH_DIR]}
G=${2:-target/broad-bench}
PY=${PYTHON:-python}
MT=${MIN_TIME:-0.5}
TO=${TIMEOUT:-120}
SHARED=../shared/bench/anchors
mkdir -p "$D"
if [ ! -f "$G/index.json" ]; then
  "$PY" bench/broad/gen.py "$G" > "$D/gen.log" 2>&1 || { echo "gen.py failed: $D/gen.log"; exit 1; }
fi
if [ -z "${OXLA:-}" ]; then
  cargo build --release -q -p oxla --bin oxla || exit 1
  OXLA=${CARGO_TARGET_DIR:-target}/release/oxla
fi
{
  echo "start $(date -u +%FT%TZ) $(uptime)"
  grep -m1 'model name' /proc/cpuinfo
  echo "cores: $(nproc)"
  echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx512|amx|avx_vnni|fma|avx2)' | sort | tr '\n' ' ')"
  echo "oxla: $OXLA ($(git rev-parse --short HEAD 2>/dev/null))"
} > "$D/machine.txt"

oxla_pass() {  # $1: pass name; writes $D/$1.json
  mkdir -p "$D/$1"
  for w in "$G"/*/; do
    n=$(basename "$w")
    [ -f "$w/program.mlir" ] || continue
    timeout "$TO" "$OXLA" bench "$w" --json "$D/$1/$n.json" --min-time "$MT" > "$D/$1/$n.log" 2>&1
    rc=$?
    if [ ! -s "$D/$1/$n.json" ]; then
      "$PY" -c 'import json,sys; print(json.dumps([dict(name=sys.argv[1], run_ms=None, compile_ms=None,
        check=f"oxla bench exited with rc={sys.argv[2]}" + (" (timeout)" if sys.argv[2] == "124" else "") + ": " + sys.argv[3])]))' \
        "$n" "$rc" "$(tail -c 400 "$D/$1/$n.log" | tr '\n' ' ')" > "$D/$1/$n.json"
    fi
  done
  "$PY" -c 'import json,sys,glob; print(json.dumps([r for f in sorted(glob.glob(sys.argv[1] + "/*.json")) for r in json.load(open(f))], indent=1))' \
    "$D/$1" > "$D/$1.json"
}

oxla_pass o1
echo "oxla pass 1 done $(date -u +%FT%TZ) $(uptime)" >> "$D/machine.txt"
"$PY" tools/iree_anchors.py --bench "$G" --out "$D/a.json" --min-time "$MT" --timeout "$TO" > "$D/iree.log" 2>&1
echo "IREE done $(date -u +%FT%TZ) $(uptime)" >> "$D/machine.txt"
"$PY" tools/xla_anchors.py --bench "$G" --out "$D/a.json" --min-time "$MT" --timeout "$TO" > "$D/xla.log" 2>&1
echo "XLA done $(date -u +%FT%TZ) $(uptime)" >> "$D/machine.txt"
oxla_pass o2
echo "end $(date -u +%FT%TZ) $(uptime)" >> "$D/machine.txt"
"$PY" $SHARED/sidebyside.py "$D/a.json" "$D/o1.json" "$D/o2.json" > "$D/sidebyside.md" 2>&1
"$PY" tools/broad_table.py "$G" "$D/a.json" "$D/o1.json" "$D/o2.json" > "$D/table.md" 2>&1
cat "$D/machine.txt"
sed -n '/^[0-9]* programs/,$p' "$D/table.md"
