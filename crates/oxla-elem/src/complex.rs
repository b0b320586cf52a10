//! Complex element functions on c128 (`Complex64` of f64 parts). c64 values are widened to
//! c128, computed, and rounded once per part, as for real types.

use num_complex::Complex64;

const ONE: Complex64 = Complex64::new(1.0, 0.0);

/// |c| (a real result).
pub fn abs_c128(c: Complex64) -> f64 {
    c.norm()
}
pub fn neg_c128(c: Complex64) -> Complex64 {
    -c
}
/// c / |c|; NaN parts give NaN, zero stays zero.
pub fn sign_c128(c: Complex64) -> Complex64 {
    if c.re.is_nan() || c.im.is_nan() {
        Complex64::new(f64::NAN, f64::NAN)
    } else if c.re == 0.0 && c.im == 0.0 {
        c
    } else {
        c / c.norm()
    }
}
pub fn logistic_c128(c: Complex64) -> Complex64 {
    ONE / (ONE + (-c).exp())
}
pub fn cbrt_c128(c: Complex64) -> Complex64 {
    c.powf(1.0 / 3.0)
}
pub fn exp_c128(c: Complex64) -> Complex64 {
    c.exp()
}
pub fn expm1_c128(c: Complex64) -> Complex64 {
    c.exp() - 1.0
}
pub fn log_c128(c: Complex64) -> Complex64 {
    c.ln()
}
pub fn log1p_c128(c: Complex64) -> Complex64 {
    (c + 1.0).ln()
}
pub fn sqrt_c128(c: Complex64) -> Complex64 {
    c.sqrt()
}
pub fn rsqrt_c128(c: Complex64) -> Complex64 {
    ONE / c.sqrt()
}
pub fn sin_c128(c: Complex64) -> Complex64 {
    c.sin()
}
pub fn cos_c128(c: Complex64) -> Complex64 {
    c.cos()
}
pub fn tan_c128(c: Complex64) -> Complex64 {
    c.tan()
}
pub fn tanh_c128(c: Complex64) -> Complex64 {
    c.tanh()
}

pub fn add_c128(a: Complex64, b: Complex64) -> Complex64 {
    a + b
}
pub fn sub_c128(a: Complex64, b: Complex64) -> Complex64 {
    a - b
}
pub fn mul_c128(a: Complex64, b: Complex64) -> Complex64 {
    a * b
}
pub fn div_c128(a: Complex64, b: Complex64) -> Complex64 {
    a / b
}
pub fn pow_c128(a: Complex64, b: Complex64) -> Complex64 {
    a.powc(b)
}

/// Lexicographic order on (re, im); unordered parts compare equal.
pub fn lex_cmp_c128(a: Complex64, b: Complex64) -> std::cmp::Ordering {
    use std::cmp::Ordering::Equal;
    a.re.partial_cmp(&b.re)
        .unwrap_or(Equal)
        .then(a.im.partial_cmp(&b.im).unwrap_or(Equal))
}
fn has_nan(c: Complex64) -> bool {
    c.re.is_nan() || c.im.is_nan()
}
/// The lexicographically larger operand (the first on ties); an operand with a NaN part is
/// the result, as for real `maximum` (so a reduction's result does not depend on its order).
pub fn max_c128(a: Complex64, b: Complex64) -> Complex64 {
    if has_nan(a) {
        a
    } else if has_nan(b) {
        b
    } else if lex_cmp_c128(a, b).is_ge() {
        a
    } else {
        b
    }
}
/// The lexicographically smaller operand (the first on ties); an operand with a NaN part is
/// the result.
pub fn min_c128(a: Complex64, b: Complex64) -> Complex64 {
    if has_nan(a) {
        a
    } else if has_nan(b) {
        b
    } else if lex_cmp_c128(a, b).is_le() {
        a
    } else {
        b
    }
}
/// atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)) for complex y, x.
pub fn atan2_c128(y: Complex64, x: Complex64) -> Complex64 {
    let i = Complex64::new(0.0, 1.0);
    -i * ((x + i * y) / (x * x + y * y).sqrt()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked() {
        let i = Complex64::new(0.0, 1.0);
        assert_eq!(mul_c128(i, i), Complex64::new(-1.0, 0.0));
        assert_eq!(abs_c128(Complex64::new(3.0, 4.0)), 5.0);
        assert_eq!(
            sign_c128(Complex64::new(3.0, 4.0)),
            Complex64::new(0.6, 0.8)
        );
        assert_eq!(
            max_c128(Complex64::new(1.0, 5.0), Complex64::new(2.0, 0.0)).re,
            2.0
        );
        let e = exp_c128(Complex64::new(0.0, std::f64::consts::PI));
        assert!((e.re + 1.0).abs() < 1e-15 && e.im.abs() < 1e-15);
    }
}
