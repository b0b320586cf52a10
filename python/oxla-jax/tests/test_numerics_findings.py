"""Findings of JAX's own tests and of XLA as the oracle, each checked against JAX's CPU backend
through the plugin: deep tracebacks in locations, lstsq on a fresh executable, top_k's NaN
order, lgamma's poles in narrow floats, complex tan far from the origin, tanh saturating."""

import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from conftest import assert_same, on


def _deep(x, d):
    if d == 0:
        return jnp.sum(jnp.sin(x) ** 2)
    return _deep(x, d - 1)


def test_grad_through_a_deep_python_stack(oxla, cpu):
    # JAX writes the Python traceback into every op's location (callsite chains one level a
    # frame); the bytecode reader once stopped at 64 levels.
    limit = jax.config.jax_traceback_in_locations_limit
    jax.config.update("jax_traceback_in_locations_limit", 1000)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 5000))
    try:
        f = jax.grad(lambda x: _deep(x, 300))
        x = np.linspace(-1, 1, 8, dtype=np.float32)
        assert_same(on(oxla, f, x), on(cpu, f, x))
    finally:
        jax.config.update("jax_traceback_in_locations_limit", limit)
        sys.setrecursionlimit(old)


def test_lstsq_is_right_on_the_first_run(oxla, cpu):
    a = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    b = np.array([1.0, 2.0], np.float32)
    f = lambda a, b: jnp.linalg.lstsq(a, b)[0]  # noqa: E731
    want = on(cpu, f, a, b)
    for _ in range(3):
        # A fresh function each time: a fresh executable.
        assert_same(on(oxla, lambda a, b: jnp.linalg.lstsq(a, b)[0], a, b), want, rtol=1e-5)


def test_top_k_orders_nan_above_inf(oxla, cpu):
    x = np.array([[1.0, np.inf, np.nan, 3.0, -np.nan, 0.0, -0.0, -np.inf]], np.float32)
    f = lambda x: lax.top_k(x, 8)  # noqa: E731
    got, want = on(oxla, f, x), on(cpu, f, x)
    np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]))


@pytest.mark.parametrize("dtype", [jnp.float32, jnp.float16, jnp.bfloat16])
def test_lgamma_poles(oxla, cpu, dtype):
    x = jnp.array([-3.0, -2.0, -1.0, 0.0, 0.5, 3.0], dtype)
    got = np.asarray(on(oxla, lax.lgamma, x), np.float32)
    want = np.asarray(on(cpu, lax.lgamma, x), np.float32)
    assert np.all(np.isinf(got[:4])) and np.all(got[:4] > 0)
    np.testing.assert_allclose(got[4:], want[4:], rtol=1e-2)


def test_complex_tan_far_from_the_origin(oxla, cpu):
    z = np.array([1e-15 + 1.7e23j, 1 + 1j, -2 - 30j], np.complex64)
    assert_same(on(oxla, jnp.tan, z), on(cpu, jnp.tan, z), rtol=1e-5)


def test_tanh_saturates_to_one_in_every_position(oxla):
    for n in (1, 3, 4, 5, 8, 67):
        x = np.full(n, 9.5, np.float32)
        np.testing.assert_array_equal(np.asarray(on(oxla, jnp.tanh, x)), np.ones(n, np.float32))


def test_platform_dependent_picks_the_cpu_branch(oxla):
    f = jax.jit(lambda x: lax.platform_dependent(x, cpu=lambda v: v + 1.0, default=lambda v: v * 0.0))
    x = jax.device_put(np.float32(2.0), oxla)
    assert float(f(x)) == 3.0


@pytest.mark.parametrize("shape,k,dim", [((2, 16), 3, 1), ((5, 7, 9), 4, 1), ((40,), 5, 0)])
def test_approx_top_k_is_exact_as_on_cpu(oxla, cpu, shape, k, dim):
    # `custom_call @ApproxTopK` (is_fallback): XLA's CPU backend sorts exactly; ties
    # (columns 0 and 1 equal) keep the lower index first.
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    x[..., 0] = x[..., 1]
    for f in (
        lambda x: lax.approx_max_k(x, k, reduction_dimension=dim),
        lambda x: lax.approx_min_k(x, k, reduction_dimension=dim),
        lambda x: lax.approx_max_k(x, k, reduction_dimension=dim, aggregate_to_topk=False),
    ):
        got, want = on(oxla, f, x), on(cpu, f, x)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
