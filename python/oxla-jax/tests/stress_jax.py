"""Concurrency through the plugin: Python threads issue mixed calls at once (jit of shared
and of fresh functions, device_put, transfers back and between devices, block_until_ready,
deletes, donation, pmap collectives), every result checked against numpy.

    OXLA_NUM_DEVICES=8 python stress_jax.py --threads 8 --calls 1000

Exit code 0 when every call gave the right result (or the right error: reading a deleted
or donated buffer must raise, not crash). test_stress.py runs it with 1 and 8 devices at a
reduced count, in a subprocess with a deadline (a deadlock fails the test)."""

import argparse
import os
import sys
import threading
import time

os.environ.setdefault("JAX_PLATFORMS", "oxla,cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402


def shared_fn(v):
    return v * 2.0 + 1.0


SHARED = jax.jit(shared_fn)
DONATING = jax.jit(lambda v: v * 3.0, donate_argnums=0)


def psum_fn(v):
    return v + jax.lax.psum(v, "i")


def expect_error(what, f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - any Python exception is the right outcome
        return type(e).__name__
    raise AssertionError(f"{what}: no error")


def worker(t, calls, devices, errors, counts):
    rng = np.random.default_rng(t)
    n_dev = len(devices)
    pmapped = jax.pmap(psum_fn, axis_name="i", devices=devices) if n_dev > 1 else None
    try:
        for k in range(calls):
            d = devices[int(rng.integers(n_dev))]
            n = int(rng.integers(1, 300))
            x = rng.standard_normal(n).astype(np.float32)
            kind = int(rng.integers(8))
            if kind == 0:  # one function jitted by every thread at once
                got = SHARED(jax.device_put(x, d))
                np.testing.assert_allclose(np.asarray(got), x * 2 + 1, rtol=1e-6)
            elif kind == 1:  # a fresh function: compiles concurrently with the others
                c = float(k % 13)
                got = jax.jit(lambda v: jnp.tanh(v) + c)(jax.device_put(x, d))
                np.testing.assert_allclose(np.asarray(got), np.tanh(x) + c, rtol=1e-5, atol=1e-6)
            elif kind == 2:  # a round trip, and a transfer to another device
                a = jax.device_put(x, d)
                b = jax.device_put(a, devices[(devices.index(d) + 1) % n_dev])
                np.testing.assert_array_equal(np.asarray(a), x)
                np.testing.assert_array_equal(np.asarray(b), x)
            elif kind == 3:  # donation: the argument is gone afterwards, reading it raises
                a = jax.device_put(x, d)
                got = DONATING(a)
                np.testing.assert_allclose(np.asarray(got), x * 3, rtol=1e-6)
                if a.is_deleted():
                    expect_error("donated buffer read", lambda: np.asarray(a))
            elif kind == 4:  # delete, then use
                a = jax.device_put(x, d)
                a.delete()
                expect_error("deleted buffer read", lambda: np.asarray(a))
                expect_error("deleted buffer as argument", lambda: SHARED(a))
            elif kind == 5:  # several dispatches in flight, then wait for all
                outs = [SHARED(jax.device_put(x + i, d)) for i in range(4)]
                jax.block_until_ready(outs)
                for i, o in enumerate(outs):
                    np.testing.assert_allclose(np.asarray(o), (x + i) * 2 + 1, rtol=1e-6)
            elif kind == 6 and pmapped is not None:  # a collective over every device
                xs = rng.standard_normal((n_dev, 5)).astype(np.float32)
                got = pmapped(xs)
                np.testing.assert_allclose(np.asarray(got), xs + xs.sum(0), rtol=1e-5, atol=1e-5)
            else:  # a larger computation: a dot, a reduction
                m = rng.standard_normal((64, 64)).astype(np.float32)
                got = jax.jit(lambda a: (a @ a.T).sum(axis=1))(jax.device_put(m, d))
                np.testing.assert_allclose(np.asarray(got), (m @ m.T).sum(axis=1), rtol=1e-4, atol=1e-3)
            counts[t] += 1
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append(f"thread {t}, call {counts[t]}: {type(e).__name__}: {e}")


def run(threads, calls, platform="oxla"):
    devices = jax.devices(platform)
    errors, counts = [], [0] * threads
    ts = [threading.Thread(target=worker, args=(t, calls, devices, errors, counts))
          for t in range(threads)]
    t0 = time.time()
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    return errors, sum(counts), time.time() - t0, len(devices)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--platform", default="oxla")
    a = ap.parse_args()
    errors, done, secs, n_dev = run(a.threads, a.calls, a.platform)
    print(f"{a.platform}, {n_dev} devices: {done} of {a.threads * a.calls} calls right "
          f"in {secs:.1f} s", flush=True)
    for e in errors[:10]:
        print(e, flush=True)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
