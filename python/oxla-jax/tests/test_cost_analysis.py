"""`compiled.cost_analysis()` through PJRT_Executable_GetCostAnalysis: the counts XLA's CPU
backend gives for the same programs (flops, transcendentals, bytes accessed)."""

import jax
import jax.numpy as jnp


def test_a_dense_layer_counts_as_on_xla():
    f = jax.jit(lambda a, b: jnp.tanh(a @ b))
    c = f.lower(jnp.ones((8, 16)), jnp.ones((16, 4))).compile().cost_analysis()
    # XLA CPU, same JAX: flops 1024 (2·8·4·16), transcendentals 32, bytes accessed 1152.
    assert c["flops"] == 1024.0
    assert c["transcendentals"] == 32.0
    assert c["bytes accessed"] == 1152.0


def test_every_program_has_one():
    assert jax.jit(lambda x: x).lower(1.0).compile().cost_analysis() is not None
    c = jax.jit(lambda x: x + 4).lower(1.0).compile().cost_analysis()
    assert c["flops"] == 1.0
