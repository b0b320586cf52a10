//! An element's result does not depend on where it sits: the JIT computes element-wise ops in
//! vector lanes, in a loop's scalar tail, in a kernel of one lane, on several threads' chunks,
//! fused with a broadcast or not. Every element-wise op and element type runs on arrays of
//! lengths 1 to 67 (and two lengths long enough to be split across threads) filled with one
//! value, for values from zero and subnormals to infinities and NaN, and every element of every
//! result must have the same bits (NaNs included).

use oxla::hlo::{text::parse_module, Literal, PrimitiveType};
use oxla::runtime::{Client, CompileOptions, Executable};

use PrimitiveType::*;

/// Array lengths: every remainder of the vector loops, plus two that the pool splits.
fn lengths() -> Vec<i64> {
    (1..=67).chain([4099, 70_001]).collect()
}

const FLOAT_VALUES: [f64; 18] = [
    0.0,
    -0.0,
    1e-40,
    -3e-39,
    1e-8,
    0.5,
    -2.5,
    3.0,
    9.005,
    9.05,
    20.0,
    -87.5,
    -100.0,
    100.0,
    1e30,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

const INT_VALUES: [f64; 7] = [0.0, 1.0, -1.0, 7.0, -100.0, 127.0, -128.0];

const FLOAT_UNARY: [&str; 21] = [
    "abs",
    "negate",
    "sign",
    "floor",
    "ceil",
    "round-nearest-afz",
    "round-nearest-even",
    "sqrt",
    "rsqrt",
    "cbrt",
    "exponential",
    "exponential-minus-one",
    "log",
    "log-plus-one",
    "logistic",
    "sine",
    "cosine",
    "tan",
    "tanh",
    "erf",
    "is-finite",
];

const FLOAT_BINARY: [&str; 9] = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "power",
    "remainder",
    "atan2",
];

const INT_UNARY: [&str; 6] = [
    "abs",
    "negate",
    "sign",
    "not",
    "popcnt",
    "count-leading-zeros",
];

const INT_BINARY: [&str; 11] = [
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
];

/// `ROOT op(p)` on `n` elements, plain or fed by a broadcast scalar (fused with it).
fn unary(op: &str, t: PrimitiveType, n: i64, from_scalar: bool) -> String {
    let out = if op == "is-finite" { Pred } else { t };
    let (t, o) = (t.name(), out.name());
    match from_scalar {
        false => format!(
            "HloModule u\nENTRY main {{\n  p = {t}[{n}] parameter(0)\n  ROOT r = {o}[{n}] {op}(p)\n}}\n"
        ),
        true => format!(
            "HloModule u\nENTRY main {{\n  s = {t}[] parameter(0)\n  p = {t}[{n}] broadcast(s), dimensions={{}}\n  ROOT r = {o}[{n}] {op}(p)\n}}\n"
        ),
    }
}

fn binary(op: &str, t: PrimitiveType, n: i64) -> String {
    let t = t.name();
    format!(
        "HloModule b\nENTRY main {{\n  a = {t}[{n}] parameter(0)\n  b = {t}[{n}] parameter(1)\n  ROOT r = {t}[{n}] {op}(a, b)\n}}\n"
    )
}

fn compile(client: &Client, text: &str) -> Executable {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    client
        .compile(&m, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The bytes of each element of `l`.
fn elements(l: &Literal) -> Vec<Vec<u8>> {
    let b = l.to_le_bytes();
    let w = b.len() / l.element_count().max(1);
    b.chunks(w.max(1)).map(<[u8]>::to_vec).collect()
}

/// Runs `exe` on arguments filled with `vals` and checks that every element of the result has
/// the bits `want` (set from the first run when `None`).
fn check(
    exe: &Executable,
    t: PrimitiveType,
    n: i64,
    vals: &[f64],
    want: &mut Option<Vec<u8>>,
    ctx: &str,
) {
    let args: Vec<Literal> = vals
        .iter()
        .map(|&v| Literal::from_f64s(t, &[n], &vec![v; n as usize]).unwrap())
        .collect();
    let out = exe.execute_literals(&args).unwrap();
    for (i, e) in elements(&out).into_iter().enumerate() {
        match want {
            None => *want = Some(e),
            Some(w) => assert_eq!(&e, w, "{ctx} at {vals:?}: length {n}, element {i}"),
        }
    }
}

fn scalar_check(exe: &Executable, t: PrimitiveType, v: f64, want: &mut Option<Vec<u8>>, ctx: &str) {
    let out = exe
        .execute_literals(&[Literal::from_f64s(t, &[], &[v]).unwrap()])
        .unwrap();
    for (i, e) in elements(&out).into_iter().enumerate() {
        match want {
            None => *want = Some(e),
            Some(w) => assert_eq!(&e, w, "{ctx} (broadcast) at {v}: element {i}"),
        }
    }
}

fn unary_case(client: &Client, op: &str, t: PrimitiveType, values: &[f64]) {
    let mut want: Vec<Option<Vec<u8>>> = vec![None; values.len()];
    for n in lengths() {
        let exe = compile(client, &unary(op, t, n, false));
        for (v, w) in values.iter().zip(&mut want) {
            check(&exe, t, n, &[*v], w, &format!("{op} {t}"));
        }
        if n == 67 || n == 4099 {
            let exe = compile(client, &unary(op, t, n, true));
            for (v, w) in values.iter().zip(&mut want) {
                scalar_check(&exe, t, *v, w, &format!("{op} {t}"));
            }
        }
    }
}

fn binary_case(client: &Client, op: &str, t: PrimitiveType, values: &[f64]) {
    let pairs: Vec<(f64, f64)> = values
        .iter()
        .flat_map(|&a| values.iter().map(move |&b| (a, b)))
        .filter(|&(_, b)| !(t.is_integer() && b == 0.0 && (op == "divide" || op == "remainder")))
        .collect();
    let mut want: Vec<Option<Vec<u8>>> = vec![None; pairs.len()];
    for n in lengths() {
        let exe = compile(client, &binary(op, t, n));
        for ((a, b), w) in pairs.iter().zip(&mut want) {
            check(&exe, t, n, &[*a, *b], w, &format!("{op} {t}"));
        }
    }
}

#[test]
fn float_unary_ops_give_the_same_bits_everywhere() {
    let client = Client::cpu().unwrap();
    for t in [F32, F64, F16, BF16] {
        for op in FLOAT_UNARY {
            unary_case(&client, op, t, &FLOAT_VALUES);
        }
    }
}

#[test]
fn float_binary_ops_give_the_same_bits_everywhere() {
    let client = Client::cpu().unwrap();
    let values = [
        0.0,
        -0.0,
        1e-40,
        0.5,
        -2.5,
        3.0,
        100.0,
        f64::INFINITY,
        f64::NAN,
    ];
    for t in [F32, F64, F16, BF16] {
        for op in FLOAT_BINARY {
            binary_case(&client, op, t, &values);
        }
    }
}

#[test]
fn integer_ops_give_the_same_bits_everywhere() {
    let client = Client::cpu().unwrap();
    for t in [S8, S16, S32, S64, U8, U32] {
        let values: Vec<f64> = INT_VALUES
            .iter()
            .copied()
            .filter(|&v| t.is_signed_int() || v >= 0.0)
            .collect();
        for op in INT_UNARY {
            // abs, negate and sign are for signed types only.
            if t.is_signed_int() || !matches!(op, "abs" | "negate" | "sign") {
                unary_case(&client, op, t, &values);
            }
        }
        for op in INT_BINARY {
            binary_case(&client, op, t, &values);
        }
    }
}
