"""The JAX corpus: programs as users write them, across jnp, lax, jax.nn, jax.random,
jnp.fft, jax.scipy.special, jax.scipy.linalg and jnp.linalg, with their inputs.

`programs()` yields `Program(area, name, fn, args, rtol, atol)`. `gen.py` exports each with
JAX 0.10.2 on CPU (StableHLO text, inputs, XLA's outputs); the PJRT plugin's pytest suite runs
the same functions under `jax.jit` on Oxla and on JAX's CPU backend.

Functions whose results are unique only up to sign or phase (eigenvectors, singular vectors)
or order (general eigenvalues) return invariant quantities (absolute values, sorted values),
so the program still contains the LAPACK call but its result does not depend on the
algorithm's conventions.
"""

from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)

import ml_dtypes  # noqa: E402  (ships with jaxlib)
import jax.scipy.linalg as jsl  # noqa: E402
import jax.scipy.special as jss  # noqa: E402

BF16 = ml_dtypes.bfloat16

# jax's own test tolerances (jtu.default_tolerance), per dtype name.
DEFAULT_TOL = {
    "bfloat16": 1e-2,
    "float16": 1e-3,
    "float32": 1e-6,
    "float64": 1e-15,
    "complex64": 1e-6,
    "complex128": 1e-15,
}


@dataclass
class Program:
    area: str
    name: str
    fn: Callable
    args: tuple
    # None: the default tolerance of the result's dtype (exact for integers and bools).
    rtol: Optional[float] = None
    atol: Optional[float] = None


def rng(name):
    return np.random.RandomState(_seed(name))


def _seed(name):
    # Stable across runs (Python's hash is salted).
    return sum((i + 1) * ord(c) for i, c in enumerate(name)) % (2**31)


