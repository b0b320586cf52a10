//! f32 `power(x, y)` at the CPU's full vector width, for vector programs
//! ([`crate::vprog::VOp::Pow`]) and the JIT's one-lane calls.
//!
//! Computed in f64 lanes (`f64lanes.rs`) as exp(y · ln x): x = 2^e · m with m in
//! [√½, √2), ln m = 2s(1 + s²/3 + … + s^14/15) with s = (m − 1)/(m + 1) (|s| < 0.18:
//! within 1.1e-14), t = y · (e·ln 2 + ln m), clamped to ±200 (beyond, f32's result is ∞ or
//! 0 either way), then exp(t) = 2^n · exp(r) with r = t − n·ln 2 (two-part ln 2) and the
//! Taylor series to r^10 (within 2.2e-13). Where f32's result is finite and not zero, |t| <
//! 104 and |y| < 300 where ln m is at its largest, so t is within about 4e-12 and the result
//! rounded once to f32 is the correctly rounded one but where that lies within about 5e-12
//! (relative) of a rounding boundary: within 1 ulp of the interpreter's (libm's f64 `pow`,
//! rounded once), nearly always equal.
//!
//! Lanes with x not positive and finite (zero, negative, ±∞, NaN) or y not finite take the
//! interpreter's expression itself ([`exact`]), one at a time.

use crate::f64lanes::{horner, scalar2, Binary, F64Lanes, ATANH, INV_FACTORIALS, LN2_HI, LN2_LO};
use crate::trig::MAGIC;

const SQRT2: f64 = std::f64::consts::SQRT_2;
const LN2: f64 = std::f64::consts::LN_2;
const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// |t| beyond which f32's result is ∞ or 0 whatever the rest (e^88.8 overflows f32, e^-104
/// rounds to 0).
const T_MAX: f64 = 200.0;

/// x^y for f64 lanes holding f32 operands, x positive and finite, y finite, before the
/// rounding to f32.
#[inline(always)]
pub(crate) fn eval<W: F64Lanes>(x: W, y: W) -> W {
    let (e, m) = x.exponent_mantissa();
    let high = m.gt(W::splat(SQRT2));
    let m = W::select(high, m.mul(W::splat(0.5)), m);
    let e = W::select(high, e.add(W::splat(1.0)), e);
    let one = W::splat(1.0);
    let s = m.sub(one).div(m.add(one));
    let s2 = s.mul(s);
    // The series to s^14 and exp's to r^10: f32's result needs t to about 1e-11, not f64's
    // 1e-16 (truncations 1e-14 · |y| ≤ 4e-12 and 2e-13).
    let ln_m = s.add(s).mul(s2.fma(horner(s2, &ATANH[3..]), one));
    let t = y.mul(e.fma(W::splat(LN2), ln_m));
    let t = W::select(t.gt(W::splat(T_MAX)), W::splat(T_MAX), t);
    let t = W::select(W::splat(-T_MAX).gt(t), W::splat(-T_MAX), t);
    // k = MAGIC + n, n = round(t / ln 2).
    let k = t.fma(W::splat(LOG2_E), W::splat(MAGIC));
    let n = k.sub(W::splat(MAGIC));
    let r = n.fma(W::splat(-LN2_HI), t);
    let r = n.fma(W::splat(-LN2_LO), r);
    horner(r, &INV_FACTORIALS[3..]).scale_pow2(k)
}

/// An f32 widened to f64 bit for bit (a signaling NaN stays signaling, as `oxla-elem`
/// widens it).
fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let b = x.to_bits() as u64;
        f64::from_bits((b >> 31) << 63 | 0x7ff0_0000_0000_0000 | (b & 0x007f_ffff) << 29)
    } else {
        x as f64
    }
}

/// The interpreter's expression (`oxla-elem`'s `pow_f32`: the operands widened bit for
/// bit; pow of a signaling NaN to ±0, or of 1 to a signaling NaN, that NaN quieted; else
/// libm's f64 `pow`; rounded once). `crates/oxla-codegen/tests/pow_twin.rs` checks the two
/// agree bit for bit.
pub fn exact(x: f32, y: f32) -> f32 {
    let (a, b) = (widen(x), widen(y));
    let signaling = |v: f64| v.is_nan() && v.to_bits() & 0x0008_0000_0000_0000 == 0;
    let quiet = |v: f64| f64::from_bits(v.to_bits() | 0x0008_0000_0000_0000);
    (if b == 0.0 && signaling(a) {
        quiet(a)
    } else if a == 1.0 && signaling(b) {
        quiet(b)
    } else {
        a.powf(b)
    }) as f32
}

