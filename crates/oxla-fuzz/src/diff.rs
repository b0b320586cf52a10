//! One program on the interpreter and on the JIT under several compile options, compared
//! exactly; and the explanation of a difference by the documented precision of the op that
//! produced it (docs/semantics.md, "where compiled code may differ").

use oxla_hlo::{BinaryOp, Error, HloModule, Literal, PrimitiveType, UnaryOp};
use oxla_runtime::{Client, CompileOptions};

use crate::compare::{diff_leaf, leaves, LeafDiff};
use crate::program::{Combiner, Kind, Program, Step};

/// A named set of compile options.
#[derive(Clone, Debug)]
pub struct OptionSet {
    pub name: String,
    pub options: CompileOptions,
    /// Run on a client whose communicator is not in-process ([`crate::replicas::remote_client`]):
    /// the collectives' cross-process path. Only programs on several replicas use this set.
    pub remote: bool,
}

/// The option sets every program is compiled with: no optimization on one thread, the full
/// pipeline on all threads, the full pipeline with constant folding on one thread; and, for
/// programs on several replicas, the full pipeline over a cross-process transport. Every
/// argument GEMM B keeps its packing from its second call on (`weight_pack_min` 0), which
/// [`check`]'s second call on the same buffers exercises.
pub fn option_sets() -> Vec<OptionSet> {
    let set = |opt: u32, threads: usize, fold: bool, remote: bool| OptionSet {
        name: format!(
            "opt_level={opt} fold_constants={fold} threads={threads}{}",
            if remote { " remote transport" } else { "" }
        ),
        options: CompileOptions {
            opt_level: opt,
            threads,
            fold_constants: fold,
            weight_pack_min: 0,
            ..Default::default()
        },
        remote,
    };
    vec![
        set(0, 1, false, false),
        set(1, 0, false, false),
        set(1, 1, true, false),
        set(1, 0, false, true),
    ]
}

/// How one program fared.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Every option set gave the interpreter's results bit for bit.
    Agree,
    /// The interpreter rejected the program at run time (nothing to compare against).
    InterpError(String),
    /// The JIT does not compile it: an `Unimplemented` error.
    NotCompiled(String),
    /// A difference under `options`.
    Mismatch(Mismatch),
}

/// A difference between the JIT and the interpreter.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub options: OptionSet,
    /// A compile or run error of the JIT, or the differing output leaves.
    pub error: Option<String>,
    pub leaves: Vec<(usize, LeafDiff)>,
    /// The JIT's output leaves (empty after an error).
    pub got: Vec<Literal>,
}

impl Mismatch {
    /// A short description.
    pub fn describe(&self) -> String {
        if let Some(e) = &self.error {
            return format!("[{}] {e}", self.options.name);
        }
        let parts: Vec<String> = self
            .leaves
            .iter()
            .map(|(k, d)| {
                format!(
                    "output {k}: {} element(s) differ (max {} ulp): {}",
                    d.count,
                    d.max_ulp,
                    d.examples.join("; ")
                )
            })
            .collect();
        format!("[{}] {}", self.options.name, parts.join(" | "))
    }
}

/// Runs `module` on the interpreter and compiled with each of `sets`, each executable twice
/// on the same argument buffers (state kept between calls: argument weights' packings).
pub fn check(client: &Client, module: &HloModule, args: &[Literal], sets: &[OptionSet]) -> Outcome {
    let want = match crate::replicas::interpret(module, args) {
        Ok(w) => leaves(&w),
        Err(e) => return Outcome::InterpError(e.to_string()),
    };
    let multi = crate::replicas::replicas(module) > 1;
    for set in sets {
        if set.remote && !multi {
            continue;
        }
        let client = if set.remote {
            match crate::replicas::remote_client() {
                Ok(c) => c,
                Err(e) => return Outcome::NotCompiled(e.to_string()),
            }
        } else {
            client
        };
        let fail = |error: String| {
            Outcome::Mismatch(Mismatch {
                options: set.clone(),
                error: Some(error),
                leaves: vec![],
                got: vec![],
            })
        };
        let exe = match crate::replicas::compile(client, module, &set.options) {
            Ok(e) => e,
            Err(Error::Unimplemented(m)) => return Outcome::NotCompiled(m),
            Err(e) => return fail(format!("compile: {e}")),
        };
        let calls = match crate::replicas::execute_twice(&exe, module, args) {
            Ok(c) => c,
            Err(e) => return fail(format!("execute: {e}")),
        };
        for (call, out) in calls.iter().enumerate() {
            let got = leaves(out);
            if got.len() != want.len() {
                return fail(format!("{} outputs, want {}", got.len(), want.len()));
            }
            let diffs: Vec<(usize, LeafDiff)> = got
                .iter()
                .zip(&want)
                .enumerate()
                .filter_map(|(k, (g, w))| diff_leaf(g, w).map(|d| (k, d)))
                .collect();
            if !diffs.is_empty() {
                let mut options = set.clone();
                if call > 0 {
                    options.name += ", second call on the same buffers";
                }
                return Outcome::Mismatch(Mismatch {
                    options,
                    error: None,
                    leaves: diffs,
                    got,
                });
            }
        }
    }
    Outcome::Agree
}

