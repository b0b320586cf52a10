//! Differential tests: the same HLO program and inputs through the JIT and the interpreter,
//! compared exactly (integers, data movement, ops whose JIT code calls the interpreter's own
//! scalar functions) or within a ULP bound (the vectorized transcendental approximations).
//! Inputs mix random values with NaN, ±inf, ±0, subnormals and extreme integers; shapes are
//! odd so that both the vector loop and the scalar tail run.

use oxla::hlo::{text::parse_module, Literal, PrimitiveType};
use oxla::interp::Interpreter;
use oxla::runtime::{Client, CompileOptions};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn unit(&mut self) -> f64 {
        self.next() as f64 / (1u64 << 53) as f64
    }
}

fn input(t: PrimitiveType, dims: &[i64], seed: u64) -> Literal {
    use PrimitiveType::*;
    let n: i64 = dims.iter().product();
    let mut r = Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    if t.is_float() {
        let specials = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            1e-40,
            -3e-39,
            1e-310,
            0.5,
            -2.5,
            3e38,
            -1e300,
            88.5,
            -104.0,
            0.3,
            -0.39,
            1.0,
            20.0,
        ];
        let v: Vec<f64> = (0..n)
            .map(|i| {
                if i % 3 == 0 {
                    specials[(r.next() % specials.len() as u64) as usize]
                } else {
                    (r.unit() - 0.5) * 20.0
                }
            })
            .collect();
        return Literal::from_f64s(t, dims, &v).unwrap();
    }
    let (lo, hi) = oxla::hlo::literal::int_range(t);
    let v: Vec<i64> = (0..n)
        .map(|i| match (t, i % 4) {
            (Pred, _) => (r.next() % 2) as i64,
            (_, 0) => [lo, hi, 0, -1, 1, 7][(r.next() % 6) as usize].clamp(lo, hi) as i64,
            (U64, _) => r.next() as i64,
            (_, 1) => lo.max(-100) as i64 + (r.next() % 200) as i64,
            _ => (lo + (r.next() as i128 % (hi - lo + 1))) as i64,
        })
        .map(|x| x.clamp(lo as i64, hi.min(i64::MAX as i128) as i64))
        .collect();
    Literal::from_i64s(t, dims, &v).unwrap()
}

fn ulp_diff32(a: f32, b: f32) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a == b {
        return 0;
    }
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            i32::MIN as i64 - i as i64
        } else {
            i as i64
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

fn ulp_diff64(a: f64, b: f64) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a == b {
        return 0;
    }
    let key = |x: f64| {
        let i = x.to_bits() as i64;
        if i < 0 {
            i64::MIN as i128 - i as i128
        } else {
            i as i128
        }
    };
    (key(a) - key(b)).unsigned_abs().min(u64::MAX as u128) as u64
}

/// Largest difference in ULPs (floats) or 0/1 (others: exact).
fn compare(jit: &Literal, interp: &Literal, ctx: &str, max_ulps: u64) {
    assert_eq!(jit.shape(), interp.shape(), "{ctx}: shapes");
    if let (Some(a), Some(b)) = (jit.tuple_elements(), interp.tuple_elements()) {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            compare(x, y, &format!("{ctx} [{k}]"), max_ulps);
        }
        return;
    }
    match jit.element_type() {
        PrimitiveType::F32 => {
            let (a, b) = (
                jit.data_as::<f32>().unwrap(),
                interp.data_as::<f32>().unwrap(),
            );
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let d = ulp_diff32(*x, *y);
                // Subnormal results of approximations may flush; allow a tiny absolute error.
                let tiny = (x - y).abs() < 1e-37;
                assert!(
                    d <= max_ulps || (max_ulps > 0 && tiny),
                    "{ctx}: element {i}: jit {x:e} vs interpreter {y:e} ({d} ulps)"
                );
            }
        }
        PrimitiveType::F64 => {
            let (a, b) = (
                jit.data_as::<f64>().unwrap(),
                interp.data_as::<f64>().unwrap(),
            );
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let d = ulp_diff64(*x, *y);
                assert!(
                    d <= max_ulps,
                    "{ctx}: element {i}: jit {x:e} vs interpreter {y:e} ({d} ulps)"
                );
            }
        }
        PrimitiveType::C64 => {
            let a = jit.data_as::<num_complex::Complex32>().unwrap();
            let b = interp.data_as::<num_complex::Complex32>().unwrap();
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let d = ulp_diff32(x.re, y.re).max(ulp_diff32(x.im, y.im));
                assert!(
                    d <= max_ulps,
                    "{ctx}: element {i}: jit {x} vs interpreter {y}"
                );
            }
        }
        PrimitiveType::C128 => {
            let a = jit.data_as::<num_complex::Complex64>().unwrap();
            let b = interp.data_as::<num_complex::Complex64>().unwrap();
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let d = ulp_diff64(x.re, y.re).max(ulp_diff64(x.im, y.im));
                assert!(
                    d <= max_ulps,
                    "{ctx}: element {i}: jit {x} vs interpreter {y}"
                );
            }
        }
        _ => {
            let (a, b) = (jit.to_f64s(), interp.to_f64s());
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                let same = x == y || (x.is_nan() && y.is_nan());
                assert!(same, "{ctx}: element {i}: jit {x} vs interpreter {y}");
            }
        }
    }
}

/// Runs `hlo` on both engines (JIT with and without optimization) and compares.
fn check(hlo: &str, args: &[Literal], max_ulps: u64) {
    let m = parse_module(hlo).unwrap_or_else(|e| panic!("{e}\n{hlo}"));
    let want = Interpreter::new()
        .run(&m, args)
        .unwrap_or_else(|e| panic!("interpreter: {e}\n{hlo}"));
    let client = Client::cpu().unwrap();
    for opt in [0, 1] {
        let options = CompileOptions {
            opt_level: opt,
            fold_constants: false,
            ..Default::default()
        };
        let exe = client
            .compile(&m, &options)
            .unwrap_or_else(|e| panic!("compile (opt {opt}): {e}\n{hlo}"));
        let got = exe
            .execute_literals(args)
            .unwrap_or_else(|e| panic!("execute (opt {opt}): {e}\n{hlo}"));
        compare(&got, &want, &format!("opt {opt}: {hlo}"), max_ulps);
    }
}

fn ty(t: PrimitiveType) -> &'static str {
    t.name()
}

const FLOATS: [PrimitiveType; 4] = [
    PrimitiveType::F32,
    PrimitiveType::F64,
    PrimitiveType::F16,
    PrimitiveType::BF16,
];
const INTS: [PrimitiveType; 8] = [
    PrimitiveType::S8,
    PrimitiveType::S16,
    PrimitiveType::S32,
    PrimitiveType::S64,
    PrimitiveType::U8,
    PrimitiveType::U16,
    PrimitiveType::U32,
    PrimitiveType::U64,
];

fn unary_module(op: &str, t: PrimitiveType, out: PrimitiveType, dims: &str) -> String {
    format!(
        "HloModule u\nENTRY main {{\n  p = {t}[{dims}] parameter(0)\n  ROOT r = {o}[{dims}] {op}(p)\n}}\n",
        t = ty(t),
        o = ty(out)
    )
}

