//! Integer element functions that are more than one machine instruction.
//!
//! Integer pow: exponentiation by squaring, wrapping at the type's width; a negative
//! exponent gives 1 for base 1, ±1 for base -1 (by parity) and 0 otherwise (XLA's rule).
//! Wrapping multiplication commutes with truncation, so narrower types (including the
//! sub-byte ones) can use the 64-bit functions and truncate the result.

macro_rules! int_pow {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Integer pow on ", stringify!($t), ", wrapping.")]
        #[allow(unused_comparisons)]
        pub fn $name(base: $t, exp: $t) -> $t {
            if exp < 0 {
                return match base as i128 {
                    1 => 1,
                    -1 if exp % 2 == 0 => 1,
                    -1 => base,
                    _ => 0,
                };
            }
            let (mut result, mut b, mut e): ($t, $t, $t) = (1, base, exp);
            while e > 0 {
                if e & 1 == 1 {
                    result = result.wrapping_mul(b);
                }
                b = b.wrapping_mul(b);
                e >>= 1;
            }
            result
        }
    )*};
}

int_pow! {
    pow_s8: i8, pow_s16: i16, pow_s32: i32, pow_s64: i64,
    pow_u8: u8, pow_u16: u16, pow_u32: u32, pow_u64: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow_wraps_and_handles_negative_exponents() {
        assert_eq!(pow_s32(-2, 3), -8);
        assert_eq!(pow_s8(3, 5), 243u8 as i8);
        assert_eq!(pow_u8(2, 9), 0);
        assert_eq!(pow_s64(-1, -3), -1);
        assert_eq!(pow_s64(-1, -4), 1);
        assert_eq!(pow_s64(1, -7), 1);
        assert_eq!(pow_s64(5, -1), 0);
        assert_eq!(pow_u64(3, 0), 1);
        // Truncating the 64-bit result gives the narrow type's result.
        for (b, e) in [(3i64, 7i64), (-5, 9), (7, 13)] {
            assert_eq!(pow_s64(b, e) as i8, pow_s8(b as i8, e as i8));
            assert_eq!(pow_s64(b, e) as i16, pow_s16(b as i16, e as i16));
        }
    }
}
