"""Several Oxla devices: pmap and shard_map with psum through the runtime's collectives."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, PartitionSpec as P

# JAX 0.10 lowers pmap through shard_map: one program over N partitions whose sharding
# custom calls (SPMDFullToShardShape / SPMDShardToFullShape) Oxla's manual SPMD pass
# (oxla-passes spmd.rs) turns into the per-device program; the plugin tells JAX the global
# arrays' shardings through PJRT_Executable_OptimizedProgram.


def test_pmap_psum():
    devs = jax.devices("oxla")[:4]
    x = np.arange(4 * 3, dtype=np.float32).reshape(4, 3)
    f = jax.pmap(lambda a: jax.lax.psum(a, "i") * 2 + a, axis_name="i", devices=devs)
    out = f(x)
    np.testing.assert_allclose(np.asarray(out), x.sum(0, keepdims=True) * 2 + x)


def test_pmap_mean_of_grads():
    devs = jax.devices("oxla")[:4]
    w = np.ones((3,), np.float32)
    xs = np.arange(4 * 2 * 3, dtype=np.float32).reshape(4, 2, 3)

    def g(w, x):
        grad = jax.grad(lambda w: jnp.sum((x @ w) ** 2))(w)
        return jax.lax.pmean(grad, "d")

    out = jax.pmap(g, axis_name="d", in_axes=(None, 0), devices=devs)(w, xs)
    want = np.mean([2 * x.T @ (x @ w) for x in xs], axis=0)
    np.testing.assert_allclose(np.asarray(out)[0], want, rtol=1e-5)


def test_shard_map_psum():
    shard_map = jax.shard_map
    mesh = Mesh(np.array(jax.devices("oxla")[:4]), ("x",))
    f = jax.jit(shard_map(lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P()))
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_allclose(np.asarray(f(x)), x.reshape(4, 2).sum(0))


def test_shard_map_on_a_2d_mesh_with_several_outputs():
    # psum over one mesh axis (replica groups of 2), all_gather over the other, and outputs
    # sharded and replicated: JAX learns each output's sharding from the executable.
    shard_map = jax.shard_map
    mesh = Mesh(np.array(jax.devices("oxla")[:4]).reshape(2, 2), ("x", "y"))

    def body(a):
        s = jax.lax.psum(a, "y")
        g = jax.lax.all_gather(a, "x", tiled=True)
        return s, g, jax.lax.psum(jnp.sum(a), ("x", "y"))

    f = jax.jit(shard_map(body, mesh=mesh, in_specs=P("x", "y"),
                          out_specs=(P("x", None), P(None, "y"), P()), check_vma=False))
    x = np.arange(4 * 6, dtype=np.float32).reshape(4, 6)
    s, g, t = f(x)
    # psum over y adds the two column halves of each row block.
    np.testing.assert_allclose(np.asarray(s), x[:, :3] + x[:, 3:])
    np.testing.assert_allclose(np.asarray(g), x)
    np.testing.assert_allclose(np.asarray(t), x.sum())
    # The compiled program's text (what JAX reads the shardings from) is there to print.
    assert "oxla.compiled_program" in f.lower(x).compile().as_text()


def test_pmap_collectives():
    devs = jax.devices("oxla")[:4]
    x = np.arange(4 * 4, dtype=np.float32).reshape(4, 4)

    def body(a):
        perm = jax.lax.ppermute(a, "i", [(k, (k + 1) % 4) for k in range(4)])
        scattered = jax.lax.psum_scatter(a, "i", tiled=True)
        gathered = jax.lax.all_gather(a, "i")
        return perm, scattered, gathered, jax.lax.axis_index("i")

    perm, scattered, gathered, idx = jax.pmap(body, axis_name="i", devices=devs)(x)
    np.testing.assert_allclose(np.asarray(perm), np.roll(x, 1, axis=0))
    np.testing.assert_allclose(np.asarray(scattered), x.sum(0).reshape(4, 1))
    np.testing.assert_allclose(np.asarray(gathered), np.broadcast_to(x, (4, 4, 4)))
    np.testing.assert_array_equal(np.asarray(idx), np.arange(4))


def test_jit_with_in_shardings_is_partitioned():
    from jax.sharding import NamedSharding
    mesh = Mesh(np.array(jax.devices("oxla")[:4]), ("x",))
    f = jax.jit(lambda a: a * 2, in_shardings=NamedSharding(mesh, P("x")))
    out = f(np.arange(8, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(out), np.arange(8) * 2)
    assert out.sharding.is_equivalent_to(NamedSharding(mesh, P("x")), 1)