fn binary_module(op: &str, t: PrimitiveType, dims: &str) -> String {
    format!(
        "HloModule b\nENTRY main {{\n  a = {t}[{dims}] parameter(0)\n  b = {t}[{dims}] parameter(1)\n  ROOT r = {t}[{dims}] {op}(a, b)\n}}\n",
        t = ty(t)
    )
}

#[test]
fn float_unary_ops() {
    let exact = [
        "abs",
        "negate",
        "sqrt",
        "ceil",
        "floor",
        "round-nearest-even",
        "sign",
        "rsqrt",
        "round-nearest-afz",
        "cbrt",
        "sine",
        "cosine",
        "tan",
        "log",
        "log-plus-one",
        "exponential-minus-one",
        "erf",
    ];
    // Vectorized approximations in f32 (exact elsewhere: scalar helpers).
    let approx = ["exponential", "tanh", "logistic", "log"];
    for t in FLOATS {
        for (i, op) in exact.iter().chain(&approx).enumerate() {
            let ulps = match (t, approx.contains(op)) {
                (PrimitiveType::F32, true) => 5,
                (PrimitiveType::F32, false) if *op == "rsqrt" => 1,
                _ => 0,
            };
            let m = unary_module(op, t, t, "3,37");
            check(&m, &[input(t, &[3, 37], i as u64)], ulps);
        }
        let m = unary_module("is-finite", t, PrimitiveType::Pred, "41");
        check(&m, &[input(t, &[41], 99)], 0);
    }
}

#[test]
fn transcendental_dense_sweep() {
    // exp / tanh / logistic in f32 over a dense sweep of the interesting range.
    let v: Vec<f32> = (0..20001).map(|i| (i as f32 - 10000.0) * 0.011).collect();
    let lit = Literal::vec1(&v);
    for op in ["exponential", "tanh", "logistic"] {
        let m = unary_module(op, PrimitiveType::F32, PrimitiveType::F32, "20001");
        check(&m, std::slice::from_ref(&lit), 5);
    }
    // log over the whole positive range, subnormals to the largest floats, and specials.
    let mut v: Vec<f32> = (-14900..12800)
        .map(|k| 2f32.powf(k as f32 / 100.0))
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    v.extend([
        0.0,
        -0.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0,
        f32::MAX,
    ]);
    v.extend((1..2000).map(|i| 1.0 + i as f32 * 1e-4));
    let n = v.len();
    let m = unary_module(
        "log",
        PrimitiveType::F32,
        PrimitiveType::F32,
        &n.to_string(),
    );
    check(&m, &[Literal::vec1(&v)], 4);
    // Near zero, where tanh switches between its two forms.
    let v: Vec<f32> = (0..4001).map(|i| (i as f32 - 2000.0) * 0.0003).collect();
    let m = unary_module("tanh", PrimitiveType::F32, PrimitiveType::F32, "4001");
    check(&m, &[Literal::vec1(&v)], 5);
}

#[test]
fn integer_unary_ops() {
    for t in INTS {
        for (i, op) in [
            "negate",
            "not",
            "abs",
            "popcnt",
            "count-leading-zeros",
            "sign",
        ]
        .iter()
        .enumerate()
        {
            if t.is_unsigned_int() && *op == "abs" {
                continue;
            }
            let m = unary_module(op, t, t, "2,19");
            check(&m, &[input(t, &[2, 19], i as u64 + 7)], 0);
        }
    }
    let m = unary_module("not", PrimitiveType::Pred, PrimitiveType::Pred, "23");
    check(&m, &[input(PrimitiveType::Pred, &[23], 3)], 0);
}

#[test]
fn binary_ops() {
    let float_ops = [
        "add",
        "subtract",
        "multiply",
        "divide",
        "maximum",
        "minimum",
        "remainder",
        "power",
        "atan2",
    ];
    for t in FLOATS {
        for (i, op) in float_ops.iter().enumerate() {
            let m = binary_module(op, t, "5,13");
            check(
                &m,
                &[
                    input(t, &[5, 13], i as u64),
                    input(t, &[5, 13], 100 + i as u64),
                ],
                0,
            );
        }
    }
    let int_ops = [
        "add",
        "subtract",
        "multiply",
        "divide",
        "remainder",
        "maximum",
        "minimum",
        "and",
        "or",
        "xor",
        "shift-left",
        "shift-right-logical",
        "shift-right-arithmetic",
        "power",
    ];
    for t in INTS {
        for (i, op) in int_ops.iter().enumerate() {
            let m = binary_module(op, t, "3,11");
            check(
                &m,
                &[
                    input(t, &[3, 11], i as u64),
                    input(t, &[3, 11], 50 + i as u64),
                ],
                0,
            );
        }
    }
    for op in ["and", "or", "xor"] {
        let m = binary_module(op, PrimitiveType::Pred, "17");
        let p = PrimitiveType::Pred;
        check(&m, &[input(p, &[17], 1), input(p, &[17], 2)], 0);
    }
}

#[test]
fn compare_select_clamp() {
    for t in FLOATS.iter().chain(&INTS) {
        for (i, dir) in ["EQ", "NE", "LT", "LE", "GT", "GE"].iter().enumerate() {
            for ct in ["", ", type=TOTALORDER"] {
                if !ct.is_empty() && !t.is_float() {
                    continue;
                }
                let m = format!(
                    "HloModule c\nENTRY main {{\n  a = {t}[3,9] parameter(0)\n  b = {t}[3,9] parameter(1)\n  c = pred[3,9] compare(a, b), direction={dir}{ct}\n  ROOT s = {t}[3,9] select(c, a, b)\n}}\n",
                    t = ty(*t)
                );
                let a = input(*t, &[3, 9], i as u64);
                // Half of b equal to a so EQ/LE/GE see ties.
                check(&m, &[a.clone(), input(*t, &[3, 9], 30 + i as u64)], 0);
                check(&m, &[a.clone(), a], 0);
            }
        }
        let m = format!(
            "HloModule k\nENTRY main {{\n  lo = {t}[] parameter(0)\n  x = {t}[4,7] parameter(1)\n  hi = {t}[] parameter(2)\n  ROOT r = {t}[4,7] clamp(lo, x, hi)\n}}\n",
            t = ty(*t)
        );
        let lo = input(*t, &[], 5);
        let hi = input(*t, &[], 6);
        check(&m, &[lo, input(*t, &[4, 7], 8), hi], 0);
    }
}

#[test]
fn conversions() {
    let all: Vec<PrimitiveType> = FLOATS
        .iter()
        .chain(&INTS)
        .copied()
        .chain([PrimitiveType::Pred])
        .collect();
    for (i, &from) in all.iter().enumerate() {
        for &to in &all {
            let m = unary_module("convert", from, to, "3,13");
            check(&m, &[input(from, &[3, 13], i as u64)], 0);
        }
    }
    for (from, to) in [
        (PrimitiveType::F32, PrimitiveType::S32),
        (PrimitiveType::S32, PrimitiveType::F32),
        (PrimitiveType::F64, PrimitiveType::U64),
        (PrimitiveType::U32, PrimitiveType::F32),
    ] {
        let m = unary_module("bitcast-convert", from, to, "2,9");
        check(&m, &[input(from, &[2, 9], 4)], 0);
    }
}

