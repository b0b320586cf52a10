"""Devices and buffers: what does not need a compiled program."""

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest


def test_platform_and_devices(oxla):
    devs = jax.devices("oxla")
    assert len(devs) == 4
    assert [d.id for d in devs] == [0, 1, 2, 3]
    assert oxla.platform == "oxla"


DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.uint8, np.uint32,
          np.bool_, np.float16, ml_dtypes.bfloat16, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_device_put_round_trip(oxla, dtype):
    x64 = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        x = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
        y = jax.device_put(x, oxla)
        assert y.dtype == x.dtype and y.shape == x.shape
        assert list(y.devices())[0] == oxla
        np.testing.assert_array_equal(np.asarray(y), x)
    finally:
        jax.config.update("jax_enable_x64", x64)


def test_non_row_major_numpy_arrays(oxla):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    for v in (x.T, x[:, ::2], x[::-1], np.asfortranarray(x)):
        np.testing.assert_array_equal(np.asarray(jax.device_put(v, oxla)), v)


def test_delete_and_is_deleted(oxla):
    y = jax.device_put(np.ones(3, np.float32), oxla)
    y.delete()
    assert y.is_deleted()
    with pytest.raises(RuntimeError):
        np.asarray(y)


def test_copy_between_devices():
    d0, d1 = jax.devices("oxla")[:2]
    x = jax.device_put(np.arange(4.0, dtype=np.float32), d0)
    y = jax.device_put(x, d1)
    assert list(y.devices())[0] == d1
    np.testing.assert_array_equal(np.asarray(y), np.arange(4.0))


def test_memory_stats(oxla):
    stats = oxla.memory_stats()
    assert stats is None or "bytes_in_use" in stats


def test_block_until_ready(oxla):
    y = jax.jit(lambda a: a * 2)(jax.device_put(jnp.ones(8), oxla))
    assert y.block_until_ready() is y
    np.testing.assert_array_equal(np.asarray(y), 2 * np.ones(8))
