"""Long use through the plugin: `jax.jit` of a fresh function every cycle (a notebook or a
server that keeps compiling), run and checked, while the process's resident memory is
sampled. The same loop on JAX's CPU backend is the yardstick: JAX keeps caches of its own,
so "flat" means no more growth than XLA shows.

    python soak_jax.py --cycles 10000            # both backends, one after the other
    python soak_jax.py --cycles 10000 --backend oxla

test_long_use.py runs it at a reduced count."""

import argparse
import gc
import os
import time

os.environ.setdefault("JAX_PLATFORMS", "oxla,cpu")
os.environ.setdefault("OXLA_NUM_DEVICES", "4")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

SHAPES = [(8,), (3, 5), (64, 64), (2, 3, 4), (1000,), (17, 33)]


def _trim():
    """Hands glibc's free heap pages back to the system (where there is glibc), so that a
    sample counts live memory, not what the allocator keeps cached: a leak raises the live
    set, a cache does not. (Untrimmed, a run under load once failed the 8 MiB bound on a
    single 9 MiB step of cached heap late in the run; trimmed, 1,400 cycles sample 199.4 to
    199.6 MiB after warm-up, 100 MiB less in all.)"""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def rss_bytes():
    _trim()
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def program(i):
    """The i-th program: a fresh Python function (so `jax.jit` compiles it anew) with the
    cycle's constant baked in, its input, and numpy's answer."""
    c = float(i % 97) / 8.0
    shape = SHAPES[(i // 7) % len(SHAPES)]
    x = (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) % 11) / 4.0
    kind = i % 7
    if kind == 0:
        return (lambda v: jnp.sin(v) * c + v), x, np.sin(x) * np.float32(c) + x
    if kind == 1:
        return (lambda v: jnp.sum(v * v) + c), x, np.sum(x * x) + np.float32(c)
    if kind == 2:
        return (lambda v: jnp.cumsum(v.ravel()) - c), x, np.cumsum(x.ravel()) - np.float32(c)
    if kind == 3:
        m = x.reshape(-1, shape[-1])
        return (lambda v: v.reshape(-1, shape[-1]).T @ v.reshape(-1, shape[-1]) + c), x, m.T @ m + np.float32(c)
    if kind == 4:
        return (lambda v: jnp.sort(-v.ravel()) * c), x, np.sort(-x.ravel()) * np.float32(c)
    if kind == 5:
        def loop(v):
            return jax.lax.fori_loop(0, 3, lambda k, a: a * 0.5 + c, v)
        want = x
        for _ in range(3):
            want = want * np.float32(0.5) + np.float32(c)
        return loop, x, want
    return (lambda v: jnp.where(v > c, v, -v).astype(jnp.int32)), x, np.where(x > c, x, -x).astype(np.int32)


def soak(device, cycles, sample_every=None, on_sample=None):
    """Runs `cycles` programs on `device`; returns [(cycles, rss_bytes)] samples."""
    sample_every = sample_every or max(1, cycles // 10)
    samples = []
    for i in range(cycles):
        f, x, want = program(i)
        out = jax.jit(f)(jax.device_put(x, device))
        np.testing.assert_allclose(np.asarray(out), want, rtol=2e-5, atol=1e-4)
        del f, out
        if (i + 1) % sample_every == 0:
            gc.collect()
            samples.append((i + 1, rss_bytes()))
            if on_sample:
                on_sample(samples[-1])
    return samples


def growth(samples, warmup):
    first = next(s for s in samples if s[0] >= warmup)
    return samples[-1][1] - first[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cycles", type=int, default=10000)
    ap.add_argument("--backend", choices=["oxla", "cpu", "both"], default="both")
    a = ap.parse_args()
    for b in ["oxla", "cpu"] if a.backend == "both" else [a.backend]:
        t0 = time.time()
        s = soak(jax.devices(b)[0], a.cycles,
                 on_sample=lambda s: print(f"{b}\t{s[0]}\t{s[1] / 2**20:.1f} MiB", flush=True))
        print(f"{b}: {a.cycles} cycles in {time.time() - t0:.0f} s, growth after warm-up "
              f"(cycle {a.cycles // 4}): {growth(s, a.cycles // 4) / 2**20:.1f} MiB", flush=True)


if __name__ == "__main__":
    main()
