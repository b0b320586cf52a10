//! f32 sine, cosine and tangent at the CPU's full vector width, for `vmath`
//! ([`crate::vmath::VFunc::Sin`], `Cos`, `Tan`).
//!
//! Each f32 argument is widened to f64 and reduced by π/2 there: `q = round(x · 2/π)`, then
//! `r = x − q·P1 − q·P2 − q·P3` with fused multiply-adds, where P1 + P2 + P3 is π/2 to about
//! 160 bits. For |x| ≤ 2^24 the first step is exact (x and q·P1 are multiples of 2^-52 and
//! their difference is below 1), and the two after it keep r to f64's precision even where
//! x lies close to a multiple of π/2. The Taylor series of sin and cos on |r| ≤ π/4 (to r^13
//! and r^14: truncation below 3e-14 relative) give the result in f64, rounded once to f32.
//! So the result is the correctly rounded value except where that value lies within about
//! 3e-14 (relative) of a rounding boundary: within 1 ulp of the interpreter's (libm's f64
//! function rounded once), and nearly always equal (`tests::matches_libm`).
//!
//! Beyond 2^24, and for ±inf and NaN, a lane takes the interpreter's expression itself
//! (`(x as f64).sin() as f32`) one at a time: such arguments are rare, and their reduction
//! would need more of π's bits.
//!
//! The algorithm is written once over `F64Lanes` (`f64lanes.rs`); `f64` itself is the portable twin
//! (always fused multiply-adds, in software where the CPU has none), and AVX-512F (8 f64
//! lanes) and AVX2 + FMA (4) implement it with `std::arch`. Every path gives the same bits.

use crate::f64lanes::{horner, F64Lanes};

/// Which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trig {
    Sin,
    Cos,
    Tan,
}

/// Arguments above this (and ±inf, NaN) take libm's f64 function.
pub(crate) const BIG: f32 = 16_777_216.0;

const FRAC_2_PI: f64 = std::f64::consts::FRAC_2_PI;
/// 1.5 · 2^52: adding it rounds a value below 2^51 to an integer held in the low mantissa
/// bits.
pub(crate) const MAGIC: f64 = 6_755_399_441_055_744.0;
/// π/2 = P1 + P2 + P3 (+ 5.6e-50): each the f64 nearest to what is left of π/2.
const P1: f64 = std::f64::consts::FRAC_PI_2;
const P2: f64 = 6.123_233_995_736_766e-17;
const P3: f64 = -1.497_384_904_859_169_8e-33;

/// Taylor coefficients of (sin r / r − 1) / r² in r², highest first.
const SIN: [f64; 6] = [
    1.0 / 6_227_020_800.0,
    -1.0 / 39_916_800.0,
    1.0 / 362_880.0,
    -1.0 / 5_040.0,
    1.0 / 120.0,
    -1.0 / 6.0,
];
/// Taylor coefficients of (cos r − 1) / r² in r², highest first.
const COS: [f64; 7] = [
    -1.0 / 87_178_291_200.0,
    1.0 / 479_001_600.0,
    -1.0 / 3_628_800.0,
    1.0 / 40_320.0,
    -1.0 / 720.0,
    1.0 / 24.0,
    -0.5,
];

/// `f(x)` for f64 lanes holding f32 arguments with |x| ≤ [`BIG`], before the rounding to f32.
#[inline(always)]
pub(crate) fn eval<W: F64Lanes>(f: Trig, x: W) -> W {
    // sin and tan are odd, cos even: reduce |x| (q ≥ 0, so the zeros keep their signs).
    let a = x.abs();
    // k = MAGIC + q with q = round(a · 2/π): q sits in k's low mantissa bits.
    let k = a.fma(W::splat(FRAC_2_PI), W::splat(MAGIC));
    let q = k.sub(W::splat(MAGIC));
    let r = q.fma(W::splat(-P1), a);
    let r = q.fma(W::splat(-P2), r);
    let r = q.fma(W::splat(-P3), r);
    // cos(x) = sin(x + π/2): one quadrant on.
    let (odd, flip) = W::quadrant(k, (f == Trig::Cos) as i64);
    let r2 = r.mul(r);
    let s = r.mul(r2.fma(horner(r2, &SIN), W::splat(1.0)));
    let c = r2.fma(horner(r2, &COS), W::splat(1.0));
    match f {
        // tan(r + π/2) = -cos r / sin r.
        Trig::Tan => W::select(odd, c.neg().div(s), s.div(c)).xor(x.sign()),
        Trig::Sin => W::select(odd, c, s).xor(flip.xor(x.sign())),
        Trig::Cos => W::select(odd, c, s).xor(flip),
    }
}

