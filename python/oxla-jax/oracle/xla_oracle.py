"""XLA as the oracle: random JAX programs (ops.py) run through the Oxla plugin and through
JAX's CPU backend (XLA), every intermediate value compared. Each node is judged on identical
operands: where the backends' operands already differ (within their bounds), the node is
re-run on XLA with Oxla's operands. So a difference is pinned to one op, and a node's bound
is that op's alone ("exact", "ulp", or a reduction's n·eps·Σ|terms|).

Oxla runs with subnormals flushed (OXLA_FLUSH_DENORMALS=1), as XLA's CPU backend does.

    python xla_oracle.py --programs 100000 --seed 1 --jobs 2   # the campaign
    python xla_oracle.py --programs 1 --seed 1234 -v             # one program, every node

Programs run in worker processes: a crash takes one program, not the campaign. The crashing
seed is re-run on XLA alone; if XLA crashes by itself (its CPU compiler dies with SIGFPE
constant-folding an integer division by zero of a padded empty array, for one) the class is
explained, else Oxla crashed and it is a finding. Exit code 1 when a difference is
unexplained. Explained classes are counted and printed."""

import argparse
import collections
import os
import subprocess
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "oxla,cpu")
os.environ["OXLA_FLUSH_DENORMALS"] = "1"
# XLA may skip the rounding of a fused chain's intermediates to bf16/f16 unless told not to;
# the op-by-op comparison needs every value rounded to its type, as Oxla does.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_allow_excess_precision=false").strip()

import jax  # noqa: E402
import numpy as np  # noqa: E402

jax.config.update("jax_enable_x64", True)

import ops  # noqa: E402

SPECIAL_F = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 3.0, 1e30, -1e-30, 65504.0,
             1e-3, 100.0, -88.0, 89.0]