FLOATS = ["bfloat16", "float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SINTS = ["int8", "int16", "int32", "int64"]
UINTS = ["uint8", "uint16", "uint32", "uint64"]
INTS = SINTS + UINTS


def np_dtype(d):
    return BF16 if d == "bfloat16" else np.dtype(d)


def data(name, dtype, shape, lo=-3.0, hi=3.0, special=False):
    """Random values of a dtype; with `special`, NaN, +-inf, +-0 and subnormals mixed in."""
    r = rng(name + str(shape) + dtype)
    if dtype == "bool":
        return r.rand(*shape) < 0.5
    if dtype in INTS:
        info = np.iinfo(dtype)
        lo_i, hi_i = max(info.min, -100), min(info.max, 100)
        v = r.randint(lo_i, hi_i + 1, size=shape).astype(dtype)
        if special and v.size >= 4:
            flat = v.reshape(-1)
            flat[0], flat[1] = info.min, info.max
        return v
    if dtype in COMPLEX:
        re = r.uniform(lo, hi, size=shape)
        im = r.uniform(lo, hi, size=shape)
        return (re + 1j * im).astype(dtype)
    v = r.uniform(lo, hi, size=shape).astype(np.float64)
    if special and v.size >= 8:
        flat = v.reshape(-1)
        tiny = float(ml_dtypes.finfo(np_dtype(dtype)).tiny)
        flat[:7] = [np.nan, np.inf, -np.inf, 0.0, -0.0, tiny / 4, -tiny / 2]
    return v.astype(np_dtype(dtype))


def spd(name, dtype, n, batch=()):
    """A well-conditioned symmetric (Hermitian) positive definite matrix."""
    a = data(name, dtype, batch + (n, n), -1, 1)
    a = a.astype(np.complex128 if dtype in COMPLEX else np.float64)
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    return h.astype(dtype)


def well_conditioned(name, dtype, shape):
    a = data(name, dtype, shape, -1, 1).astype(
        np.complex128 if dtype in COMPLEX else np.float64
    )
    n = min(shape[-2:])
    a[..., :n, :n] += 3 * np.eye(n)
    return a.astype(dtype)


UNARY_FLOAT = {
    "exp": jnp.exp,
    "expm1": jnp.expm1,
    "log": jnp.log,
    "log1p": jnp.log1p,
    "sqrt": jnp.sqrt,
    "rsqrt": lax.rsqrt,
    "cbrt": jnp.cbrt,
    "sin": jnp.sin,
    "cos": jnp.cos,
    "tan": jnp.tan,
    "tanh": jnp.tanh,
    "sinh": jnp.sinh,
    "cosh": jnp.cosh,
    "arcsin": jnp.arcsin,
    "arccos": jnp.arccos,
    "arctan": jnp.arctan,
    "arcsinh": jnp.arcsinh,
    "arccosh": jnp.arccosh,
    "arctanh": jnp.arctanh,
    "logistic": jax.nn.sigmoid,
    "abs": jnp.abs,
    "sign": jnp.sign,
    "floor": jnp.floor,
    "ceil": jnp.ceil,
    "round": jnp.round,
    "neg": jnp.negative,
    "square": jnp.square,
    "reciprocal": jnp.reciprocal,
    "isfinite": jnp.isfinite,
    "erf": jss.erf,
}

UNARY_COMPLEX = ["exp", "log", "sqrt", "sin", "cos", "tanh", "abs", "neg", "square",
                 "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "sinh",
                 "cosh", "tan", "expm1", "log1p", "rsqrt", "sign"]

BINARY = {
    "add": jnp.add,
    "subtract": jnp.subtract,
    "multiply": jnp.multiply,
    "divide": lambda a, b: a / b,
    "maximum": jnp.maximum,
    "minimum": jnp.minimum,
    "power": jnp.power,
    "arctan2": jnp.arctan2,
    "remainder": jnp.remainder,
    "nextafter": jnp.nextafter,
    "hypot": jnp.hypot,
    "less": jnp.less,
    "equal": jnp.equal,
}

INT_BINARY = {
    "add": jnp.add,
    "multiply": jnp.multiply,
    "floor_divide": jnp.floor_divide,
    "remainder": jnp.remainder,
    "maximum": jnp.maximum,
    "bitwise_and": jnp.bitwise_and,
    "bitwise_xor": jnp.bitwise_xor,
    "left_shift": lambda a, b: jnp.left_shift(a, jnp.abs(b) % 8),
    "right_shift": lambda a, b: jnp.right_shift(a, jnp.abs(b) % 8),
    "greater_equal": jnp.greater_equal,
}

# Ops needing a domain: (lo, hi) for random inputs.
DOMAIN = {
    "log": (0.01, 5), "log1p": (-0.9, 5), "sqrt": (0, 9), "rsqrt": (0.01, 9),
    "arcsin": (-1, 1), "arccos": (-1, 1), "arctanh": (-0.99, 0.99), "arccosh": (1, 5),
    "power": (0.1, 3), "reciprocal": (0.1, 3),
}


def elementwise():
    for d in FLOATS:
        for n, f in UNARY_FLOAT.items():
            lo, hi = DOMAIN.get(n, (-3, 3))
            yield Program("elementwise", f"{n}_{d}", f,
                          (data(n, d, (4, 33), lo, hi, special=n in ("abs", "neg", "floor",
                                                                    "isfinite", "sign")),))
        for n, f in BINARY.items():
            lo, hi = DOMAIN.get(n, (-3, 3))
            yield Program("elementwise", f"{n}_{d}", f,
                          (data(n + "a", d, (4, 17), lo, hi), data(n + "b", d, (4, 17), lo, hi)))
    for d in COMPLEX:
        for n in UNARY_COMPLEX:
            f = UNARY_FLOAT[n] if n in UNARY_FLOAT else None
            lo, hi = (-1.5, 1.5)
            yield Program("elementwise", f"{n}_{d}", f, (data(n, d, (2, 9), lo, hi),))
        for n in ["add", "multiply", "divide", "power", "equal"]:
            yield Program("elementwise", f"{n}_{d}", BINARY[n],
                          (data(n + "a", d, (2, 9), 0.2, 2), data(n + "b", d, (2, 9), 0.2, 2)))
    for d in INTS:
        for n, f in INT_BINARY.items():
            a = data(n + "a", d, (3, 11))
            b = data(n + "b", d, (3, 11))
            if n in ("floor_divide", "remainder"):
                b = np.where(b == 0, 1, b).astype(d)
            yield Program("elementwise", f"{n}_{d}", f, (a, b))
        yield Program("elementwise", f"population_count_{d}", lax.population_count,
                      (data("pc", d, (3, 11), special=True),))
        yield Program("elementwise", f"clz_{d}", lax.clz, (data("clz", d, (3, 11), special=True),))
        yield Program("elementwise", f"abs_{d}", jnp.abs, (data("abs", d, (3, 11), special=True),))
    yield Program("elementwise", "logical_bool",
                  lambda a, b: (a & b, a | b, a ^ b, ~a),
                  (data("la", "bool", (5, 7)), data("lb", "bool", (5, 7))))
    # Converts between every pair of a representative set.
    conv = ["bool", "int8", "uint8", "int32", "int64", "uint32", "bfloat16", "float16",
            "float32", "float64", "complex64"]
    for s in conv:
        for t in ["int32", "float32", "bfloat16", "float64", "uint8", "bool", "complex128"]:
            if s == t:
                continue
            src = data("cv" + s, s, (3, 10), -200, 200, special=s in FLOATS)
            if t in INTS + ["bool"] and s in FLOATS:
                # Float->int of NaN/inf/out-of-range is implementation-defined in numpy,
                # but XLA defines it (saturating, NaN -> 0); keep it in the corpus.
                pass
            if s == "complex64" and t != "complex128":
                continue
            yield Program("convert", f"convert_{s}_to_{t}",
                          lambda x, t=t: x.astype(np_dtype(t)), (src,))
    yield Program("convert", "bitcast_f32_i32",
                  lambda x: lax.bitcast_convert_type(x, jnp.int32),
                  (data("bc", "float32", (4, 5), special=True),))
    yield Program("convert", "bitcast_u32_f32",
                  lambda x: lax.bitcast_convert_type(x, jnp.float32),
                  (np.arange(20, dtype=np.uint32).reshape(4, 5) * 0x01010101,))
    yield Program("convert", "reduce_precision",
                  lambda x: lax.reduce_precision(x, exponent_bits=5, mantissa_bits=10),
                  (data("rp", "float32", (4, 8), -1e5, 1e5, special=True),))


def reductions():
    for d in ["float32", "float64", "int32", "bfloat16", "float16", "complex64"]:
        x = data("red" + d, d, (6, 7, 5))
        yield Program("reduce", f"sum_{d}", lambda x: jnp.sum(x, axis=1), (x,))
        yield Program("reduce", f"sum_all_{d}", jnp.sum, (x,))
        if d != "complex64":
            yield Program("reduce", f"max_{d}", lambda x: jnp.max(x, axis=(0, 2)), (x,))
            yield Program("reduce", f"min_{d}", lambda x: jnp.min(x, axis=0), (x,))
            yield Program("reduce", f"argmax_{d}", lambda x: jnp.argmax(x, axis=1), (x,))
            yield Program("reduce", f"argmin_{d}", lambda x: jnp.argmin(x, axis=2), (x,))
        yield Program("reduce", f"prod_{d}", lambda x: jnp.prod(x * 0 + 1.01 if x.dtype.kind != "i" else x % 3, axis=2), (x,))
        yield Program("reduce", f"mean_{d}", lambda x: jnp.mean(x, axis=-1), (x,))
    x = data("red", "float32", (8, 33))
    yield Program("reduce", "var_float32", lambda x: jnp.var(x, axis=1), (x,), 1e-5)
    yield Program("reduce", "std_float32", lambda x: jnp.std(x, axis=0), (x,), 1e-5)
    yield Program("reduce", "logsumexp_float32", lambda x: jax.nn.logsumexp(x, axis=1), (x,), 1e-5)
    yield Program("reduce", "any_all_bool", lambda b: (jnp.any(b, axis=0), jnp.all(b, axis=1)),
                  (data("aa", "bool", (6, 9)),))
    yield Program("reduce", "count_nonzero", lambda x: jnp.count_nonzero(x > 0, axis=1), (x,))
    yield Program("reduce", "norm_float32", lambda x: jnp.linalg.norm(x, axis=1), (x,), 1e-5)
    for d in ["float32", "float64", "int32", "bfloat16"]:
        x = data("cum" + d, d, (5, 16))
        yield Program("cumulative", f"cumsum_{d}", lambda x: jnp.cumsum(x, axis=1), (x,),
                      5e-2 if d == "bfloat16" else None)
        yield Program("cumulative", f"cumprod_{d}",
                      lambda x: jnp.cumprod(x * 0 + 1.01 if x.dtype.kind != "i" else x % 3, axis=0), (x,))
        yield Program("cumulative", f"cummax_{d}", lambda x: lax.cummax(x, axis=1), (x,))
        yield Program("cumulative", f"cummin_{d}", lambda x: lax.cummin(x, axis=0, reverse=True), (x,))
    yield Program("cumulative", "cumlogsumexp_float32", lambda x: lax.cumlogsumexp(x, axis=1),
                  (data("cls", "float32", (4, 12)),), 1e-5)
    yield Program("cumulative", "cumsum_complex64", lambda x: jnp.cumsum(x, axis=0),
                  (data("cc", "complex64", (6, 3)),), 1e-5)


def shapes():
    x = data("shp", "float32", (2, 3, 4, 5))
    yield Program("shape", "transpose", lambda x: jnp.transpose(x, (2, 0, 3, 1)), (x,))
    yield Program("shape", "reshape", lambda x: x.reshape(6, 20), (x,))
    yield Program("shape", "broadcast", lambda x: jnp.broadcast_to(x[:, :1], (2, 7, 4, 5)), (x,))
    yield Program("shape", "concatenate", lambda x: jnp.concatenate([x, x * 2], axis=2), (x,))
    yield Program("shape", "stack", lambda x: jnp.stack([x, -x], axis=1), (x,))
    yield Program("shape", "pad", lambda x: jnp.pad(x, ((0, 1), (2, 0), (1, 1), (0, 0))), (x,))
    yield Program("shape", "pad_interior",
                  lambda x: lax.pad(x, np.float32(0.5), ((1, 2, 1), (0, 0, 0), (-1, 1, 2), (0, 0, 0))), (x,))
    yield Program("shape", "slice_strided", lambda x: x[:, ::2, 1:4:2, ::-1], (x,))
    yield Program("shape", "rev", lambda x: jnp.flip(x, axis=(0, 3)), (x,))
    yield Program("shape", "roll", lambda x: jnp.roll(x, 3, axis=3), (x,))
    yield Program("shape", "tile", lambda x: jnp.tile(x[0, 0], (2, 3)), (x,))
    yield Program("shape", "repeat", lambda x: jnp.repeat(x[0, 0], 2, axis=1), (x,))
    yield Program("shape", "squeeze_expand", lambda x: jnp.expand_dims(x[:, 0], 0), (x,))
    yield Program("shape", "iota_arange", lambda x: x + jnp.arange(5, dtype=jnp.float32), (x,))
    yield Program("shape", "where", lambda x: jnp.where(x > 0, x, -2 * x), (x,))
    yield Program("shape", "clip", lambda x: jnp.clip(x, -1, 0.5), (x,))
    yield Program("shape", "select_n",
                  lambda x: lax.select_n(jnp.argmax(x, axis=0) % 3, x[0], x[1], -x[0]), (x,))
    yield Program("shape", "triu_tril", lambda m: (jnp.triu(m, 1), jnp.tril(m)), (x[0, 0],))
    yield Program("shape", "eye_outer", lambda v: jnp.outer(v, v) + jnp.eye(5), (x[0, 0, 0],))
    yield Program("shape", "diagonal", lambda m: jnp.diagonal(m, offset=1), (x[0, 0],))
    yield Program("shape", "meshgrid",
                  lambda a, b: jnp.stack(jnp.meshgrid(a, b)), (x[0, 0, 0], x[0, 0, :, 0]))
    yield Program("shape", "one_hot", lambda i: jax.nn.one_hot(i, 7),
                  (np.array([0, 3, 6, 2, -1, 7], np.int32),))
    yield Program("shape", "dynamic_slice",
                  lambda x, i: lax.dynamic_slice(x, (i, i * 0 + 1, i, i * 0), (1, 2, 2, 5)),
                  (x, np.int32(2)))
    yield Program("shape", "dynamic_update_slice",
                  lambda x, i: lax.dynamic_update_slice(x, jnp.ones((1, 2, 2, 5), x.dtype),
                                                        (i, i * 0 + 1, i, i * 0)), (x, np.int32(3)))


def indexing():
    x = data("idx", "float32", (10, 6))
    i = np.array([3, 0, 9, 3, 12, -2], np.int32)
    yield Program("gather", "take_clip", lambda x, i: jnp.take(x, i, axis=0, mode="clip"), (x, i))
    yield Program("gather", "take_fill", lambda x, i: jnp.take(x, i, axis=0, mode="fill"), (x, i))
    yield Program("gather", "take_wrap", lambda x, i: jnp.take(x, i, axis=1, mode="wrap"), (x, i))
    yield Program("gather", "index_default", lambda x, i: x[i], (x, np.array([1, 2, 9, 0], np.int32)))
    yield Program("gather", "take_along_axis",
                  lambda x: jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1), (x,))
    yield Program("gather", "advanced_2d",
                  lambda x: x[jnp.array([1, 3, 5]), jnp.array([0, 2, 4])], (x,))
    yield Program("gather", "embedding_lookup",
                  lambda t, i: t[i].sum(axis=1), (data("emb", "float32", (50, 8)),
                                                  np.arange(12, dtype=np.int32).reshape(4, 3) * 4))
    u = data("upd", "float32", (6, 6))
    for mode in ["set", "add", "mul", "min", "max"]:
        yield Program("scatter", f"at_{mode}",
                      lambda x, u, mode=mode: getattr(x.at[jnp.array([1, 4, 1, 7, 0, 9])], mode)(u),
                      (x, u))
    yield Program("scatter", "at_add_drop",
                  lambda x, u: x.at[jnp.array([1, 40, -1, 7, 0, 9])].add(u, mode="drop"), (x, u))
    yield Program("scatter", "at_set_clip",
                  lambda x, u: x.at[jnp.array([1, 40, 3, 7, 0, 9])].set(u, mode="clip"), (x, u))
    yield Program("scatter", "at_add_2d_points",
                  lambda x: x.at[jnp.array([0, 2, 2]), jnp.array([1, 1, 5])].add(10.0), (x,))
    yield Program("scatter", "segment_sum",
                  lambda v, s: jax.ops.segment_sum(v, s, num_segments=4),
                  (data("seg", "float32", (12, 3)), np.array([0, 1, 1, 3, 2, 0, 3, 3, 1, 0, 2, 2], np.int32)))
    yield Program("scatter", "segment_max",
                  lambda v, s: jax.ops.segment_max(v, s, num_segments=4),
                  (data("segm", "float32", (12,)), np.array([0, 1, 1, 3, 2, 0, 3, 3, 1, 0, 2, 2], np.int32)))
    yield Program("scatter", "bincount", lambda i: jnp.bincount(i, length=8),
                  (np.array([1, 3, 3, 7, 0, 1, 1], np.int32),))
    yield Program("scatter", "at_add_int32",
                  lambda x: x.at[jnp.array([0, 0, 2])].add(jnp.int32(5)),
                  (np.arange(5, dtype=np.int32),))


