"""Programs through jax.jit on Oxla, compared with JAX's CPU backend."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import assert_same, on


def both(oxla, cpu, f, *args, rtol=1e-5, atol=1e-6, **kw):
    assert_same(on(oxla, f, *args, **kw), on(cpu, f, *args, **kw), rtol=rtol, atol=atol)


RNG = np.random.default_rng(0)
X = RNG.standard_normal((8, 16)).astype(np.float32)
W = RNG.standard_normal((16, 4)).astype(np.float32)


def test_elementwise(oxla, cpu):
    both(oxla, cpu, lambda a: jnp.sin(a) * 2 + jnp.exp(-a) - jnp.tanh(a) / (1 + a * a), X, rtol=1e-5)
    both(oxla, cpu, lambda a: jnp.where(a > 0, jnp.sqrt(jnp.abs(a)), jnp.log1p(a * a)), X)
    both(oxla, cpu, lambda a: (a.astype(jnp.int32) * 3) // 2 % 5, X)


def test_matmul(oxla, cpu):
    both(oxla, cpu, lambda a, b: a @ b, X, W, rtol=1e-4, atol=1e-5)
    both(oxla, cpu, lambda a: jnp.einsum("ij,kj->ik", a, a), X, rtol=1e-4, atol=1e-4)


def test_reductions(oxla, cpu):
    both(oxla, cpu, lambda a: (a.sum(0), a.max(1), a.mean(), jnp.argmax(a, axis=1)), X, rtol=1e-5, atol=1e-5)
    both(oxla, cpu, lambda a: jax.nn.softmax(a, axis=-1), X)
    both(oxla, cpu, lambda a: jnp.cumsum(a, axis=1), X, rtol=1e-5, atol=1e-5)


def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def init(key, sizes):
    params = []
    for m, n in zip(sizes[:-1], sizes[1:]):
        key, k = jax.random.split(key)
        params.append((jax.random.normal(k, (m, n)) / np.sqrt(m), jnp.zeros(n)))
    return params


PARAMS = [(np.asarray(RNG.standard_normal((m, n)) / np.sqrt(m), np.float32), np.zeros(n, np.float32))
          for m, n in [(16, 32), (32, 32), (32, 4)]]
Y = RNG.standard_normal((8, 4)).astype(np.float32)


def loss(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


def test_grad_of_mlp(oxla, cpu):
    both(oxla, cpu, jax.grad(loss), PARAMS, X, Y, rtol=1e-4, atol=1e-5)


def train(device, steps=50):
    def step(params, opt, x, y):
        # Adam, with the parameters and optimizer state donated.
        g = jax.grad(loss)(params, x, y)
        m, v, t = opt
        t = t + 1
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        params = jax.tree_util.tree_map(
            lambda p, m, v: p - 1e-2 * (m / (1 - 0.9 ** t)) / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8),
            params, m, v)
        return params, (m, v, t), loss(params, x, y)

    step = jax.jit(step, donate_argnums=(0, 1))
    params = jax.device_put(PARAMS, device)
    zeros = lambda: jax.tree_util.tree_map(jnp.zeros_like, params)
    opt = jax.device_put((zeros(), zeros(), jnp.float32(0)), device)
    x, y = jax.device_put((X, Y), device)
    losses = []
    for _ in range(steps):
        old = params
        params, opt, l = step(params, opt, x, y)
        losses.append(float(l))
    return params, losses, old


def test_training_loop_with_donation(oxla, cpu):
    p_ox, l_ox, old = train(oxla)
    p_cpu, l_cpu, _ = train(cpu)
    assert l_ox[-1] < l_ox[0] * 0.5
    np.testing.assert_allclose(l_ox, l_cpu, rtol=2e-3, atol=1e-5)
    assert_same(p_ox, p_cpu, rtol=2e-3, atol=1e-4)
    # Donated parameters are deleted on Oxla as on the CPU backend.
    assert all(a.is_deleted() for a in jax.tree_util.tree_leaves(old))


def test_random(oxla, cpu):
    f = lambda k: (jax.random.normal(k, (64,)), jax.random.uniform(k, (3, 5)), jax.random.randint(k, (10,), 0, 100))
    both(oxla, cpu, f, jax.random.PRNGKey(42), rtol=1e-6, atol=1e-6)


def test_scan(oxla, cpu):
    def f(xs):
        return jax.lax.scan(lambda c, r: (c * 0.9 + r, jnp.sum(c)), jnp.zeros(16), xs)
    both(oxla, cpu, f, X, rtol=1e-5, atol=1e-5)


def test_while_loop(oxla, cpu):
    def f(a):
        return jax.lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1 + 1), (0, a))
    both(oxla, cpu, f, X, rtol=1e-5, atol=1e-5)


def test_cond(oxla, cpu):
    def f(a, p):
        return jax.lax.cond(p > 0, lambda: jnp.sin(a), lambda: jnp.cos(a))
    both(oxla, cpu, f, X, np.float32(1))
    both(oxla, cpu, f, X, np.float32(-1))


def test_cached_call_and_errors(oxla):
    f = jax.jit(lambda a: a + 1)
    a = jax.device_put(np.zeros(3, np.float32), oxla)
    for _ in range(3):
        a = f(a)
    np.testing.assert_array_equal(np.asarray(a), 3 * np.ones(3))


# `compiled.cost_analysis()` through PJRT_Executable_GetCostAnalysis: the counts XLA's CPU
# backend gives for the same programs (flops, transcendentals, bytes accessed). (Here rather
# than in a file of their own: a file sorting before test_long_use.py shifted the process's
# heap enough for that test's resident-memory bound to trip on a 9 MB step.)
def test_cost_analysis_of_a_dense_layer_counts_as_on_xla():
    f = jax.jit(lambda a, b: jnp.tanh(a @ b))
    c = f.lower(jnp.ones((8, 16)), jnp.ones((16, 4))).compile().cost_analysis()
    # XLA CPU, same JAX: flops 1024 (2·8·4·16), transcendentals 32, bytes accessed 1152.
    assert c["flops"] == 1024.0
    assert c["transcendentals"] == 32.0
    assert c["bytes accessed"] == 1152.0


def test_every_program_has_a_cost_analysis():
    assert jax.jit(lambda x: x).lower(1.0).compile().cost_analysis() is not None
    c = jax.jit(lambda x: x + 4).lower(1.0).compile().cost_analysis()
    assert c["flops"] == 1.0
