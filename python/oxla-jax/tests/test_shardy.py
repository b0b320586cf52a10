"""Shardy, JAX's default partitioner, stays on: initialize() changes nothing global in JAX,
and the programs Shardy emits (`sdy.mesh`, `sdy.sharding`, `sdy.sharding_constraint`,
`sdy.manual_computation`...) run on the plugin, with the executable's output shardings
reaching JAX as proper shardings."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding


def test_initialize_leaves_jax_config_alone(monkeypatch):
    # What JAX's own tests check around every test (`assert_global_configs_unchanged`): JAX
    # calls initialize() for every installed plugin, so it must not change JAX's config.
    from jax._src import xla_bridge
    import jax_plugins.oxla as plugin

    monkeypatch.setattr(xla_bridge, "register_plugin", lambda *a, **k: None)
    before = jax.config.values.copy()
    plugin.initialize()
    assert jax.config.values == before
    # JAX's default partitioner, Shardy, is on (no test here changes it).
    assert jax.config.jax_use_shardy_partitioner is True


def test_cpu_lowerings_are_added_for_oxla_only():
    from jax._src.interpreters import mlir

    table = mlir._platform_specific_lowerings
    cpu_before = dict(table["cpu"])
    import jax_plugins.oxla as plugin

    plugin._reuse_cpu_lowerings()
    assert dict(table["cpu"]) == cpu_before
    assert "oxla" in mlir._platforms_with_donation


def test_compilation_cache_check_unchanged_for_cpu(cpu):
    from jax._src import compilation_cache as cc

    # The wrapper answers for platform oxla and defers to JAX's own check otherwise.
    assert getattr(cc.is_cache_used, "_oxla", False)
    backend = cpu.client
    assert cc.is_cache_used(backend) == cc.is_cache_used.__wrapped__(backend)


def test_shard_map_with_shardy():
    devs = jax.devices("oxla")[:4]
    mesh = Mesh(np.array(devs), ("x",))
    f = jax.jit(
        jax.shard_map(
            lambda a: a * 2 + jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P("x")
        )
    )
    x = np.arange(8, dtype=np.float32)
    xs = jax.device_put(x, NamedSharding(mesh, P("x")))
    assert "sdy.manual_computation" in f.lower(xs).as_text()
    out = f(xs)
    want = x * 2 + np.tile(x.reshape(4, 2).sum(0), 4)
    np.testing.assert_allclose(np.asarray(out), want)
    assert isinstance(out.sharding, NamedSharding)
    assert out.sharding.is_equivalent_to(NamedSharding(mesh, P("x")), 1)
    compiled = f.lower(xs).compile()
    (s,) = jax.tree_util.tree_leaves(compiled.output_shardings)
    assert s.is_equivalent_to(NamedSharding(mesh, P("x")), 1)


def test_shard_map_replicated_output_sharding():
    devs = jax.devices("oxla")[:4]
    mesh = Mesh(np.array(devs).reshape(2, 2), ("x", "y"))
    f = jax.jit(
        jax.shard_map(
            lambda a: (a + 1, jax.lax.psum(jnp.sum(a), ("x", "y"))),
            mesh=mesh,
            in_specs=P("x", "y"),
            out_specs=(P("x", "y"), P()),
        )
    )
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    a, t = f(jax.device_put(x, NamedSharding(mesh, P("x", "y"))))
    np.testing.assert_allclose(np.asarray(a), x + 1)
    np.testing.assert_allclose(np.asarray(t), x.sum())
    assert a.sharding.is_equivalent_to(NamedSharding(mesh, P("x", "y")), 2)
    assert t.sharding.is_fully_replicated


def test_jit_with_replicated_shardings_on_a_mesh():
    devs = jax.devices("oxla")[:4]
    mesh = Mesh(np.array(devs), ("x",))
    rep = NamedSharding(mesh, P())
    f = jax.jit(lambda a: jnp.sin(a) * 2, in_shardings=rep, out_shardings=rep)
    x = np.arange(6, dtype=np.float32)
    assert "sdy.sharding" in f.lower(x).as_text()
    out = f(x)
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * 2, rtol=1e-6)
    assert out.sharding.is_fully_replicated
    assert len(out.sharding.device_set) == 4


def test_jit_output_sharding_left_to_the_executable():
    # No out_shardings: JAX takes the result's sharding from the executable (it was
    # `UnspecifiedValue`, and failed, while the plugin gave none).
    devs = jax.devices("oxla")[:4]
    mesh = Mesh(np.array(devs), ("x",))
    x = jax.device_put(np.arange(6, dtype=np.float32), NamedSharding(mesh, P()))
    f = jax.jit(lambda a: (a + 1, a.sum()))
    compiled = f.lower(x).compile()
    for s in jax.tree_util.tree_leaves(compiled.output_shardings):
        assert s.is_fully_replicated and len(s.device_set) == 4
    a, b = f(x)
    np.testing.assert_allclose(np.asarray(a), np.arange(6) + 1)
    assert a.sharding.is_fully_replicated and len(a.sharding.device_set) == 4
    assert float(b) == 15.0


def test_with_sharding_constraint_replicated_and_single_device(oxla):
    devs = jax.devices("oxla")[:4]
    mesh = Mesh(np.array(devs), ("x",))
    rep = NamedSharding(mesh, P())
    x = np.arange(8, dtype=np.float32)
    f = jax.jit(lambda a: jax.lax.with_sharding_constraint(a * 3, rep), in_shardings=rep)
    assert "sdy.sharding_constraint" in f.lower(x).as_text()
    np.testing.assert_allclose(np.asarray(f(x)), x * 3)
    one = SingleDeviceSharding(oxla)
    g = jax.jit(lambda a: jax.lax.with_sharding_constraint(a + 1, one))
    out = g(jax.device_put(x, oxla))
    np.testing.assert_allclose(np.asarray(out), x + 1)
    assert out.sharding == one


def test_random_under_shardy(oxla, cpu):
    # jax.random puts a sharding constraint (on the empty mesh) on the key.
    k = jax.random.key(0)
    a = jax.jit(lambda k: jax.random.normal(k, (5,)))(jax.device_put(k, oxla))
    b = jax.jit(lambda k: jax.random.normal(k, (5,)))(jax.device_put(k, cpu))
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
    assert a.sharding == SingleDeviceSharding(oxla)


def test_sharded_jit_outside_shard_map_is_partitioned():
    mesh = Mesh(np.array(jax.devices("oxla")[:4]), ("x",))
    f = jax.jit(lambda a: a * 2, out_shardings=NamedSharding(mesh, P("x")))
    x = jax.device_put(np.arange(8, dtype=np.float32), NamedSharding(mesh, P()))
    out = f(x)
    np.testing.assert_allclose(np.asarray(out), np.arange(8) * 2)
    assert out.sharding == NamedSharding(mesh, P("x"))
    assert [s.data.shape for s in out.addressable_shards] == [(2,)] * 4