#[test]
fn data_movement() {
    let f = PrimitiveType::F32;
    let x = input(f, &[3, 5, 7], 1);
    let progs = [
        "ROOT r = f32[7,3,5] transpose(p), dimensions={2,0,1}",
        "ROOT r = f32[5,21] reshape(p)",
        "ROOT r = f32[105] reshape(p)",
        "ROOT r = f32[3,5,7] reverse(p), dimensions={0,2}",
        "ROOT r = f32[2,2,3] slice(p), slice={[1:3], [0:5:3], [1:7:2]}",
        "ROOT r = f32[3,5,7] copy(p)",
        "ROOT r = f32[2,3,5,7] broadcast(p), dimensions={1,2,3}",
        "c = f32[] constant(-1.5)\n  ROOT r = f32[5,8,16] pad(p, c), padding=1_1_0x0_-1_1x2_1_1",
        "ROOT r = f32[3,10,7] concatenate(p, p), dimensions={1}",
        "ROOT r = f32[3,5,14] concatenate(p, p), dimensions={2}",
        "i = s32[] constant(2)\n  j = s32[] constant(-4)\n  k = s32[] constant(6)\n  ROOT r = f32[2,3,4] dynamic-slice(p, i, j, k), dynamic_slice_sizes={2,3,4}",
        "u = f32[2,2,3] slice(p), slice={[0:2], [0:2], [0:3]}\n  i = s32[] constant(2)\n  j = s32[] constant(1)\n  k = s32[] constant(9)\n  ROOT r = f32[3,5,7] dynamic-update-slice(p, u, i, j, k)",
        "ROOT r = s32[3,5,7] iota(), iota_dimension=2",
        "ROOT r = f32[3,5,7] iota(), iota_dimension=1",
        "s = f32[3,1,7] slice(p), slice={[0:3], [2:3], [0:7]}\n  ROOT r = f32[3,5,7] broadcast(s), dimensions={0,1,2}",
    ];
    for body in progs {
        let m =
            format!("HloModule d\nENTRY main {{\n  p = f32[3,5,7] parameter(0)\n  {body}\n}}\n");
        check(&m, std::slice::from_ref(&x), 0);
    }
}

#[test]
fn reductions() {
    let f = PrimitiveType::F32;
    let add = "add_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n";
    let max = "max_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] maximum(a, b)\n}\n";
    // Finite inputs: summation order differs between the engines (vectorized rows), so
    // compare sums with a tolerance through small integers, which add exactly.
    let ints: Vec<f32> = (0..(6 * 37))
        .map(|i| ((i * 7919) % 23) as f32 - 11.0)
        .collect();
    let x = Literal::from_vec(&[6, 37], ints).unwrap();
    for (dims, out) in [("{1}", "f32[6]"), ("{0}", "f32[37]"), ("{0,1}", "f32[]")] {
        for (name, comp) in [("add_f", add), ("max_f", max)] {
            let m = format!(
                "HloModule r\n{comp}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = {out} reduce(p, z), dimensions={dims}, to_apply={name}\n}}\n"
            );
            check(&m, std::slice::from_ref(&x), 0);
        }
    }
    // Max with NaN and infinities (order-independent).
    let m = format!(
        "HloModule r\n{max}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  z = f32[] constant(-inf)\n  ROOT r = f32[6] reduce(p, z), dimensions={{1}}, to_apply=max_f\n}}\n"
    );
    check(&m, &[input(f, &[6, 37], 3)], 0);
    // Variadic argmax (value, index) along rows.
    let argmax = "argmax {\n  av = f32[] parameter(0)\n  ai = s32[] parameter(1)\n  bv = f32[] parameter(2)\n  bi = s32[] parameter(3)\n  gt = pred[] compare(av, bv), direction=GT\n  eq = pred[] compare(av, bv), direction=EQ\n  lt = pred[] compare(ai, bi), direction=LT\n  tie = pred[] and(eq, lt)\n  take = pred[] or(gt, tie)\n  v = f32[] select(take, av, bv)\n  i = s32[] select(take, ai, bi)\n  ROOT t = (f32[], s32[]) tuple(v, i)\n}\n";
    let m = format!(
        "HloModule a\n{argmax}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  io = s32[6,37] iota(), iota_dimension=1\n  z = f32[] constant(-inf)\n  zi = s32[] constant(0)\n  ROOT r = (f32[6], s32[6]) reduce(p, io, z, zi), dimensions={{1}}, to_apply=argmax\n}}\n"
    );
    check(&m, std::slice::from_ref(&x), 0);
    // Integer reduce, and a fused producer (kInput fusion).
    let iadd = "add_i {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT c = s32[] add(a, b)\n}\n";
    let m = format!(
        "HloModule i\n{iadd}\nENTRY main {{\n  p = s32[9,13] parameter(0)\n  q = s32[9,13] multiply(p, p)\n  z = s32[] constant(0)\n  ROOT r = s32[13] reduce(q, z), dimensions={{0}}, to_apply=add_i\n}}\n"
    );
    check(&m, &[input(PrimitiveType::S32, &[9, 13], 4)], 0);
    // reduce-window with padding, strides and base dilation (a cumulative sum and a pool).
    let m = format!(
        "HloModule w\n{add}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[6,37] reduce-window(p, z), window={{size=1x37 pad=0_0x36_0}}, to_apply=add_f\n}}\n"
    );
    check(&m, std::slice::from_ref(&x), 0);
    // Prefix scans along the outer dimension (a kernel that is not split across threads)
    // and with a max reducer.
    let m = format!(
        "HloModule w\n{add}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[6,37] reduce-window(p, z), window={{size=6x1 pad=5_0x0_0}}, to_apply=add_f\n}}\n"
    );
    check(&m, std::slice::from_ref(&x), 0);
    let m = format!(
        "HloModule w\n{max}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  z = f32[] constant(-inf)\n  ROOT r = f32[6,37] reduce-window(p, z), window={{size=1x37 pad=0_0x36_0}}, to_apply=max_f\n}}\n"
    );
    check(&m, &[input(f, &[6, 37], 12)], 0);
    let m = format!(
        "HloModule w\n{max}\nENTRY main {{\n  p = f32[6,37] parameter(0)\n  z = f32[] constant(-inf)\n  ROOT r = f32[4,19] reduce-window(p, z), window={{size=2x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1}}, to_apply=max_f\n}}\n"
    );
    check(&m, &[input(f, &[6, 37], 9)], 0);
}