def sorting():
    for d in ["float32", "float64", "int32", "bfloat16", "uint8"]:
        x = data("srt" + d, d, (5, 23), special=d in FLOATS)
        yield Program("sort", f"sort_{d}", lambda x: jnp.sort(x, axis=1), (x,))
        yield Program("sort", f"argsort_{d}", lambda x: jnp.argsort(x, axis=0, stable=True), (x,))
        yield Program("sort", f"top_k_{d}", lambda x: lax.top_k(x, 4), (x,))
    x = data("srt2", "float32", (40,))
    yield Program("sort", "sort_descending", lambda x: jnp.sort(x, descending=True), (x,))
    yield Program("sort", "lexsort", lambda a, b: jnp.lexsort((a, b)),
                  (np.array([3, 1, 2, 1, 3], np.int32), np.array([0, 0, 1, 1, 0], np.int32)))
    yield Program("sort", "sort_key_val", lambda k, v: lax.sort_key_val(k, v),
                  (x, np.arange(40, dtype=np.int32)))
    yield Program("sort", "unique_size", lambda a: jnp.unique(a, size=6, fill_value=-1),
                  (np.array([4, 1, 4, 2, 9, 1, 2], np.int32),))
    yield Program("sort", "searchsorted", lambda a, v: jnp.searchsorted(a, v),
                  (np.sort(x), data("ss", "float32", (9,))))
    yield Program("sort", "median", lambda x: jnp.median(x, axis=1), (data("med", "float32", (4, 9)),))
    yield Program("sort", "quantile", lambda x: jnp.quantile(x, 0.3), (x,), 1e-5)


