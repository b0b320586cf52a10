#!/usr/bin/env python3
"""ULP sweep: the float transcendentals on Oxla (through the PJRT plugin, so the JIT) and on
XLA CPU (JAX's CPU backend), on the same inputs, against a reference, in one run.

    JAX_PLATFORMS=oxla,cpu python tools/ulp_sweep.py [--n32 100000] [--n64 20000] [--only exp,log]

Needs jax/jaxlib 0.10.2, the oxla-jax plugin installed (or OXLA_PJRT_LIBRARY_PATH), scipy
and mpmath. Reference: f32 results against scipy/numpy in f64 rounded to f32 (f64's own error
is far below an f32 ulp); f64 results against mpmath at 40 digits rounded to f64. The error of
a result is its distance to the rounded reference in units in the last place (the count of
floats between them). Points whose reference is not finite or below the smallest normal are
left out (XLA CPU flushes subnormals; Oxla keeps them, see docs/semantics.md), and so are
inputs where the two backends both return NaN. Prints a markdown table: per function and
type, the max and mean ULP error of Oxla and of XLA.
"""

import argparse
import math
import os

os.environ.setdefault("JAX_PLATFORMS", "oxla,cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import mpmath  # noqa: E402
import numpy as np  # noqa: E402
import scipy.special as sp  # noqa: E402
from jax import lax  # noqa: E402

jax.config.update("jax_enable_x64", True)
mpmath.mp.dps = 40


def sweep(lo, hi, n, rng, log_share=0.5):
    """n points in [lo, hi]: half uniform, half log-spaced in magnitude (both signs where
    the range has them)."""
    u = rng.uniform(lo, hi, n - int(n * log_share))
    k = int(n * log_share)
    pos_hi, neg_lo = max(hi, 0.0), min(lo, 0.0)
    mags = []
    if pos_hi > 0:
        mags.append(np.exp(rng.uniform(math.log(max(1e-30, pos_hi * 1e-12)), math.log(pos_hi), k)))
    if neg_lo < 0:
        mags.append(-np.exp(rng.uniform(math.log(max(1e-30, -neg_lo * 1e-12)), math.log(-neg_lo), k)))
    lg = np.concatenate(mags) if mags else np.zeros(0)
    lg = lg[(lg >= lo) & (lg <= hi)]
    return np.concatenate([u, rng.choice(lg, size=min(k, len(lg)), replace=False) if len(lg) else lg])


# name: (jax function, f64 reference for f32 results, mpmath reference, domain)
FUNCS = {
    "exp": (jnp.exp, np.exp, mpmath.exp, (-87.0, 88.0)),
    "expm1": (jnp.expm1, np.expm1, mpmath.expm1, (-20.0, 88.0)),
    "log": (jnp.log, np.log, mpmath.log, (1e-30, 1e30)),
    "log1p": (jnp.log1p, np.log1p, lambda x: mpmath.log1p(x), (-0.999, 1e10)),
    "sin": (jnp.sin, np.sin, mpmath.sin, (-1e4, 1e4)),
    "cos": (jnp.cos, np.cos, mpmath.cos, (-1e4, 1e4)),
    "tan": (jnp.tan, np.tan, mpmath.tan, (-1e3, 1e3)),
    "tanh": (jnp.tanh, np.tanh, mpmath.tanh, (-20.0, 20.0)),
    "sinh": (jnp.sinh, np.sinh, mpmath.sinh, (-88.0, 88.0)),
    "cosh": (jnp.cosh, np.cosh, mpmath.cosh, (-88.0, 88.0)),
    "asin": (jnp.arcsin, np.arcsin, mpmath.asin, (-1.0, 1.0)),
    "acos": (jnp.arccos, np.arccos, mpmath.acos, (-1.0, 1.0)),
    "atan": (jnp.arctan, np.arctan, mpmath.atan, (-1e10, 1e10)),
    "asinh": (jnp.arcsinh, np.arcsinh, mpmath.asinh, (-1e10, 1e10)),
    "acosh": (jnp.arccosh, np.arccosh, mpmath.acosh, (1.0, 1e10)),
    "atanh": (jnp.arctanh, np.arctanh, mpmath.atanh, (-0.9999, 0.9999)),
    "erf": (lax.erf, sp.erf, mpmath.erf, (-6.0, 6.0)),
    "erfc": (lax.erfc, sp.erfc, mpmath.erfc, (-6.0, 9.0)),
    "erf_inv": (lax.erf_inv, sp.erfinv, lambda x: mpmath.erfinv(x), (-0.9999, 0.9999)),
    "logistic": (jax.nn.sigmoid, sp.expit, lambda x: 1 / (1 + mpmath.exp(-x)), (-80.0, 80.0)),
    "sqrt": (jnp.sqrt, np.sqrt, mpmath.sqrt, (0.0, 1e30)),
    "rsqrt": (lax.rsqrt, lambda x: 1 / np.sqrt(x), lambda x: 1 / mpmath.sqrt(x), (1e-30, 1e30)),
    "cbrt": (jnp.cbrt, np.cbrt, lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)), (-1e30, 1e30)),
    "lgamma": (lax.lgamma, sp.gammaln, lambda x: mpmath.log(abs(mpmath.gamma(x))), (0.01, 1e4)),
    "digamma": (lax.digamma, sp.psi, mpmath.digamma, (0.01, 1e4)),
}


