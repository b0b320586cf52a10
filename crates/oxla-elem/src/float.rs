//! Real floating-point element functions. Each op has an `_f64` function that defines it and
//! an `_f32` twin that widens to f64, computes, and rounds once (the reference rule).

/// Defines `$f32` as `$f64` evaluated in f64 and rounded once to f32.
macro_rules! f32_twin_unary {
    ($($f32:ident => $f64:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($f64), "` on an f32, rounded once.")]
        #[inline]
        pub fn $f32(x: f32) -> f32 {
            $f64(x as f64) as f32
        }
    )*};
}

macro_rules! f32_twin_binary {
    ($($f32:ident => $f64:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($f64), "` on f32s, rounded once.")]
        #[inline]
        pub fn $f32(a: f32, b: f32) -> f32 {
            $f64(a as f64, b as f64) as f32
        }
    )*};
}

pub fn abs_f64(x: f64) -> f64 {
    x.abs()
}
pub fn neg_f64(x: f64) -> f64 {
    -x
}
/// sign(x): ±1, and x itself for ±0 and NaN.
pub fn sign_f64(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        x
    } else {
        x.signum()
    }
}
// `quiet(x)`: a signaling NaN made quiet (payload and sign kept), as an IEEE 754 arithmetic
// operation delivers it.
use oxla_hlo::literal::nan_bits::quiet;
// Rounding to an integral value is arithmetic: a signaling NaN comes out quiet, as the
// hardware rounding XLA CPU and the JIT use (roundss/roundsd) gives it; the software
// floor/ceil/round of the baseline target return the NaN untouched.
pub fn floor_f64(x: f64) -> f64 {
    quiet(x.floor())
}
pub fn ceil_f64(x: f64) -> f64 {
    quiet(x.ceil())
}
/// Rounds half away from zero (HLO `round-nearest-afz`).
pub fn round_f64(x: f64) -> f64 {
    quiet(x.round())
}
pub fn round_nearest_even_f64(x: f64) -> f64 {
    quiet(x.round_ties_even())
}
pub fn sqrt_f64(x: f64) -> f64 {
    x.sqrt()
}
pub fn rsqrt_f64(x: f64) -> f64 {
    1.0 / x.sqrt()
}
pub fn cbrt_f64(x: f64) -> f64 {
    x.cbrt()
}
pub fn erf_f64(x: f64) -> f64 {
    libm::erf(x)
}
/// 1 / (1 + e^-x), stable for both signs.
pub fn logistic_f64(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}
pub fn exp_f64(x: f64) -> f64 {
    x.exp()
}
pub fn expm1_f64(x: f64) -> f64 {
    x.exp_m1()
}
pub fn log_f64(x: f64) -> f64 {
    x.ln()
}
pub fn log1p_f64(x: f64) -> f64 {
    x.ln_1p()
}
pub fn sin_f64(x: f64) -> f64 {
    x.sin()
}
pub fn cos_f64(x: f64) -> f64 {
    x.cos()
}
pub fn tan_f64(x: f64) -> f64 {
    x.tan()
}
pub fn tanh_f64(x: f64) -> f64 {
    x.tanh()
}

/// Float remainder with the sign of the dividend (C `fmod`).
pub fn rem_f64(a: f64, b: f64) -> f64 {
    a % b
}
pub fn pow_f64(a: f64, b: f64) -> f64 {
    // pow of a signaling NaN to ±0, or of 1 to a signaling NaN, is that NaN quieted (IEEE
    // 754, glibc's pow) where of a quiet NaN it is 1; answered here, as the optimizer may
    // fold pow(x, 0) to 1 whatever x is.
    if b == 0.0 && is_signaling_f64(a) {
        return quiet(a);
    }
    if a == 1.0 && is_signaling_f64(b) {
        return quiet(b);
    }
    a.powf(b)
}

/// Whether `x` is a signaling NaN (quiet bit clear, payload not zero).
fn is_signaling_f64(x: f64) -> bool {
    let b = x.to_bits();
    b & 0x7ff8_0000_0000_0000 == 0x7ff0_0000_0000_0000 && b & 0x0007_ffff_ffff_ffff != 0
}
/// atan2(y, x), HLO operand order.
pub fn atan2_f64(y: f64, x: f64) -> f64 {
    y.atan2(x)
}
/// IEEE maximum: NaN propagates; +0 > -0.
pub fn max_f64(a: f64, b: f64) -> f64 {
    // A NaN operand is the result (sign and payload kept), as in XLA's CPU backend.
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        if a.is_sign_negative() {
            b
        } else {
            a
        }
    } else {
        a.max(b)
    }
}
/// IEEE minimum: NaN propagates; -0 < +0.
pub fn min_f64(a: f64, b: f64) -> f64 {
    // A NaN operand is the result (sign and payload kept), as in XLA's CPU backend.
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        if a.is_sign_negative() {
            a
        } else {
            b
        }
    } else {
        a.min(b)
    }
}