/// The interpreter's expression (`oxla-elem`'s f32 twin: libm's f64 function, rounded once).
#[inline]
pub(crate) fn exact(f: Trig, x: f32) -> f32 {
    let x = x as f64;
    (match f {
        Trig::Sin => x.sin(),
        Trig::Cos => x.cos(),
        Trig::Tan => x.tan(),
    }) as f32
}

/// The portable twin: one f32.
#[inline]
pub fn scalar(f: Trig, x: f32) -> f32 {
    if x.is_nan() || x.abs() > BIG {
        return exact(f, x);
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has FMA.
        return unsafe { scalar_fma(f, x) };
    }
    // `mul_add` without the target feature: fused in software (the same bits, slower).
    eval(f, x as f64) as f32
}

/// [`scalar`]'s body compiled with FMA instructions (one each, not a libm call).
///
/// # Safety
/// The CPU has FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn scalar_fma(f: Trig, x: f32) -> f32 {
    eval(f, x as f64) as f32
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::{eval, exact, Trig, BIG};
    use crate::f64lanes::x86::{D4, D8};

    /// Lanes of `x` whose bit is set in `big` (the arguments beyond [`BIG`], ±inf, NaN) of
    /// the `W` results `r`, recomputed with the interpreter's expression.
    #[inline(never)]
    fn redo<const W: usize>(f: Trig, x: [f32; W], mut r: [f32; W], big: u32) -> [f32; W] {
        for (i, (r, &x)) in r.iter_mut().zip(&x).enumerate() {
            if big >> i & 1 != 0 {
                *r = exact(f, x);
            }
        }
        r
    }

    /// `f` of 16 f32 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX-512F.
    #[inline(always)]
    pub(crate) unsafe fn trig_avx512(f: Trig, x: __m512) -> __m512 {
        unsafe {
            let lo = _mm512_cvtps_pd(_mm512_castps512_ps256(x));
            let hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(
                _mm512_castps_pd(x),
            )));
            let rl = _mm512_cvtpd_ps(eval(f, D8(lo)).0);
            let rh = _mm512_cvtpd_ps(eval(f, D8(hi)).0);
            let r = _mm512_castpd_ps(_mm512_insertf64x4::<1>(
                _mm512_castpd256_pd512(_mm256_castps_pd(rl)),
                _mm256_castps_pd(rh),
            ));
            let ax = _mm512_castsi512_ps(_mm512_and_si512(
                _mm512_castps_si512(x),
                _mm512_set1_epi32(0x7fff_ffff),
            ));
            let big = _mm512_cmp_ps_mask::<_CMP_NLE_UQ>(ax, _mm512_set1_ps(BIG));
            if big == 0 {
                return r;
            }
            let (mut xs, mut rs) = ([0f32; 16], [0f32; 16]);
            _mm512_storeu_ps(xs.as_mut_ptr(), x);
            _mm512_storeu_ps(rs.as_mut_ptr(), r);
            let rs = redo(f, xs, rs, big as u32);
            _mm512_loadu_ps(rs.as_ptr())
        }
    }

    /// `f` of 8 f32 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX2 and FMA.
    #[inline(always)]
    pub(crate) unsafe fn trig_avx2(f: Trig, x: __m256) -> __m256 {
        unsafe {
            let lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x));
            let hi = _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(x));
            let rl = _mm256_cvtpd_ps(eval(f, D4(lo)).0);
            let rh = _mm256_cvtpd_ps(eval(f, D4(hi)).0);
            let r = _mm256_insertf128_ps::<1>(_mm256_castps128_ps256(rl), rh);
            let ax = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff)));
            let big = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NLE_UQ>(ax, _mm256_set1_ps(BIG)));
            if big == 0 {
                return r;
            }
            let (mut xs, mut rs) = ([0f32; 8], [0f32; 8]);
            _mm256_storeu_ps(xs.as_mut_ptr(), x);
            _mm256_storeu_ps(rs.as_mut_ptr(), r);
            let rs = redo(f, xs, rs, big as u32);
            _mm256_loadu_ps(rs.as_ptr())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::ulps;

    /// Arguments over every binade up to beyond [`BIG`], and the special values.
    fn arguments() -> Vec<f32> {
        let mut xs = vec![
            0.0,
            -0.0,
            1e-45,
            -1e-40,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(0x7f80_0001),
            f32::MAX,
            BIG,
            -BIG,
            f32::from_bits(BIG.to_bits() + 1),
            std::f32::consts::FRAC_PI_2,
            std::f32::consts::PI,
            -std::f32::consts::FRAC_PI_4,
        ];
        let mut s = 0x1234_5678_9abc_def0u64;
        for _ in 0..400_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Exponents from 2^-30 to 2^30, both signs.
            let bits = (s as u32 & 0x807f_ffff) | ((97 + (s >> 40) as u32 % 60) << 23);
            xs.push(f32::from_bits(bits));
        }
        // Near multiples of π/2, where the reduction cancels.
        for k in 1..20_000 {
            let c = (k as f64 * std::f64::consts::FRAC_PI_2) as f32;
            for d in -2i32..=2 {
                xs.push(f32::from_bits((c.to_bits() as i32 + d) as u32));
            }
        }
        xs
    }

    #[test]
    fn matches_libm() {
        for f in [Trig::Sin, Trig::Cos, Trig::Tan] {
            let (mut differ, mut worst) = (0, 0);
            let xs = arguments();
            for &x in &xs {
                let (got, want) = (scalar(f, x), exact(f, x));
                let u = ulps(got, want);
                assert!(u <= 1, "{f:?}({x:e}) = {got:e}, libm {want:e}");
                differ += (u != 0) as usize;
                worst = worst.max(u);
                if x.is_nan() {
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{f:?} of NaN {:x}",
                        x.to_bits()
                    );
                }
            }
            // Correctly rounded but for values within ~3e-14 of a rounding boundary.
            assert!(
                differ * 10_000 < xs.len(),
                "{f:?}: {differ} of {} differ",
                xs.len()
            );
        }
    }

    #[test]
    fn zeros_keep_their_sign() {
        assert_eq!(scalar(Trig::Sin, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(scalar(Trig::Tan, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(scalar(Trig::Cos, -0.0), 1.0);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vectors_give_the_scalar_bits() {
        use std::arch::x86_64::*;
        let xs = arguments();
        for f in [Trig::Sin, Trig::Cos, Trig::Tan] {
            if std::arch::is_x86_feature_detected!("avx512f") {
                for c in xs.chunks_exact(16) {
                    // SAFETY: AVX-512F is present; c holds 16 floats.
                    let r: [f32; 16] = unsafe {
                        std::mem::transmute(x86::trig_avx512(f, _mm512_loadu_ps(c.as_ptr())))
                    };
                    for (&x, &r) in c.iter().zip(&r) {
                        assert_eq!(r.to_bits(), scalar(f, x).to_bits(), "{f:?}({x:e}) avx512");
                    }
                }
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                for c in xs.chunks_exact(8) {
                    // SAFETY: AVX2 and FMA are present; c holds 8 floats.
                    let r: [f32; 8] = unsafe {
                        std::mem::transmute(x86::trig_avx2(f, _mm256_loadu_ps(c.as_ptr())))
                    };
                    for (&x, &r) in c.iter().zip(&r) {
                        assert_eq!(r.to_bits(), scalar(f, x).to_bits(), "{f:?}({x:e}) avx2");
                    }
                }
            }
        }
    }
}