def dots():
    for d in ["float32", "float64", "bfloat16", "float16", "complex64", "complex128", "int32"]:
        a = data("dA" + d, d, (7, 13), -1, 1)
        b = data("dB" + d, d, (13, 5), -1, 1)
        tol = {"bfloat16": 2e-2, "float16": 2e-3, "float32": 1e-5, "complex64": 1e-5}.get(d, None)
        yield Program("dot", f"matmul_{d}", jnp.matmul, (a, b), tol)
    a = data("bmA", "float32", (3, 4, 6))
    b = data("bmB", "float32", (3, 6, 5))
    yield Program("dot", "batched_matmul", jnp.matmul, (a, b), 1e-5)
    yield Program("dot", "einsum_bij_bjk", lambda a, b: jnp.einsum("bij,bjk->bki", a, b), (a, b), 1e-5)
    yield Program("dot", "einsum_trace", lambda a: jnp.einsum("bii->b", a[:, :4, :4]), (a,), 1e-5)
    yield Program("dot", "vecdot", lambda a: jnp.dot(a[0, 0], a[1, 1]), (a,), 1e-5)
    yield Program("dot", "tensordot", lambda a, b: jnp.tensordot(a, b, axes=([0, 2], [0, 1])), (a, b), 1e-5)
    yield Program("dot", "precision_highest",
                  lambda a, b: jnp.matmul(a, b, precision=lax.Precision.HIGHEST), (a, b), 1e-5)
    yield Program("dot", "preferred_f32_from_bf16",
                  lambda a, b: lax.dot(a, b, preferred_element_type=jnp.float32),
                  (data("pA", "bfloat16", (4, 8)), data("pB", "bfloat16", (8, 3))), 1e-5)
    yield Program("dot", "int8_to_int32",
                  lambda a, b: lax.dot(a, b, preferred_element_type=jnp.int32),
                  (data("iA", "int8", (4, 8)), data("iB", "int8", (8, 3))))


