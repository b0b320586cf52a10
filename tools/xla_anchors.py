#!/usr/bin/env python3
"""XLA CPU anchors for the bench programs, straight from their StableHLO.

`../shared/bench/anchors/run_anchors.py` times XLA by rebuilding each workload's JAX function
from a `gen.py` that is not in the shared folder, so its JAX columns come out empty. This
script compiles each workload's `program.mlir` itself on XLA's CPU backend (jaxlib's PJRT
client: the compiler `jax.jit` uses, fed the module JAX exported) and times it the way
run_anchors.py does (its `bench`, `load_dir` and `check`), then writes the results as the
`jax` (and, with --single, `jax_1thread`) entries of an anchors JSON, merged into an existing
file if given, so `oxla bench --anchors` and `sidebyside.py` read them.

    python tools/xla_anchors.py --bench ../shared/bench --out anchors.json [--only a,b] [--single]
    python tools/xla_anchors.py --bench target/broad-bench --out anchors.json --timeout 120

A bench folder without its own `anchors/run_anchors.py` (the broad bench, bench/broad/gen.py)
borrows the shared one (--anchors-dir). bfloat16 and other ml_dtypes arrays load and check
through `tools/anchors_io.py`.

Run it with the JAX 0.10.2 environment (`pip install jax==0.10.2 jaxlib==0.10.2`).
"""

import argparse
import json
import os
import subprocess
import sys
import time


def time_one(d, min_time):
    import numpy as np
    import jax
    from jax._src import xla_bridge
    from jax._src.lib import xla_client as xc

    import run_anchors as ra
    import anchors_io

    meta, args, exp = anchors_io.load_dir(d)
    if any(x["dtype"] in ("float64", "complex128", "int64", "uint64") for x in meta["inputs"] + meta["outputs"]):
        jax.config.update("jax_enable_x64", True)  # else device_put narrows f64 arguments to f32
    backend = xla_bridge.get_backend("cpu")
    dev = backend.local_devices()[0]
    with open(os.path.join(d, "program.mlir")) as fh:
        text = fh.read()
    # Warm the client so that compile time measures the workload only.
    jax.block_until_ready(jax.jit(lambda x: x * 2 + 1)(np.float32(1)))
    t0 = time.perf_counter()
    exe = backend.compile_and_load(text, xc.DeviceList((dev,)), xc.CompileOptions())
    compile_ms = (time.perf_counter() - t0) * 1e3
    bufs = [jax.device_put(a, dev) for a in args]

    def run():
        return jax.block_until_ready(exe.execute(bufs))

    outs = [np.asarray(o) for o in run()]
    r = ra.bench(run, min_time=min_time)
    r.update(compile_ms=compile_ms, check=anchors_io.check(ra, outs, meta, exp), jax_version=jax.__version__,
             source="program.mlir via jaxlib compile_and_load", xla_flags=os.environ.get("XLA_FLAGS", ""))
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bench"))
    ap.add_argument("--out", required=True, help="anchors JSON to write (merged into if it exists)")
    ap.add_argument("--only", default="", help="comma-separated workload names")
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--single", action="store_true", help="also time on one thread (jax_1thread)")
    ap.add_argument("--anchors-dir", default=None,
                    help="where run_anchors.py lives (default: BENCH/anchors, else ../shared/bench/anchors)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per measurement process")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    if a.anchors_dir is None:
        own = os.path.join(a.bench, "anchors")
        a.anchors_dir = own if os.path.isfile(os.path.join(own, "run_anchors.py")) else \
            os.path.join(here, "..", "..", "shared", "bench", "anchors")
    sys.path.insert(0, here)
    sys.path.insert(0, a.anchors_dir)
    if a.worker:
        print(json.dumps(time_one(a.worker, a.min_time)))
        return
    names = sorted(n for n in os.listdir(a.bench) if os.path.isfile(os.path.join(a.bench, n, "program.mlir")))
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    doc = {}
    if os.path.exists(a.out):
        with open(a.out) as fh:
            doc = json.load(fh)
    work = doc.setdefault("workloads", {})
    for n in names:
        d = os.path.join(a.bench, n)
        runs = [("jax", {})]
        if a.single:
            runs.append(("jax_1thread", {"XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false "
                                                      "intra_op_parallelism_threads=1"}))
        for key, env in runs:
            # One process per measurement, as run_anchors.py does (a fresh client each time).
            try:
                p = subprocess.run([sys.executable, __file__, "--bench", a.bench, "--min-time", str(a.min_time),
                                    "--anchors-dir", a.anchors_dir, "--worker", d, "--out", a.out],
                                   env={**os.environ, "JAX_PLATFORMS": "cpu", **env}, capture_output=True, text=True,
                                   timeout=a.timeout)
            except subprocess.TimeoutExpired:
                p = None
            if p is None:
                r = dict(worker_error=f"timeout after {a.timeout:.0f} s")
            elif p.returncode == 0:
                r = json.loads(p.stdout.strip().splitlines()[-1])
            else:
                r = dict(worker_error=f"rc={p.returncode}", stderr=p.stderr[-3000:])
            work.setdefault(n, {})[key] = r
            print(f"# {n} {key}: " + (f"compile {r['compile_ms']:.0f} ms, run {r['median_ms']:.3f} ms"
                                       if "median_ms" in r else r.get("worker_error", "?")), file=sys.stderr)
        with open(a.out, "w") as fh:  # after every workload: a partial run keeps what it measured
            json.dump(doc, fh, indent=1)
    with open(a.out, "w") as fh:
        json.dump(doc, fh, indent=1)


if __name__ == "__main__":
    main()