#[test]
fn dots() {
    let ints = |dims: &[i64], seed: i64| {
        let n: i64 = dims.iter().product();
        let v: Vec<f32> = (0..n)
            .map(|i| (((i + seed) * 7919) % 13) as f32 - 6.0)
            .collect();
        Literal::from_vec(dims, v).unwrap()
    };
    // Small integers: sums are exact in any order, so GEMM and the interpreter agree.
    let cases = [
        (
            "f32[5,7]",
            "f32[7,3]",
            "f32[5,3]",
            "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
            [5, 7],
            [7, 3],
        ),
        (
            "f32[70,90]",
            "f32[90,33]",
            "f32[70,33]",
            "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
            [70, 90],
            [90, 33],
        ),
        (
            "f32[7,5]",
            "f32[3,7]",
            "f32[5,3]",
            "lhs_contracting_dims={0}, rhs_contracting_dims={1}",
            [7, 5],
            [3, 7],
        ),
    ];
    for (l, r, o, dn, ld, rd) in cases {
        let m = format!(
            "HloModule g\nENTRY main {{\n  a = {l} parameter(0)\n  b = {r} parameter(1)\n  ROOT d = {o} dot(a, b), {dn}\n}}\n"
        );
        check(&m, &[ints(&ld, 1), ints(&rd, 2)], 0);
    }
    let m = "HloModule g\nENTRY main {\n  a = f32[4,20,30] parameter(0)\n  b = f32[4,30,40] parameter(1)\n  ROOT d = f32[4,20,40] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}\n}\n";
    check(m, &[ints(&[4, 20, 30], 3), ints(&[4, 30, 40], 4)], 0);
    let m = "HloModule g\nENTRY main {\n  a = s32[6,5] parameter(0)\n  b = s32[5,9] parameter(1)\n  ROOT d = s32[6,9] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
    check(
        m,
        &[
            input(PrimitiveType::S32, &[6, 5], 1),
            input(PrimitiveType::S32, &[5, 9], 2),
        ],
        0,
    );
}

#[test]
fn control_flow() {
    // while: x = tanh(x) * 1.5 + i for i in 0..10.
    let m = "HloModule w\ncond {\n  s = (s32[], f32[9]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(10)\n  ROOT c = pred[] compare(i, n), direction=LT\n}\nbody {\n  s = (s32[], f32[9]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  x = f32[9] get-tuple-element(s), index=1\n  t = f32[9] tanh(x)\n  k = f32[] constant(1.5)\n  kb = f32[9] broadcast(k), dimensions={}\n  y = f32[9] multiply(t, kb)\n  fi = f32[] convert(i)\n  fb = f32[9] broadcast(fi), dimensions={}\n  z = f32[9] add(y, fb)\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  ROOT r = (s32[], f32[9]) tuple(j, z)\n}\nENTRY main {\n  x = f32[9] parameter(0)\n  z = s32[] constant(0)\n  s = (s32[], f32[9]) tuple(z, x)\n  w = (s32[], f32[9]) while(s), condition=cond, body=body\n  ROOT r = f32[9] get-tuple-element(w), index=1\n}\n";
    let v: Vec<f32> = (0..9).map(|i| i as f32 * 0.3 - 1.0).collect();
    check(m, &[Literal::vec1(&v)], 8);
    // conditional on an s32 index, out of range -> last branch.
    let m = "HloModule c\nb0 {\n  x = f32[5] parameter(0)\n  ROOT r = f32[5] negate(x)\n}\nb1 {\n  x = f32[5] parameter(0)\n  ROOT r = f32[5] add(x, x)\n}\nENTRY main {\n  k = s32[] parameter(0)\n  x = f32[5] parameter(1)\n  ROOT r = f32[5] conditional(k, x, x), branch_computations={b0, b1}\n}\n";
    let x = input(PrimitiveType::F32, &[5], 2);
    for k in [0i32, 1, 7, -3] {
        check(m, &[Literal::scalar(k), x.clone()], 0);
    }
}

#[test]
fn bad_arguments_and_unsupported_ops_are_errors() {
    let m = parse_module(&binary_module("add", PrimitiveType::F32, "4")).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap();
    let a = Literal::vec1(&[1f32, 2.0, 3.0, 4.0]);
    let e = exe.execute_literals(std::slice::from_ref(&a)).unwrap_err();
    assert!(e.to_string().contains("2 argument(s), got 1"), "{e}");
    let e = exe
        .execute_literals(&[a.clone(), Literal::vec1(&[1f32, 2.0])])
        .unwrap_err();
    assert!(e.to_string().contains("argument 1: expected f32[4]"), "{e}");
    let e = exe
        .execute_literals(&[a.clone(), Literal::vec1(&[1i32, 2, 3, 4])])
        .unwrap_err();
    assert!(e.to_string().contains("argument 1"), "{e}");
    let out = exe.execute_literals(&[a.clone(), a]).unwrap();
    assert_eq!(out, Literal::vec1(&[2f32, 4.0, 6.0, 8.0]));
    // An op the JIT does not compile yet: a clear Unimplemented error naming it.
    let m = parse_module("HloModule s\nENTRY main {\n  p = f32[8] parameter(0)\n  ROOT f = f32[8] custom-call(p), custom_call_target=\"my_kernel\"\n}\n").unwrap();
    let e = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .err()
        .expect("custom calls are not compiled");
    assert!(matches!(e, oxla::hlo::Error::Unimplemented(_)), "{e}");
    assert!(e.to_string().contains("custom-call"), "{e}");
}

#[test]
fn linear_algebra() {
    // A well-conditioned lower-triangular system and an SPD matrix.
    let a: Vec<f32> = (0..16)
        .map(|i| {
            let (r, c) = (i / 4, i % 4);
            if r == c {
                4.0 + r as f32
            } else {
                ((r * 3 + c) % 5) as f32 * 0.25 - 0.5
            }
        })
        .collect();
    let a = Literal::from_vec(&[4, 4], a).unwrap();
    let b = input(PrimitiveType::F32, &[4, 3], 2);
    let b = Literal::from_vec(
        &[4, 3],
        b.data_as::<f32>()
            .unwrap()
            .iter()
            .map(|x| {
                if x.is_finite() {
                    x.clamp(-5.0, 5.0)
                } else {
                    1.0
                }
            })
            .collect(),
    )
    .unwrap();
    for (left, bs) in [(true, "f32[4,3]"), (false, "f32[3,4]")] {
        for lower in [true, false] {
            for t in ["NO_TRANSPOSE", "TRANSPOSE"] {
                for unit in [false, true] {
                    let m = format!("HloModule t\nENTRY main {{\n  a = f32[4,4] parameter(0)\n  b = {bs} parameter(1)\n  ROOT x = {bs} triangular-solve(a, b), left_side={left}, lower={lower}, unit_diagonal={unit}, transpose_a={t}\n}}\n");
                    let bb = if left {
                        b.clone()
                    } else {
                        b.reshape(&[3, 4]).unwrap()
                    };
                    check(&m, &[a.clone(), bb], 2);
                }
            }
        }
    }
    let spd: Vec<f64> = (0..9)
        .map(|i| {
            let (r, c) = (i / 3, i % 3);
            if r == c {
                5.0
            } else {
                1.0 / (1 + r + c) as f64
            }
        })
        .collect();
    for lower in [true, false] {
        let m = format!("HloModule c\nENTRY main {{\n  a = f64[3,3] parameter(0)\n  ROOT l = f64[3,3] cholesky(a), lower={lower}\n}}\n");
        check(&m, &[Literal::from_vec(&[3, 3], spd.clone()).unwrap()], 2);
    }
}