def conv_pool():
    x = data("cx", "float32", (2, 9, 9, 3), -1, 1)
    w = data("cw", "float32", (3, 3, 3, 4), -1, 1)
    dn = ("NHWC", "HWIO", "NHWC")
    yield Program("conv", "conv2d_same",
                  lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn), (x, w), 1e-5)
    yield Program("conv", "conv2d_valid_stride2",
                  lambda x, w: lax.conv_general_dilated(x, w, (2, 2), "VALID", dimension_numbers=dn), (x, w), 1e-5)
    yield Program("conv", "conv2d_dilated",
                  lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", rhs_dilation=(2, 2),
                                                        dimension_numbers=dn), (x, w), 1e-5)
    yield Program("conv", "conv2d_transpose",
                  lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=dn), (x, w), 1e-5)
    yield Program("conv", "conv2d_grouped",
                  lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn,
                                                        feature_group_count=3),
                  (x, data("cwg", "float32", (3, 3, 1, 6))), 1e-5)
    yield Program("conv", "conv1d_nwc",
                  lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME",
                                                        dimension_numbers=("NWC", "WIO", "NWC")),
                  (data("c1x", "float32", (2, 16, 4)), data("c1w", "float32", (5, 4, 3))), 1e-5)
    yield Program("conv", "conv2d_nchw_f64",
                  lambda x, w: lax.conv(x, w, (1, 1), "SAME"),
                  (data("cnx", "float64", (1, 2, 7, 7)), data("cnw", "float64", (3, 2, 3, 3))), 1e-12)
    yield Program("conv", "conv2d_bf16",
                  lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn),
                  (x.astype(BF16), w.astype(BF16)), 2e-2)
    yield Program("pool", "max_pool",
                  lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"), (x,))
    yield Program("pool", "avg_pool",
                  lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4, (x,), 1e-6)
    yield Program("pool", "max_pool_grad",
                  jax.grad(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1),
                                                       "VALID").sum()), (x,))
    yield Program("pool", "window_dilated_sum",
                  lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID",
                                              window_dilation=(1, 2, 2, 1)), (x,), 1e-6)


def nn():
    x = data("nnx", "float32", (4, 10), -4, 4)
    for n in ["relu", "relu6", "gelu", "silu", "softplus", "elu", "selu", "leaky_relu",
              "log_sigmoid", "hard_tanh", "celu", "glu", "mish", "sparse_plus"]:
        f = getattr(jax.nn, n)
        yield Program("nn", n, f, (x,), 1e-5)
    yield Program("nn", "gelu_exact", lambda x: jax.nn.gelu(x, approximate=False), (x,), 1e-5)
    yield Program("nn", "softmax", lambda x: jax.nn.softmax(x, axis=-1), (x,), 1e-5)
    yield Program("nn", "log_softmax", lambda x: jax.nn.log_softmax(x, axis=0), (x,), 1e-5)
    yield Program("nn", "standardize", lambda x: jax.nn.standardize(x, axis=-1), (x,), 1e-5)
    yield Program("nn", "softmax_bf16", lambda x: jax.nn.softmax(x, axis=-1), (x.astype(BF16),), 2e-2)
    yield Program("nn", "softmax_f16", lambda x: jax.nn.softmax(x, axis=-1), (x.astype(np.float16),), 2e-3)

    def mlp(params, x):
        for w, b in params[:-1]:
            x = jnp.tanh(x @ w + b)
        w, b = params[-1]
        return x @ w + b

    ps = [(data("w1", "float32", (10, 16), -0.5, 0.5), data("b1", "float32", (16,), -0.1, 0.1)),
          (data("w2", "float32", (16, 3), -0.5, 0.5), data("b2", "float32", (3,), -0.1, 0.1))]
    y = np.array([0, 2, 1, 1], np.int32)

    def loss(params, x, y):
        logits = mlp(params, x)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    yield Program("train", "mlp_forward", mlp, (ps, x), 1e-5)
    yield Program("train", "mlp_grad", jax.grad(loss), (ps, x, y), 1e-5, 1e-6)
    yield Program("train", "mlp_value_and_grad", jax.value_and_grad(loss), (ps, x, y), 1e-5, 1e-6)

    def sgd_step(params, x, y):
        g = jax.grad(loss)(params, x, y)
        return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, g)

    yield Program("train", "mlp_sgd_step", sgd_step, (ps, x, y), 1e-5, 1e-6)

    def adam_step(params, m, v, x, y):
        g = jax.grad(loss)(params, x, y)
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        params = jax.tree_util.tree_map(lambda p, m, v: p - 1e-3 * m / (jnp.sqrt(v) + 1e-8), params, m, v)
        return params, m, v

    zeros = jax.tree_util.tree_map(np.zeros_like, ps)
    yield Program("train", "mlp_adam_step", adam_step, (ps, zeros, zeros, x, y), 1e-4, 1e-6)

    cx = data("cnn", "float32", (2, 8, 8, 1), -1, 1)
    cw = data("cnnw", "float32", (3, 3, 1, 4), -0.5, 0.5)
    dw = data("cnnd", "float32", (64, 2), -0.2, 0.2)

    def cnn_loss(cw, dw, x):
        h = jax.nn.relu(lax.conv_general_dilated(x, cw, (1, 1), "SAME",
                                                 dimension_numbers=("NHWC", "HWIO", "NHWC")))
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.sum(jnp.square(h.reshape(2, -1) @ dw))

    yield Program("train", "cnn_grad", jax.grad(cnn_loss, argnums=(0, 1)), (cw, dw, cx), 1e-4, 1e-5)

    q = data("attq", "float32", (2, 5, 8), -1, 1)

    def attention(q, k, v):
        s = jnp.einsum("bqd,bkd->bqk", q, k) / np.sqrt(8)
        mask = jnp.tril(jnp.ones((5, 5), bool))
        s = jnp.where(mask, s, -1e9)
        return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, axis=-1), v)

    yield Program("train", "causal_attention", attention, (q, q * 0.5, q + 1), 1e-5)
    yield Program("train", "attention_grad", jax.grad(lambda q, k, v: attention(q, k, v).sum()),
                  (q, q * 0.5, q + 1), 1e-4, 1e-6)

    def layernorm(x, g, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(v + 1e-5) * g + b

    yield Program("train", "layernorm_grad", jax.grad(lambda x, g, b: layernorm(x, g, b).sum() ** 2, argnums=(0, 1)),
                  (x, np.ones(10, np.float32), np.zeros(10, np.float32)), 1e-4, 1e-5)
    yield Program("train", "hessian_small", jax.hessian(lambda v: jnp.sum(jnp.sin(v) * v ** 2)),
                  (data("hess", "float64", (4,)),), 1e-12)
    yield Program("train", "jvp_vmap",
                  jax.vmap(lambda v: jax.jvp(jnp.tanh, (v,), (jnp.ones_like(v),))[1]), (x,), 1e-5)

    # Six identical pre-norm transformer layers, value and gradient: a model's repeated
    # layers emit the same fusions, which the JIT compiles once and shares.
    d, s, h = 16, 8, 2

    def block(x, p):
        def heads(t):
            return t.reshape(s, h, d // h).transpose(1, 0, 2)
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        y = (x - m) * lax.rsqrt(v + 1e-5)
        q, k, vv = heads(y @ p[0]), heads(y @ p[1]), heads(y @ p[2])
        a = jax.nn.softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d / h), axis=-1)
        x = x + (a @ vv).transpose(1, 0, 2).reshape(s, d) @ p[3]
        return x + jax.nn.gelu(x @ p[4]) @ p[5]

    def stacked_loss(ps, x):
        for p in ps:
            x = block(x, p)
        return (x ** 2).mean()

    shapes = [(d, d)] * 4 + [(d, 2 * d), (2 * d, d)]
    layers = [[data(f"layer{i}w{j}", "float32", sh, -0.3, 0.3) for j, sh in enumerate(shapes)]
              for i in range(6)]
    yield Program("train", "stacked_layers_grad", jax.value_and_grad(stacked_loss),
                  (layers, data("layers_x", "float32", (s, d))), 1e-4, 1e-6)


