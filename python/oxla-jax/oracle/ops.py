"""The op vocabulary of the XLA-oracle fuzzer: each op says which operands it takes, builds
a jnp function for them, and names the bound its result must meet against XLA's given
identical operands ("exact": same bits; "ulp": a few units in the last place, for the
functions XLA and Oxla approximate differently; "sum": a reduction, where the order of
additions may differ, bounded by n·eps·Σ|terms|)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

F = ["float32", "float64", "bfloat16", "float16"]
I = ["int8", "int16", "int32", "int64", "uint8", "uint32"]
DTYPES = ["float32", "float32", "float64", "bfloat16", "float16", "int32", "int8", "uint8",
          "int16", "int64", "uint32", "bool"]


def is_float(d):
    return d in F


def is_int(d):
    return d in I


class Op:
    """One drawn op: `fn(*operands)`, the bound kind, and for "sum" the jnp function of
    absolute values that bounds the rounding (Σ|terms| per output element)."""

    def __init__(self, name, operands, fn, bound="exact", abs_fn=None, terms=1, ulps=4):
        self.name, self.operands, self.fn = name, operands, fn
        self.bound, self.abs_fn, self.terms, self.ulps = bound, abs_fn, terms, ulps


UNARY_ULP = {
    "exp": jnp.exp, "log": jnp.log, "sin": jnp.sin, "cos": jnp.cos, "tanh": jnp.tanh,
    "logistic": jax.nn.sigmoid, "erf": lax.erf, "expm1": jnp.expm1, "log1p": jnp.log1p,
    "rsqrt": lax.rsqrt, "tan": jnp.tan, "atan": jnp.arctan, "cbrt": jnp.cbrt,
    "erf_inv": lax.erf_inv, "exp2": jnp.exp2, "sinh": jnp.sinh, "asin": jnp.arcsin,
}
UNARY_EXACT_FLOAT = {
    "neg": jnp.negative, "abs": jnp.abs, "floor": jnp.floor, "ceil": jnp.ceil,
    "round": jnp.round, "sign": jnp.sign, "sqrt": jnp.sqrt, "square": jnp.square,
    "reciprocal": lambda v: 1 / v, "is_finite": jnp.isfinite, "trunc": jnp.trunc,
}
UNARY_INT = {
    "neg": jnp.negative, "abs": jnp.abs, "sign": jnp.sign, "not": jnp.invert,
    "popcount": lax.population_count, "clz": lax.clz,
}
BINARY_EXACT = {
    "add": jnp.add, "sub": jnp.subtract, "mul": jnp.multiply, "max": jnp.maximum,
    "min": jnp.minimum, "lt": jnp.less, "eq": jnp.equal, "ge": jnp.greater_equal,
    "ne": jnp.not_equal,
}
BINARY_FLOAT_EXACT = {"div": lax.div, "rem": lax.rem, "nextafter": jnp.nextafter,
                      "copysign": jnp.copysign}
BINARY_INT = {"div": lax.div, "rem": lax.rem, "and": jnp.bitwise_and, "or": jnp.bitwise_or,
              "xor": jnp.bitwise_xor, "shl": lax.shift_left,
              "shr_a": lax.shift_right_arithmetic, "shr_l": lax.shift_right_logical}
BINARY_ULP = {"pow": lax.pow, "atan2": jnp.arctan2}


def draw(rng, avals):
    """An op on some of `avals` (the (dtype, shape) of each value so far), or None."""
    k = int(rng.integers(len(avals)))
    # Later values more often: programs grow deeper, not only wider.
    k = max(k, int(rng.integers(len(avals))))
    d, s = avals[k]
    n = int(np.prod(s)) if s else 1
    choice = rng.random()
    if choice < 0.22:
        if is_float(d):
            if rng.random() < 0.5:
                name = rng.choice(sorted(UNARY_ULP))
                return Op(name, [k], UNARY_ULP[name], "ulp")
            name = rng.choice(sorted(UNARY_EXACT_FLOAT))
            return Op(name, [k], UNARY_EXACT_FLOAT[name])
        if is_int(d):
            name = rng.choice(sorted(UNARY_INT))
            return Op(name, [k], UNARY_INT[name])
        return Op("not", [k], jnp.logical_not) if rng.random() < 0.3 else None
    if choice < 0.42:
        # A second operand of the same dtype and shape, or a scalar of the dtype.
        same = [j for j, a in enumerate(avals) if a == (d, s)]
        scalars = [j for j, a in enumerate(avals) if a == (d, ())]
        j = int(rng.choice(same + scalars))
        ops = dict(BINARY_EXACT)
        bound = "exact"
        if is_float(d):
            if rng.random() < 0.3:
                ops, bound = BINARY_ULP, "ulp"
            else:
                ops.update(BINARY_FLOAT_EXACT)
        elif is_int(d):
            ops.update(BINARY_INT)
        else:
            ops = {"and": jnp.logical_and, "or": jnp.logical_or, "xor": jnp.logical_xor,
                   "eq": jnp.equal}
        name = rng.choice(sorted(ops))
        return Op(name, [k, j], ops[name], bound)
    if choice < 0.48:
        cond = [j for j, a in enumerate(avals) if a[0] == "bool" and a[1] in (s, ())]
        if cond:
            j = int(rng.choice(cond))
            other = int(rng.choice([i for i, a in enumerate(avals) if a == (d, s)]))
            return Op("select", [j, k, other], jnp.where)
    if choice < 0.54:
        to = str(rng.choice(DTYPES))
        return Op(f"convert_{to}", [k], lambda v: lax.convert_element_type(v, to))
    if choice < 0.64 and s:
        axis = int(rng.integers(len(s)))
        m = s[axis]
        if d == "bool":
            return Op("any", [k], lambda v: jnp.any(v, axis=axis))
        r = rng.random()
        if r < 0.3 and m:
            return Op("reduce_max", [k], lambda v: jnp.max(v, axis=axis))
        if r < 0.45 and m:
            return Op("argmax", [k], lambda v: jnp.argmax(v, axis=axis))
        if r < 0.55 and is_float(d):
            return Op("cummax", [k], lambda v: lax.cummax(v, axis=axis))
        if r < 0.8:
            return Op("sum", [k], lambda v: jnp.sum(v, axis=axis), "sum",
                      lambda v: jnp.sum(jnp.abs(v.astype(jnp.float64)), axis=axis), m)
        return Op("cumsum", [k], lambda v: jnp.cumsum(v, axis=axis), "sum",
                  lambda v: jnp.cumsum(jnp.abs(v.astype(jnp.float64)), axis=axis), m)
    if choice < 0.74 and s:
        r = rng.random()
        if r < 0.2:
            perm = tuple(int(p) for p in rng.permutation(len(s)))
            return Op("transpose", [k], lambda v: jnp.transpose(v, perm))
        if r < 0.35:
            axis = int(rng.integers(len(s)))
            return Op("reverse", [k], lambda v: jnp.flip(v, axis))
        if r < 0.5:
            lo = [int(rng.integers(-1, 3)) for _ in s]
            hi = [int(rng.integers(-1, 3)) for _ in s]
            it = [int(rng.integers(0, 2)) for _ in s]
            cfg = list(zip(lo, hi, it))
            ok = all(x + (x - 1) * i * (x > 0) + a + b >= 0 for x, (a, b, i) in zip(s, cfg))
            if ok:
                return Op("pad", [k], lambda v: lax.pad(v, jnp.zeros((), v.dtype), cfg))
            return None
        if r < 0.65:
            start = [int(rng.integers(0, x + 1)) for x in s]
            stop = [int(rng.integers(a, x + 1)) for a, x in zip(start, s)]
            return Op("slice", [k], lambda v: lax.slice(v, start, stop))
        if r < 0.75:
            return Op("reshape", [k], lambda v: v.reshape(-1))
        if r < 0.85 and n:
            idx = np.asarray(rng.integers(-2, n + 2, size=int(rng.integers(1, 6))), np.int32)
            mode = str(rng.choice(["clip", "fill"]))
            return Op(f"take_{mode}", [k], lambda v: jnp.take(v.reshape(-1), idx, mode=mode))
        if n and d != "bool":
            idx = np.asarray(rng.integers(-2, n + 2, size=int(rng.integers(1, 6))), np.int32)
            u = np.asarray(rng.integers(-3, 4), jnp.dtype(d))
            how = str(rng.choice(["set", "max", "min", "add"]))
            return Op(f"scatter_{how}", [k],
                      lambda v: getattr(v.reshape(-1).at[idx], how)(u, mode="drop"))
        return None
    if choice < 0.79 and s and d != "bool":
        axis = len(s) - 1
        if rng.random() < 0.6:
            return Op("sort", [k], lambda v: jnp.sort(v, axis=axis))
        kk = int(rng.integers(1, s[-1] + 1)) if s[-1] else 0
        if kk:
            return Op(f"top_k{kk}", [k], lambda v: lax.top_k(v, kk)[0])
        return Op("argsort", [k], lambda v: jnp.argsort(v, axis=axis, stable=True))
    if choice < 0.85 and len(s) >= 1 and d != "bool":
        # v2 @ v2.T: a dot of a value with itself, reshaped to a matrix.
        cols = s[-1]
        if is_int(d) and d in ("int8", "uint8") and rng.random() < 0.5:
            pref = jnp.int32
        elif d in ("bfloat16", "float16") and rng.random() < 0.5:
            pref = jnp.float32
        else:
            pref = None

        def dot(v):
            m = v.reshape(-1, cols)
            return lax.dot(m, m.T, preferred_element_type=pref)

        def dot_abs(v):
            m = jnp.abs(v.reshape(-1, cols).astype(jnp.float64))
            return m @ m.T

        bound = "sum" if is_float(d) else "exact"
        return Op("dot", [k], dot, bound, dot_abs, cols)
    if choice < 0.92 and d in ("float32", "float64", "bfloat16", "float16", "int8") and n >= 2:
        return conv(rng, k, d, n)
    if is_float(d) and n:
        r = rng.random()
        if r < 0.2 and s:
            # A scan along the first axis carrying a running value.
            def scan(v):
                def step(c, x):
                    c = jnp.maximum(c * 0.5, x)
                    return c, c
                return lax.scan(step, jnp.zeros(v.shape[1:], v.dtype), v)[1]
            return Op("scan", [k], scan)
        if r < 0.4:
            c = float(rng.choice([0.5, 2.0, -1.0, 0.25]))
            steps = int(rng.integers(0, 5))
            return Op(f"fori{steps}", [k],
                      lambda v: lax.fori_loop(0, steps, lambda i, a: jnp.maximum(a * c, a - 1), v))
        if r < 0.7:
            return Op("cond", [k], lambda v: lax.cond(jnp.sum(v) > 0, jnp.floor, jnp.negative, v))
        if d in ("float32", "float64"):
            name = rng.choice(["sin", "tanh", "exp", "logistic"])
            f = UNARY_ULP[name]
            return Op(f"grad_{name}", [k], lambda v: jax.grad(lambda a: jnp.sum(f(a)))(v), "ulp",
                      ulps=16)
    return None


def conv(rng, k, d, n):
    """A 1-D convolution of the value reshaped to [1, channels, width] with a constant
    kernel: strides, padding, dilation, depthwise groups, and for narrow types a wider
    result type (bf16/f16 -> f32, int8 -> int32) as quantized and mixed-precision models do."""
    c = int(rng.choice([x for x in (1, 2, 3, 4) if n % x == 0]))
    w = n // c
    groups = c if rng.random() < 0.4 else 1
    out_ch = groups * int(rng.integers(1, 3))
    kw = int(rng.integers(1, min(w, 3) + 1))
    rd = 2 if rng.random() < 0.2 and 2 * (kw - 1) + 1 <= w else 1
    stride = int(rng.integers(1, 3))
    pad = [(int(rng.integers(0, 2)), int(rng.integers(0, 2)))]
    if d == "int8":
        kernel = rng.integers(-4, 5, size=(out_ch, c // groups, kw)).astype(np.int8)
        pref = jnp.int32 if rng.random() < 0.8 else None
    else:
        kernel = (rng.standard_normal((out_ch, c // groups, kw))).astype(jnp.dtype(d))
        pref = jnp.float32 if d in ("bfloat16", "float16") and rng.random() < 0.5 else None

    def f(v, kern=kernel):
        return lax.conv_general_dilated(v.reshape(1, c, w), kern, (stride,), pad,
                                        rhs_dilation=(rd,), feature_group_count=groups,
                                        preferred_element_type=pref)

    def f_abs(v):
        return lax.conv_general_dilated(jnp.abs(v.reshape(1, c, w).astype(jnp.float64)),
                                        np.abs(kernel.astype(np.float64)), (stride,), pad,
                                        rhs_dilation=(rd,), feature_group_count=groups)

    bound = "exact" if d == "int8" else "sum"
    return Op(f"conv{'_dw' if groups > 1 else ''}", [k], f, bound, f_abs, (c // groups) * kw)
