#!/usr/bin/env python3
"""Multi-core scaling of Oxla beside XLA's CPU backend: each bench program at 1..N threads.

Both run pinned to the first k cores (sched_setaffinity, which Oxla's pool and XLA's Eigen
pool both size themselves by), Oxla also with OXLA_THREADS=k. For each k: one `oxla bench`
over the programs, then one Python worker that imports jax after pinning and compiles and
times every program's `program.mlir` on XLA's CPU backend (jaxlib's PJRT client, as
tools/xla_anchors.py does). One JSON holds everything; the table gives run times, each
side's speedup over its own 1-thread time, and Oxla / XLA at every k.

    python tools/scaling.py --oxla target/release/oxla --bench DIR --out scaling.json \\
        [--threads 1,2,4,8,16] [--min-time 0.3] [--only a,b]
    python tools/scaling.py --table scaling.json      # print the table of a saved run

A bench folder is the shared bench's format (`../shared/bench/README.md`); several may be
given (--bench A --bench B). Needs numpy and jax; ml_dtypes for bfloat16 inputs.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time


def load_inputs(d):
    import numpy as np

    with open(os.path.join(d, "meta.json")) as fh:
        meta = json.load(fh)
    args = []
    for i in meta["inputs"]:
        a = np.load(os.path.join(d, i["file"]))
        if i.get("dtype") == "bfloat16":  # stored raw (<V2)
            import ml_dtypes

            a = a.view(ml_dtypes.bfloat16)
        args.append(a)
    return meta, args


def ensure_inputs(d, seed=0):
    """Write random inputs where a program folder has none (folders carried without their
    arguments to a machine they would not fit on). Floats ~ N(0, 0.01), integers in [0, 4)
    (valid indices and token ids for every program's tables), booleans at random."""
    import numpy as np

    with open(os.path.join(d, "meta.json")) as fh:
        meta = json.load(fh)
    if all(os.path.exists(os.path.join(d, i["file"])) for i in meta["inputs"]):
        return False
    rng = np.random.default_rng(seed)
    for i in meta["inputs"]:
        shape, dt = tuple(i["shape"]), i["dtype"]
        if dt == "bfloat16":
            import ml_dtypes

            a = (rng.standard_normal(shape) * 0.1).astype(ml_dtypes.bfloat16)
        elif dt == "bool":
            a = rng.random(shape) < 0.5
        elif dt.startswith(("int", "uint")):
            a = rng.integers(0, 4, size=shape).astype(dt)
        elif dt.startswith("complex"):
            a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt) * 0.5
        else:
            a = (rng.standard_normal(shape) * 0.1).astype(dt)
        np.save(os.path.join(d, i["file"]), a)
    # XLA's outputs on these inputs become the checks (tools/scaling.py --worker saves them).
    # The checks are looser than the folder's own: random inputs put models far from their
    # designed scale, so reduction order moves results more. They catch wrong results (a
    # threading bug), not the last ulp; the sampled checks of the real inputs stay at home.
    for o in meta["outputs"]:
        for key in [k for k in o if "sum" in k or k == "sample_len"]:
            o.pop(key, None)
        o["stride"] = 1
        o["rtol"] = max(o.get("rtol", 1e-5), 1e-2)
        f = os.path.join(d, o["file"])
        if os.path.exists(f):
            os.remove(f)
    meta["checks_from"] = "XLA on this machine (tools/scaling.py)"
    with open(os.path.join(d, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    return True


def xla_compile(backend, xc, dev, text):
    """Compile MLIR text on the CPU client, across jaxlib versions' spellings."""
    errors = []
    opts = xc.CompileOptions()
    for attempt in (
        lambda: backend.compile_and_load(text, xc.DeviceList((dev,)), opts),
        lambda: backend.compile_and_load(text.encode(), xc.DeviceList((dev,)), opts),
        lambda: backend.compile_and_load(text, xc.DeviceList((dev,)), opts, []),
        lambda: backend.compile(text, opts),
    ):
        try:
            return attempt()
        except Exception as e:  # try the next spelling
            errors.append(f"{type(e).__name__}: {str(e)[:300]}")
    raise RuntimeError("no compile spelling worked: " + " | ".join(errors))


def xla_worker(dirs, k, min_time):
    """Time every program on XLA pinned to k cores; one JSON line per program on stdout."""
    os.sched_setaffinity(0, set(range(k)))
    import numpy as np
    import jax

    jax.config.update("jax_enable_x64", True)  # else device_put narrows f64 arguments
    from jax._src import xla_bridge
    from jax._src.lib import xla_client as xc

    backend = xla_bridge.get_backend("cpu")
    dev = backend.local_devices()[0]
    jax.block_until_ready(jax.jit(lambda x: x * 2 + 1)(np.float32(1)))
    for d in dirs:
        name = os.path.basename(d.rstrip("/"))
        r = dict(name=name, threads=k, affinity=len(os.sched_getaffinity(0)), jax_version=jax.__version__)
        try:
            _, args = load_inputs(d)
            with open(os.path.join(d, "program.mlir")) as fh:
                text = fh.read()
            t0 = time.perf_counter()
            exe = xla_compile(backend, xc, dev, text)
            r["compile_ms"] = (time.perf_counter() - t0) * 1e3
            bufs = [jax.device_put(a, dev) for a in args]

            def run():
                return jax.block_until_ready(exe.execute(bufs))

            outs = run()
            meta_path = os.path.join(d, "meta.json")
            with open(meta_path) as fh:
                meta = json.load(fh)
            if meta.get("checks_from") and not os.path.exists(os.path.join(d, "out0.npy")):
                for j, o in enumerate(outs):  # the checks of folders given fresh inputs
                    o = np.asarray(o)
                    np.save(os.path.join(d, f"out{j}.npy"), o)
                    if o.dtype.kind in "fc" and o.dtype.itemsize > 2:
                        rms = float(np.sqrt(np.mean(np.abs(o.astype(np.complex128)) ** 2))) if o.size else 0.0
                        meta["outputs"][j]["atol"] = 1e-2 * rms
                with open(meta_path, "w") as fh:
                    json.dump(meta, fh, indent=1)
            run()
            times = []
            start = time.perf_counter()
            while len(times) < 5 or (time.perf_counter() - start < min_time and len(times) < 2000):
                t = time.perf_counter()
                run()
                times.append(time.perf_counter() - t)
            r.update(run_ms=statistics.median(times) * 1e3, min_ms=min(times) * 1e3, runs=len(times))
        except Exception as e:
            r["error"] = f"{type(e).__name__}: {str(e)[:500]}"
        print(json.dumps(r), flush=True)


def program_dirs(benches, only):
    out = []
    for b in benches:
        if os.path.isfile(os.path.join(b, "program.mlir")):
            out.append(b)
            continue
        for n in sorted(os.listdir(b)):
            if os.path.isfile(os.path.join(b, n, "program.mlir")) and (not only or n in only):
                out.append(os.path.join(b, n))
    return out


def run_oxla(oxla, dirs, k, min_time, timeout):
    rows = {}
    tmp = f"/tmp/oxla-scaling-{os.getpid()}-{k}.json"
    for d in dirs:  # one process per program: a crash costs one row
        name = os.path.basename(d.rstrip("/"))
        env = {**os.environ, "OXLA_THREADS": str(k)}
        try:
            p = subprocess.run([oxla, "bench", d, "--min-time", str(min_time), "--json", tmp], env=env,
                               capture_output=True, text=True, timeout=timeout,
                               preexec_fn=lambda: os.sched_setaffinity(0, set(range(k))))
            if p.returncode == 0:
                with open(tmp) as fh:
                    r = json.load(fh)[0]
            else:
                r = dict(error=f"rc={p.returncode}: {p.stderr[-500:]}")
        except subprocess.TimeoutExpired:
            r = dict(error=f"timeout after {timeout} s")
        r.update(name=name, threads=k)
        rows[name] = r
        print(f"# oxla k={k} {name}: {r.get('run_ms')}", file=sys.stderr, flush=True)
    return rows


def run_xla(dirs, k, min_time, timeout):
    rows = {}
    try:
        p = subprocess.run([sys.executable, __file__, "--worker", str(k), "--min-time", str(min_time)] + dirs,
                           env={**os.environ, "JAX_PLATFORMS": "cpu"}, capture_output=True, text=True,
                           timeout=timeout)
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out, err = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    for line in out.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            rows[r["name"]] = r
            print(f"# xla k={k} {r['name']}: {r.get('run_ms', r.get('error'))}", file=sys.stderr, flush=True)
    if not rows:
        rows["_error"] = dict(error=err[-2000:])
        print(f"# xla k={k} failed: {err[-2000:]}", file=sys.stderr, flush=True)
    return rows


def table(doc):
    ks = sorted(int(k) for k in doc["oxla"])
    names = doc["programs"]
    lines = [f"CPU: {doc.get('cpu', '?')}; cores seen: {doc.get('cores', '?')}", ""]
    head = "| program | " + " | ".join(f"Oxla {k}" for k in ks) + " | " + " | ".join(f"XLA {k}" for k in ks) + \
        f" | Oxla speedup 1→{ks[-1]} | XLA speedup 1→{ks[-1]} | " + " | ".join(f"ratio {k}" for k in ks) + " |"
    lines += [head, "|---|" + "---:|" * (3 * len(ks) + 2)]
    logs = {k: [] for k in ks}
    for n in names:
        o = [doc["oxla"][str(k)].get(n, {}).get("run_ms") for k in ks]
        x = [doc["xla"][str(k)].get(n, {}).get("run_ms") for k in ks]
        f = lambda v: f"{v:.3g}" if v else "—"
        sp = lambda v: f"{v[0] / v[-1]:.1f}×" if v[0] and v[-1] else "—"
        ratio = []
        for k, a, b in zip(ks, o, x):
            if a and b:
                ratio.append(f"{a / b:.2f}")
                logs[k].append(math.log(a / b))
            else:
                ratio.append("—")
        lines.append(f"| {n} | " + " | ".join(map(f, o)) + " | " + " | ".join(map(f, x)) + f" | {sp(o)} | {sp(x)} | "
                     + " | ".join(ratio) + " |")
    lines.append("")
    lines.append("geo-mean Oxla / XLA: " + ", ".join(
        f"{k} threads {math.exp(sum(v) / len(v)):.2f}×" for k, v in logs.items() if v))
    return "\n".join(lines)


def strip(src, dst, only):
    import shutil

    for d in program_dirs([src], only):
        n = os.path.basename(d.rstrip("/"))
        with open(os.path.join(d, "meta.json")) as fh:
            meta = json.load(fh)
        big = sum(os.path.getsize(os.path.join(d, i["file"])) for i in meta["inputs"]) > (1 << 20)
        os.makedirs(os.path.join(dst, n), exist_ok=True)
        files = ["program.mlir", "meta.json"]
        if not big:
            files += [i["file"] for i in meta["inputs"]] + [o["file"] for o in meta["outputs"]]
        for f in files:
            shutil.copy(os.path.join(d, f), os.path.join(dst, n, f))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oxla", default="target/release/oxla")
    ap.add_argument("--bench", action="append", default=[])
    ap.add_argument("--out", default="scaling.json")
    ap.add_argument("--threads", default="1,16,4,8,2",
                    help="thread counts, in the order run (a run cut short keeps the first ones)")
    ap.add_argument("--min-time", type=float, default=0.3)
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--skip-xla", action="store_true")
    ap.add_argument("--table", metavar="JSON")
    ap.add_argument("--strip", nargs=2, metavar=("SRC", "DST"),
                    help="copy SRC's program folders (--only) to DST without arguments over 1 MB "
                         "and their outputs, to carry to another machine")
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("dirs", nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        xla_worker(a.dirs, a.worker, a.min_time)
        return
    if a.strip:
        strip(*a.strip, set(filter(None, a.only.split(","))))
        return
    if a.table:
        with open(a.table) as fh:
            print(table(json.load(fh)))
        return
    cores = len(os.sched_getaffinity(0))
    ks = [k for k in map(int, a.threads.split(",")) if k <= cores]
    dirs = program_dirs(a.bench, set(filter(None, a.only.split(","))))
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    made = [d for d in dirs if ensure_inputs(d)]
    if made:
        print(f"# fresh inputs for {len(made)} programs", file=sys.stderr, flush=True)
        if a.skip_xla:
            sys.exit("programs with fresh inputs take their checks from XLA: drop --skip-xla")
    doc = dict(cpu=cpu, cores=cores, threads=ks, programs=[os.path.basename(d.rstrip("/")) for d in dirs],
               oxla={}, xla={}, started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    for k in ks:  # XLA first: its first pass writes the checks of fresh inputs
        doc["xla"][str(k)] = {} if a.skip_xla else run_xla(dirs, k, a.min_time, a.timeout * len(dirs))
        doc["oxla"][str(k)] = run_oxla(a.oxla, dirs, k, a.min_time, a.timeout)
        with open(a.out, "w") as fh:  # after every k: a partial run keeps what it measured
            json.dump(doc, fh, indent=1)
    doc["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(a.out, "w") as fh:
        json.dump(doc, fh, indent=1)
    print(table(doc))


if __name__ == "__main__":
    main()