def control():
    x = data("ctl", "float32", (6,))
    yield Program("control", "fori_loop",
                  lambda x: lax.fori_loop(0, 10, lambda i, c: c * 0.9 + jnp.sin(c + i), x), (x,), 1e-5)
    yield Program("control", "while_loop",
                  lambda x: lax.while_loop(lambda c: c[0] < 20, lambda c: (c[0] + 1, c[1] * 1.1 + 0.01),
                                           (0, x)), (x,), 1e-5)
    yield Program("control", "scan_cumsum",
                  lambda x: lax.scan(lambda c, v: (c + v, c * v), 0.0, x), (x,), 1e-6)
    yield Program("control", "scan_rnn",
                  lambda h, xs, w: lax.scan(lambda h, x: (jnp.tanh(h @ w + x), h.sum()), h, xs),
                  (x[:4], data("xs", "float32", (7, 4)), data("rw", "float32", (4, 4), -0.5, 0.5)), 1e-5)
    yield Program("control", "scan_reverse_unroll",
                  lambda x: lax.scan(lambda c, v: (c * 0.5 + v, c), 1.0, x, reverse=True, unroll=2), (x,), 1e-6)
    yield Program("control", "cond",
                  lambda p, x: lax.cond(p > 0, lambda x: jnp.sin(x), lambda x: jnp.cos(x) * 2, x),
                  (np.int32(1), x), 1e-6)
    yield Program("control", "cond_false",
                  lambda p, x: lax.cond(p > 0, lambda x: jnp.sin(x), lambda x: jnp.cos(x) * 2, x),
                  (np.int32(-1), x), 1e-6)
    yield Program("control", "switch",
                  lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x), (np.int32(2), x), 1e-6)
    yield Program("control", "map", lambda x: lax.map(lambda r: r @ r, x.reshape(3, 2)), (x,), 1e-6)
    yield Program("control", "vmap_nested",
                  jax.vmap(jax.vmap(lambda a, b: a * b + jnp.sin(a))), (x.reshape(2, 3), x.reshape(2, 3)), 1e-6)
    yield Program("control", "grad_of_scan",
                  jax.grad(lambda x: lax.scan(lambda c, v: (c * jnp.cos(v), None), 1.0, x)[0]), (x,), 1e-5)
    yield Program("control", "checkpoint_grad",
                  jax.grad(lambda x: jax.checkpoint(lambda y: jnp.sin(y) ** 2)(x).sum()), (x,), 1e-6)
    yield Program("control", "custom_jvp_grad",
                  jax.grad(lambda x: jax.nn.relu(x).sum() + jax.nn.softplus(x).sum()), (x,), 1e-6)


def random():
    k = jax.random.key_data(jax.random.PRNGKey(42))
    rk = lambda k: jax.random.wrap_key_data(k)
    yield Program("random", "uniform", lambda k: jax.random.uniform(rk(k), (5, 7)), (k,))
    yield Program("random", "normal", lambda k: jax.random.normal(rk(k), (40,)), (k,), 1e-6)
    yield Program("random", "normal_f64", lambda k: jax.random.normal(rk(k), (9,), jnp.float64), (k,), 1e-14)
    yield Program("random", "bernoulli", lambda k: jax.random.bernoulli(rk(k), 0.3, (20,)), (k,))
    yield Program("random", "randint", lambda k: jax.random.randint(rk(k), (12,), -5, 17), (k,))
    yield Program("random", "split_fold_in",
                  lambda k: jax.random.key_data(jax.random.fold_in(jax.random.split(rk(k), 3)[1], 7)), (k,))
    yield Program("random", "categorical",
                  lambda k, l: jax.random.categorical(rk(k), l, shape=(6,)), (k, np.log(np.array([0.1, 0.6, 0.3], np.float32))))
    yield Program("random", "permutation", lambda k: jax.random.permutation(rk(k), 10), (k,))
    yield Program("random", "choice_noreplace", lambda k: jax.random.choice(rk(k), 20, (5,), replace=False), (k,))
    yield Program("random", "truncated_normal", lambda k: jax.random.truncated_normal(rk(k), -1.0, 2.0, (8,)), (k,), 1e-5)
    yield Program("random", "gamma", lambda k: jax.random.gamma(rk(k), 2.5, (6,)), (k,), 1e-5)
    yield Program("random", "beta", lambda k: jax.random.beta(rk(k), 2.0, 3.0, (6,)), (k,), 1e-5)
    yield Program("random", "exponential", lambda k: jax.random.exponential(rk(k), (8,)), (k,), 1e-6)
    yield Program("random", "dropout_like",
                  lambda k, x: jnp.where(jax.random.bernoulli(rk(k), 0.8, x.shape), x / 0.8, 0),
                  (k, data("drop", "float32", (4, 6))), 1e-6)
    yield Program("random", "rng_bit_generator",
                  lambda s: lax.rng_bit_generator(s, (4, 5), dtype=jnp.uint32),
                  (np.array([1, 2, 3, 4], np.uint32),))