def inputs(rng, dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if ops.is_int(dtype):
        info = np.iinfo(dtype)
        v = rng.integers(info.min, int(info.max) + 1, size=n, dtype=np.int64 if dtype != "uint32" else np.uint64)
        small = rng.integers(-5 if info.min < 0 else 0, 6, size=n)
        pick = rng.random(n)
        v = np.where(pick < 0.6, small, v)
        edge = rng.choice([info.min, info.max, 0, 1], size=n)
        v = np.where(pick > 0.9, edge, v)
        return v.astype(dtype).reshape(shape)
    scale = float(rng.choice([1.0, 3.0, 0.01, 100.0]))
    v = rng.standard_normal(n) * scale
    if rng.random() < 0.35:
        mask = rng.random(n) < 0.25
        v = np.where(mask, rng.choice(SPECIAL_F, size=n), v)
    return v.astype(jax.numpy.dtype(dtype)).reshape(shape)


class Program:
    def __init__(self, seed):
        rng = np.random.default_rng(seed)
        self.seed = seed
        self.avals, self.args, self.ops = [], [], []
        base = tuple(int(x) for x in rng.integers(0, 6, size=int(rng.integers(0, 4))))
        for _ in range(int(rng.integers(1, 4))):
            d = str(rng.choice(ops.DTYPES))
            shape = base if rng.random() < 0.7 else ()
            self.avals.append((d, shape))
            self.args.append(inputs(rng, d, shape))
        if rng.random() < 0.4:  # a condition for select
            self.avals.append(("bool", base))
            self.args.append(inputs(rng, "bool", base))
        self.n_params = len(self.args)
        target = int(rng.integers(1, 7))
        tries = 0
        while len(self.ops) < target and tries < 40:
            tries += 1
            op = ops.draw(rng, self.avals)
            if op is None:
                continue
            specs = [jax.ShapeDtypeStruct(self.avals[i][1], self.avals[i][0]) for i in op.operands]
            try:
                out = jax.eval_shape(op.fn, *specs)
            except Exception:  # noqa: BLE001 - the draw does not apply to these operands
                continue
            if not hasattr(out, "shape") or np.prod(out.shape) > 1 << 16:
                continue
            self.ops.append(op)
            self.avals.append((str(out.dtype), tuple(out.shape)))

    def fn(self):
        def f(*params):
            vals = list(params)
            for op in self.ops:
                vals.append(op.fn(*[vals[i] for i in op.operands]))
            return vals[self.n_params:]
        return f

    def run(self, device):
        args = [jax.device_put(a, device) for a in self.args]
        out = jax.jit(self.fn())(*args)
        return list(self.args) + [np.asarray(o) for o in out]


def same_bits(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f" or a.dtype.name in ("bfloat16", "float16"):
        af, bf = a.astype(np.float64), b.astype(np.float64)
        nan = np.isnan(af) & np.isnan(bf)
        return bool(np.all(nan | ((af == bf) & (np.signbit(af) == np.signbit(bf)))))
    return bool(np.array_equal(a, b))


def eps(dtype):
    return float(jax.numpy.finfo(dtype).eps)


def ulp_distance(a, b):
    """Units in the last place between same-typed floats (large where signs differ)."""
    bits = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    def key(x):
        i = x.view(bits).astype(np.int64)
        return np.where(i < 0, np.iinfo(bits).min - i, i)
    return np.abs(key(a) - key(b))


# Correctly rounded IEEE operations, to judge who is right where XLA and Oxla differ.
NUMPY_IEEE = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
              "sqrt": np.sqrt, "square": np.square, "reciprocal": lambda v: 1 / v}


def _mp_functions():
    try:
        import mpmath
    except ImportError:
        return None
    mp = mpmath
    return {
        "exp": mp.exp, "log": mp.log, "sin": mp.sin, "cos": mp.cos, "tanh": mp.tanh,
        "logistic": lambda x: 1 / (1 + mp.exp(-x)), "erf": mp.erf, "expm1": mp.expm1,
        "log1p": mp.log1p, "rsqrt": lambda x: 1 / mp.sqrt(x), "tan": mp.tan, "atan": mp.atan,
        "cbrt": mp.cbrt, "erf_inv": mp.erfinv, "exp2": lambda x: mp.power(2, x),
        "sinh": mp.sinh, "asin": mp.asin, "pow": mp.power, "atan2": mp.atan2,
    }, mp


def exact_value(name, operands, dtype):
    """The op's value computed by mpmath at 60 digits and rounded once to `dtype` (None when
    mpmath is missing or the op is not one of its functions). Out-of-domain points give NaN."""
    fm = _mp_functions()
    if fm is None or name not in fm[0]:
        return None
    f, mp = fm[0][name], fm[1]
    args = np.broadcast_arrays(*[np.asarray(o).astype(np.float64) for o in operands])
    out = np.empty(args[0].shape, np.float64)
    with mp.workdps(60):
        for idx in np.ndindex(out.shape):
            xs = [a[idx] for a in args]
            try:
                if not all(np.isfinite(xs)):
                    out[idx] = np.nan
                    continue
                v = f(*[mp.mpf(float(x)) for x in xs])
                out[idx] = float(v) if not isinstance(v, mp.mpc) else np.nan
            except (ValueError, ZeroDivisionError, OverflowError):
                out[idx] = np.nan
    with np.errstate(over="ignore"):
        return out.astype(dtype)


def round_int_once(v, dtype):
    """Integers `v` rounded once to `dtype` (bf16: 8 significant bits, f16: 11, overflow to
    infinity), to nearest even, as float64."""
    bits, big = (8, 3.3895313892515355e38) if dtype.name == "bfloat16" else (11, 65504.0)
    out = np.empty(v.shape, np.float64)
    for idx, x in np.ndenumerate(v):
        x = int(x)
        m, sign = abs(x), (-1 if x < 0 else 1)
        shift = max(m.bit_length() - bits, 0)
        q, r = divmod(m, 1 << shift)
        half = (1 << shift) >> 1
        if shift and (r > half or (r == half and q & 1)):
            q += 1
        y = float(q << shift)
        out[idx] = sign * (np.inf if y > big else y)
    return out


def judge(op, got, want, operands):
    """None when `got` (Oxla) meets the op's bound against `want` (XLA on the same operands);
    else ("explained: CLASS", None) or ("unexplained", reason)."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return "unexplained", f"{got.dtype}{list(got.shape)} vs XLA {want.dtype}{list(want.shape)}"
    if same_bits(got, want):
        return None
    if got.dtype.kind not in "f" and got.dtype.name not in ("bfloat16", "float16"):
        bad = np.argwhere(got != want)[:3].tolist()
        return "unexplained", f"integers differ at {bad}"
    g, w = got.astype(np.float64), want.astype(np.float64)
    if np.all((g == w) | (np.isnan(g) & np.isnan(w))):
        return "explained: sign of zero", None
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        if op.bound == "sum" and not all(np.all(np.isfinite(np.asarray(o, np.float64))) for o in operands):
            return "explained: inf - inf in a different order of additions", None
        return "unexplained", f"NaN where XLA has none (or the reverse): {g.ravel()[:4]} vs {w.ravel()[:4]}"
    finite = np.isfinite(w) & np.isfinite(g)
    nf_g, nf_w = g[~finite], w[~finite]
    if not np.all((nf_g == nf_w) | (np.isnan(nf_g) & np.isnan(nf_w))):
        if op.bound == "sum":
            return "explained: overflow depends on the order of additions", None
        return "unexplained", f"infinities differ: {g[~finite][:4]} vs {w[~finite][:4]}"
    e = eps(got.dtype)
    if op.bound == "exact":
        if got.dtype.name in ("bfloat16", "float16") and len(operands) == 1 and \
                np.asarray(operands[0]).dtype.kind in "iu":
            # An integer to bf16/f16: XLA rounds through f32 (twice); Oxla once.
            r = np.broadcast_to(round_int_once(np.asarray(operands[0]), got.dtype), got.shape)
            differ = g != w
            if np.array_equal(g[differ], r[differ]):
                return "explained: XLA rounds an integer to bf16/f16 twice (through f32), Oxla once", None
        ref = NUMPY_IEEE.get(op.name)
        if ref is not None and got.dtype in (np.float32, np.float64):
            with np.errstate(all="ignore"):
                r = np.asarray(ref(*[np.asarray(o) for o in operands])).astype(got.dtype)
            r = np.broadcast_to(r, got.shape)
            differ = g != w
            if same_bits(got[differ], r[differ]):
                return f"explained: XLA's {op.name} is not correctly rounded (numpy's IEEE result is Oxla's)", None
        return "unexplained", f"exact op differs: {g[finite & (g != w)][:4]} vs XLA {w[finite & (g != w)][:4]}"
    if op.bound == "ulp":
        d = ulp_distance(got[finite].astype(got.dtype), want[finite].astype(want.dtype))
        near_zero = np.abs(g[finite] - w[finite]) <= op.ulps * e
        if np.all((d <= op.ulps) | near_zero):
            return f"explained: {op.name} within {op.ulps} ulp", None
        if op.name in ("sin", "cos", "tan") and any(np.max(np.abs(np.asarray(o, np.float64)), initial=0) > 1e4 for o in operands):
            return f"explained: {op.name} of a large argument (argument reduction)", None
        # Where the two differ, is Oxla within the bound of the exact value?
        differ = finite & (g != w)
        exact = exact_value(op.name, operands, got.dtype)
        if exact is not None:
            exact = np.broadcast_to(exact, got.shape)
            de = ulp_distance(got[differ].astype(got.dtype), exact[differ].astype(got.dtype))
            if np.all(de <= op.ulps):
                return f"explained: XLA less accurate than Oxla ({op.name}, against mpmath)", None
        elif got.dtype != np.float64:
            # Measure both against the op computed in f64 and rounded once.
            wide = [jax.device_put(np.asarray(o).astype(np.float64), jax.devices("cpu")[0])
                    if np.asarray(o).dtype.kind == "f" or np.asarray(o).dtype.name == "bfloat16"
                    else o for o in operands]
            exact = np.broadcast_to(np.asarray(jax.jit(op.fn)(*wide)).astype(got.dtype), got.shape)
            de = ulp_distance(got[differ].astype(got.dtype), exact[differ])
            if np.all(de <= op.ulps):
                return f"explained: XLA less accurate than Oxla ({op.name})", None
        worst = int(np.max(d))
        return "unexplained", f"{worst} ulp apart (bound {op.ulps})"
    # A reduction: the order of additions is the backend's.
    s = np.asarray(op.abs_fn(*[jax.device_put(o, jax.devices("cpu")[0]) for o in operands]), np.float64)
    s = np.broadcast_to(s, w.shape)[finite]
    tol = 2 * (op.terms + 1) * e * s + e * np.abs(w[finite])
    # Where the bound's own |terms| are not finite (an infinite operand that the op itself
    # multiplies by zero or pads away), bound by the largest result instead.
    if np.any(np.isnan(tol)):
        big = np.max(np.abs(w[finite]), initial=0.0)
        tol = np.where(np.isnan(tol), 2 * (op.terms + 1) * e * big, tol)
    diff = np.abs(g[finite] - w[finite])
    if np.all(diff <= tol):
        return "explained: order of additions", None
    k = int(np.argmax(diff - tol))
    return "unexplained", f"{diff[k]:.3g} apart, bound {tol[k]:.3g}"


def check(p, verbose=False):
    """Returns (class, detail) for program p."""
    cpu, ox = jax.devices("cpu")[0], jax.devices("oxla")[0]
    try:
        want = p.run(cpu)
    except Exception as e:  # noqa: BLE001 - XLA refuses it: nothing to compare
        return "xla error", type(e).__name__
    try:
        got = p.run(ox)
    except Exception as e:  # noqa: BLE001
        msg = str(e).split("\n")[0][:160]
        if "UNIMPLEMENTED" in msg:
            return "unimplemented", msg
        return "unexplained", f"Oxla failed where XLA ran: {msg}"
    explained = []
    for i, op in enumerate(p.ops):
        node = p.n_params + i
        o_ops = [got[j] for j in op.operands]
        alone = lambda: np.asarray(jax.jit(op.fn)(*[jax.device_put(o, cpu) for o in o_ops]))
        if all(same_bits(got[j], want[j]) for j in op.operands):
            w = want[node]
            r = judge(op, got[node], w, o_ops)
            if r is not None and r[0] == "unexplained":
                # XLA's value inside the whole program may not be its op's value on these
                # operands (fusion keeps excess precision, rewrites): judge against the op.
                w = alone()
                if judge(op, got[node], w, o_ops) is None:
                    r = ("explained: XLA's fused program differs from its own op", None)
        else:
            w = alone()
            r = judge(op, got[node], w, o_ops)
        if verbose:
            print(f"  v{node} = {op.name}({', '.join(f'v{j}' for j in op.operands)}): "
                  f"{got[node].dtype}{list(got[node].shape)} {r or 'same'}")
        if r is None:
            continue
        if r[0] == "unexplained":
            ins = "; ".join(np.array2string(np.asarray(o).ravel()[:6], precision=9) for o in o_ops)
            return "unexplained", (f"v{node} = {op.name} on {ins}: {r[1]}; Oxla "
                                   f"{np.asarray(got[node]).ravel()[:6]} XLA {np.asarray(w).ravel()[:6]}")
        explained.append(r[0])
    if explained:
        return explained[0], None
    return "agree", None


def campaign(programs, seed, verbose=False, progress=None):
    counts = collections.Counter()
    unimpl = collections.Counter()
    findings = []
    for k in range(programs):
        s = seed + k
        p = Program(s)
        if verbose:
            print(f"seed {s}: params {p.avals[:p.n_params]}")
        cls, detail = check(p, verbose)
        counts[cls] += 1
        if cls == "unimplemented":
            unimpl[detail] += 1
        if cls == "unexplained":
            findings.append((s, detail))
        if progress:
            progress(k + 1, counts, findings)
    return counts, unimpl, findings


def worker(seeds):
    """Checks each seed, one result line per program (the parent reads them)."""
    for s in seeds:
        if s < 0:  # XLA alone: does XLA crash on this program by itself?
            Program(-s).run(jax.devices("cpu")[0])
            print("XLA-ONLY ok", flush=True)
            continue
        cls, detail = check(Program(s))
        detail = " ".join((detail or "").split())
        print(f"RESULT\t{s}\t{cls}\t{detail or ''}", flush=True)


def parallel(seeds, jobs, progress):
    """Runs `seeds` over `jobs` worker processes, restarting a worker after a crash."""
    counts, unimpl, findings = collections.Counter(), collections.Counter(), []
    queues = [list(seeds[j::jobs]) for j in range(jobs)]
    me = [sys.executable, "-W", "ignore", os.path.abspath(__file__), "--worker"]

    def start(q):
        # The seeds of a queue are an arithmetic range: passed as START:STOP:STEP (a list of
        # 100,000 seeds would not fit on a command line).
        step = q[1] - q[0] if len(q) > 1 else 1
        p = subprocess.Popen(me + [f"{q[0]}:{q[-1] + 1}:{step}"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        return p, q

    running = [start(q) for q in queues if q]
    done = 0
    while running:
        # Round-robin line by line: each worker's output is read until it ends.
        p, q = running.pop(0)
        seen = 0
        for line in p.stdout:
            parts = line.rstrip("\n").split("\t")
            if parts[0] != "RESULT":
                continue
            seen += 1
            s, cls, detail = int(parts[1]), parts[2], parts[3]
            counts[cls] += 1
            if cls == "unimplemented":
                unimpl[detail] += 1
            if cls == "unexplained":
                findings.append((s, detail))
            done += 1
            progress(done, counts, findings)
        rc = p.wait()
        rest = q[seen:]
        if rc != 0 and rest:
            crashed = rest[0]
            alone = subprocess.run(me + [str(-crashed)], capture_output=True, text=True,
                                   timeout=600)
            if "XLA-ONLY ok" in alone.stdout:
                counts["unexplained"] += 1
                findings.append((crashed, f"the process died (exit {rc}) where XLA alone runs"))
            else:
                counts["explained: XLA's compiler crashes on it by itself"] += 1
            done += 1
            rest = rest[1:]
        if rest:
            running.append(start(rest))
    return counts, unimpl, findings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        if ":" in a.worker:
            start, stop, step = (int(x) for x in a.worker.split(":"))
            worker(range(start, stop, step))
        else:
            worker([int(x) for x in a.worker.split(",")])
        return
    t0 = time.time()
    last = [t0]

    def progress(k, counts, findings):
        if time.time() - last[0] > 30:
            last[0] = time.time()
            print(f"{k} programs, {len(findings)} unexplained ({time.time() - t0:.0f} s)",
                  file=sys.stderr, flush=True)

    if a.verbose:
        counts, unimpl, findings = campaign(a.programs, a.seed, True, progress)
    else:
        seeds = list(range(a.seed, a.seed + a.programs))
        counts, unimpl, findings = parallel(seeds, max(1, a.jobs), progress)
    print(f"{a.programs} programs from seed {a.seed} in {time.time() - t0:.0f} s")
    for cls, n in counts.most_common():
        print(f"  {n:7d}  {cls}")
    for msg, n in unimpl.most_common(10):
        print(f"  unimplemented {n}: {msg}")
    for s, d in findings:
        print(f"UNEXPLAINED seed {s}: {d}")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
