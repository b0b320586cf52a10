#!/usr/bin/env python3
"""Oxla's PJRT plugin against JAX's CPU backend (XLA), in one process, one run:

1. dispatch: a jitted 1-op function (`a + 1` on f32[4]), pipelined and with
   `block_until_ready` after each call;
2. compile: every bench program (`../shared/bench/*/program.mlir`, the StableHLO JAX exported)
   compiled through jaxlib's client for each backend (`compile_and_load`, what `jax.jit` calls
   after lowering), median of 3, and `jax.jit` lower + compile of an MLP training step;
3. training: the step time of a jitted Adam step with donated parameters, for a small MLP
   (the pytest suite's, dispatch-bound) and a bench-sized one (batch 128, 784-512-512-10).

    JAX_PLATFORMS=oxla,cpu python python/oxla-jax/bench/plugin_bench.py [--bench ../shared/bench]

Needs the plugin installed (`pip install ./python/oxla-jax`) or OXLA_PJRT_LIBRARY_PATH set.
Prints a markdown table per part; the figures are this machine's, in this run.
"""

import argparse
import os
import statistics
import time

os.environ.setdefault("JAX_PLATFORMS", "oxla,cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax._src import xla_bridge  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402

PLATFORMS = ("oxla", "cpu")


def dispatch(dev, n=5000):
    f = jax.jit(lambda a: a + 1)
    y = jax.device_put(np.zeros(4, np.float32), dev)
    for _ in range(200):
        y = f(y)
    y.block_until_ready()
    t = time.perf_counter()
    for _ in range(n):
        y = f(y)
    y.block_until_ready()
    pipelined = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n):
        y = f(y).block_until_ready()
    blocked = (time.perf_counter() - t) / n * 1e6
    return pipelined, blocked


def compile_ms(platform, text, reps=3):
    backend = xla_bridge.get_backend(platform)
    dev = backend.local_devices()[0]
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        backend.compile_and_load(text, xc.DeviceList((dev,)), xc.CompileOptions())
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def mlp_params(sizes, seed=0):
    r = np.random.default_rng(seed)
    return [(np.asarray(r.standard_normal((m, n)) / np.sqrt(m), np.float32), np.zeros(n, np.float32))
            for m, n in zip(sizes[:-1], sizes[1:])]


def loss(params, x, y):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return jnp.mean((x @ w + b - y) ** 2)


def adam_step(params, opt, x, y):
    g = jax.grad(loss)(params, x, y)
    m, v, t = opt
    t = t + 1
    m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
    v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - 1e-3 * (m / (1 - 0.9 ** t)) / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8), params, m, v)
    return params, (m, v, t), loss(params, x, y)


def train(dev, sizes, batch, steps):
    r = np.random.default_rng(1)
    x = r.standard_normal((batch, sizes[0])).astype(np.float32)
    y = r.standard_normal((batch, sizes[-1])).astype(np.float32)
    params = jax.device_put(mlp_params(sizes), dev)
    x, y = jax.device_put((x, y), dev)
    zeros = lambda: jax.tree_util.tree_map(jnp.zeros_like, params)  # noqa: E731
    opt = jax.device_put((zeros(), zeros(), jnp.float32(0)), dev)
    step = jax.jit(adam_step, donate_argnums=(0, 1))
    t = time.perf_counter()
    lowered = step.lower(params, opt, x, y)
    compiled = lowered.compile()
    jit_ms = (time.perf_counter() - t) * 1e3
    for _ in range(5):
        params, opt, l = compiled(params, opt, x, y)
    jax.block_until_ready(l)
    t = time.perf_counter()
    for _ in range(steps):
        params, opt, l = compiled(params, opt, x, y)
    jax.block_until_ready(l)
    return jit_ms, (time.perf_counter() - t) / steps * 1e3, float(l)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--bench", default=os.path.join(here, "..", "..", "..", "..", "shared", "bench"))
    ap.add_argument("--skip-compile", action="store_true")
    a = ap.parse_args()
    devs = {p: jax.devices(p)[0] for p in PLATFORMS}

    print("## Dispatch of a jitted 1-op function (a + 1, f32[4]), µs per call, best of 3 x 5000\n")
    print("| backend | pipelined | block_until_ready each |\n|---|---:|---:|")
    for p in PLATFORMS:
        pipe, block = min(dispatch(devs[p]) for _ in range(3))
        print(f"| {p} | {pipe:.1f} | {block:.1f} |")

    if not a.skip_compile:
        print("\n## Compile of the bench programs through jaxlib's client (compile_and_load), ms, median of 3\n")
        print("| program | oxla | cpu (XLA) | XLA / Oxla |\n|---|---:|---:|---:|")
        ratios = []
        for name in sorted(os.listdir(a.bench)):
            path = os.path.join(a.bench, name, "program.mlir")
            if not os.path.isfile(path):
                continue
            text = open(path).read()
            o, c = compile_ms("oxla", text), compile_ms("cpu", text)
            ratios.append(c / o)
            print(f"| {name} | {o:.1f} | {c:.1f} | {c / o:.1f}x |")
        print(f"| geo-mean | | | {statistics.geometric_mean(ratios):.1f}x |")

    print("\n## Training: jitted Adam step with donated parameters\n")
    print("| model | backend | jax.jit lower+compile ms | step ms | final loss |\n|---|---|---:|---:|---:|")
    for label, sizes, batch, steps in [("MLP 16-32-32-4, batch 8", [16, 32, 32, 4], 8, 2000),
                                       ("MLP 784-512-512-10, batch 128", [784, 512, 512, 10], 128, 200)]:
        for p in PLATFORMS:
            jit_ms, step_ms, l = train(devs[p], sizes, batch, steps)
            print(f"| {label} | {p} | {jit_ms:.1f} | {step_ms:.3f} | {l:.5f} |")


if __name__ == "__main__":
    main()