/// Machine epsilon of a float type's components.
fn epsilon(t: PrimitiveType) -> f64 {
    use PrimitiveType::*;
    match t {
        F64 | C128 => f64::EPSILON,
        F32 | C64 => f32::EPSILON as f64,
        F16 => 2f64.powi(-10),
        BF16 => 2f64.powi(-7),
        _ => 2f64.powi(-2),
    }
}

/// The largest finite magnitude of a value and whether it has a non-finite element.
fn magnitude(l: &Literal) -> (f64, bool) {
    let mut m = 0f64;
    let mut nonfinite = false;
    for s in l.scalars() {
        let parts = match s {
            oxla_hlo::literal::Scalar::Complex(c) => [c.re.abs(), c.im.abs()],
            s => {
                let v = s.as_f64().abs();
                [v, 0.0]
            }
        };
        for p in parts {
            if p.is_finite() {
                m = m.max(p);
            } else {
                nonfinite = true;
            }
        }
    }
    (m, nonfinite)
}

/// Why a mismatch of minimized program `p` (its root computed from `operands`, evaluated by
/// the interpreter) is a documented difference, or `None` when it is not.
pub fn explain(p: &Program, operands: &[Literal], m: &Mismatch) -> Option<String> {
    if m.error.is_some() || m.leaves.is_empty() {
        return None;
    }
    let node = p.nodes.get(p.root)?;
    let in_type = operands.first().map(|l| l.element_type())?;
    let d = m.leaves.iter().map(|(_, d)| d);
    let max_ulp = d.clone().map(|d| d.max_ulp).max().unwrap_or(0);
    let all_float = d.clone().all(|d| d.float);
    if !all_float {
        return None;
    }
    use PrimitiveType::*;
    let narrow = matches!(in_type, F16 | BF16) || in_type.bit_width() <= 8;
    match &node.kind {
        // f32 vector approximations (within 5 ULP; results below 2.4e-38 may flush).
        Kind::Unary(u) if vector_approximation(*u) && matches!(in_type, F32) => {
            within_f32_ulp(&m.leaves, 5)
                .then(|| format!("f32 vector {u:?} (≤ 5 ulp; results below 2.4e-38 flush)"))
        }
        // f64 exp, log and log1p in vectors (`oxla_kernels::vmath64`, within 1 ulp of
        // libm's): one ulp per such op where the program is a chain of them (log1p of log1p:
        // their slopes near the chain's values carry the first one's ulp through).
        Kind::Unary(u @ (UnaryOp::Exp | UnaryOp::Log | UnaryOp::Log1p))
            if matches!(in_type, F64) =>
        {
            let live = p.live();
            let ops: Vec<&Kind> = p
                .nodes
                .iter()
                .zip(&live)
                .filter(|&(_, &l)| l)
                .map(|(n, _)| &n.kind)
                .collect();
            let vector =
                |k: &Kind| matches!(k, Kind::Unary(UnaryOp::Exp | UnaryOp::Log | UnaryOp::Log1p));
            let chain = ops.iter().all(|k| vector(k) || matches!(k, Kind::Param(_)));
            let n = ops.iter().filter(|k| vector(k)).count() as u64;
            let bound = if chain { n.max(1) } else { 1 };
            if max_ulp <= bound {
                return Some(format!("f64 vector {u:?} (≤ 1 ulp per op, {n} here)"));
            }
            // A later op's slope may carry an earlier one's ulp further (log of a value
            // near 1: 1 ulp of log 3 is 14 ulp of log log 3): each element's result
            // within the interval that 1 ulp per op, carried through the chain, allows.
            (chain && within_chain_interval(p, m))
                .then(|| format!("f64 vector chain ({n} ops, 1 ulp each, carried through)"))
        }
        // f32 atan2 and pow in f64 lanes (within 1 ulp).
        Kind::Binary(b @ (BinaryOp::Atan2 | BinaryOp::Pow)) if matches!(in_type, F32) => {
            within_f32_ulp(&m.leaves, 1).then(|| format!("f32 {b:?} in f64 lanes (≤ 1 ulp)"))
        }
        // A loop applying tanh, logistic, sine or cosine `trip` times (its history holds
        // every iteration's value, which the minimizer does not unroll): their slopes are at
        // most 1, so each application adds its own error and amplifies none. (The generator
        // gives no history to loops of exp or log, whose iterates amplify it.)
        Kind::While {
            trip,
            step: Step::Unary(u @ (UnaryOp::Logistic | UnaryOp::Tanh | UnaryOp::Sin | UnaryOp::Cos)),
            ..
        } if matches!(in_type, F32) => {
            let bound = 5 * (*trip).max(1) as u64;
            within_f32_ulp(&m.leaves, bound)
                .then(|| format!("f32 vector {u:?} applied {trip} times in a loop (≤ {bound} ulp)"))
        }
        // Narrow floats are computed in f32 and rounded per op: one unit of double rounding.
        Kind::Unary(_) | Kind::Binary(_) | Kind::Clamp if narrow && max_ulp <= 1 => Some(format!(
            "{in_type} arithmetic in f32, rounded per op (≤ 1 ulp)"
        )),
        Kind::Reduce { op, .. } | Kind::ReduceWindow { op, .. }
            if matches!(op, BinaryOp::Add | BinaryOp::Mul) =>
        {
            accumulation(in_type, operands, m, *op == BinaryOp::Mul)
        }
        // Updates to one element apply in an order the backends choose (XLA leaves it
        // unspecified for non-unique indices).
        Kind::Scatter {
            combiner: Combiner::Binary(op @ (BinaryOp::Add | BinaryOp::Mul)),
            ..
        } if in_type.is_floating_or_complex() && operands.len() == 3 => accumulation(
            in_type,
            &[operands[0].clone(), operands[2].clone()],
            m,
            *op == BinaryOp::Mul,
        ),
        Kind::Dot(..) | Kind::Conv { .. } if in_type.is_floating_or_complex() => {
            accumulation(in_type, operands, m, false)
        }
        Kind::Fft { lengths, .. } => spectral(in_type, lengths, operands, m),
        _ => None,
    }
}

