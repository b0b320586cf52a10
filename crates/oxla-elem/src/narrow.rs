//! Conversions and rounding of the narrow float types (f16, bf16, the minifloats, which
//! compute in f32 and are stored in their own bits) and XLA's reduce-precision.

use half::{bf16, f16};
use oxla_hlo::minifloat;
use oxla_hlo::PrimitiveType;

/// f16 bits as f32; a NaN keeps its sign and payload (signaling ones stay signaling, as
/// when XLA copies the bits).
pub fn f16_bits_to_f32(bits: u16) -> f32 {
    oxla_hlo::literal::nan_bits::f16_bits_to_f32(bits)
}
/// f32 to f16 bits (nearest even); a NaN keeps its sign and payload's top bits.
pub fn f32_to_f16_bits(x: f32) -> u16 {
    oxla_hlo::literal::nan_bits::f32_to_f16_bits(x)
}
/// Rounds an f32 to the nearest f16 (ties to even), returned as f32 (exact).
pub fn round_to_f16(x: f32) -> f32 {
    f16::from_f32(x).to_f32()
}
/// Rounds an f32 to the nearest bf16 (ties to even), returned as f32 (exact).
pub fn round_to_bf16(x: f32) -> f32 {
    bf16::from_f32(x).to_f32()
}
/// Rounds an f64 once to f16 (no double rounding through f32; through f32 rounded to odd).
pub fn round_f64_to_f16(x: f64) -> f32 {
    oxla_hlo::literal::nan_bits::f64_to_f16(x).to_f32()
}
/// Rounds an f64 once to bf16 (no double rounding through f32; through f32 rounded to odd).
pub fn round_f64_to_bf16(x: f64) -> f32 {
    oxla_hlo::literal::nan_bits::f64_to_bf16(x).to_f32()
}
/// The value of a minifloat's bits (`t` one of the f4/f6/f8 types).
pub fn minifloat_bits_to_f32(t: PrimitiveType, bits: u8) -> f32 {
    minifloat::bits_to_f64(t, bits) as f32
}
/// The bits of the minifloat nearest to `x`, with the type's overflow rule.
pub fn f32_to_minifloat_bits(t: PrimitiveType, x: f32) -> u8 {
    minifloat::f64_to_bits(t, x as f64)
}
/// Rounds an f64 once to the minifloat type and back to f32 (exact).
pub fn round_f64_to_minifloat(t: PrimitiveType, x: f64) -> f32 {
    minifloat::bits_to_f64(t, minifloat::f64_to_bits(t, x)) as f32
}

/// Rounds `x` to `exponent_bits` / `mantissa_bits` as XLA's reduce-precision does: mantissa
/// rounded to nearest even, overflow to ±inf, underflow to ±0, NaN kept.
pub fn reduce_precision(x: f64, is_f64: bool, exponent_bits: u32, mantissa_bits: u32) -> f64 {
    if x.is_nan() {
        // With no mantissa bits left a NaN cannot be represented: it becomes infinity.
        return if mantissa_bits == 0 {
            if x.is_sign_negative() {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else {
            x
        };
    }
    let (src_m, src_e) = if is_f64 { (52u32, 11u32) } else { (23, 8) };
    if exponent_bits >= src_e && mantissa_bits >= src_m {
        return x;
    }
    let v = if is_f64 { x } else { x as f32 as f64 };
    let sign = if v.is_sign_negative() { -1.0 } else { 1.0 };
    let a = v.abs();
    if a == 0.0 || a.is_infinite() {
        return v;
    }
    // Round the mantissa to `mantissa_bits` (ties to even) at the value's binade.
    let m = mantissa_bits.min(src_m) as i32;
    let e = a.log2().floor() as i32;
    let e = if 2f64.powi(e) > a { e - 1 } else { e };
    let quantum = 2f64.powi(e - m);
    // Below f64's own precision (deep subnormals) there is nothing to round.
    let mut r = if quantum > 0.0 {
        (a / quantum).round_ties_even() * quantum
    } else {
        a
    };
    if exponent_bits < src_e {
        let bias = (1i32 << (exponent_bits - 1)) - 1;
        let max_exp = bias;
        let min_exp = 1 - bias;
        let max = (2.0 - 2f64.powi(-m)) * 2f64.powi(max_exp);
        if r > max {
            return sign * f64::INFINITY;
        }
        // XLA flushes values below the smallest normal of the reduced format to zero.
        if r < 2f64.powi(min_exp) {
            r = 0.0;
        }
    }
    let r = sign * r;
    if is_f64 {
        r
    } else {
        r as f32 as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_rounding() {
        assert_eq!(round_to_f16(1.0 + 1.0 / 4096.0), 1.0);
        assert_eq!(round_to_bf16(1.0 + 3.0 / 256.0), 1.015625);
        assert_eq!(f16_bits_to_f32(0x3c00), 1.0);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(round_f64_to_minifloat(PrimitiveType::F8E4M3FN, 1.0625), 1.0);
        assert_eq!(
            round_f64_to_minifloat(PrimitiveType::F8E4M3FN, 1.1875),
            1.25
        );
        // e5m10 (f16's format): 1/3 rounds to f16's nearest value.
        let r = reduce_precision(1.0 / 3.0, true, 5, 10);
        assert_eq!(r as f32, round_to_f16(1.0 / 3.0));
        assert_eq!(reduce_precision(f64::NAN, false, 5, 0), f64::INFINITY);
    }
}