#[test]
fn buffers_are_reused_without_copies() {
    let m = parse_module(&binary_module("add", PrimitiveType::F32, "1000")).unwrap();
    let client = Client::cpu().unwrap();
    let exe = client.compile(&m, &CompileOptions::default()).unwrap();
    let a = client
        .buffer_from_literal(&input(PrimitiveType::F32, &[1000], 1))
        .unwrap();
    let mut x = exe.execute(&[&a, &a]).unwrap().remove(0);
    for _ in 0..3 {
        x = exe.execute(&[&x, &a]).unwrap().remove(0);
    }
    let av = a.to_literal().unwrap();
    let want: Vec<f32> = av
        .data_as::<f32>()
        .unwrap()
        .iter()
        .map(|&v| (((v + v) + v) + v) + v)
        .collect();
    compare(
        &x.to_literal().unwrap(),
        &Literal::vec1(&want),
        "chained adds",
        0,
    );
    // Concurrent executions of one executable.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let r = exe.execute(&[&a, &a]).unwrap();
                assert_eq!(r.len(), 1);
            });
        }
    });
}

#[test]
fn gathers() {
    let x = input(PrimitiveType::F32, &[10, 7], 3);
    // Embedding lookup with out-of-range indices (clamped), and a 2-D window gather.
    let ids = Literal::from_i64s(PrimitiveType::S32, &[5, 1], &[0, 9, -3, 12, 4]).unwrap();
    let m = "HloModule g\nENTRY main {\n  p = f32[10,7] parameter(0)\n  i = s32[5,1] parameter(1)\n  ROOT g = f32[5,7] gather(p, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,7}\n}\n";
    check(m, &[x.clone(), ids], 0);
    let ids = Literal::from_i64s(PrimitiveType::S64, &[3, 2], &[0, 0, 8, 5, -1, 3]).unwrap();
    let m = "HloModule g\nENTRY main {\n  p = f32[10,7] parameter(0)\n  i = s64[3,2] parameter(1)\n  ROOT g = f32[3,2,3] gather(p, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,3}\n}\n";
    check(m, &[x.clone(), ids], 0);
    // Index vector dimension implicit (== rank of the indices), u32 indices.
    let ids = Literal::from_i64s(PrimitiveType::U32, &[4], &[6, 0, 3, 100]).unwrap();
    let m = "HloModule g\nENTRY main {\n  p = f32[10,7] parameter(0)\n  i = u32[4] parameter(1)\n  ROOT g = f32[4,7] gather(p, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,7}\n}\n";
    check(m, &[x, ids], 0);
}

#[test]
fn scatters() {
    let add = "add_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n";
    let ints = |dims: &[i64], seed: i64| {
        let n: i64 = dims.iter().product();
        let v: Vec<f32> = (0..n)
            .map(|i| (((i + seed) * 31) % 17) as f32 - 8.0)
            .collect();
        Literal::from_vec(dims, v).unwrap()
    };
    // Row updates with repeated and out-of-range indices (skipped), accumulated in order.
    let ids = Literal::from_i64s(PrimitiveType::S32, &[6, 1], &[1, 3, 1, -1, 9, 10]).unwrap();
    let m = format!("HloModule s\n{add}ENTRY main {{\n  p = f32[10,7] parameter(0)\n  i = s32[6,1] parameter(1)\n  u = f32[6,7] parameter(2)\n  ROOT s = f32[10,7] scatter(p, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add_f\n}}\n");
    check(&m, &[ints(&[10, 7], 1), ids, ints(&[6, 7], 2)], 0);
    // Element scatter with a 2-D index vector, replacing (the update computation returns the
    // update).
    let set = "set_f {\n  a = f32[] parameter(0)\n  ROOT b = f32[] parameter(1)\n}\n";
    let ids = Literal::from_i64s(PrimitiveType::S64, &[4, 2], &[0, 0, 9, 6, 5, 7, 2, 3]).unwrap();
    let m = format!("HloModule s\n{set}ENTRY main {{\n  p = f32[10,7] parameter(0)\n  i = s64[4,2] parameter(1)\n  u = f32[4] parameter(2)\n  ROOT s = f32[10,7] scatter(p, i, u), update_window_dims={{}}, inserted_window_dims={{0,1}}, scatter_dims_to_operand_dims={{0,1}}, index_vector_dim=1, to_apply=set_f\n}}\n");
    check(&m, &[ints(&[10, 7], 3), ids, ints(&[4], 4)], 0);
}

#[test]
fn convolutions() {
    let ints = |dims: &[i64], seed: i64| {
        let n: i64 = dims.iter().product();
        let v: Vec<f32> = (0..n)
            .map(|i| (((i + seed) * 7919) % 7) as f32 - 3.0)
            .collect();
        Literal::from_vec(dims, v).unwrap()
    };
    let cases = [
        // NHWC x HWIO, same padding (im2col + GEMM).
        (
            "f32[2,9,11,8]",
            "f32[3,3,8,16]",
            "f32[2,9,11,16]",
            "window={size=3x3 pad=1_1x1_1}",
            "b01f_01io->b01f",
            [2, 9, 11, 8],
            [3, 3, 8, 16],
        ),
        // Strides, dilation, asymmetric padding, NCHW x OIHW.
        (
            "f32[2,8,13,12]",
            "f32[16,8,3,2]",
            "f32[2,16,6,6]",
            "window={size=3x2 stride=2x2 pad=1_0x1_1 rhs_dilate=1x2}",
            "bf01_oi01->bf01",
            [2, 8, 13, 12],
            [16, 8, 3, 2],
        ),
        // Input dilation and window reversal stay on the elemental kernel.
        (
            "f32[1,5,5,4]",
            "f32[2,2,4,3]",
            "f32[1,10,10,3]",
            "window={size=2x2 pad=1_1x1_1 lhs_dilate=2x2 rhs_reversal=1x0}",
            "b01f_01io->b01f",
            [1, 5, 5, 4],
            [2, 2, 4, 3],
        ),
    ];
    for (l, r, o, w, dn, ld, rd) in cases {
        let m = format!(
            "HloModule c\nENTRY main {{\n  a = {l} parameter(0)\n  b = {r} parameter(1)\n  ROOT c = {o} convolution(a, b), {w}, dim_labels={dn}\n}}\n"
        );
        check(&m, &[ints(&ld, 1), ints(&rd, 2)], 0);
    }
    // Feature groups (depthwise).
    let m = "HloModule c\nENTRY main {\n  a = f32[1,6,6,4] parameter(0)\n  b = f32[3,3,1,8] parameter(1)\n  ROOT c = f32[1,6,6,8] convolution(a, b), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=4\n}\n";
    check(m, &[ints(&[1, 6, 6, 4], 3), ints(&[3, 3, 1, 8], 4)], 0);
}

