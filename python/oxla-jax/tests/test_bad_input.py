"""Bad input through the plugin's doors gives a Python exception that says what is wrong,
never a crash or a hang: malformed and truncated programs, wrong shapes or dtypes at
execute, too few arguments, deleted and donated buffers used again, a device id out of
range. (A collective whose peer never comes: the runtime's test
`a_never_completing_all_reduce_fails_within_the_timeout_naming_op_and_process`.)"""

import jax
import numpy as np
import pytest
from jax._src.interpreters import mlir
from jax._src.lib import xla_client as xc


def loaded(oxla):
    lowered = jax.jit(lambda x: x + 1).lower(np.ones(4, np.float32))
    bc = mlir.module_to_bytecode(lowered.compiler_ir("stablehlo"))
    exe = oxla.client.compile_and_load(bc, xc.DeviceList((oxla,)), xc.CompileOptions())
    return bc, exe


def test_malformed_and_truncated_programs_raise(oxla):
    bc, _ = loaded(oxla)
    devs = xc.DeviceList((oxla,))
    for bad in [bc[: len(bc) // 2], bc[:7], b"ML\xefR", b"func.func @main( garbage", b""]:
        with pytest.raises(Exception) as e:
            oxla.client.compile_and_load(bad, devs, xc.CompileOptions())
        msg = str(e.value).lower()
        assert any(w in msg for w in ["error", "parse", "main function"]), e.value


@pytest.mark.parametrize("bad", [np.ones(5, np.float32), np.ones(4, np.int32),
                                 np.ones((2, 2), np.float32)])
def test_wrong_shape_or_dtype_at_execute_is_named(oxla, bad):
    _, exe = loaded(oxla)
    with pytest.raises(Exception, match=r"argument 0 on device 0: expected f32\[4\], got"):
        exe.execute_sharded([jax.device_put(bad, oxla)])


def test_too_few_arguments_at_execute(oxla):
    _, exe = loaded(oxla)
    with pytest.raises(Exception, match="0 arguments for a program that takes 1"):
        exe.execute_sharded([])


def test_deleted_buffer_used_again(oxla):
    _, exe = loaded(oxla)
    b = jax.device_put(np.ones(4, np.float32), oxla)
    b.delete()
    with pytest.raises(Exception):
        exe.execute_sharded([b])
    with pytest.raises(Exception):
        np.asarray(b)
    with pytest.raises(Exception):
        jax.jit(lambda v: v * 2)(b)


def test_donated_buffer_read_again(oxla):
    f = jax.jit(lambda v: v * 3, donate_argnums=0)
    a = jax.device_put(np.arange(4, dtype=np.float32), oxla)
    np.testing.assert_array_equal(np.asarray(f(a)), np.arange(4) * 3)
    assert a.is_deleted()
    with pytest.raises(Exception, match="deleted|donated"):
        np.asarray(a)
    with pytest.raises(Exception, match="deleted|donated"):
        f(a)


def test_donor_without_a_result_of_its_size_stays_alive(oxla):
    # As XLA: a donated argument is consumed only when a result of its byte size can take
    # its memory; `x @ x.T` of a [8, 2] x has none, a reshape has one.
    x = jax.device_put(np.arange(16, dtype=np.float32).reshape(8, 2), oxla)
    out = jax.jit(lambda v: v @ v.T, donate_argnums=0)(x)
    assert not x.is_deleted()
    np.testing.assert_array_equal(np.asarray(out), np.asarray(x) @ np.asarray(x).T)
    y = jax.device_put(np.arange(16, dtype=np.float32).reshape(16, 1), oxla)
    r = jax.jit(lambda v: v.reshape(16) + 1, donate_argnums=0)(y)
    assert y.is_deleted()
    np.testing.assert_array_equal(np.asarray(r), np.arange(16) + 1)


def test_device_id_out_of_range(oxla):
    with pytest.raises(Exception, match="no device with id 99"):
        oxla.client.device_from_local_hardware_id(99)