f32_twin_unary! {
    round_f32 => round_f64,
    cbrt_f32 => cbrt_f64,
    erf_f32 => erf_f64,
    logistic_f32 => logistic_f64,
    exp_f32 => exp_f64,
    expm1_f32 => expm1_f64,
    log_f32 => log_f64,
    log1p_f32 => log1p_f64,
    sin_f32 => sin_f64,
    cos_f32 => cos_f64,
    tan_f32 => tan_f64,
    tanh_f32 => tanh_f64,
}

f32_twin_binary! {
    rem_f32 => rem_f64,
    atan2_f32 => atan2_f64,
}

/// `pow_f64` on f32s, rounded once. The operands widen bit for bit: `as f64` would quiet a
/// signaling NaN, and pow of a quiet NaN to ±0 (or of 1 to one) is 1 where of a signaling
/// NaN it is that NaN quieted (IEEE 754's pow, glibc's powf, which XLA CPU calls).
#[inline]
pub fn pow_f32(a: f32, b: f32) -> f32 {
    pow_f32_wide(a, b) as f32
}

/// `pow_f64` of f32 operands widened bit for bit, not yet rounded (a narrower type held in
/// f32, bf16, rounds it once to itself).
#[inline]
pub fn pow_f32_wide(a: f32, b: f32) -> f64 {
    use oxla_hlo::literal::nan_bits::f32_to_f64;
    pow_f64(f32_to_f64(a), f32_to_f64(b))
}

/// Key that orders floats as −NaN < −inf < … < −0 < +0 < … < +inf < +NaN (total order).
pub fn total_order_key_f64(f: f64) -> i64 {
    let b = f.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_round_once() {
        // sin(1) in f64 rounded to f32 is the correctly rounded f32 result.
        assert_eq!(sin_f32(1.0), 1f64.sin() as f32);
        assert_eq!(pow_f32(2.0, 10.0), 1024.0);
        assert_eq!(rem_f32(-7.5, 2.0), -1.5);
        assert_eq!(atan2_f64(1.0, 0.0), std::f64::consts::FRAC_PI_2);
    }

    #[test]
    fn pow_of_a_signaling_nan_to_zero_is_a_nan() {
        let f = f32::from_bits;
        // pow(sNaN, ±0) and pow(1, sNaN): the NaN quieted (sign and payload kept).
        assert_eq!(pow_f32(f(0x7f80_0001), 0.0).to_bits(), 0x7fc0_0001);
        assert_eq!(pow_f32(f(0xff80_0001), -0.0).to_bits(), 0xffc0_0001);
        assert_eq!(pow_f32(1.0, f(0x7fa0_0000)).to_bits(), 0x7fe0_0000);
        // A quiet NaN: 1, as IEEE 754 says.
        assert_eq!(pow_f32(f(0x7fc0_0000), 0.0), 1.0);
        assert_eq!(pow_f32(1.0, f(0xffc0_0000)), 1.0);
        // f64 alike.
        let d = f64::from_bits;
        let sd = d(0x7ff0_0000_0000_0001);
        assert_eq!(pow_f64(sd, 0.0).to_bits(), 0x7ff8_0000_0000_0001);
        assert_eq!(pow_f64(1.0, sd).to_bits(), 0x7ff8_0000_0000_0001);
        assert_eq!(pow_f64(f64::NAN, 0.0), 1.0);
        assert_eq!(pow_f64(1.0, f64::NAN), 1.0);
        // Everything else as before.
        assert_eq!(pow_f32(2.0, 0.0), 1.0);
        assert!(pow_f32(-8.0, 1.0 / 3.0).is_nan());
    }

    #[test]
    fn edge_values() {
        assert_eq!(sign_f64(-0.0).to_bits(), (-0.0f64).to_bits());
        assert!(sign_f64(f64::NAN).is_nan());
        assert_eq!(round_f64(-2.5), -3.0);
        assert_eq!(round_nearest_even_f64(2.5), 2.0);
        assert_eq!(logistic_f64(-1000.0), 0.0);
        assert_eq!(logistic_f64(1000.0), 1.0);
        assert!(max_f64(f64::NAN, 1.0).is_nan());
        assert_eq!(max_f64(-0.0, 0.0).to_bits(), 0f64.to_bits());
        assert_eq!(min_f64(0.0, -0.0).to_bits(), (-0.0f64).to_bits());
        assert!(total_order_key_f64(-0.0) < total_order_key_f64(0.0));
        assert!(total_order_key_f64(f64::INFINITY) < total_order_key_f64(f64::NAN));
    }
}