/// An FFT: the JIT runs a fast transform (rustfft: mixed radix, Rader, Bluestein) in the
/// operand's precision where the interpreter sums the DFT's terms in f64 and rounds once.
/// Each output is a sum of N = ∏ fft_length terms of magnitude at most max|x|, so the two
/// agree within the accumulation bound 2·N²·ε·max|x| (ε of the operand's precision). A
/// non-finite operand voids the bound: which outputs become NaN or ±inf (and whether an
/// IRFFT's ignored imaginary parts of the DC and Nyquist bins carry a NaN) depends on the
/// algorithm's order of operations; so does an overflow when N·max|x| nears the largest
/// finite value. Below the normal range a rounding's error is absolute, up to half the
/// smallest subnormal δ (2^-149 in f32): the bound adds 2·N²·δ (fuzz seed 14119931, an
/// f32 RFFT of subnormals 1 ulp of 2^-149 apart).
fn spectral(
    t: PrimitiveType,
    lengths: &[i64],
    operands: &[Literal],
    m: &Mismatch,
) -> Option<String> {
    let x = operands.first()?;
    let eps = epsilon(t);
    let n = lengths.iter().product::<i64>().max(1) as f64;
    let (scale, nonfinite) = magnitude(x);
    let (max_finite, delta) = if eps < 1e-10 {
        (f64::MAX, 2f64.powi(-1074))
    } else {
        (f32::MAX as f64, 2f64.powi(-149))
    };
    let mut voided = false;
    let ok = m.leaves.iter().all(|(_, d)| {
        d.pairs.iter().all(|&(_, a, b)| {
            if !a.is_finite() || !b.is_finite() {
                voided = true;
                nonfinite || scale * n >= max_finite / 4.0
            } else {
                (a - b).abs() <= 2.0 * n * n * (eps * scale + delta)
            }
        })
    });
    ok.then(|| {
        if voided {
            format!("{t} FFT of a non-finite or overflowing operand")
        } else {
            format!("{t} FFT (within 2·N²·ε·max|x|, N = ∏ fft_length)")
        }
    })
}

