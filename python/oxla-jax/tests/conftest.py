"""Runs JAX with the Oxla plugin beside the CPU backend, with 4 Oxla devices, so every test
can compare Oxla's results with JAX's CPU backend."""

import os

os.environ.setdefault("JAX_PLATFORMS", "oxla,cpu")
os.environ.setdefault("OXLA_NUM_DEVICES", "4")

import jax  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(scope="session")
def oxla():
    devs = jax.devices("oxla")
    assert devs and devs[0].platform == "oxla"
    return devs[0]


@pytest.fixture(scope="session")
def cpu():
    return jax.devices("cpu")[0]


def on(device, f, *args, **jit_kwargs):
    """`jax.jit(f)(*args)` with the arguments (and so the computation) on `device`."""
    args = jax.device_put(args, device)
    return jax.jit(f, **jit_kwargs)(*args)


def assert_same(a, b, rtol=1e-5, atol=1e-6):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        x, y = np.asarray(x), np.asarray(y)
        assert x.shape == y.shape and x.dtype == y.dtype, (x.shape, x.dtype, y.shape, y.dtype)
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)
