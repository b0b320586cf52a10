//! f64 exp, log and log1p over a slice, in place, at the CPU's full vector width.
//!
//! The JIT's f64 lanes are two per 128-bit vector and its f64 transcendentals were a libm
//! call per element; a kernel with them computes a tile of arguments, calls [`apply`] on
//! it and reads the results back (`oxla-codegen`'s `schedule/wide_math.rs`), as it does
//! for f32 with [`crate::vmath`].
//!
//! Written once over `f64lanes.rs`'s `F64Lanes` (AVX-512F 8 lanes, AVX2 + FMA 4, and `f64`
//! itself, the portable twin): IEEE operations and fused multiply-adds only, so every width
//! gives the same bits. Lanes outside the ordinary range (exp: |x| ≥ 708, where the result
//! leaves the normal numbers; log: x not a positive normal finite number; log1p: x ≤ −1 or
//! not finite; NaNs everywhere) take the interpreter's expression itself (libm), one at a
//! time.
//!
//! - exp: x = n·ln 2 + r (n = round(x·log2 e), ln 2 in two parts, |r| ≤ ln 2 / 2, r's
//!   rounding error kept), then exp r = 1 + r + r²·(1/2! + r/3! + … + r^11/13!) (truncation
//!   below 5e-18) with 1 + r summed in two parts, and the product with 2^n exact.
//! - log: x = 2^e·m with m in [√½, √2), f = m − 1 exact, s = f / (2 + f) (|s| < 0.172) and
//!   ln(1 + f) = 2 atanh s = f − (f²/2 − s·(f²/2 + R)) with R = Σ 2s^2k / (2k + 1), k = 1..10
//!   (truncation below 1e-18 relative): the large part f is exact, the corrections small.
//! - log1p: u = 1 + x rounded, its rounding error c recovered exactly (two-sum), then log u
//!   as above plus c / u. Below 2^-54 in magnitude the result is x itself (the correctly
//!   rounded value, ±0 keeping its sign).
//!
//! Measured against libm over every binade (the tests): within 1 ulp, and libm's bits for
//! all but 2% of exp's arguments, 1.3% of log's and 0.5% of log1p's.

use crate::f64lanes::{horner, F64Lanes, ATANH, INV_FACTORIALS, LN2_HI, LN2_LO};
use crate::trig::MAGIC;
use crate::vmath::VIsa;

/// An f64 function the routines compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VFunc64 {
    Exp,
    Log,
    Log1p,
}

impl VFunc64 {
    pub const ALL: [VFunc64; 3] = [VFunc64::Exp, VFunc64::Log, VFunc64::Log1p];

    /// The open interval of arguments the vector algorithm takes; the rest (NaN too) take
    /// [`exact`].
    fn ordinary(self) -> (f64, f64) {
        match self {
            VFunc64::Exp => (-EXP_MAX, EXP_MAX),
            // Above the largest subnormal: the positive normal numbers.
            VFunc64::Log => (f64::from_bits(0x000f_ffff_ffff_ffff), f64::INFINITY),
            VFunc64::Log1p => (-1.0, f64::INFINITY),
        }
    }
}

/// |x| below which exp's result and its scale 2^n are normal numbers.
const EXP_MAX: f64 = 708.0;
const LOG2_E: f64 = std::f64::consts::LOG2_E;
const SQRT2: f64 = std::f64::consts::SQRT_2;
/// log1p's result is x itself below this magnitude.
const TINY: f64 = 5.551_115_123_125_783e-17; // 2^-54

/// The interpreter's expression (`oxla-elem`'s `exp_f64`, `log_f64`, `log1p_f64`).
pub fn exact(f: VFunc64, x: f64) -> f64 {
    match f {
        VFunc64::Exp => x.exp(),
        VFunc64::Log => x.ln(),
        VFunc64::Log1p => x.ln_1p(),
    }
}

