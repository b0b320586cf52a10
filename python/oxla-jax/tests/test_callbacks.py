"""Python host callbacks on Oxla: pure_callback, io_callback, jax.debug.print / callback,
checkify, through the plugin's `oxla_python_callback` custom call and the package's
trampoline (`jax_plugins/oxla/_callbacks.py`)."""

import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import checkify, io_callback


@pytest.fixture(autouse=True)
def _clear_runtime_tokens():
    # As JAX's own callback tests do: a failed execution's token would raise again at exit.
    yield
    from jax._src import dispatch

    dispatch.runtime_tokens.clear()


def _oxla(x):
    return jax.device_put(x, jax.devices("oxla")[0])


def test_pure_callback(oxla):
    f = jax.jit(
        lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x) * 2
    )
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = f(_oxla(x))
    assert out.devices() == {oxla}
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * 2, rtol=1e-6)
    assert "oxla_python_callback" in f.lower(x).as_text()


def test_pure_callback_several_operands_and_results():
    def cb(a, b):
        return (a + b).astype(np.int32), np.float64(a.sum()).astype(np.float32), np.ones(0, np.bool_)

    def f(a, b):
        shapes = (
            jax.ShapeDtypeStruct((3,), jnp.int32),
            jax.ShapeDtypeStruct((), jnp.float32),
            jax.ShapeDtypeStruct((0,), jnp.bool_),
        )
        return jax.pure_callback(cb, shapes, a, b)

    a, b = np.arange(3, dtype=np.float32), np.full(3, 2, np.int8)
    s, t, e = jax.jit(f)(_oxla(a), _oxla(b))
    np.testing.assert_array_equal(np.asarray(s), [2, 3, 4])
    assert float(t) == 3.0 and e.shape == (0,)


def test_pure_callback_without_operands():
    f = jax.jit(lambda: jax.pure_callback(lambda: np.float32(7), jax.ShapeDtypeStruct((), jnp.float32)))
    assert float(f()) == 7.0


def test_io_callback_unordered_and_ordered():
    seen = []

    def record(x):
        seen.append(np.asarray(x).copy())
        return np.asarray(x * 10, np.float32)

    @jax.jit
    def f(x):
        y = io_callback(record, jax.ShapeDtypeStruct((), jnp.float32), x)
        io_callback(lambda v: seen.append(("ordered", float(v))), None, y + 1, ordered=True)
        io_callback(lambda v: seen.append(("ordered", float(v))), None, y + 2, ordered=True)
        return y

    assert float(f(_oxla(np.float32(2)))) == 20.0
    jax.effects_barrier()
    assert float(seen[0]) == 2.0
    assert seen[1:] == [("ordered", 21.0), ("ordered", 22.0)]


def test_debug_print(capsys):
    @jax.jit
    def f(x):
        jax.debug.print("x = {}", x)
        jax.debug.print("ordered {y}", y=x * 2, ordered=True)
        return x + 1

    out = f(_oxla(np.arange(3, dtype=np.int32)))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [1, 2, 3])
    assert capsys.readouterr().out == "x = [0 1 2]\nordered [0 2 4]\n"


def test_callback_raising():
    def boom(x):
        raise ValueError("oxla callback boom")

    f = jax.jit(lambda x: jax.pure_callback(boom, x, x))
    with pytest.raises(Exception, match="oxla callback boom"):
        np.asarray(f(_oxla(np.float32(1))))


def test_callback_error_with_unused_result_surfaces_at_barrier():
    f = jax.jit(lambda: io_callback(lambda: 1 / 0, jax.ShapeDtypeStruct((), jnp.float32)))
    with pytest.raises(Exception, match="ZeroDivisionError"):
        f()
        jax.effects_barrier()


def test_wrong_output_shape_and_dtype():
    f = jax.jit(lambda: jax.pure_callback(lambda: np.float32(1), jax.ShapeDtypeStruct((1,), jnp.float32)))
    with pytest.raises(RuntimeError, match="Incorrect output shape for return value #0"):
        np.asarray(f())
    g = jax.jit(lambda: jax.pure_callback(lambda: np.ones(2, np.int32), jax.ShapeDtypeStruct((2,), jnp.float32)))
    with pytest.raises(RuntimeError, match="Incorrect output dtype for return value #0"):
        np.asarray(g())


def test_callback_in_while_loop_and_vmap():
    seen = []

    @jax.jit
    def f(x):
        def body(c):
            i, v = c
            io_callback(lambda a, b: seen.append((int(a), float(b))), None, i, v, ordered=True)
            return i + 1, v * 2

        return jax.lax.while_loop(lambda c: c[0] < 4, body, (0, x))[1]

    assert float(f(_oxla(np.float32(1.5)))) == 24.0
    jax.effects_barrier()
    assert seen == [(0, 1.5), (1, 3.0), (2, 6.0), (3, 12.0)]

    got = []

    @jax.jit
    def g(x):
        io_callback(lambda a: got.append(float(a)), None, x)

    jax.vmap(g)(_oxla(np.arange(3, dtype=np.float32)))
    jax.effects_barrier()
    assert sorted(got) == [0.0, 1.0, 2.0]


