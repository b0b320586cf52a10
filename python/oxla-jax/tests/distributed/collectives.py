"""Every collective JAX users write by hand, across processes: `shard_map` over every device
of the job with psum, pmax, ppermute (a ring), all_to_all, psum_scatter and all_gather, and
`pmap` with psum and all_gather. Each process checks its own shards against NumPy's answer
(integer-valued float32 inputs, so every order of addition gives the same bits) and prints
one JSON line: its index, the job's device count and the checks that passed.

Run it alone (`OXLA_NUM_DEVICES=4`) or under `mpirun -n P` (`jax.distributed.initialize()`,
`OXLA_NUM_DEVICES=4/P` each); `--out DIR` writes each process's line to
`DIR/process-<index>.json` instead of printing it:

    mpirun -n 2 -x OXLA_NUM_DEVICES=2 -x JAX_PLATFORMS=oxla python collectives.py
"""

import argparse
import json
import os

import numpy as np

import jax

if "OMPI_COMM_WORLD_SIZE" in os.environ:
    jax.distributed.initialize()

from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

try:
    from jax import shard_map  # noqa: E402
except ImportError:  # older JAX
    from jax.experimental.shard_map import shard_map  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the result line to OUT/process-<index>.json")
    args = ap.parse_args()
    devices = jax.devices()
    n = len(devices)
    mesh = Mesh(np.array(devices), ("i",))
    rows, cols = 4, 8
    x_host = (np.arange(n * rows * cols) % 23 - 11).astype(np.float32).reshape(n * rows, cols)
    shards = [x_host[j * rows:(j + 1) * rows] for j in range(n)]
    sharding = NamedSharding(mesh, P("i"))
    x = jax.make_array_from_callback(x_host.shape, sharding, lambda idx: x_host[idx])

    total = sum(shards)
    expected = {
        "psum": np.concatenate([total] * n),
        "pmax": np.concatenate([np.maximum.reduce(shards)] * n),
        "ppermute": np.concatenate([shards[(j - 1) % n] for j in range(n)]),
        # Tiled: each device splits its shard along axis 0 into n pieces and sends piece k
        # to device k, which concatenates what it receives along axis 1.
        "all_to_all": np.concatenate(
            [np.concatenate([shards[k][j * rows // n:(j + 1) * rows // n] for k in range(n)], axis=1)
             for j in range(n)]),
        "psum_scatter": total,
        "all_gather": np.concatenate([x_host] * n),
    }

    def body(v):
        return {
            "psum": jax.lax.psum(v, "i"),
            "pmax": jax.lax.pmax(v, "i"),
            "ppermute": jax.lax.ppermute(v, "i", [(j, (j + 1) % n) for j in range(n)]),
            "all_to_all": jax.lax.all_to_all(v, "i", 0, 1, tiled=True),
            "psum_scatter": jax.lax.psum_scatter(v, "i", scatter_dimension=0, tiled=True),
            "all_gather": jax.lax.all_gather(v, "i", axis=0, tiled=True),
        }

    f = jax.jit(shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    got = f(x)
    passed = []
    for name, want in expected.items():
        out = got[name]
        assert out.shape == want.shape, (name, out.shape, want.shape)
        for s in out.addressable_shards:
            np.testing.assert_array_equal(np.asarray(s.data), want[s.index], err_msg=name)
        passed.append("shard_map " + name)

    # pmap over this process's devices, its collectives over every device of the job.
    local = jax.local_device_count()
    me = jax.process_index()
    mine = np.stack([shards[me * local + k] for k in range(local)])
    p = jax.pmap(
        lambda v: (jax.lax.psum(v, "i"), jax.lax.all_gather(v, "i")), axis_name="i"
    )(mine)
    for k in range(local):
        np.testing.assert_array_equal(np.asarray(p[0][k]), total, err_msg="pmap psum")
        np.testing.assert_array_equal(np.asarray(p[1][k]), np.stack(shards), err_msg="pmap all_gather")
    passed += ["pmap psum", "pmap all_gather"]
    line = json.dumps({"process": me, "devices": n, "passed": passed})
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, f"process-{me}.json"), "w") as f:
            f.write(line + "\n")
    else:
        print(line, flush=True)


if __name__ == "__main__":
    main()
