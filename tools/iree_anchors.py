#!/usr/bin/env python3
"""IREE anchors for a bench folder of any size: each workload's `program.mlir` compiled with
IREE's llvm-cpu backend (host CPU features) and timed on the `local-task` driver (all cores),
in the configurations of `../shared/bench/anchors/run_anchors.py` (`default` and
`datatiling`), one process per measurement with a time limit, checked against the expected
outputs, and merged into an anchors JSON as its `iree` / `iree_datatiling` entries (the keys
`run_anchors.py` writes and `sidebyside.py` / `oxla bench --anchors` read).

`run_anchors.py` itself also runs JAX through a `gen.py` the shared folder lacks, numpy for
the 20 shared programs only, and IREE's single-thread driver, each in its own process with a
600 s limit: for the 178 programs of the broad bench that is hours. This script keeps to the
multi-threaded IREE figure, borrows `run_anchors.py`'s `bench` and `check` (through
`tools/anchors_io.py`, which adds bfloat16), and gives up on a measurement after --timeout s.

    python tools/iree_anchors.py --bench target/broad-bench --out anchors.json \
        [--only a,b] [--min-time 0.5] [--timeout 120] [--configs default,datatiling]

Needs `iree-base-compiler` / `iree-base-runtime` (3.13, as ../shared/bench/ANCHORS.md used).
"""

import argparse
import json
import os
import subprocess
import sys
import time

CONFIGS = {
    "default": ("iree", ["--iree-llvmcpu-target-cpu=host"]),
    "datatiling": ("iree_datatiling", ["--iree-llvmcpu-target-cpu=host", "--iree-opt-data-tiling=true"]),
}


def time_one(d, config, min_time):
    import numpy as np
    import iree.compiler as ic
    import iree.runtime as ire

    import run_anchors as ra
    import anchors_io

    meta, args, exp = anchors_io.load_dir(d)
    with open(os.path.join(d, "program.mlir")) as fh:
        text = fh.read()
    flags = list(CONFIGS[config][1])
    if any(x["dtype"] in ("float64", "complex128") for x in meta["inputs"] + meta["outputs"]):
        # IREE demotes f64 to f32 by default (and then rejects the f64 arguments)
        flags.append("--iree-input-demote-f64-to-f32=false")
    out = dict(flags=["target_backends=llvm-cpu", "input_type=stablehlo"] + flags)
    t0 = time.perf_counter()
    try:
        vmfb = ic.compile_str(text, target_backends=["llvm-cpu"], input_type="stablehlo", extra_args=flags)
    except Exception as e:  # noqa: BLE001
        e = str(e)
        out.update(compile_error=e if len(e) < 4000 else e[:2000] + " ... " + e[-2000:])
        return out
    out["compile_ms"] = (time.perf_counter() - t0) * 1e3
    out["vmfb_bytes"] = len(vmfb)
    try:
        dev_cfg = ire.Config("local-task")
        ctx = ire.SystemContext(config=dev_cfg)
        vm = ire.VmModule.copy_buffer(ctx.instance, vmfb)
        ctx.add_vm_module(vm)
        f = ctx.modules[vm.name]["main"]

        def put():
            # (np.ascontiguousarray would turn 0-d arrays into 1-d ones)
            return [ire.asdevicearray(dev_cfg.device, np.require(a, requirements="C")) for a in args]

        res = f(*put())
        res = res if isinstance(res, (tuple, list)) else [res]
        # copy now: a result may alias memory that later calls overwrite (in-place scatters)
        outs = [np.array(r.to_host() if hasattr(r, "to_host") else r, copy=True) for r in res]
        chk = anchors_io.check(ra, outs, meta, exp)
        dargs = put()
        r = ra.bench(lambda: f(*dargs), min_time=min_time)
        r["check"] = chk
        out["local-task"] = r
    except Exception as e:  # noqa: BLE001
        out["local-task"] = dict(run_error=str(e)[-3000:])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--out", required=True, help="anchors JSON to write (merged into if it exists)")
    ap.add_argument("--only", default="", help="comma-separated workload names")
    ap.add_argument("--configs", default="default,datatiling")
    ap.add_argument("--min-time", type=float, default=0.5)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per measurement process")
    ap.add_argument("--anchors-dir", default=None,
                    help="where run_anchors.py lives (default: BENCH/anchors, else ../shared/bench/anchors)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--config", help=argparse.SUPPRESS)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    if a.anchors_dir is None:
        own = os.path.join(a.bench, "anchors")
        a.anchors_dir = own if os.path.isfile(os.path.join(own, "run_anchors.py")) else \
            os.path.join(here, "..", "..", "shared", "bench", "anchors")
    sys.path.insert(0, here)
    sys.path.insert(0, a.anchors_dir)
    if a.worker:
        print(json.dumps(time_one(a.worker, a.config, a.min_time)))
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
        for c in a.configs.split(","):
            key = CONFIGS[c][0]
            t0 = time.time()
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "--bench", a.bench, "--out", a.out,
                                    "--min-time", str(a.min_time), "--anchors-dir", a.anchors_dir,
                                    "--worker", d, "--config", c],
                                   capture_output=True, text=True, timeout=a.timeout)
            except subprocess.TimeoutExpired:
                p = None
            r = None
            if p is None:
                r = dict(worker_error=f"timeout after {a.timeout:.0f} s")
            else:
                for line in reversed(p.stdout.strip().splitlines()):
                    if line.startswith("{"):
                        r = json.loads(line)
                        break
                if r is None:
                    r = dict(worker_error=f"rc={p.returncode}", stderr=p.stderr[-3000:])
            work.setdefault(n, {})[key] = r
            lt = r.get("local-task", {})
            what = (f"compile {r['compile_ms']:.0f} ms, run {lt['median_ms']:.3f} ms" if "median_ms" in lt
                    else r.get("worker_error") or ("compile error" if "compile_error" in r else "run error"))
            print(f"# {n} {key}: {what} ({time.time() - t0:.1f} s)", file=sys.stderr, flush=True)
        with open(a.out, "w") as fh:  # after every workload: a partial run keeps what it measured
            json.dump(doc, fh, indent=1)


if __name__ == "__main__":
    main()