/// `f` of lanes holding ordinary arguments ([`VFunc64::ordinary`]).
#[inline(always)]
fn eval<W: F64Lanes>(f: VFunc64, x: W) -> W {
    match f {
        VFunc64::Exp => exp(x),
        VFunc64::Log => {
            let (e, m) = x.exponent_mantissa();
            log_parts(e, m, W::splat(0.0))
        }
        VFunc64::Log1p => {
            let one = W::splat(1.0);
            let u = x.add(one);
            // u's rounding error, exact: the larger of 1 and x first.
            let c = W::select(x.gt(one), one.sub(u.sub(x)), x.sub(u.sub(one)));
            let (e, m) = u.exponent_mantissa();
            let r = log_parts(e, m, c.div(u));
            W::select(W::splat(TINY).gt(x.abs()), x, r)
        }
    }
}

#[inline(always)]
fn exp<W: F64Lanes>(x: W) -> W {
    // k = MAGIC + n, n = round(x / ln 2).
    let k = x.fma(W::splat(LOG2_E), W::splat(MAGIC));
    let n = k.sub(W::splat(MAGIC));
    // r + r_lo = x − n·ln 2: r_hi exact, r rounded, r_lo its rounding error.
    let r_hi = n.fma(W::splat(-LN2_HI), x);
    let r = n.fma(W::splat(-LN2_LO), r_hi);
    let r_lo = n.fma(W::splat(-LN2_LO), r_hi.sub(r));
    // exp(r + r_lo) = 1 + r + (r²·q + r_lo), the sum 1 + r kept in two parts (exact: |r| <
    // 1), so that only the last addition rounds at the result's scale.
    // (exp r − 1 − r) / r²: 1/2! + r/3! + … + r^11/13!.
    let s = r.mul(r).fma(horner(r, &INV_FACTORIALS[..12]), r_lo);
    let one = W::splat(1.0);
    let a = one.add(r);
    let e = one.sub(a).add(r);
    a.add(e.add(s)).scale_pow2(k)
}

/// ln(2^e · m) + c for m in [1, 2) (brought to [√½, √2) here) and a small correction c.
#[inline(always)]
fn log_parts<W: F64Lanes>(e: W, m: W, c: W) -> W {
    let high = m.gt(W::splat(SQRT2));
    let m = W::select(high, m.mul(W::splat(0.5)), m);
    let e = W::select(high, e.add(W::splat(1.0)), e);
    let f = m.sub(W::splat(1.0));
    let s = f.div(f.add(W::splat(2.0)));
    let s2 = s.mul(s);
    let hfsq = W::splat(0.5).mul(f).mul(f);
    // R = Σ 2s^2k / (2k + 1): twice s²·(1/3 + s²/5 + …) (the doubling exact).
    let r = s2.mul(horner(s2, &ATANH));
    let r = r.add(r);
    let small = e.fma(W::splat(LN2_LO), c);
    let t = s.fma(hfsq.add(r), small);
    e.fma(W::splat(LN2_HI), f.sub(hfsq.sub(t)))
}

/// The portable twin: `f(x)` one element at a time, the same bits as the vector forms.
pub fn scalar(f: VFunc64, x: f64) -> f64 {
    let (lo, hi) = f.ordinary();
    if !(x > lo && x < hi) {
        return exact(f, x);
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has FMA.
        return unsafe { scalar_fma(f, x) };
    }
    // `mul_add` without the target feature is fused in software: the same bits, slower.
    eval(f, x)
}

/// [`scalar`]'s ordinary case compiled with FMA instructions.
///
/// # Safety
/// The CPU has FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn scalar_fma(f: VFunc64, x: f64) -> f64 {
    eval(f, x)
}

/// `xs[i] = f(xs[i])` with the detected implementation.
pub fn apply(f: VFunc64, xs: &mut [f64]) {
    apply_with(VIsa::detect(), f, xs);
}