def fft():
    for d, cd in [("float32", "complex64"), ("float64", "complex128")]:
        tol = 1e-5 if d == "float32" else 1e-12
        x = data("fft" + d, d, (3, 16))
        c = data("fftc" + d, cd, (3, 12))
        yield Program("fft", f"fft_{cd}", lambda c: jnp.fft.fft(c), (c,), tol, tol)
        yield Program("fft", f"ifft_{cd}", lambda c: jnp.fft.ifft(c, axis=0), (c,), tol, tol)
        yield Program("fft", f"rfft_{d}", jnp.fft.rfft, (x,), tol, tol)
        yield Program("fft", f"irfft_{d}", lambda x: jnp.fft.irfft(jnp.fft.rfft(x)), (x,), tol, tol)
        yield Program("fft", f"fft2_{cd}", jnp.fft.fft2, (c,), tol, tol)
        yield Program("fft", f"rfftn_odd_{d}", lambda x: jnp.fft.rfftn(x[:, :15]), (x,), tol, tol)
        yield Program("fft", f"fft_len7_{cd}", lambda c: jnp.fft.fft(c[:, :7]), (c,), tol, tol)
    yield Program("fft", "fftfreq_shift", lambda x: jnp.fft.fftshift(jnp.abs(jnp.fft.fft(x))),
                  (data("fs", "float32", (10,)),), 1e-5, 1e-5)


def special():
    for d in ["float32", "float64"]:
        tol = 1e-5 if d == "float32" else 1e-12
        x = data("sp" + d, d, (20,), 0.1, 6)
        y = data("sp2" + d, d, (20,), 0.1, 6)
        u = data("spu" + d, d, (20,), -0.99, 0.99)
        for n, f, args in [
            ("erf", jss.erf, (u * 3,)),
            ("erfc", jss.erfc, (u * 3,)),
            ("erfinv", jss.erfinv, (u,)),
            ("gammaln", jss.gammaln, (x,)),
            ("digamma", jss.digamma, (x,)),
            ("betaln", jss.betaln, (x, y)),
            ("xlogy", jss.xlogy, (u, x)),
            ("xlog1py", jss.xlog1py, (u, x)),
            ("expit", jss.expit, (u * 10,)),
            ("logit", jss.logit, (np.abs(u) * 0.98 + 0.01,)),
            ("i0e", jss.i0e, (u * 5,)),
            ("i1e", jss.i1e, (u * 5,)),
            ("ndtr", jss.ndtr, (u * 4,)),
            ("ndtri", jss.ndtri, (np.abs(u) * 0.98 + 0.01,)),
            ("log_ndtr", jss.log_ndtr, (u * 4,)),
            ("zeta", jss.zeta, (x + 1.5, y)),
            ("polygamma", lambda x: jss.polygamma(1, x), (x,)),
            ("gammainc", jss.gammainc, (x, y)),
            ("gammaincc", jss.gammaincc, (x, y)),
            ("entr", jss.entr, (np.abs(u),)),
            ("logsumexp", jss.logsumexp, (x,)),
            ("sinc", jnp.sinc, (u * 4,)),
            ("bessel_jn", lambda x: jss.bessel_jn(x, v=2), (x,)),
        ]:
            rt = tol * (100 if n in ("zeta", "polygamma", "gammainc", "gammaincc", "bessel_jn", "betaln")
                        else 10)
            yield Program("special", f"{n}_{d}", f, args, rt, tol)


