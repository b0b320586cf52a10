"""Long use through the plugin at a reduced count (soak_jax.py is the full run): a fresh
`jax.jit` every cycle, each result checked, and resident memory flat after warm-up."""

import os

import jax

from soak_jax import growth, soak


def test_resident_memory_is_flat_over_fresh_jits():
    cycles = int(os.environ.get("OXLA_LONG_USE_JIT_CYCLES", "1400"))
    samples = soak(jax.devices("oxla")[0], cycles, sample_every=cycles // 14)
    grew = growth(samples, cycles // 4)
    # Measured: under 1 MiB over 10,000 cycles (JAX's CPU backend: about the same).
    assert grew < 8 << 20, f"grew {grew >> 10} KiB after warm-up: {samples}"
