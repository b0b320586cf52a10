"""A training loop of a two-layer MLP under `jax.jit` over every device of the job.

Run it alone (one process holding every device: `OXLA_NUM_DEVICES=4`) or under
`mpirun -n P` (P processes joined by `jax.distributed.initialize()`, each with
`OXLA_NUM_DEVICES=4/P`). `--layout` says how the arrays are sharded over the devices:
`dp` (data parallel: the batch sharded, the parameters replicated, so each step's gradients
are all-reduced across processes), `tp` (Megatron: the first layer's weights sharded by
column, the second's by row, the batch replicated) or `fsdp` (the batch and every weight
sharded on its first dimension). Prints one JSON line per process:
its index, the job's devices, and the loss of every step as float32 bit patterns (so a
comparison can be bit for bit) and as numbers.

    mpirun -n 2 -x OXLA_NUM_DEVICES=2 -x JAX_PLATFORMS=oxla python train.py --steps 20
"""

import argparse
import json
import os
import time

import numpy as np

import jax

DISTRIBUTED = "OMPI_COMM_WORLD_SIZE" in os.environ
if DISTRIBUTED:
    jax.distributed.initialize()

import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--layout", choices=["dp", "tp", "fsdp"], default="dp")
    ap.add_argument("--out", help="write the JSON line to OUT/process-<index>.json too")
    ap.add_argument("--time", type=int, default=0, help="then time this many more steps")
    ap.add_argument(
        "--exit-at",
        type=int,
        default=-1,
        help="the last process exits at the start of this step (a peer that dies); the "
        "others print the error they get as JSON and exit with status 3",
    )
    args = ap.parse_args()

    devices = jax.devices()
    mesh = Mesh(np.array(devices), ("data",))
    spec = {
        "dp": dict(x=P("data"), w1=P(), b1=P(), w2=P(), b2=P()),
        "tp": dict(x=P(), w1=P(None, "data"), b1=P("data"), w2=P("data", None), b2=P()),
        "fsdp": dict(x=P("data"), w1=P("data"), b1=P("data"), w2=P("data"), b2=P()),
    }[args.layout]
    sharding = {k: NamedSharding(mesh, v) for k, v in spec.items()}

    rng = np.random.default_rng(0)
    d_in, hidden, d_out = 16, args.hidden, 4
    host = {
        "w1": (rng.standard_normal((d_in, hidden)) / 4).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, d_out)) / 6).astype(np.float32),
        "b2": np.zeros(d_out, np.float32),
    }
    x_host = rng.standard_normal((args.batch, d_in)).astype(np.float32)
    y_host = np.sin(x_host[:, :d_out] * 2).astype(np.float32)

    # Every process gives the shards of its own devices (JAX's multi-process array API).
    def put(a, sharding):
        return jax.make_array_from_callback(a.shape, sharding, lambda index: a[index])

    params = {k: put(v, sharding[k]) for k, v in host.items()}
    x, y = put(x_host, sharding["x"]), put(y_host, sharding["x"])

    def loss_fn(p, x, y):
        h = jnp.tanh(x @ p["w1"] + p["b1"])
        out = h @ p["w2"] + p["b2"]
        return jnp.mean((out - y) ** 2)

    @jax.jit
    def step(p, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        return jax.tree.map(lambda w, g: w - 0.2 * g, p, grads), loss

    losses = []
    last = jax.process_count() - 1
    for i in range(args.steps):
        if i == args.exit_at and jax.process_index() == last:
            os._exit(1)
        try:
            params, loss = step(params, x, y)
            losses.append(np.asarray(loss.addressable_data(0)).astype(np.float32))
        except Exception as e:  # noqa: BLE001 - the error is the result
            report(args.out, {"process": jax.process_index(), "step": i, "error": str(e)})
            # Not through atexit: jax.distributed's shutdown would wait for the dead peer.
            os._exit(3)
    times = []
    for _ in range(args.time):
        start = time.perf_counter()
        params, loss = step(params, x, y)
        loss.block_until_ready()
        times.append(time.perf_counter() - start)
    # A program on this process's first device alone, and an all-gather across processes.
    local_sum = float(jnp.sum(jnp.arange(10.0) * (jax.process_index() + 1)))
    from jax.experimental import multihost_utils

    gathered = multihost_utils.process_allgather(np.array([jax.process_index() * 10 + 1]))
    report(
        args.out,
        {
            "process": jax.process_index(),
            "processes": jax.process_count(),
            "layout": args.layout,
            "devices": len(devices),
            "local_devices": len(jax.local_devices()),
            "platform": devices[0].platform,
            "loss_bits": [int(v.view(np.uint32)) for v in losses],
            "losses": [float(v) for v in losses],
            "local_sum": local_sum,
            "gathered": np.asarray(gathered).ravel().tolist(),
            "step_ms_median": float(np.median(times)) * 1e3 if times else None,
            "step_ms_min": float(np.min(times)) * 1e3 if times else None,
        },
    )


def report(out, record):
    """Prints `record` as one JSON line, and writes it to OUT/process-<index>.json: the lines
    of several processes may interleave on mpirun's standard output."""
    line = json.dumps(record)
    print(line, flush=True)
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, f"process-{record['process']}.json"), "w") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