#[test]
fn in_place_updates() {
    // A loop that writes row i of its state each iteration (the state is updated in place
    // from the second iteration on), also reading the state before the update.
    let m = "HloModule w\ncond {\n  s = (s32[], f32[8,5]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(8)\n  ROOT c = pred[] compare(i, n), direction=LT\n}\nbody {\n  s = (s32[], f32[8,5]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  x = f32[8,5] get-tuple-element(s), index=1\n  z = s32[] constant(0)\n  prev = f32[1,5] dynamic-slice(x, i, z), dynamic_slice_sizes={1,5}\n  fi = f32[] convert(i)\n  fb = f32[1,5] broadcast(fi), dimensions={}\n  row = f32[1,5] add(prev, fb)\n  y = f32[8,5] dynamic-update-slice(x, row, i, z)\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  ROOT r = (s32[], f32[8,5]) tuple(j, y)\n}\nENTRY main {\n  x = f32[8,5] parameter(0)\n  z = s32[] constant(0)\n  s = (s32[], f32[8,5]) tuple(z, x)\n  w = (s32[], f32[8,5]) while(s), condition=cond, body=body\n  ROOT r = f32[8,5] get-tuple-element(w), index=1\n}\n";
    check(m, &[input(PrimitiveType::F32, &[8, 5], 1)], 0);
    // Without the read, the update happens in place (state owned by the loop).
    let m2 = m.replace("row = f32[1,5] add(prev, fb)", "row = f32[1,5] add(fb, fb)");
    check(&m2, &[input(PrimitiveType::F32, &[8, 5], 1)], 0);
    // The operand is an intermediate in the arena; the start is clamped.
    let m = "HloModule d\nENTRY main {\n  p = f32[6,7] parameter(0)\n  u = f32[2,3] parameter(1)\n  x = f32[6,7] add(p, p)\n  i = s32[] constant(5)\n  j = s32[] constant(-2)\n  y = f32[6,7] dynamic-update-slice(x, u, i, j)\n  ROOT r = f32[6,7] multiply(y, y)\n}\n";
    check(
        m,
        &[
            input(PrimitiveType::F32, &[6, 7], 2),
            input(PrimitiveType::F32, &[2, 3], 3),
        ],
        0,
    );
    // The operand is an entry parameter: the caller keeps its buffer, so no in-place write.
    let m = "HloModule d\nENTRY main {\n  p = f32[6,7] parameter(0)\n  u = f32[2,3] parameter(1)\n  i = s32[] constant(1)\n  ROOT y = f32[6,7] dynamic-update-slice(p, u, i, i)\n}\n";
    let p = input(PrimitiveType::F32, &[6, 7], 4);
    check(m, &[p.clone(), input(PrimitiveType::F32, &[2, 3], 5)], 0);
    let module = parse_module(m).unwrap();
    let client = Client::cpu().unwrap();
    let exe = client.compile(&module, &CompileOptions::default()).unwrap();
    let pb = client.buffer_from_literal(&p).unwrap();
    let ub = client
        .buffer_from_literal(&input(PrimitiveType::F32, &[2, 3], 5))
        .unwrap();
    exe.execute(&[&pb, &ub]).unwrap();
    compare(&pb.to_literal().unwrap(), &p, "argument untouched", 0);
}