def test_callback_in_pmap_runs_per_device():
    devs = jax.devices("oxla")
    n = len(devs)
    threads = set()

    def cb(x):
        threads.add(threading.get_ident())
        return np.sin(x)

    f = jax.pmap(lambda x: jax.pure_callback(cb, x, x) + 1, devices=devs)
    x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    np.testing.assert_allclose(np.asarray(f(x)), np.sin(x) + 1, rtol=1e-6)

    printed = []
    h = jax.pmap(lambda x: jax.debug.callback(lambda v: printed.append(float(v)), x) or x, devices=devs)
    h(np.arange(n, dtype=np.float32))
    jax.effects_barrier()
    assert sorted(printed) == [float(i) for i in range(n)]


def test_ordered_callback_in_shard_map():
    # The effect token enters the manual computation (in the portable artifact, as a
    # stablehlo-dialect token type around Shardy's region).
    from jax.sharding import Mesh, PartitionSpec as P

    devs = jax.devices("oxla")
    mesh = Mesh(np.array(devs), ("x",))
    seen = {}

    def record(i, x):
        seen.setdefault(int(i[0]), []).append(np.asarray(x).tolist())

    def f(ids, x):
        io_callback(record, None, ids, x, ordered=True)
        io_callback(record, None, ids, x + 1, ordered=True)

    g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=None))
    n = len(devs)
    g(jnp.arange(n), jnp.arange(2 * n))
    jax.effects_barrier()
    assert seen == {i: [[2 * i, 2 * i + 1], [2 * i + 1, 2 * i + 2]] for i in range(n)}


def test_callbacks_in_a_sharded_jit_run_once():
    # Outside a shard_map JAX gives a callback a maximal sharding: it runs once per
    # execution (on the device it names), not once per partition.
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    devs = jax.devices("oxla")
    if len(devs) < 2:
        pytest.skip("needs several devices")
    mesh = Mesh(np.array(devs), ("x",))
    got = []
    printed = []

    def f(x):
        io_callback(lambda v: got.append(int(v.sum())), None, x, ordered=False)
        io_callback(lambda v: got.append(-int(v.sum())), None, x, ordered=True)
        jax.debug.callback(lambda v: printed.append(float(v)), x.sum())
        return x * 2

    n = len(devs)
    x = jax.device_put(jnp.arange(n), NamedSharding(mesh, P("x")))
    g = jax.jit(f, out_shardings=NamedSharding(mesh, P()))
    np.testing.assert_array_equal(np.asarray(g(x)), np.arange(n) * 2)
    g(x + 1)
    jax.effects_barrier()
    s = n * (n - 1) // 2
    assert sorted(got) == sorted([s, -s, s + n, -(s + n)])
    assert sorted(printed) == [float(s), float(s + n)]


def test_reentrant_callback():
    inner = jax.jit(jnp.cos)

    def cb(x):
        return np.asarray(inner(x))

    f = jax.jit(lambda x: jax.pure_callback(cb, x, x))
    np.testing.assert_allclose(np.asarray(f(_oxla(np.float32(0.5)))), np.cos(0.5), rtol=1e-6)


def test_checkify():
    def f(x):
        checkify.check(x > 0, "x must be positive, got {}", x)
        return jnp.log(x)

    err, out = jax.jit(checkify.checkify(f))(_oxla(np.float32(2)))
    err.throw()
    np.testing.assert_allclose(float(out), np.log(2.0), rtol=1e-6)
    err, _ = jax.jit(checkify.checkify(f))(_oxla(np.float32(-1)))
    with pytest.raises(checkify.JaxRuntimeError, match="x must be positive, got -1"):
        err.throw()


def test_check_as_runtime_error():
    # With this (unsafe, experimental) flag, an unfunctionalized check lowers to a host
    # callback that raises when the program runs.
    from jax._src import config

    with config.xla_runtime_errors(True):
        f = jax.jit(lambda x: checkify.check(x > 0, "must be positive: {}", x) or x + 1)
        np.testing.assert_allclose(float(f(_oxla(np.float32(1)))), 2.0)
        with pytest.raises(Exception, match="must be positive: -3"):
            np.asarray(f(_oxla(np.float32(-3))))
            jax.effects_barrier()


def test_other_platforms_unchanged(cpu):
    f = jax.jit(lambda x: jax.pure_callback(np.cos, x, x))
    out = f(jax.device_put(np.float32(0.25), cpu))
    assert out.devices() == {cpu}
    np.testing.assert_allclose(float(out), np.cos(0.25), rtol=1e-6)
