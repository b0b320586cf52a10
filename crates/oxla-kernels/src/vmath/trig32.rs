//! f32 sine and cosine in f32 lanes (8 per AVX2 vector, 16 per AVX-512), for arguments up to
//! [`SMALL`] in magnitude; the rest take `trig.rs`'s f64-lane path, lane by lane.
//!
//! Reduction by π/2 in three parts (Cody and Waite) with fused multiply-adds:
//! `q = round(|x| · 2/π)`, `r = |x| − q·C1 − q·C2 − q·C3`, where C1 is π/2 rounded to f32
//! and C2, C3 what is left of it, rounded in turn. The first step is exact: the fused
//! product is exact, and `|x| − q·C1` is a multiple of |x|'s unit in the last place below 2
//! in magnitude, so it fits f32's 24 bits. The two after it round once each (relative to r
//! itself, not to the terms: r stays close to its exact value even where |x| lies near a
//! multiple of π/2), and the 72 bits of C1 + C2 + C3 leave an error of q · 1e-23, far
//! below r's last place for q < 2^15. Then polynomials on |r| ≤ π/4 (sin: Taylor's to r^9,
//! truncation 2.5e-9 relative; cos: a minimax fit to r^8, 1.6e-10), in f32 with fused multiply-adds.
//! Measured against libm's f64 function rounded to f32 over every f32 argument up to
//! [`SMALL`] (`tests::within_one_ulp_exhaustive`, run with `--ignored`; a sample in CI):
//! within 1 ulp.
//!
//! Arguments beyond [`SMALL`], ±inf and NaN take the f64-lane path (`Lanes::trig`, within 1
//! ulp of libm's, the same for every lane), so a lane's result depends only on its argument,
//! not on its neighbours'.

use super::{horner, k, Lanes};
use crate::trig::Trig;

/// Largest |x| the f32 reduction takes.
pub(crate) const SMALL: f32 = 32_768.0;

/// 1.5 · 2^23: adding it rounds a value below 2^22 to an integer held in the low mantissa
/// bits.
const MAGIC: f64 = 12_582_912.0;
const FRAC_2_PI: f64 = 0.636_619_746_685_028_1;
/// π/2 = C1 + C2 + C3 + 1.06e-23, each the f32 nearest to what is left.
const C1: f64 = 1.570_796_370_506_286_6;
const C2: f64 = -4.371_138_828_673_793e-8;
const C3: f64 = -1.715_124_510_005_881_9e-15;

/// Taylor coefficients of (sin r − r) / r³ in powers of r², highest first (f32-rounded;
/// truncation 2.5e-9 relative. A three-term minimax fit, 8e-9, gives 2 ulp at 684.6).
const SIN: [f64; 4] = [
    2.755_731_884_462_875_3e-6,
    -1.984_127_011_382_952_3e-4,
    8.333_333_767_950_535e-3,
    -0.166_666_671_633_720_4,
];
/// (cos r − 1) / r² in powers of r², highest first: −1/2, then a minimax fit of the rest
/// on |r| ≤ π/4 (relative error 1.6e-10).
const COS: [f64; 4] = [
    2.443_307_857_902_255e-5,
    -1.388_731_529_004_871_8e-3,
    4.166_664_555_668_831e-2,
    -0.5,
];

/// sin or cos (`f` is neither: tangent keeps the f64 path) of every lane of `x`.
#[inline(always)]
pub(crate) fn sin_cos<V: Lanes>(f: Trig, x: V) -> V {
    let a = x.magnitude();
    // k holds q (plus one for cos: cos x = sin(x + π/2)) in its low bits.
    let kq = a.fma(k(FRAC_2_PI), k(MAGIC));
    let q = kq.sub(k(MAGIC));
    let r = q.fma(k(-C1), a);
    let r = q.fma(k(-C2), r);
    let r = q.fma(k(-C3), r);
    // The quadrant's bits: q + 1 for cos is exact in k (its unit is 1).
    let quad = if f == Trig::Cos { kq.add(k(1.0)) } else { kq };
    let r2 = r.mul(r);
    let s = r.mul(r2).mul_add(horner(r2, &SIN), r);
    let c = r2.mul_add(horner(r2, &COS), k(1.0));
    let v = V::select(quad.bit_set(0), c, s);
    let v = v.xor_bit_to_sign(quad, 1);
    // sin is odd: the argument's sign (after the quadrant's) — and sin(-0) = -0.
    let v = if f == Trig::Sin { v.xor_sign_of(x) } else { v };
    let big = a.not_le(V::splat(SMALL));
    if V::any(big) {
        V::select(big, x.trig(f), v)
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::ulps;
    use crate::vmath::Scalar;

    fn scalar(f: Trig, x: f32) -> f32 {
        sin_cos(f, Scalar::<true>(x)).0
    }

    fn libm(f: Trig, x: f32) -> f32 {
        let x = x as f64;
        (if f == Trig::Sin { x.sin() } else { x.cos() }) as f32
    }

    /// The worst ulp distance from libm's f64 function over `xs`.
    fn worst(f: Trig, xs: impl Iterator<Item = f32>) -> (u32, f32) {
        let mut w = (0, 0.0);
        for x in xs {
            let u = ulps(scalar(f, x), libm(f, x));
            if u > w.0 {
                w = (u, x);
            }
        }
        w
    }

    #[test]
    fn within_one_ulp_sampled() {
        for f in [Trig::Sin, Trig::Cos] {
            // Every 97th f32 below SMALL and beyond, both signs, and the neighbours of
            // multiples of π/2 (where the reduction cancels).
            let sample = (0..0x4800_0000u32)
                .step_by(97)
                .flat_map(|b| [f32::from_bits(b), -f32::from_bits(b)]);
            let (u, x) = worst(f, sample);
            assert!(u <= 1, "{f:?}({x:e}): {u} ulp");
            let near = (1..20_000).flat_map(|q| {
                let c = (q as f64 * std::f64::consts::FRAC_PI_2) as f32;
                (-3i32..=3).map(move |d| f32::from_bits((c.to_bits() as i32 + d) as u32))
            });
            let (u, x) = worst(f, near);
            assert!(u <= 1, "{f:?}({x:e}) near a multiple of π/2: {u} ulp");
        }
    }

    /// Every f32 argument up to [`SMALL`] (about a minute in release).
    #[test]
    #[ignore = "every f32 argument up to 32768 (about a minute in release); \
                within_one_ulp_sampled checks a sample in CI"]
    fn within_one_ulp_exhaustive() {
        for f in [Trig::Sin, Trig::Cos] {
            let (u, x) = worst(f, (0..=SMALL.to_bits()).map(f32::from_bits));
            println!("{f:?}: worst {u} ulp at {x:e}");
            assert!(u <= 1, "{f:?}({x:e}): {u} ulp");
        }
    }

    #[test]
    fn special_values() {
        assert_eq!(scalar(Trig::Sin, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(scalar(Trig::Sin, 0.0).to_bits(), 0);
        assert_eq!(scalar(Trig::Cos, -0.0), 1.0);
        assert!(scalar(Trig::Sin, f32::INFINITY).is_nan());
        assert!(scalar(Trig::Cos, f32::NAN).is_nan());
        // Beyond SMALL: the f64 path's bits.
        for x in [40_000.5f32, -1e20, f32::MAX] {
            for f in [Trig::Sin, Trig::Cos] {
                assert_eq!(scalar(f, x).to_bits(), crate::trig::scalar(f, x).to_bits());
            }
        }
    }
}
