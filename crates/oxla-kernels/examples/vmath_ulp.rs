//! The largest error of each `vmath` function over every f32 in a range, in ULP of the
//! correctly rounded result (f64 libm rounded to f32), with the detected implementation
//! (bit for bit the scalar twin and the JIT's `math.rs`, which the tests check).
//!
//! `cargo run --release -p oxla-kernels --example vmath_ulp [exp|tanh|logistic|log|sin|cos|tan]`
//!
//! tanh, sin and tan are odd in every operation they run, and cos even, so only x >= 0 is
//! swept for them (sin, cos and tan up to 2^24, beyond which they are libm's own); results that f32
//! cannot hold as normals (flushed, as XLA's CPU backend does) are skipped.

use oxla_kernels::vmath::{apply, VFunc};

/// Distance between two floats in representable steps (total order, across zero).
fn ulp(a: f32, b: f32) -> u64 {
    let key = |x: f32| {
        let b = x.to_bits() as i32 as i64;
        if b < 0 {
            i32::MIN as i64 - b
        } else {
            b
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

fn sweep(name: &str, f: VFunc, lo: f32, hi: f32, reference: fn(f64) -> f64) {
    // Every float between lo and hi (same sign), in chunks.
    let (a, b) = (
        lo.to_bits().min(hi.to_bits()),
        lo.to_bits().max(hi.to_bits()),
    );
    let mut worst = (0u64, 0f32, 0f32, 0f32);
    let mut hist = [0u64; 8];
    let mut buf = Vec::with_capacity(1 << 16);
    let mut start = a;
    while start <= b {
        let end = b.min(start.saturating_add((1 << 16) - 1));
        buf.clear();
        buf.extend((start..=end).map(f32::from_bits));
        let xs = buf.clone();
        apply(f, &mut buf);
        for (&x, &got) in xs.iter().zip(&buf) {
            let want = reference(x as f64) as f32;
            if want.is_nan() || (want.abs() < f32::MIN_POSITIVE && got.abs() < f32::MIN_POSITIVE) {
                continue;
            }
            let u = ulp(got, want);
            hist[(u as usize).min(7)] += 1;
            if u > worst.0 {
                worst = (u, x, got, want);
            }
        }
        if end == u32::MAX {
            break;
        }
        start = end + 1;
    }
    println!(
        "{name:<9} [{lo:e}, {hi:e}]: max {} ulp at x = {:e} ({:e} vs {:e}); count by ulp 0..7+: {hist:?}",
        worst.0, worst.1, worst.2, worst.3
    );
}

fn main() {
    let which = std::env::args().nth(1);
    let on = |n: &str| which.as_deref().is_none_or(|w| w == n);
    if on("tanh") {
        sweep("tanh", VFunc::Tanh, 0.0, 10.0, f64::tanh);
    }
    if on("exp") {
        sweep("exp", VFunc::Exp, 0.0, 89.0, f64::exp);
        sweep("exp", VFunc::Exp, -0.0, -88.0, f64::exp);
    }
    if on("logistic") {
        sweep("logistic", VFunc::Logistic, 0.0, 90.0, |x| {
            1.0 / (1.0 + (-x).exp())
        });
        sweep("logistic", VFunc::Logistic, -0.0, -90.0, |x| {
            1.0 / (1.0 + (-x).exp())
        });
    }
    if on("log") {
        sweep("log", VFunc::Log, f32::MIN_POSITIVE, f32::MAX, f64::ln);
    }
    for (name, f, reference) in [
        ("sin", VFunc::Sin, f64::sin as fn(f64) -> f64),
        ("cos", VFunc::Cos, f64::cos),
        ("tan", VFunc::Tan, f64::tan),
    ] {
        if on(name) {
            sweep(name, f, 0.0, 16_777_216.0, reference);
        }
    }
}
