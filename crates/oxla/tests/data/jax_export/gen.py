"""Writes the jax.export artifacts Oxla's tests read (JAX 0.10.2, XLA CPU).

For each function NAME: NAME.mlirbc (the portable artifact, `Exported.mlir_module_serialized`),
NAME.jax_export (`Exported.serialize()`, the flatbuffer around it), NAME.in<i>.npy (inputs)
and NAME.out<i>.npy (JAX's outputs). Run from this folder:
    /tmp/anchvenv/bin/python gen.py
"""

import os

# Four CPU devices for the shard_map export below (the others use one).
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import export, lax  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

jax.config.update("jax_enable_x64", False)
rng = np.random.default_rng(0)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def elementwise(x, y):
    return jnp.sin(x) * y + jnp.exp(-jnp.abs(x)), jnp.maximum(x, y) > 0


def mlp_grad(w1, w2, x):
    def loss(w1, w2):
        h = jnp.tanh(x @ w1)
        return jnp.mean((h @ w2) ** 2)

    value, grads = jax.value_and_grad(loss, argnums=(0, 1))(w1, w2)
    return value, grads[0], grads[1]


def reduce(x):
    return jnp.sum(x, axis=1), jnp.max(x, axis=(0, 2)), jnp.argmax(x, axis=2)


def loops(x):
    def body(i, c):
        return c * 0.5 + x[i]

    total = lax.fori_loop(0, x.shape[0], body, jnp.zeros(x.shape[1:], x.dtype))
    _, ys = lax.scan(lambda c, v: (c + v, c * v), jnp.zeros(x.shape[1:], x.dtype), x)
    return total, ys


def cond(p, x):
    return lax.cond(p > 0, lambda v: jnp.cos(v) * 2.0, lambda v: v - 1.0, x)


def sort(x):
    return jnp.sort(x, axis=-1), jnp.argsort(x, axis=-1), lax.top_k(x, 3)[0]


def gather_scatter(x, idx, upd):
    return x[idx], x.at[idx].add(upd), jnp.take_along_axis(x, (jnp.arange(5)[:, None] + idx[None, :2]) % 3, axis=1)


def random(seed):
    key = jax.random.key(seed)
    k1, k2 = jax.random.split(key)
    return jax.random.uniform(k1, (4, 3)), jax.random.normal(k2, (5,))


def conv(x, w):
    return lax.conv_general_dilated(
        x, w, window_strides=(1, 2), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def cumsum(x):
    return jnp.cumsum(x, axis=0), jnp.cumprod(x[:, 0])


def bf16_mlp(x, w):
    h = jnp.dot(x, w, preferred_element_type=jnp.float32)
    return jnp.tanh(h), (x * 2 + 1).astype(jnp.bfloat16)


CASES = {
    "elementwise": (elementwise, [f32(8), f32(8)]),
    "mlp_grad": (mlp_grad, [f32(4, 8) * 0.5, f32(8, 2) * 0.5, f32(3, 4)]),
    "reduce": (reduce, [f32(3, 4, 5)]),
    "loops": (loops, [f32(5, 3)]),
    "cond": (cond, [np.int32(1), f32(4)]),
    "sort": (sort, [f32(2, 6)]),
    "gather_scatter": (gather_scatter, [f32(5, 3), np.array([4, 0, 2, 0], np.int32), f32(4, 3)]),
    "random": (random, [np.uint32(42)]),
    "conv": (conv, [f32(1, 5, 6, 2), f32(3, 3, 2, 4)]),
    "cumsum": (cumsum, [f32(6, 2)]),
}

# One export for several platforms: its main takes the platform index first.
MULTI_PLATFORM = {"elementwise_multiplatform": ("elementwise", ("cpu", "cuda"))}


def write(name, exp, args, fn):
    open(f"{name}.mlirbc", "wb").write(exp.mlir_module_serialized)
    open(f"{name}.jax_export", "wb").write(exp.serialize())
    for i, a in enumerate(args):
        np.save(f"{name}.in{i}.npy", np.asarray(a))
    outs = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
    for i, o in enumerate(outs):
        np.save(f"{name}.out{i}.npy", np.asarray(o))


for name, (fn, args) in CASES.items():
    write(name, export.export(jax.jit(fn))(*args), args, fn)

for name, (base, platforms) in MULTI_PLATFORM.items():
    fn, args = CASES[base]
    write(name, export.export(jax.jit(fn), platforms=platforms)(*args), args, fn)

# A shard_map over 4 devices (psum), exported in Shardy's form (sdy.manual_computation, JAX's
# default) and in GSPMD's (SPMDFullToShardShape ...): spmd/shard_map_psum{_shardy,}.jax_export,
# each partition's input shard spmd/shard_map_psum.p<k>.in0.npy and output .p<k>.out0.npy.
os.makedirs("spmd", exist_ok=True)
mesh = Mesh(np.array(jax.devices()[:4]), ("x",))
xs = np.arange(8, dtype=np.float32)
for shardy, suffix in ((True, "_shardy"), (False, "")):
    jax.config.update("jax_use_shardy_partitioner", shardy)
    smap = jax.jit(jax.shard_map(lambda a: lax.psum(a, "x"), mesh=mesh, in_specs=P("x"),
                                 out_specs=P()))
    open(f"spmd/shard_map_psum{suffix}.jax_export", "wb").write(
        export.export(smap)(xs).serialize())
total = np.asarray(smap(xs))
for k in range(4):
    np.save(f"spmd/shard_map_psum.p{k}.in0.npy", xs[2 * k:2 * k + 2])
    np.save(f"spmd/shard_map_psum.p{k}.out0.npy", total)

# bf16 arguments and outputs as a bench-style folder for `oxla run --check` (np.save writes
# ml_dtypes' bfloat16 with the raw descr '<V2'): bf16_check/{program.jax_export, arg*.npy,
# out*.npy, meta.json}.
os.makedirs("bf16_check", exist_ok=True)
bx = (f32(4, 8) * 0.5).astype(jnp.bfloat16)
bw = (f32(8, 3) * 0.5).astype(jnp.bfloat16)
open("bf16_check/program.jax_export", "wb").write(
    export.export(jax.jit(bf16_mlp))(bx, bw).serialize())
np.save("bf16_check/arg0.npy", bx)
np.save("bf16_check/arg1.npy", bw)
for i, o in enumerate(jax.jit(bf16_mlp)(bx, bw)):
    np.save(f"bf16_check/out{i}.npy", np.asarray(o))
