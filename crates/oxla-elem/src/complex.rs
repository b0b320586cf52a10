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
/// e^c; a zero imaginary part stays exactly zero (e^800 is inf + 0i, where e^x (cos y +
/// i sin y) would give inf · 0 = NaN).
pub fn exp_c128(c: Complex64) -> Complex64 {
    if c.im == 0.0 {
        return Complex64::new(c.re.exp(), c.im);
    }
    c.exp()
}
/// e^c - 1, accurate near 0 (e^c - 1 loses the digits there): with c = x + iy,
/// Re = expm1(x) cos y - 2 sin²(y/2) and Im = e^x sin y.
pub fn expm1_c128(c: Complex64) -> Complex64 {
    let (x, y) = (c.re, c.im);
    if y == 0.0 {
        return Complex64::new(x.exp_m1(), y);
    }
    let h = (0.5 * y).sin();
    Complex64::new(x.exp_m1() * y.cos() - 2.0 * h * h, x.exp() * y.sin())
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
/// tan(c) = -i tanh(ic), far from the origin too (tan(1e-15 + 1.7e23i) is i, where
/// (sin 2x + i sinh 2y) / (cos 2x + cosh 2y) gives inf / inf = NaN).
pub fn tan_c128(c: Complex64) -> Complex64 {
    let t = tanh_c128(Complex64::new(-c.im, c.re));
    Complex64::new(t.im, -t.re)
}
/// tanh(x + iy) = (sinh x cosh x + i sin y cos y) / (sinh² x + cos² y), which neither
/// overflows nor cancels for moderate x. Past |x| = 20, tanh x rounds to ±1 in f64 and the
/// imaginary part is 4 sin y cos y e^(-2|x|) (underflowing to a signed zero, never NaN).
/// Non-finite parts follow C99's ctanh: tanh(±inf + iy) = ±1 ± 0i, tanh(x + i inf) =
/// NaN + NaN i (0 + NaN i for x = 0), tanh(NaN + 0i) = NaN + 0i.
pub fn tanh_c128(c: Complex64) -> Complex64 {
    let (x, y) = (c.re, c.im);
    if x.is_nan() {
        let im = if y == 0.0 { y } else { f64::NAN };
        return Complex64::new(x, im);
    }
    if x.is_infinite() {
        let s = if y.is_finite() { y.sin() * y.cos() } else { y };
        return Complex64::new(1f64.copysign(x), 0f64.copysign(s));
    }
    if !y.is_finite() {
        let re = if x == 0.0 { x } else { f64::NAN };
        return Complex64::new(re, f64::NAN);
    }
    let (sy, cy) = y.sin_cos();
    if x.abs() > 20.0 {
        return Complex64::new(1f64.copysign(x), 4.0 * sy * cy * (-2.0 * x.abs()).exp());
    }
    let (sh, ch) = (x.sinh(), x.cosh());
    let den = sh * sh + cy * cy;
    Complex64::new(sh * ch / den, sy * cy / den)
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

    fn close(a: Complex64, b: Complex64, rel: f64) -> bool {
        let ok = |x: f64, y: f64| x == y || (x - y).abs() <= rel * y.abs().max(f64::MIN_POSITIVE);
        ok(a.re, b.re) && ok(a.im, b.im)
    }

    /// tan and tanh near and far from the origin, and their special values; exp and expm1
    /// where the textbook forms give NaN or lose digits.
    #[test]
    fn tan_tanh_exp_expm1_far_and_near() {
        let c = Complex64::new;
        // tanh(1 + i) and tan(1 + i) (mpmath).
        let (a, b) = (1.083_923_327_338_694_6, 0.271_752_585_319_511_7);
        assert!(
            close(tanh_c128(c(1.0, 1.0)), c(a, b), 1e-15),
            "{}",
            tanh_c128(c(1.0, 1.0))
        );
        assert!(close(tan_c128(c(1.0, 1.0)), c(b, a), 1e-15));
        // Far from the origin: the limits, not NaN.
        assert_eq!(tan_c128(c(1e-15, 1.7e23)), c(0.0, 1.0));
        assert_eq!(tan_c128(c(1e-15, -1.7e23)), c(0.0, -1.0));
        assert_eq!(tanh_c128(c(800.0, 1.0)), c(1.0, 0.0));
        assert_eq!(tanh_c128(c(-30.0, 0.5)).re, -1.0);
        let t = tanh_c128(c(-30.0, 0.5));
        assert!(t.im > 0.0 && t.im < 1e-25, "{t}");
        // C99 special values.
        assert_eq!(tanh_c128(c(f64::INFINITY, 2.0)), c(1.0, -0.0));
        assert!(tanh_c128(c(1.0, f64::INFINITY)).re.is_nan());
        let z = tanh_c128(c(0.0, f64::INFINITY));
        assert!(z.re == 0.0 && z.im.is_nan());
        let n = tanh_c128(c(f64::NAN, 0.0));
        assert!(n.re.is_nan() && n.im == 0.0);
        // exp of a real argument stays real at overflow; expm1 keeps its digits near 0.
        assert_eq!(exp_c128(c(800.0, 0.0)), c(f64::INFINITY, 0.0));
        let m = expm1_c128(c(1e-10, 1e-10));
        assert!(close(m, c(1e-10, 1.000_000_000_1e-10), 1e-14), "{m}");
        assert_eq!(expm1_c128(c(-f64::INFINITY, 0.0)), c(-1.0, 0.0));
    }
}