/// `xs[i] = f(xs[i])` with implementation `isa`; one the CPU lacks runs the portable twin.
pub fn apply_with(isa: VIsa, f: VFunc64, xs: &mut [f64]) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx512 if isa.available() => {
            // SAFETY: the CPU has AVX-512F (checked above).
            unsafe { x86::apply_avx512(f, xs) }
        }
        #[cfg(target_arch = "x86_64")]
        VIsa::Avx2 if isa.available() => {
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe { x86::apply_avx2(f, xs) }
        }
        _ => {
            for x in xs {
                *x = scalar(f, *x);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{eval, exact, VFunc64};
    use crate::f64lanes::x86::{D4, D8};

    /// The lanes of `r` whose bit is set in `special` recomputed from `x` with [`exact`].
    #[inline(never)]
    fn redo(f: VFunc64, x: &[f64], r: &mut [f64], special: u32) {
        for (i, (r, &x)) in r.iter_mut().zip(x).enumerate() {
            if special >> i & 1 != 0 {
                *r = exact(f, x);
            }
        }
    }

    /// # Safety
    /// The CPU runs AVX-512F.
    #[target_feature(enable = "avx512f,fma")]
    pub(super) unsafe fn apply_avx512(f: VFunc64, xs: &mut [f64]) {
        let (lo, hi) = f.ordinary();
        let mut chunks = xs.chunks_exact_mut(8);
        for c in &mut chunks {
            // SAFETY: c holds 8 f64s; the CPU runs AVX-512F.
            unsafe {
                let x = _mm512_loadu_pd(c.as_ptr());
                let inside = _mm512_cmp_pd_mask::<_CMP_GT_OQ>(x, _mm512_set1_pd(lo))
                    & _mm512_cmp_pd_mask::<_CMP_LT_OQ>(x, _mm512_set1_pd(hi));
                let r = eval(f, D8(x)).0;
                let special = !inside as u32 & 0xff;
                if special == 0 {
                    _mm512_storeu_pd(c.as_mut_ptr(), r);
                } else {
                    let mut xv = [0f64; 8];
                    _mm512_storeu_pd(xv.as_mut_ptr(), x);
                    _mm512_storeu_pd(c.as_mut_ptr(), r);
                    redo(f, &xv, c, special);
                }
            }
        }
        tail(f, chunks.into_remainder());
    }

    /// # Safety
    /// The CPU runs AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn apply_avx2(f: VFunc64, xs: &mut [f64]) {
        let (lo, hi) = f.ordinary();
        let mut chunks = xs.chunks_exact_mut(4);
        for c in &mut chunks {
            // SAFETY: c holds 4 f64s; the CPU runs AVX2 and FMA.
            unsafe {
                let x = _mm256_loadu_pd(c.as_ptr());
                let outside = _mm256_or_pd(
                    _mm256_cmp_pd::<_CMP_NGT_UQ>(x, _mm256_set1_pd(lo)),
                    _mm256_cmp_pd::<_CMP_NLT_UQ>(x, _mm256_set1_pd(hi)),
                );
                let r = eval(f, D4(x)).0;
                let special = _mm256_movemask_pd(outside) as u32;
                if special == 0 {
                    _mm256_storeu_pd(c.as_mut_ptr(), r);
                } else {
                    let mut xv = [0f64; 4];
                    _mm256_storeu_pd(xv.as_mut_ptr(), x);
                    _mm256_storeu_pd(c.as_mut_ptr(), r);
                    redo(f, &xv, c, special);
                }
            }
        }
        tail(f, chunks.into_remainder());
    }

    /// The last elements, one at a time with FMA instructions.
    #[target_feature(enable = "fma")]
    fn tail(f: VFunc64, xs: &mut [f64]) {
        let (lo, hi) = f.ordinary();
        for x in xs {
            *x = if *x > lo && *x < hi {
                eval(f, *x)
            } else {
                exact(f, *x)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance between two f64s in representable steps (two NaNs: 0).
    fn ulps(a: f64, b: f64) -> u64 {
        if a.is_nan() && b.is_nan() {
            return 0;
        }
        let key = |v: f64| {
            let b = v.to_bits() as i128;
            if b < 1 << 63 {
                b
            } else {
                (1 << 63) - b
            }
        };
        (key(a) - key(b)).unsigned_abs() as u64
    }

    /// Arguments over every binade `f` is defined on, and the edges and special values.
    fn arguments(f: VFunc64) -> Vec<f64> {
        let mut xs = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.0,
            0.5,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_0000_0000_1234),
            EXP_MAX,
            -EXP_MAX,
            709.7,
            -745.0,
            -1.0 + f64::EPSILON / 2.0,
            TINY,
            -TINY,
            TINY * 2.0,
            SQRT2,
            1.0 / SQRT2,
            std::f64::consts::LN_2 / 2.0,
        ];
        let mut s = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..300_000 {
            let r = next();
            let m = r & 0x000f_ffff_ffff_ffff;
            let sign = r >> 63;
            let e = match f {
                // 2^-60 .. 2^10 (beyond ±708 is special).
                VFunc64::Exp => 963 + (r >> 52) % 71,
                // Every binade, normal and subnormal.
                VFunc64::Log | VFunc64::Log1p => (r >> 52) % 2047,
            };
            xs.push(f64::from_bits(sign << 63 | e << 52 | m));
            // Near 1 and near 0, where log and log1p cancel.
            let near = (next() % 2000) as i64 - 1000;
            xs.push(f64::from_bits((1.0f64.to_bits() as i64 + near) as u64));
            xs.push((next() % 100_000) as f64 / 100_000.0 - 0.5);
        }
        xs
    }

    #[test]
    fn within_an_ulp_of_libm() {
        for f in VFunc64::ALL {
            let (mut differ, mut worst) = (0, 0);
            let xs = arguments(f);
            for &x in &xs {
                let (got, want) = (scalar(f, x), exact(f, x));
                let u = ulps(got, want);
                assert!(u <= 1, "{f:?}({x:e}) = {got:e}, libm {want:e}");
                if want == 0.0 || want.is_nan() {
                    assert_eq!(got.to_bits(), want.to_bits(), "{f:?}({x:e})");
                }
                differ += (u != 0) as usize;
                worst = worst.max(u);
            }
            eprintln!(
                "{f:?}: {differ} of {} differ from libm, worst {worst} ulp",
                xs.len()
            );
            // Most arguments give libm's bits.
            assert!(
                differ * 8 < xs.len(),
                "{f:?}: {differ} of {} differ",
                xs.len()
            );
        }
    }

    #[test]
    fn familiar_values_are_libms() {
        use std::f64::consts::{E, LN_10, LN_2};
        assert_eq!(scalar(VFunc64::Exp, 1.0), E);
        assert_eq!(scalar(VFunc64::Exp, 0.0), 1.0);
        assert_eq!(scalar(VFunc64::Log, E), 1.0);
        assert_eq!(scalar(VFunc64::Log, 2.0), LN_2);
        assert_eq!(scalar(VFunc64::Log, 10.0), LN_10);
        assert_eq!(scalar(VFunc64::Log1p, 1.0), LN_2);
        assert_eq!(scalar(VFunc64::Log1p, -0.0).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn every_width_gives_the_twins_bits() {
        for f in VFunc64::ALL {
            let xs = arguments(f);
            let want: Vec<u64> = xs.iter().map(|&x| scalar(f, x).to_bits()).collect();
            for isa in [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }] {
                if !isa.available() {
                    continue;
                }
                // Odd lengths and offsets: the tails and every lane position.
                for start in [0, 1, 3] {
                    let mut v = xs[start..].to_vec();
                    let n = v.len() - 5;
                    apply_with(isa, f, &mut v[..n]);
                    for (i, r) in v[..n].iter().enumerate() {
                        assert_eq!(
                            r.to_bits(),
                            want[start + i],
                            "{f:?} {isa:?} at {}: {:e}",
                            start + i,
                            xs[start + i]
                        );
                    }
                    // Nothing beyond the slice is written.
                    for (i, r) in v[n..].iter().enumerate() {
                        assert_eq!(r.to_bits(), xs[start + n + i].to_bits());
                    }
                }
            }
        }
    }
}
