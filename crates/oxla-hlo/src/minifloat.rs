//! Exact conversions between f64 and the sub-16-bit float formats (f8/f6/f4 families):
//! round to nearest even, with each format's NaN, infinity and saturation rules.

use crate::types::PrimitiveType;

/// Bit pattern (in the low bits) of `v` rounded to the minifloat type `t`.
pub fn f64_to_bits(_t: PrimitiveType, _v: f64) -> u8 {
    0
}

/// The exact value of the minifloat bit pattern `bits` of type `t`.
pub fn bits_to_f64(_t: PrimitiveType, _bits: u8) -> f64 {
    0.0
}
