"""Writes `AREA/NAME.jax_export` (`jax.export(...).serialize()`, JAX 0.10.2, CPU) for every
program of the corpus manifest, beside the StableHLO text gen.py writes; Oxla's
`tests/jax_corpus.rs` runs each through `load_program` like the text. Run from this folder
after gen.py:

    python export_all.py [--only SUBSTRING]
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import programs as P  # noqa: E402
import jax  # noqa: E402
from jax import export  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = {p["name"] for p in json.load(open(os.path.join(HERE, "manifest.json")))["programs"]}
    cpu = jax.devices("cpu")[0]
    n, failed = 0, []
    for p in P.programs():
        if p.name not in names or (args.only and args.only not in p.name):
            continue
        try:
            with jax.default_device(cpu):
                # Outputs as a flat list: jax.export cannot serialize every pytree node
                # (QRResult, ...), and Oxla reads the leaves in order anyway.
                def leaves(*a, fn=p.fn):
                    return jax.tree_util.tree_leaves(fn(*a))
                exp = export.export(jax.jit(leaves, keep_unused=True), platforms=["cpu"])(*p.args)
            data = exp.serialize()
        except Exception as e:  # noqa: BLE001 (reported, not fatal)
            failed.append((p.name, f"{type(e).__name__}: {str(e)[:200]}"))
            continue
        with open(os.path.join(HERE, p.area, p.name + ".jax_export"), "wb") as f:
            f.write(data)
        n += 1
    print(f"exported {n} programs")
    for name, why in failed:
        print(f"NOT EXPORTED {name}: {why}")


if __name__ == "__main__":
    main()
