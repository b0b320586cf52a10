"""Exports the JAX corpus (programs.py) with JAX 0.10.2 on CPU.

    python gen.py [--only SUBSTRING] [--xla-dumps N]

For each program: `AREA/NAME.mlir` (StableHLO text as `jax.jit(f).lower(*args).as_text()`
prints it) and `AREA/NAME.npz` with the flattened inputs `in0..` and XLA CPU's outputs
`out0..`; bfloat16 arrays are stored as their uint16 bits (numpy has no bfloat16 and
ml_dtypes' `<V2` is not portable), the manifest says which. `manifest.json` lists every program
with its dtypes and tolerances. With --xla-dumps N, the first N programs of the "train",
"conv" and "control" areas also get `xla/NAME.before.hlo` and `xla/NAME.after.hlo` (XLA's HLO
before and after its CPU pipeline).
"""

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import programs as P  # noqa: E402
import jax  # noqa: E402


def dtype_name(a):
    return "bfloat16" if a.dtype == P.BF16 else a.dtype.name


def stored(a):
    a = np.asarray(a)
    return a.view(np.uint16) if a.dtype == P.BF16 else a


def tolerance(p, out_dtypes):
    floats = [d for d in out_dtypes if d in P.DEFAULT_TOL]
    if not floats:
        return 0.0, 0.0
    rtol = p.rtol if p.rtol is not None else max(P.DEFAULT_TOL[d] for d in floats)
    atol = p.atol if p.atol is not None else rtol
    return rtol, atol


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--xla-dumps", type=int, default=24)
    args = ap.parse_args()
    manifest = []
    failed = []
    dumps = 0
    cpu = jax.devices("cpu")[0]
    for p in P.programs():
        if args.only and args.only not in p.name:
            continue
        try:
            with jax.default_device(cpu):
                jitted = jax.jit(p.fn, keep_unused=True)
                lowered = jitted.lower(*p.args)
                text = lowered.as_text()
                outs = jax.tree_util.tree_leaves(jitted(*p.args))
        except Exception as e:  # a program JAX itself cannot lower on CPU is a corpus bug
            failed.append((p.name, f"{type(e).__name__}: {str(e)[:200]}"))
            continue
        ins = [np.asarray(a) for a in jax.tree_util.tree_leaves(p.args)]
        outs = [np.asarray(o) for o in outs]
        os.makedirs(os.path.join(HERE, p.area), exist_ok=True)
        base = os.path.join(HERE, p.area, p.name)
        with open(base + ".mlir", "w") as f:
            f.write(text)
        arrays = {f"in{i}": stored(a) for i, a in enumerate(ins)}
        arrays.update({f"out{i}": stored(o) for i, o in enumerate(outs)})
        np.savez(base + ".npz", **arrays)
        out_dtypes = [dtype_name(o) for o in outs]
        rtol, atol = tolerance(p, out_dtypes)
        manifest.append({
            "name": p.name,
            "area": p.area,
            "inputs": [dtype_name(a) for a in ins],
            "outputs": out_dtypes,
            "rtol": rtol,
            "atol": atol,
        })
        if dumps < args.xla_dumps and p.area in ("train", "conv", "control", "linalg") and \
                "float32" in "".join(out_dtypes):
            os.makedirs(os.path.join(HERE, "xla"), exist_ok=True)
            xb = os.path.join(HERE, "xla", p.name)
            with open(xb + ".before.hlo", "w") as f:
                f.write(lowered.as_text(dialect="hlo"))
            with open(xb + ".after.hlo", "w") as f:
                f.write(lowered.compile().as_text())
            dumps += 1
    if not args.only:
        with open(os.path.join(HERE, "manifest.json"), "w") as f:
            json.dump({"jax": jax.__version__, "programs": manifest}, f, indent=0)
    print(f"exported {len(manifest)} programs, {dumps} XLA dump pairs")
    for name, why in failed:
        print(f"NOT EXPORTED {name}: {why}")


if __name__ == "__main__":
    main()
