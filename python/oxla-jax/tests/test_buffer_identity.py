"""jit results never share an argument's memory unless the argument was donated."""

import jax
import jax.numpy as jnp
import numpy as np


def test_identity_jit_returns_a_new_buffer(oxla):
    x = jax.device_put(np.arange(6, dtype=np.float32).reshape(2, 3), oxla)
    for f in (jnp.asarray, lambda v: v, lambda v: (v, v + 1)):
        out = jax.jit(f)(x)
        first = jax.tree_util.tree_leaves(out)[0]
        assert first.unsafe_buffer_pointer() != x.unsafe_buffer_pointer()
        np.testing.assert_array_equal(np.asarray(first), np.asarray(x))
    # x is still usable and unchanged.
    np.testing.assert_array_equal(np.asarray(x), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_a_donated_argument_may_be_returned_in_place(oxla):
    x = jax.device_put(np.ones(4, np.float32), oxla)
    y = jax.jit(lambda v: v, donate_argnums=0)(x)
    np.testing.assert_array_equal(np.asarray(y), np.ones(4, np.float32))
