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


SUB_BYTE = [ml_dtypes.int4, ml_dtypes.uint4, ml_dtypes.int2, ml_dtypes.uint2,
            ml_dtypes.float4_e2m1fn]


@pytest.mark.parametrize("dtype", SUB_BYTE, ids=lambda d: np.dtype(d).name)
def test_sub_byte_arrays(oxla, dtype):
    # One element per byte on the host (ml_dtypes: the value in the low bits); Oxla holds
    # signed ones sign-extended. Round trips, arithmetic through f32, and a callback's
    # operand and result keep every value, negative ones included.
    info = ml_dtypes.finfo(dtype) if "float" in np.dtype(dtype).name else ml_dtypes.iinfo(dtype)
    lo, hi = float(info.min), float(info.max)
    x = np.linspace(lo, hi, 12).astype(dtype)
    y = jax.device_put(x, oxla)
    np.testing.assert_array_equal(np.asarray(y), x)
    f = jax.jit(lambda v: (v.astype(jnp.float32) * 2).astype(dtype))
    np.testing.assert_array_equal(
        np.asarray(f(y)), (x.astype(np.float32) * 2).clip(lo, hi).astype(dtype)
        if "float" not in np.dtype(dtype).name else (x.astype(np.float32) * 2).astype(dtype)
    )
    # Read by arithmetic after the callback (a round trip alone would hide the form).
    g = jax.jit(
        lambda v: jax.pure_callback(lambda a: a[::-1].copy(), v, v).astype(jnp.float32)
    )
    np.testing.assert_array_equal(np.asarray(g(y)), x[::-1].astype(np.float32))


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
