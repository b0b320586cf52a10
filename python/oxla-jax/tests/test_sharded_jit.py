"""`jax.jit` over NamedShardings (no shard_map): Oxla's SPMD partitioner. Each program runs
sharded over Oxla's 4 devices and unsharded on JAX's CPU backend; values must agree and the
results carry the sharding asked for (or the one propagation chose)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from conftest import on


@pytest.fixture(scope="module")
def mesh():
    return Mesh(np.array(jax.devices("oxla")[:4]), ("x",))


@pytest.fixture(scope="module")
def mesh2():
    return Mesh(np.array(jax.devices("oxla")[:4]).reshape(2, 2), ("x", "y"))


def agree(f, args, cpu, ref=None, **jit_kwargs):
    out = jax.jit(f, **jit_kwargs)(*args)
    want = on(cpu, ref or f, *[np.asarray(a) for a in args])
    for o, w in zip(jax.tree.leaves(out), jax.tree.leaves(want)):
        np.testing.assert_allclose(np.asarray(o), np.asarray(w), rtol=1e-5, atol=1e-5)
    return out


def put(x, mesh, spec):
    return jax.device_put(x, NamedSharding(mesh, spec))


X = np.sin(np.arange(32, dtype=np.float32)).reshape(8, 4)


def test_elementwise_and_reductions_keep_or_drop_the_split(mesh, cpu):
    x = put(X, mesh, P("x", None))
    out = agree(lambda a: jnp.tanh(a * 2 + 1), [x], cpu)
    assert out.sharding.spec == P("x", None)
    assert agree(lambda a: a.sum(axis=1), [x], cpu).sharding.spec == P("x")
    assert agree(lambda a: a.sum(), [x], cpu).sharding.is_fully_replicated
    assert agree(lambda a: a.T, [x], cpu).sharding.spec == P(None, "x")
    agree(lambda a: a.reshape(4, 2, 4).max(1), [x], cpu)


def test_data_parallel_training_step(mesh, cpu):
    x = put(X, mesh, P("x", None))
    w = put(np.ones((4, 6), np.float32) * 0.1, mesh, P())

    def step(w, a):
        g = jax.grad(lambda w: jnp.mean(jnp.tanh(a @ w) ** 2))(w)
        return w - 0.1 * g

    out = agree(step, [w, x], cpu)
    assert out.sharding.is_fully_replicated


def test_tensor_parallel_mlp(mesh, cpu):
    rng = np.random.default_rng(0)
    w1 = put(rng.standard_normal((4, 16), np.float32), mesh, P(None, "x"))
    w2 = put(rng.standard_normal((16, 4), np.float32), mesh, P("x", None))
    agree(lambda a, b, c: jax.nn.relu(a @ b) @ c, [X, w1, w2], cpu,
          out_shardings=NamedSharding(mesh, P()))


def test_two_dimensional_mesh_and_constraints(mesh, mesh2, cpu):
    x = put(X, mesh2, P("x", "y"))
    agree(lambda a: (a * a).sum(axis=0), [x], cpu)
    c = NamedSharding(mesh, P(None, "x"))
    out = agree(lambda a: jax.lax.with_sharding_constraint(a * 3, c), [put(X, mesh, P("x"))],
                cpu, ref=lambda a: a * 3)
    assert out.sharding == c


def test_ops_without_a_rule_run_whole(mesh, cpu):
    x = put(X, mesh, P("x", None))
    for f in (lambda a: jnp.cumsum(a, 0), lambda a: jnp.sort(a, 0), lambda a: a[2:6],
              lambda a: jnp.argmax(a, 0), lambda a: jnp.concatenate([a, a], 0)):
        agree(f, [x], cpu)


def test_out_shardings_and_device_put_resharding(mesh, cpu):
    f = jax.jit(lambda a: a + 1, out_shardings=NamedSharding(mesh, P(None, "x")))
    out = f(put(X, mesh, P("x", None)))
    np.testing.assert_allclose(np.asarray(out), X + 1)
    assert [s.data.shape for s in out.addressable_shards] == [(8, 1)] * 4
    moved = jax.device_put(out, NamedSharding(mesh, P("x", None)))
    np.testing.assert_allclose(np.asarray(moved), X + 1)