def linalg():
    for d in ["float32", "float64", "complex64", "complex128"]:
        single = d in ("float32", "complex64")
        tol = 1e-4 if single else 1e-10
        n = 5
        a = well_conditioned("la" + d, d, (2, n, n))
        s = spd("ls" + d, d, n, (2,))
        b = data("lb" + d, d, (2, n, 3), -1, 1)
        rect = well_conditioned("lr" + d, d, (2, 7, 4))
        L = dict(rtol=tol, atol=tol)
        yield Program("linalg", f"cholesky_{d}", jnp.linalg.cholesky, (s,), **L)
        yield Program("linalg", f"solve_triangular_{d}",
                      lambda s, b: jsl.solve_triangular(jnp.linalg.cholesky(s), b, lower=True), (s, b), **L)
        yield Program("linalg", f"solve_triangular_trans_{d}",
                      lambda a, b: jsl.solve_triangular(jnp.triu(a), b, trans=1), (a, b), **L)
        yield Program("linalg", f"lu_{d}", lambda a: jsl.lu(a[0]), (a,), **L)
        yield Program("linalg", f"lu_factor_{d}", lambda a: jsl.lu_factor(a), (a,), **L)
        yield Program("linalg", f"solve_{d}", jnp.linalg.solve, (a, b), **L)
        yield Program("linalg", f"inv_{d}", jnp.linalg.inv, (a,), **L)
        yield Program("linalg", f"det_{d}", jnp.linalg.det, (a,), **L)
        yield Program("linalg", f"slogdet_{d}", lambda a: tuple(jnp.linalg.slogdet(a)), (a,), **L)
        yield Program("linalg", f"qr_{d}", lambda a: jnp.linalg.qr(a), (rect,), **L)
        yield Program("linalg", f"qr_complete_{d}", lambda a: jnp.linalg.qr(a, mode="complete"), (rect,), **L)
        yield Program("linalg", f"eigh_{d}",
                      lambda s: (lambda w, v: (w, jnp.abs(v)))(*jnp.linalg.eigh(s)), (s,), **L)
        yield Program("linalg", f"eigvalsh_{d}", jnp.linalg.eigvalsh, (s,), **L)
        yield Program("linalg", f"svd_{d}",
                      lambda a: (lambda u, sv, vh: (jnp.abs(u), sv, jnp.abs(vh)))(
                          *jnp.linalg.svd(a, full_matrices=False)), (rect,), **L)
        yield Program("linalg", f"svdvals_{d}", lambda a: jnp.linalg.svd(a, compute_uv=False), (rect,), **L)
        yield Program("linalg", f"eigvals_{d}", lambda a: jnp.sort(jnp.linalg.eigvals(a)), (a,), **L)
        yield Program("linalg", f"lstsq_{d}", lambda a, b: jnp.linalg.lstsq(a, b)[0],
                      (rect[0], rect[1, :, :2]), **L)
        yield Program("linalg", f"pinv_{d}", jnp.linalg.pinv, (rect,), **L)
        yield Program("linalg", f"matrix_rank_{d}", jnp.linalg.matrix_rank, (a,))
        yield Program("linalg", f"cho_solve_{d}",
                      lambda s, b: jsl.cho_solve(jsl.cho_factor(s), b), (s, b), **L)
        yield Program("linalg", f"lu_solve_{d}",
                      lambda a, b: jsl.lu_solve(jsl.lu_factor(a), b), (a, b), **L)
        yield Program("linalg", f"expm_{d}", lambda a: jsl.expm(a * 0.3), (a,), **L)
        yield Program("linalg", f"matrix_power_{d}", lambda a: jnp.linalg.matrix_power(a, 3), (a,), **L)
        yield Program("linalg", f"norm_2_{d}", lambda a: jnp.linalg.norm(a, ord=2, axis=(1, 2)), (a,), **L)
        yield Program("linalg", f"cond_{d}", jnp.linalg.cond, (a,), **L)
        yield Program("linalg", f"schur_abs_diag_{d}",
                      lambda a: jnp.sort(jnp.abs(jnp.diagonal(jsl.schur(a[0].astype(
                          jnp.complex64 if single else jnp.complex128))[0]))), (a,), **L)
        if d in ("float32", "float64"):
            # The real Schur form is unique up to the signs of the Schur vectors and the
            # rotation of each 2x2 block, which depend on when a rounding-level subdiagonal
            # entry deflates: compare T's diagonal (eigenvalue order) and the residuals.
            def schur_checks(a):
                t, z = lax.linalg.schur(a)
                zt = jnp.swapaxes(z, -1, -2)
                eye = jnp.eye(a.shape[-1], dtype=a.dtype)
                return (jnp.diagonal(t, axis1=-2, axis2=-1),
                        jnp.linalg.norm(z @ t @ zt - a, axis=(-2, -1)),
                        jnp.linalg.norm(zt @ z - eye, axis=(-2, -1)),
                        jnp.linalg.norm(jnp.tril(t, -2), axis=(-2, -1)))
            yield Program("linalg", f"schur_real_{d}", schur_checks, (a,), **L)
            yield Program("linalg", f"schur_real_t_diag_{d}",
                          lambda a: jnp.diagonal(lax.linalg.schur(a, compute_schur_vectors=False)[0],
                                                 axis1=-2, axis2=-1), (a,), **L)
        # Eigenvectors are unique up to a (complex) scale: compare the sorted eigenvalues and
        # the residual |A v - v w| instead of v.
        def eig_checks(a):
            w, v = jnp.linalg.eig(a)
            r = a.astype(v.dtype) @ v - v * w[..., None, :]
            return jnp.sort(w), jnp.linalg.norm(r, axis=(-2, -1))
        yield Program("linalg", f"eig_residual_{d}", eig_checks, (a,), **L)
        yield Program("linalg", f"norm_nuc_{d}", lambda a: jnp.linalg.norm(a, ord="nuc", axis=(1, 2)),
                      (a,), **L)
        yield Program("linalg", f"multi_dot_{d}", lambda a: jnp.linalg.multi_dot([a[0], a[1], a[0]]),
                      (a,), **L)
        yield Program("linalg", f"tensorsolve_{d}",
                      lambda a, b: jnp.linalg.tensorsolve(a[0], b[0, :, 0]), (a, b), **L)
        yield Program("linalg", f"polar_{d}", lambda s: jsl.polar(s[0]), (s,), **L)
        yield Program("linalg", f"sqrtm_{d}", lambda s: jsl.sqrtm(s[0]), (s,), **L)
        yield Program("linalg", f"hessenberg_norm_{d}",
                      lambda a: jnp.linalg.norm(jsl.hessenberg(a[0])), (a,), **L)
        yield Program("linalg", f"tridiagonal_eigvals_{d}",
                      lambda s: jnp.sort(jnp.abs(lax.linalg.tridiagonal(s)[1])), (s,), **L)
    for d in ["float32", "float64"]:
        tol = 1e-4 if d == "float32" else 1e-10
        n = 6
        dl = data("tdl" + d, d, (n,), -1, 1)
        dd = data("tdd" + d, d, (n,), 3, 4)
        du = data("tdu" + d, d, (n,), -1, 1)
        dl[0] = 0
        du[-1] = 0
        rhs = data("tdb" + d, d, (n, 2), -1, 1)
        yield Program("linalg", f"tridiagonal_solve_{d}", lax.linalg.tridiagonal_solve,
                      (dl, dd, du, rhs), rtol=tol, atol=tol)


AREAS = [elementwise, reductions, shapes, indexing, sorting, dots, conv_pool, nn, control,
         random, fft, special, linalg]


def programs():
    seen = set()
    for area in AREAS:
        for p in area():
            if p.fn is None:
                continue
            key = (p.area, p.name)
            assert key not in seen, key
            seen.add(key)
            yield p