#[test]
fn sorts() {
    // Keys with ties and NaNs (total order), values carried along; both dimensions.
    let cmp = "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER\n}\n";
    let keys = input(PrimitiveType::F32, &[6, 37], 7);
    let keys = {
        // Many ties: round to a few values (NaN/inf stay).
        let v: Vec<f32> = keys
            .data_as::<f32>()
            .unwrap()
            .iter()
            .map(|x| if x.is_finite() { (x / 4.0).round() } else { *x })
            .collect();
        Literal::from_vec(&[6, 37], v).unwrap()
    };
    let vals = Literal::from_vec(&[6, 37], (0..6 * 37).collect::<Vec<i32>>()).unwrap();
    for dim in [0, 1] {
        let m = format!("HloModule s\n{cmp}ENTRY main {{\n  k = f32[6,37] parameter(0)\n  v = s32[6,37] parameter(1)\n  ROOT s = (f32[6,37], s32[6,37]) sort(k, v), dimensions={{{dim}}}, is_stable=true, to_apply=cmp\n}}\n");
        check(&m, &[keys.clone(), vals.clone()], 0);
    }
    // One long line (sorted as two halves on two threads, then merged), with ties.
    let n = 40_000i64;
    let keys = Literal::from_vec(
        &[n],
        (0..n)
            .map(|i| ((i * 7919) % 1000) as f32)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let vals = Literal::from_vec(&[n], (0..n as i32).collect::<Vec<i32>>()).unwrap();
    let m = format!("HloModule s\n{cmp}ENTRY main {{\n  k = f32[{n}] parameter(0)\n  v = s32[{n}] parameter(1)\n  ROOT s = (f32[{n}], s32[{n}]) sort(k, v), dimensions={{0}}, is_stable=true, to_apply=cmp\n}}\n");
    check(&m, &[keys, vals], 0);
    // Descending integer sort of one operand.
    let cmp = "cmp {\n  a = s64[] parameter(0)\n  b = s64[] parameter(1)\n  ROOT gt = pred[] compare(a, b), direction=GT\n}\n";
    let m = format!("HloModule s\n{cmp}ENTRY main {{\n  k = s64[100] parameter(0)\n  ROOT s = s64[100] sort(k), dimensions={{0}}, to_apply=cmp\n}}\n");
    check(&m, &[input(PrimitiveType::S64, &[100], 9)], 0);
}

#[test]
fn narrow_types() {
    use PrimitiveType::*;
    let subs = [S4, U4, S2, U2];
    let int_ops = [
        "add",
        "subtract",
        "multiply",
        "divide",
        "remainder",
        "maximum",
        "minimum",
        "and",
        "or",
        "xor",
        "shift-left",
        "shift-right-logical",
        "shift-right-arithmetic",
    ];
    for t in subs {
        for (i, op) in int_ops.iter().enumerate() {
            let m = binary_module(op, t, "3,7");
            check(
                &m,
                &[
                    input(t, &[3, 7], i as u64),
                    input(t, &[3, 7], 40 + i as u64),
                ],
                0,
            );
        }
        for op in ["negate", "not", "popcnt", "count-leading-zeros"] {
            let m = unary_module(op, t, t, "13");
            check(&m, &[input(t, &[13], 3)], 0);
        }
    }
    let minis = [
        F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F8E3M4, F4E2M1FN, F6E2M3FN, F8E8M0FNU,
    ];
    for t in minis {
        for (i, op) in ["add", "multiply", "divide", "maximum", "power"]
            .iter()
            .enumerate()
        {
            let m = binary_module(op, t, "3,7");
            check(
                &m,
                &[
                    input(t, &[3, 7], i as u64),
                    input(t, &[3, 7], 50 + i as u64),
                ],
                0,
            );
        }
        for op in ["exponential", "sqrt", "negate", "floor"] {
            let m = unary_module(op, t, t, "17");
            check(&m, &[input(t, &[17], 5)], 0);
        }
    }
    // Conversions among narrow and wide types.
    let all = [
        S4, U4, F8E4M3FN, F8E5M2, F4E2M1FN, F16, BF16, F32, F64, S32, U8, Pred,
    ];
    for (i, &from) in all.iter().enumerate() {
        for &to in &all {
            let m = unary_module("convert", from, to, "19");
            check(&m, &[input(from, &[19], i as u64)], 0);
        }
    }
}

#[test]
fn gemm_dots_f64_and_transposed() {
    let ints = |t: PrimitiveType, dims: &[i64], seed: i64| {
        let n: i64 = dims.iter().product();
        let v: Vec<f64> = (0..n)
            .map(|i| (((i + seed) * 7919) % 13) as f64 - 6.0)
            .collect();
        Literal::from_f64s(t, dims, &v).unwrap()
    };
    for t in [PrimitiveType::F32, PrimitiveType::F64] {
        let ty = t.name();
        // Normal, lhs transposed, rhs transposed, both; a batched one with rhs transposed.
        let cases = [
            ("[40,50]", "[50,30]", "[40,30]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", vec![40, 50], vec![50, 30]),
            ("[50,40]", "[50,30]", "[40,30]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}", vec![50, 40], vec![50, 30]),
            ("[40,50]", "[30,50]", "[40,30]", "lhs_contracting_dims={1}, rhs_contracting_dims={1}", vec![40, 50], vec![30, 50]),
            ("[50,40]", "[30,50]", "[40,30]", "lhs_contracting_dims={0}, rhs_contracting_dims={1}", vec![50, 40], vec![30, 50]),
            ("[3,20,30]", "[3,25,30]", "[3,20,25]", "lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}", vec![3, 20, 30], vec![3, 25, 30]),
            // Free dimensions split in two (reshaped around the GEMM).
            ("[4,5,30]", "[30,6,7]", "[4,5,6,7]", "lhs_contracting_dims={2}, rhs_contracting_dims={0}", vec![4, 5, 30], vec![30, 6, 7]),
        ];
        for (l, r, o, dn, ld, rd) in cases {
            let m = format!(
                "HloModule g\nENTRY main {{\n  a = {ty}{l} parameter(0)\n  b = {ty}{r} parameter(1)\n  ROOT d = {ty}{o} dot(a, b), {dn}\n}}\n"
            );
            check(&m, &[ints(t, &ld, 1), ints(t, &rd, 2)], 0);
        }
    }
}

fn complex_input(t: PrimitiveType, dims: &[i64], seed: u64) -> Literal {
    let re = input(PrimitiveType::F64, dims, seed).to_f64s();
    let im = input(PrimitiveType::F64, dims, seed + 1000).to_f64s();
    let v: Vec<oxla::hlo::literal::Scalar> = re
        .iter()
        .zip(&im)
        .map(|(&r, &i)| {
            // Keep the values finite and moderate: complex transcendental edge cases are the
            // interpreter's to define; here the engines must agree on ordinary values.
            let f = |x: f64| {
                if x.is_finite() {
                    x.clamp(-20.0, 20.0)
                } else {
                    0.5
                }
            };
            oxla::hlo::literal::Scalar::Complex(num_complex::Complex64::new(f(r), f(i)))
        })
        .collect();
    Literal::from_scalars(t, dims, v).unwrap()
}

#[test]
fn complex_numbers() {
    for t in [PrimitiveType::C64, PrimitiveType::C128] {
        let ty = t.name();
        let x = complex_input(t, &[3, 5], 1);
        let y = complex_input(t, &[3, 5], 2);
        for op in ["add", "subtract", "multiply", "divide", "power"] {
            let m = binary_module(op, t, "3,5");
            check(&m, &[x.clone(), y.clone()], 0);
        }
        for op in [
            "negate",
            "exponential",
            "log",
            "sqrt",
            "sine",
            "tanh",
            "sign",
        ] {
            let m = unary_module(op, t, t, "3,5");
            check(&m, std::slice::from_ref(&x), 0);
        }
        let ft = if t == PrimitiveType::C64 {
            "f32"
        } else {
            "f64"
        };
        for op in ["real", "imag", "abs"] {
            let m = format!("HloModule u\nENTRY main {{\n  p = {ty}[3,5] parameter(0)\n  ROOT r = {ft}[3,5] {op}(p)\n}}\n");
            check(&m, std::slice::from_ref(&x), 0);
        }
        for dir in ["EQ", "NE"] {
            let m = format!("HloModule c\nENTRY main {{\n  a = {ty}[3,5] parameter(0)\n  b = {ty}[3,5] parameter(1)\n  ROOT c = pred[3,5] compare(a, b), direction={dir}\n}}\n");
            check(&m, &[x.clone(), y.clone()], 0);
            check(&m, &[x.clone(), x.clone()], 0);
        }
        // complex(re, im), conversions, transpose, reduce, dot.
        let m = format!("HloModule c\nENTRY main {{\n  a = {ft}[3,5] parameter(0)\n  b = {ft}[3,5] parameter(1)\n  ROOT c = {ty}[3,5] complex(a, b)\n}}\n");
        let fx = input(
            if ft == "f32" {
                PrimitiveType::F32
            } else {
                PrimitiveType::F64
            },
            &[3, 5],
            3,
        );
        check(&m, &[fx.clone(), fx.clone()], 0);
        for other in ["c64", "c128", "f32", "s32", "pred"] {
            let m = format!("HloModule c\nENTRY main {{\n  a = {ty}[3,5] parameter(0)\n  ROOT c = {other}[3,5] convert(a)\n}}\n");
            check(&m, std::slice::from_ref(&x), 0);
        }
        let m = format!("HloModule c\nENTRY main {{\n  a = {ty}[3,5] parameter(0)\n  ROOT c = {ty}[5,3] transpose(a), dimensions={{1,0}}\n}}\n");
        check(&m, std::slice::from_ref(&x), 0);
        let m = format!("HloModule c\nadd_c {{\n  a = {ty}[] parameter(0)\n  b = {ty}[] parameter(1)\n  ROOT c = {ty}[] add(a, b)\n}}\nENTRY main {{\n  a = {ty}[3,5] parameter(0)\n  z = {ty}[] constant((0, 0))\n  ROOT r = {ty}[3] reduce(a, z), dimensions={{1}}, to_apply=add_c\n}}\n");
        // The reference sums in double precision and rounds once.
        check(&m, std::slice::from_ref(&x), 4);
        let m = format!("HloModule c\nENTRY main {{\n  a = {ty}[3,5] parameter(0)\n  b = {ty}[5,3] parameter(1)\n  ROOT d = {ty}[3,3] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n}}\n");
        // Small integer parts: exact in any summation order.
        let ints = |dims: &[i64], seed: i64| {
            let n: i64 = dims.iter().product();
            let v = (0..n).map(|i| {
                let re = (((i + seed) * 7919) % 9) as f64 - 4.0;
                let im = (((i + seed) * 104729) % 7) as f64 - 3.0;
                oxla::hlo::literal::Scalar::Complex(num_complex::Complex64::new(re, im))
            });
            Literal::from_scalars(t, dims, v).unwrap()
        };
        check(&m, &[ints(&[3, 5], 1), ints(&[5, 3], 2)], 0);
    }
}

/// Runs both engines and compares within `tol` of the largest magnitude (for algorithms
/// whose rounding legitimately differs, such as FFT against a direct DFT).
fn check_close(hlo: &str, args: &[Literal], tol: f64) {
    let m = parse_module(hlo).unwrap();
    let want = Interpreter::new().run(&m, args).unwrap();
    let exe = Client::cpu()
        .unwrap()
        .compile(&m, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("compile: {e}\n{hlo}"));
    let got = exe.execute_literals(args).unwrap();
    assert_eq!(got.shape(), want.shape(), "{hlo}");
    let parts = |l: &Literal| -> Vec<f64> {
        match l.element_type() {
            PrimitiveType::C64 => l
                .data_as::<num_complex::Complex32>()
                .unwrap()
                .iter()
                .flat_map(|c| [c.re as f64, c.im as f64])
                .collect(),
            PrimitiveType::C128 => l
                .data_as::<num_complex::Complex64>()
                .unwrap()
                .iter()
                .flat_map(|c| [c.re, c.im])
                .collect(),
            _ => l.to_f64s(),
        }
    };
    let (g, w) = (parts(&got), parts(&want));
    let scale = w.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!(
            (a - b).abs() <= tol * scale,
            "{hlo}: component {i}: jit {a} vs interpreter {b}"
        );
    }
}

