//! f32 `atan2(y, x)` at the CPU's full vector width, for vector programs
//! ([`crate::vprog::VOp::Atan2`]) and the JIT's one-lane calls.
//!
//! Computed in f64 lanes (`f64lanes.rs`): with `t = min(|x|, |y|) / max(|x|, |y|)`
//! in [0, 1], above tan(π/12) the identity atan t = π/6 + atan((t√3 − 1) / (t + √3))
//! brings the argument into |t| ≤ tan(π/12) (numerator and denominator are selected
//! first, so there is one division), where the Taylor series to t^17 is within 2.7e-12
//! (relative). The octant then gives π/2 − r (|y| > |x|), π − r (x negative, −0 too), and
//! y's sign. Rounded once to f32, the result is the correctly rounded one but where that
//! lies within about 3e-12 (relative) of a rounding boundary: within 1 ulp of the
//! interpreter's (libm's f64 `atan2`, rounded once), nearly always equal
//! (`tests::matches_libm`).
//!
//! Lanes with an infinite or NaN operand, or with both operands zero, take the
//! interpreter's expression itself (`(y as f64).atan2(x as f64) as f32`).

use crate::f64lanes::{horner, scalar2, Binary, F64Lanes};

const SQRT3: f64 = 1.732_050_807_568_877_2;
/// tan(π/12) = 2 − √3.
const TAN_PI_12: f64 = 0.267_949_192_431_122_7;
const FRAC_PI_6: f64 = std::f64::consts::FRAC_PI_6;
const FRAC_PI_2: f64 = std::f64::consts::FRAC_PI_2;
const PI: f64 = std::f64::consts::PI;

/// Taylor coefficients of (atan t / t − 1) / t² in t², highest first: to t^17, within
/// 2.7e-12 relative for |t| ≤ tan(π/12) (f32's result needs about 1e-11).
const ATAN: [f64; 8] = [
    1.0 / 17.0,
    -1.0 / 15.0,
    1.0 / 13.0,
    -1.0 / 11.0,
    1.0 / 9.0,
    -1.0 / 7.0,
    1.0 / 5.0,
    -1.0 / 3.0,
];

/// atan2(y, x) for f64 lanes holding finite f32 operands, not both zero, before the
/// rounding to f32.
#[inline(always)]
pub(crate) fn eval<W: F64Lanes>(y: W, x: W) -> W {
    let (ax, ay) = (x.abs(), y.abs());
    let swap = ay.gt(ax);
    let (mn, mx) = (W::select(swap, ax, ay), W::select(swap, ay, ax));
    let far = mn.gt(mx.mul(W::splat(TAN_PI_12)));
    let num = W::select(far, mn.fma(W::splat(SQRT3), mx.neg()), mn);
    let den = W::select(far, mx.fma(W::splat(SQRT3), mn), mx);
    let t = num.div(den);
    let t2 = t.mul(t);
    let p = t.mul(t2.fma(horner(t2, &ATAN), W::splat(1.0)));
    let r = W::select(far, p.add(W::splat(FRAC_PI_6)), p);
    let r = W::select(swap, W::splat(FRAC_PI_2).sub(r), r);
    let r = W::select(x.negative(), W::splat(PI).sub(r), r);
    r.xor(y.sign())
}

/// The interpreter's expression (`oxla-elem`'s f32 twin: libm's f64 `atan2`, rounded once).
#[inline]
pub(crate) fn exact(y: f32, x: f32) -> f32 {
    (y as f64).atan2(x as f64) as f32
}

/// atan2 as a [`Binary`]: the pairs with an infinite or NaN operand, or both zero, special.
struct Atan2;

impl Binary for Atan2 {
    #[inline(always)]
    fn eval<W: F64Lanes>(y: W, x: W) -> W {
        eval(y, x)
    }
    fn exact(y: f32, x: f32) -> f32 {
        exact(y, x)
    }
    #[inline(always)]
    fn special(y: f32, x: f32) -> bool {
        !(y.is_finite() && x.is_finite()) || (y == 0.0 && x == 0.0)
    }
}