def ordinal(a):
    """Floats mapped to integers that are consecutive for consecutive floats (+0 = -0)."""
    if a.dtype == np.float32:
        bits = a.view(np.int32).astype(np.int64)
        mag = bits & 0x7FFFFFFF
    else:
        bits = a.view(np.int64)
        mag = bits & 0x7FFFFFFFFFFFFFFF
    return np.where(bits < 0, -mag, mag)


def ulps(got, ref):
    # In Python integers: f64 ordinals need all 64 bits (as floats they would round to
    # multiples of 512 or 1024, and an int64 difference of opposite signs can overflow).
    g, r = ordinal(got).astype(object), ordinal(ref).astype(object)
    return np.abs(g - r).astype(np.float64)


def reference(name, x, dtype):
    _, f64ref, mpref, _ = FUNCS[name]
    if dtype == np.float32:
        with np.errstate(all="ignore"):
            return f64ref(x.astype(np.float64)).astype(np.float32)
    out = np.empty(len(x))
    for i, v in enumerate(x):
        try:
            out[i] = float(mpref(mpmath.mpf(float(v))))
        except (ValueError, ZeroDivisionError, OverflowError):
            out[i] = np.nan
    return out


def run(dev, f, x):
    return np.asarray(jax.jit(f)(jax.device_put(x, dev)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n32", type=int, default=100000)
    ap.add_argument("--n64", type=int, default=20000)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    oxla, cpu = jax.devices("oxla")[0], jax.devices("cpu")[0]
    print("| function | type | points | Oxla max ULP | XLA max ULP | Oxla mean | XLA mean |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, (f, _, _, (lo, hi)) in FUNCS.items():
        if a.only and name not in a.only.split(","):
            continue
        for dtype, n in ((np.float32, a.n32), (np.float64, a.n64)):
            rng = np.random.default_rng(sum(map(ord, name)))
            x = sweep(lo, hi, n, rng).astype(dtype)
            ref = reference(name, x, dtype)
            got_o, got_x = run(oxla, f, x), run(cpu, f, x)
            tiny = np.finfo(dtype).tiny
            keep = np.isfinite(ref) & (np.abs(ref) >= tiny) & ~(np.isnan(got_o) & np.isnan(got_x))
            eo, ex = ulps(got_o[keep], ref[keep]), ulps(got_x[keep], ref[keep])
            print(f"| {name} | {np.dtype(dtype).name} | {int(keep.sum())} | {eo.max():.0f} | {ex.max():.0f} | "
                  f"{eo.mean():.3f} | {ex.mean():.3f} |", flush=True)


if __name__ == "__main__":
    main()