/// power as a [`Binary`]: bases not positive and finite, or exponents not finite, special.
struct Pow;

impl Binary for Pow {
    #[inline(always)]
    fn eval<W: F64Lanes>(x: W, y: W) -> W {
        eval(x, y)
    }
    fn exact(x: f32, y: f32) -> f32 {
        exact(x, y)
    }
    #[inline(always)]
    fn special(x: f32, y: f32) -> bool {
        !(x > 0.0 && x < f32::INFINITY && y.is_finite())
    }
}

/// The portable twin: one pair.
#[inline]
pub fn scalar(x: f32, y: f32) -> f32 {
    scalar2::<Pow>(x, y)
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::Pow;
    use crate::f64lanes::x86::{binary_avx2, binary_avx512};

    /// x^y of 16 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX-512F.
    #[inline(always)]
    pub(crate) unsafe fn pow_avx512(x: __m512, y: __m512) -> __m512 {
        unsafe {
            let inf = _mm512_set1_ps(f32::INFINITY);
            let ay = _mm512_castsi512_ps(_mm512_and_si512(
                _mm512_castps_si512(y),
                _mm512_set1_epi32(0x7fff_ffff),
            ));
            let ordinary = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(x, _mm512_setzero_ps())
                & _mm512_cmp_ps_mask::<_CMP_LT_OQ>(x, inf)
                & _mm512_cmp_ps_mask::<_CMP_LT_OQ>(ay, inf);
            binary_avx512::<Pow>(x, y, !ordinary)
        }
    }

    /// x^y of 8 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX2 and FMA.
    #[inline(always)]
    pub(crate) unsafe fn pow_avx2(x: __m256, y: __m256) -> __m256 {
        unsafe {
            let inf = _mm256_set1_ps(f32::INFINITY);
            let ay = _mm256_and_ps(y, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff)));
            let ordinary = _mm256_and_ps(
                _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_GT_OQ>(x, _mm256_setzero_ps()),
                    _mm256_cmp_ps::<_CMP_LT_OQ>(x, inf),
                ),
                _mm256_cmp_ps::<_CMP_LT_OQ>(ay, inf),
            );
            binary_avx2::<Pow>(x, y, !_mm256_movemask_ps(ordinary) & 0xff)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::ulps;

    /// Pairs: the specials against each other, x over many binades with y small, and x
    /// near 1 with y large (results across f32's whole range, overflow and underflow).
    fn pairs() -> Vec<(f32, f32)> {
        let specials = [
            0.0,
            -0.0,
            1e-45,
            -1e-40,
            1.0,
            -1.0,
            2.0,
            -2.0,
            0.5,
            3.0,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(0x7f80_0001),
        ];
        let mut v = Vec::new();
        for &a in &specials {
            for &b in &specials {
                v.push((a, b));
            }
        }
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..300_000 {
            let (a, b) = (next(), next());
            // x from 2^-60 to 2^60, y in ±4 (some negative x too).
            let x =
                f32::from_bits((a as u32 & 0x807f_ffff) | ((67 + (a >> 40) as u32 % 120) << 23));
            let y = ((b >> 40) as u32 % 8001) as f32 / 1000.0 - 4.0;
            v.push((x.abs(), y));
            if b & 0xff == 0 {
                v.push((x, y.round()));
            }
        }
        for _ in 0..200_000 {
            let (a, b) = (next(), next());
            let x = 1.0 + ((a >> 40) as u32 % 20001) as f32 / 10000.0 - 1.0;
            let y = ((b >> 40) as u32 % 400_001) as f32 / 100.0 - 2000.0;
            v.push((x.abs(), y));
        }
        v
    }

    #[test]
    fn matches_libm() {
        let (mut differ, v) = (0, pairs());
        for &(x, y) in &v {
            let (got, want) = (scalar(x, y), exact(x, y));
            let u = ulps(got, want);
            assert!(u <= 1, "pow({x:e}, {y:e}) = {got:e}, libm {want:e}");
            differ += (u != 0) as usize;
            if want == 0.0 || !want.is_finite() {
                assert_eq!(got.to_bits(), want.to_bits(), "pow({x:e}, {y:e})");
            }
        }
        assert!(differ * 10_000 < v.len(), "{differ} of {} differ", v.len());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vectors_give_the_scalar_bits() {
        let (a, b): (Vec<f32>, Vec<f32>) = pairs().into_iter().unzip();
        crate::testutil::check_binary_lanes(&a, &b, x86::pow_avx512, x86::pow_avx2, scalar);
    }
}