/// A sum (or product) of floats whose terms the JIT adds in another order than the
/// interpreter: explained when within the order's error bound, or when the terms overflow
/// (then which partial sum overflows depends on the order).
fn accumulation(
    t: PrimitiveType,
    operands: &[Literal],
    m: &Mismatch,
    product: bool,
) -> Option<String> {
    let eps = epsilon(t);
    let n: f64 = operands
        .iter()
        .map(|o| o.element_count().max(1) as f64)
        .fold(1.0, f64::max);
    let (scale, nonfinite) = operands
        .iter()
        .map(magnitude)
        .fold((1f64, false), |a, b| (a.0 * b.0.max(1.0), a.1 || b.1));
    let max_finite = match t {
        PrimitiveType::F64 | PrimitiveType::C128 => f64::MAX,
        PrimitiveType::F16 => 65504.0,
        PrimitiveType::F32 | PrimitiveType::C64 => f32::MAX as f64,
        _ => 3.38e38,
    };
    let min_normal = match t {
        PrimitiveType::F64 | PrimitiveType::C128 => f64::MIN_POSITIVE,
        PrimitiveType::F16 => 6.103515625e-5,
        _ => f32::MIN_POSITIVE as f64,
    };
    // The smallest nonzero magnitude among the operands' values (components).
    let smallest = operands
        .iter()
        .flat_map(|o| o.scalars())
        .flat_map(|s| match s {
            oxla_hlo::literal::Scalar::Complex(c) => [c.re, c.im],
            s => [s.as_f64(), 0.0],
        })
        .filter(|v| *v != 0.0 && v.is_finite())
        .fold(f64::INFINITY, |a, v| a.min(v.abs()));
    // A subnormal factor has lost bits already; and where two factors multiply below the
    // normal range, a partial product may be subnormal in one order and not in another,
    // losing any number of bits before larger factors scale it back up (fuzz seed
    // 15021254 with --max-dim 24: six f64 factors from 1e-267 to 1e270, 1.2% apart).
    let subnormal = smallest < min_normal || (product && smallest * smallest < min_normal);
    let complex = matches!(t, PrimitiveType::C64 | PrimitiveType::C128);
    let ok = m.leaves.iter().all(|(leaf, d)| {
        // A complex product's error is bounded by its modulus, not by each component: a
        // component that cancels (a·c - b·d, both terms near |z|) keeps the absolute
        // error of the terms (fuzz seed 9059350, a c128 product of 9 factors near 1e160
        // whose real part lost 48 ulp to cancellation).
        let modulus = |i: usize, pick: fn(&(usize, f64, f64)) -> f64| {
            d.pairs
                .iter()
                .filter(|p| p.0 / 2 == i / 2)
                .map(|p| pick(p).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        // The JIT's whole element, where only one component differs (fuzz seed 15077245
        // with --max-dim 24: a c128 product near 0.09 whose imaginary part, ~1e-32, is
        // all rounding).
        let got_modulus = |i: usize| match m.got.get(*leaf).map(|l| l.get_linear(i / 2)) {
            Some(Ok(oxla_hlo::literal::Scalar::Complex(c))) => c.re.hypot(c.im),
            _ => 0.0,
        };
        d.pairs.iter().all(|&(i, x, y)| {
            if !x.is_finite() || !y.is_finite() {
                return nonfinite || scale * n >= max_finite / 4.0 || product;
            }
            if product {
                let size = if complex {
                    modulus(i, |p| p.1)
                        .max(modulus(i, |p| p.2))
                        .max(got_modulus(i))
                } else {
                    y.abs().max(x.abs())
                };
                // A subnormal factor has lost bits already; which partial product it meets
                // decides how many more are lost.
                (x - y).abs() <= 4.0 * n * eps * size || x == 0.0 || y == 0.0 || subnormal
            } else {
                (x - y).abs() <= 2.0 * n * n * eps * scale
            }
        })
    });
    ok.then(|| format!("{t} accumulation order ({} terms at most)", n as u64))
}

/// Whether every differing element of `leaves` is within `bound` f32 ulp of the reference,
/// or both are below f32's normal range (the vector paths may flush there).
/// Whether every differing element of a program that is one chain of f64 exp / log /
/// log1p from one parameter lies in the interval the chain gives when each op may be 1 ulp
/// off: these functions increase, so [lo, hi] maps to [f(lo) - 1 ulp, f(hi) + 1 ulp] (the
/// interpreter's libm functions at the ends), from the program's own arguments.
fn within_chain_interval(p: &Program, m: &Mismatch) -> bool {
    let live = p.live();
    let nodes: Vec<(usize, &crate::program::Node)> = p
        .nodes
        .iter()
        .enumerate()
        .filter(|&(i, _)| live[i])
        .collect();
    let Some(&(first, head)) = nodes.first() else {
        return false;
    };
    let Kind::Param(k) = head.kind else {
        return false;
    };
    let mut funcs = Vec::new();
    let mut prev = first;
    for &(i, n) in &nodes[1..] {
        let f: fn(f64) -> f64 = match n.kind {
            Kind::Unary(UnaryOp::Exp) => f64::exp,
            Kind::Unary(UnaryOp::Log) => f64::ln,
            Kind::Unary(UnaryOp::Log1p) => f64::ln_1p,
            _ => return false,
        };
        if n.operands != [prev] {
            return false;
        }
        funcs.push(f);
        prev = i;
    }
    if prev != p.root {
        return false;
    }
    let Some(arg) = p.args.get(k).filter(|_| p.replicas == 1) else {
        return false;
    };
    let xs: Vec<f64> = arg.scalars().iter().map(|v| v.as_f64()).collect();
    m.leaves.iter().all(|(_, d)| {
        d.pairs.iter().all(|&(i, got, _)| {
            let Some(&x) = xs.get(i) else {
                return false;
            };
            let (mut lo, mut hi) = (x, x);
            for f in &funcs {
                (lo, hi) = (f(lo).next_down(), f(hi).next_up());
            }
            lo <= got && got <= hi
        })
    })
}

fn within_f32_ulp(leaves: &[(usize, LeafDiff)], bound: u64) -> bool {
    let ulp32 = |x: f64, y: f64| {
        let bits = |v: f64| (v as f32).to_bits() as u64;
        oxla_hlo::literal::ulp_distance_bits(bits(x), bits(y), 32)
    };
    leaves.iter().all(|(_, d)| {
        d.pairs
            .iter()
            .all(|&(_, x, y)| ulp32(x, y) <= bound || (x - y).abs() < 2.4e-38)
    })
}

/// The f32 unary ops the JIT computes by vector approximations (`oxla_kernels::vmath`).
fn vector_approximation(u: UnaryOp) -> bool {
    matches!(
        u,
        UnaryOp::Exp
            | UnaryOp::Log
            | UnaryOp::Logistic
            | UnaryOp::Tanh
            | UnaryOp::Erf
            | UnaryOp::Log1p
            | UnaryOp::Sin
            | UnaryOp::Cos
            | UnaryOp::Tan
    )
}

/// Whether node kind `k` is one of the JIT's f32 vector approximations.
fn approximate(k: &Kind) -> bool {
    match k {
        Kind::Unary(u) => vector_approximation(*u),
        Kind::Binary(BinaryOp::Atan2 | BinaryOp::Pow) => true,
        Kind::While {
            step: Step::Unary(u),
            ..
        } => vector_approximation(*u),
        _ => false,
    }
}

/// `v` with every finite f32 element moved `k` representable values up (or down).
fn nudge(v: &Literal, k: i32) -> Option<Literal> {
    let xs: Vec<f64> = v
        .scalars()
        .iter()
        .map(|s| {
            let x = s.as_f64() as f32;
            if !x.is_finite() {
                return x as f64;
            }
            let mut y = x;
            for _ in 0..k.unsigned_abs() {
                y = if k > 0 { y.next_up() } else { y.next_down() };
            }
            y as f64
        })
        .collect();
    Literal::from_f64s(PrimitiveType::F32, v.shape().dims(), &xs).ok()
}

/// A difference carried from an approximate op through the ops after it: for some f32
/// exp/log/logistic/tanh node of `p`, the interpreter's results with that node's value moved
/// 5 ulp down and up bracket every element the JIT got (widened by 5 ulp when the root is an
/// approximation too, as it then adds its own error).
pub fn explain_propagated(p: &Program, m: &Mismatch) -> Option<String> {
    use crate::minimize::value;
    if m.error.is_some() || m.leaves.len() != 1 {
        return None;
    }
    let (_, d) = &m.leaves[0];
    let want = value(p)?;
    let want_c = crate::compare::components(&want)?;
    let root_slack = p.nodes.get(p.root).is_some_and(|n| approximate(&n.kind));
    let live = p.live();
    for (i, node) in p.nodes.iter().enumerate() {
        if !live[i] || i == p.root || !approximate(&node.kind) {
            continue;
        }
        let v = value(&p.with_root(i))?;
        if v.element_type() != PrimitiveType::F32 {
            continue;
        }
        let lo = value(&p.cut(i, nudge(&v, -5)?))?;
        let hi = value(&p.cut(i, nudge(&v, 5)?))?;
        let (lo, hi) = (
            crate::compare::components(&lo)?,
            crate::compare::components(&hi)?,
        );
        let widen = |x: f64, up: bool| {
            if !root_slack || !x.is_finite() {
                return x;
            }
            let mut y = x as f32;
            for _ in 0..5 {
                y = if up { y.next_up() } else { y.next_down() };
            }
            y as f64
        };
        let inside = d.pairs.iter().all(|&(k, got, _)| {
            let vals = [lo.get(k), hi.get(k), want_c.get(k)];
            if vals.iter().any(|v| v.is_none()) {
                return false;
            }
            let vals: Vec<f64> = vals.iter().flatten().map(|v| v.1).collect();
            let a = widen(vals.iter().copied().fold(f64::INFINITY, f64::min), false);
            let b = widen(vals.iter().copied().fold(f64::NEG_INFINITY, f64::max), true);
            (a - 2.4e-38 <= got && got <= b + 2.4e-38)
                || (got.is_nan() && vals.iter().any(|v| v.is_nan()))
        });
        if inside {
            let op = match node.kind {
                Kind::Unary(u) => format!("{u:?}"),
                _ => String::new(),
            };
            return Some(format!(
                "f32 vector {op} error (≤ 5 ulp) carried through later ops"
            ));
        }
    }
    None
}

/// Whether node kind `k` combines many elements in an order the backends choose.
fn reduces(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Reduce { .. }
            | Kind::ReduceWindow { .. }
            | Kind::Scatter { .. }
            | Kind::Dot(..)
            | Kind::Conv { .. }
    )
}

/// Whether node `i` of `p` is an f16/bf16 element-wise op: the JIT computes it in f32, and
/// the conversion to f32 quiets a signaling NaN even where the op itself only moves the
/// sign (abs, neg, real), while the interpreter keeps the bits (docs/semantics.md).
fn narrow_elementwise(p: &Program, i: usize) -> bool {
    use PrimitiveType::*;
    let Some(node) = p.nodes.get(i) else {
        return false;
    };
    if !matches!(node.kind, Kind::Unary(_) | Kind::Binary(_) | Kind::Clamp) {
        return false;
    }
    crate::minimize::value(&p.with_root(i)).is_some_and(|v| matches!(v.element_type(), F16 | BF16))
}

/// A difference made by the bits of a NaN that a reduction or an FFT produced (which NaN
/// comes out of `inf - inf`, or which of several NaN operands a sum or a max/min passes on,
/// depends on the order the elements are combined in), or that an f16/bf16 element-wise op made of a
/// signaling NaN (`narrow_elementwise`). It is explained when the JIT's value of such a
/// node equals the interpreter's up to NaN bits, and the interpreter, continuing from the
/// JIT's value, gives exactly what the JIT gave.
pub fn explain_nan_bits(client: &Client, p: &Program, m: &Mismatch) -> Option<String> {
    use crate::minimize::value;
    if m.error.is_some() || m.got.len() != 1 {
        return None;
    }
    let got = &m.got[0];
    let live = p.live();
    for (i, node) in p.nodes.iter().enumerate() {
        if !live[i] || i == p.root {
            continue;
        }
        let why = if reduces(&node.kind) {
            "NaN bits out of a reduction (order of evaluation)"
        } else if matches!(node.kind, Kind::Fft { .. }) {
            // Which NaN a transform's butterflies pass on (and with which sign) depends on
            // the algorithm, as for a reduction (fuzz seed 9056333: an RFFT of a -NaN,
            // its outputs' NaN bits carried through complex powers to a bitcast).
            "NaN bits out of an FFT (order of evaluation)"
        } else if narrow_elementwise(p, i) {
            "signaling NaN quieted by f16/bf16 arithmetic in f32"
        } else if matches!(node.kind, Kind::Binary(BinaryOp::Add | BinaryOp::Mul)) {
            // Of two NaN operands, which one a commutative add or multiply passes on depends
            // on the operand order the compiler picks (IEEE 754 leaves it open; LLVM, and so
            // XLA, commute freely); a total-order sort then places them apart (fuzz seed
            // 21126519). Checked below: the values differ only where both operands are NaN.
            TWO_NANS
        } else {
            continue;
        };
        let (qm, qa) = p.with_root(i).build().ok()?;
        let mine = crate::replicas::interpret(&qm, &qa).ok()?;
        let client = if m.options.remote {
            crate::replicas::remote_client().ok()?
        } else {
            client
        };
        let exe = crate::replicas::compile(client, &qm, &m.options.options).ok()?;
        let theirs = crate::replicas::execute(&exe, &qm, &qa).ok()?;
        if theirs.bitwise_eq(&mine) || diff_leaf(&theirs, &mine).is_some() {
            continue;
        }
        if why == TWO_NANS && !differs_only_where_both_nan(p, i, &theirs, &mine) {
            continue;
        }
        let r = value(&p.cut(i, theirs))?;
        if (0..got.element_count()).all(|k| same_element(got, &r, k)) {
            return Some(why.into());
        }
    }
    None
}

/// The explanation of NaN bits that an add or multiply of two NaNs passed on.
const TWO_NANS: &str =
    "NaN bits of an add or multiply of two NaNs (which passes on is unspecified)";

/// Whether `a` and `b` (node `i`'s values on the two backends) differ in bits only at
/// elements where both of the node's operands are NaN on the interpreter.
fn differs_only_where_both_nan(p: &Program, i: usize, a: &Literal, b: &Literal) -> bool {
    use crate::minimize::value;
    let Some(node) = p.nodes.get(i) else {
        return false;
    };
    let [x, y] = node.operands[..] else {
        return false;
    };
    let (Some(x), Some(y)) = (value(&p.with_root(x)), value(&p.with_root(y))) else {
        return false;
    };
    let nan = |l: &Literal, k: usize| l.get_linear(k).is_ok_and(|v| v.as_f64().is_nan());
    let w = a.element_type().byte_size().max(1);
    let (ba, bb) = (a.to_le_bytes(), b.to_le_bytes());
    (0..a.element_count()).all(|k| {
        ba.get(k * w..(k + 1) * w) == bb.get(k * w..(k + 1) * w) || (nan(&x, k) && nan(&y, k))
    })
}

/// Element `k` of `a` and `b` is the same (bit for bit; any NaN equals any NaN).
fn same_element(a: &Literal, b: &Literal, k: usize) -> bool {
    if a.shape().without_layout() != b.shape().without_layout() {
        return false;
    }
    match (a.get_linear(k), b.get_linear(k)) {
        (Ok(x), Ok(y)) => {
            let (fx, fy) = (x.as_f64(), y.as_f64());
            if a.element_type().is_float() && fx.is_nan() && fy.is_nan() {
                return true;
            }
            let w = a.element_type().byte_size().max(1);
            let (ba, bb) = (a.to_le_bytes(), b.to_le_bytes());
            ba.get(k * w..(k + 1) * w) == bb.get(k * w..(k + 1) * w)
        }
        _ => false,
    }
}