#[test]
fn ffts() {
    let c = |t: PrimitiveType, dims: &[i64], seed: u64| complex_input(t, dims, seed);
    let r = |t: PrimitiveType, dims: &[i64], seed: u64| {
        let v: Vec<f64> = input(t, dims, seed)
            .to_f64s()
            .iter()
            .map(|x| {
                if x.is_finite() {
                    x.clamp(-10.0, 10.0)
                } else {
                    0.25
                }
            })
            .collect();
        Literal::from_f64s(t, dims, &v).unwrap()
    };
    let cases: Vec<(String, Literal)> = vec![
        (
            "c64[4,8] fft(p), fft_type=FFT, fft_length={8}".into(),
            c(PrimitiveType::C64, &[4, 8], 1),
        ),
        (
            "c128[6] fft(p), fft_type=IFFT, fft_length={6}".into(),
            c(PrimitiveType::C128, &[6], 2),
        ),
        (
            "c64[4,8] fft(p), fft_type=FFT, fft_length={4,8}".into(),
            c(PrimitiveType::C64, &[4, 8], 3),
        ),
        (
            "c64[3,9] fft(p), fft_type=RFFT, fft_length={16}".into(),
            r(PrimitiveType::F32, &[3, 16], 4),
        ),
        (
            "f64[3,16] fft(p), fft_type=IRFFT, fft_length={16}".into(),
            c(PrimitiveType::C128, &[3, 9], 5),
        ),
        (
            "f32[4,6] fft(p), fft_type=IRFFT, fft_length={4,6}".into(),
            c(PrimitiveType::C64, &[4, 4], 6),
        ),
    ];
    for (body, arg) in cases {
        let ps = arg.shape().to_string();
        let m =
            format!("HloModule f\nENTRY main {{\n  p = {ps} parameter(0)\n  ROOT f = {body}\n}}\n");
        check_close(&m, &[arg], 1e-5);
    }
}

#[test]
fn transcendental_accuracy_on_dense_grids() {
    // Max ULP error against correctly rounded f64 results on a million points each:
    // exp and logistic within 4, tanh within 5 (its rational approximation loses most
    // near |x| = 9, where it meets the clamp to ±1).
    type Case = (&'static str, fn(f64) -> f64, f32, u64);
    let cases: [Case; 4] = [
        ("tanh", f64::tanh, 1.9e-5, 5),
        ("exponential", f64::exp, 1.8e-4, 4),
        ("logistic", |x| 1.0 / (1.0 + (-x).exp()), 1.8e-4, 4),
        // x = (i - 500000) * step: negative half NaN, then (0, 50].
        ("log", f64::ln, 1.0e-4, 4),
    ];
    for (op, f, step, bound) in cases {
        let n = 1_000_001;
        let v: Vec<f32> = (0..n).map(|i| (i as f32 - 500_000.0) * step).collect();
        let m = parse_module(&unary_module(
            op,
            PrimitiveType::F32,
            PrimitiveType::F32,
            "1000001",
        ))
        .unwrap();
        let exe = Client::cpu()
            .unwrap()
            .compile(&m, &CompileOptions::default())
            .unwrap();
        let out = exe.execute_literals(&[Literal::vec1(&v)]).unwrap();
        let o = out.data_as::<f32>().unwrap();
        let mut worst = (0u64, 0f32);
        for (x, y) in v.iter().zip(o) {
            let want = f(*x as f64) as f32;
            // Results in the subnormal range may flush; compare those absolutely.
            let d = if want.abs() < 1e-37 && (y - want).abs() < 1e-37 {
                0
            } else {
                ulp_diff32(*y, want)
            };
            if d > worst.0 {
                worst = (d, *x);
            }
        }
        assert!(
            worst.0 <= bound,
            "{op}: {} ulps at x = {}",
            worst.0,
            worst.1
        );
    }
}

#[test]
fn column_reductions() {
    let add = "add_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n";
    let max = "max_i {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT c = s32[] maximum(a, b)\n}\n";
    let v: Vec<f32> = (0..3 * 7 * 9)
        .map(|i| ((i * 31) % 11) as f32 - 5.0)
        .collect();
    let x = Literal::from_vec(&[3, 7, 9], v).unwrap();
    for (dims, out) in [
        ("{1}", "f32[3,9]"),
        ("{0,1}", "f32[9]"),
        ("{0}", "f32[7,9]"),
    ] {
        let m = format!("HloModule r\n{add}ENTRY main {{\n  p = f32[3,7,9] parameter(0)\n  z = f32[] constant(1.5)\n  ROOT r = {out} reduce(p, z), dimensions={dims}, to_apply=add_f\n}}\n");
        check(&m, std::slice::from_ref(&x), 0);
    }
    let m = format!("HloModule r\n{max}ENTRY main {{\n  p = s32[5,130] parameter(0)\n  q = s32[5,130] multiply(p, p)\n  z = s32[] constant(-7)\n  ROOT r = s32[130] reduce(q, z), dimensions={{0}}, to_apply=max_i\n}}\n");
    check(&m, &[input(PrimitiveType::S32, &[5, 130], 3)], 0);
}

#[test]
fn integer_division_by_constants() {
    for d in [2, 3, 7, 10, 17, 1000, 65536, 2147483647] {
        for op in ["divide", "remainder"] {
            let m = format!("HloModule d\nENTRY main {{\n  p = s32[257] parameter(0)\n  c = s32[] constant({d})\n  b = s32[257] broadcast(c), dimensions={{}}\n  ROOT r = s32[257] {op}(p, b)\n}}\n");
            check(&m, &[input(PrimitiveType::S32, &[257], d as u64)], 0);
        }
    }
}

#[test]
fn replica_and_partition_ids_on_one_device() {
    let m = "HloModule r\nENTRY main {\n  r = u32[] replica-id()\n  p = u32[] partition-id()\n  b = u32[5] broadcast(r), dimensions={}\n  c = u32[5] broadcast(p), dimensions={}\n  ROOT s = u32[5] add(b, c)\n}\n";
    check(m, &[], 0);
}