/// The portable twin: one pair.
#[inline]
pub fn scalar(y: f32, x: f32) -> f32 {
    scalar2::<Atan2>(y, x)
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::Atan2;
    use crate::f64lanes::x86::{binary_avx2, binary_avx512};

    /// atan2 of 16 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX-512F.
    #[inline(always)]
    pub(crate) unsafe fn atan2_avx512(y: __m512, x: __m512) -> __m512 {
        unsafe {
            let abs = _mm512_set1_epi32(0x7fff_ffff);
            let ax = _mm512_and_si512(_mm512_castps_si512(x), abs);
            let ay = _mm512_and_si512(_mm512_castps_si512(y), abs);
            let inf = _mm512_set1_ps(f32::INFINITY);
            let special = _mm512_cmp_ps_mask::<_CMP_NLT_UQ>(_mm512_castsi512_ps(ax), inf)
                | _mm512_cmp_ps_mask::<_CMP_NLT_UQ>(_mm512_castsi512_ps(ay), inf)
                | _mm512_cmpeq_epi32_mask(_mm512_or_si512(ax, ay), _mm512_setzero_si512());
            binary_avx512::<Atan2>(y, x, special)
        }
    }

    /// atan2 of 8 lanes.
    ///
    /// # Safety
    /// The CPU runs AVX2 and FMA.
    #[inline(always)]
    pub(crate) unsafe fn atan2_avx2(y: __m256, x: __m256) -> __m256 {
        unsafe {
            let abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
            let (ax, ay) = (_mm256_and_ps(x, abs), _mm256_and_ps(y, abs));
            let inf = _mm256_set1_ps(f32::INFINITY);
            let special = _mm256_or_ps(
                _mm256_or_ps(
                    _mm256_cmp_ps::<_CMP_NLT_UQ>(ax, inf),
                    _mm256_cmp_ps::<_CMP_NLT_UQ>(ay, inf),
                ),
                _mm256_castsi256_ps(_mm256_cmpeq_epi32(
                    _mm256_castps_si256(_mm256_or_ps(ax, ay)),
                    _mm256_setzero_si256(),
                )),
            );
            binary_avx2::<Atan2>(y, x, _mm256_movemask_ps(special))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::ulps;

    /// Pairs over many binades of both, the specials, and ratios near the pieces' edges.
    fn pairs() -> Vec<(f32, f32)> {
        let specials = [
            0.0,
            -0.0,
            1e-45,
            -1e-40,
            1.0,
            -1.0,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut v = Vec::new();
        for &a in &specials {
            for &b in &specials {
                v.push((a, b));
            }
        }
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..300_000 {
            let (a, b) = (next(), next());
            // Exponents from 2^-40 to 2^40, both signs.
            let f = |r: u64| {
                f32::from_bits((r as u32 & 0x807f_ffff) | ((87 + (r >> 40) as u32 % 80) << 23))
            };
            v.push((f(a), f(b)));
        }
        for _ in 0..100_000 {
            // Ratios near tan(π/12), 1 and their neighbours.
            let x = f32::from_bits(0x3f80_0000 | (next() as u32 & 0x007f_ffff));
            let k = [0.267_949_2f32, 1.0, 0.5, 3.732_051][next() as usize % 4];
            v.push((x * k, x));
        }
        v
    }

    #[test]
    fn matches_libm() {
        let (mut differ, v) = (0, pairs());
        for &(y, x) in &v {
            let (got, want) = (scalar(y, x), exact(y, x));
            let u = ulps(got, want);
            assert!(u <= 1, "atan2({y:e}, {x:e}) = {got:e}, libm {want:e}");
            differ += (u != 0) as usize;
            if want == 0.0 || want.is_nan() {
                assert_eq!(got.to_bits(), want.to_bits(), "atan2({y:e}, {x:e})");
            }
        }
        assert!(differ * 10_000 < v.len(), "{differ} of {} differ", v.len());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vectors_give_the_scalar_bits() {
        let (a, b): (Vec<f32>, Vec<f32>) = pairs().into_iter().unzip();
        crate::testutil::check_binary_lanes(&a, &b, x86::atan2_avx512, x86::atan2_avx2, scalar);
    }
}
