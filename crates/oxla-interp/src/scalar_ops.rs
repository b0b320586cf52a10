//! Element-wise semantics on widened scalars. Each function gets the operand element type
//! so integer results wrap to its width; float results are rounded to the type when they
//! are stored (`Literal::from_scalars`). See docs/semantics.md for the edge cases.

use num_complex::Complex64;
use oxla_hlo::literal::{wrap_int, Scalar};
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, Error, PrimitiveType, Result, UnaryOp,
};

use Scalar::*;

fn bad(op: &str, t: PrimitiveType) -> Error {
    Error::unimplemented(format!("{op} is not defined for element type {t}"))
}

/// Bits of an integer value as an unsigned number of the type's width.
fn unsigned_bits(t: PrimitiveType, v: i128) -> u128 {
    let w = t.bit_width() as u32;
    (v as u128) & ((1u128 << w) - 1)
}

pub fn unary(op: UnaryOp, t: PrimitiveType, x: Scalar) -> Result<Scalar> {
    use UnaryOp::*;
    let w = t.bit_width() as u32;
    Ok(match (op, x) {
        (Abs, Int(i)) => Int(wrap_int(t, i.abs())),
        (Abs, Float(f)) => Float(f.abs()),
        (Abs, Complex(c)) => Float(c.norm()),
        (Neg, Int(i)) => Int(wrap_int(t, -i)),
        (Neg, Float(f)) => Float(-f),
        (Neg, Complex(c)) => Complex(-c),
        (Not, Pred(b)) => Pred(!b),
        (Not, Int(i)) => Int(wrap_int(t, !i)),
        (PopCnt, Int(i)) => Int(unsigned_bits(t, i).count_ones() as i128),
        (Clz, Int(i)) => {
            let u = unsigned_bits(t, i);
            Int((u.leading_zeros() - (128 - w)) as i128)
        }
        (Sign, Int(i)) => Int(i.signum()),
        (Sign, Float(f)) => Float(if f.is_nan() || f == 0.0 {
            f
        } else {
            f.signum()
        }),
        (Sign, Complex(c)) => Complex(if c.re.is_nan() || c.im.is_nan() {
            Complex64::new(f64::NAN, f64::NAN)
        } else if c.re == 0.0 && c.im == 0.0 {
            c
        } else {
            c / c.norm()
        }),
        (IsFinite, Float(f)) => Pred(f.is_finite()),
        (Real, Complex(c)) => Float(c.re),
        (Imag, Complex(c)) => Float(c.im),
        (Real, Float(f)) => Float(f),
        (Imag, Float(_)) => Float(0.0),
        (Floor, Float(f)) => Float(f.floor()),
        (Ceil, Float(f)) => Float(f.ceil()),
        (Round, Float(f)) => Float(f.round()),
        (RoundNearestEven, Float(f)) => Float(f.round_ties_even()),
        (Cbrt, Float(f)) => Float(f.cbrt()),
        (Erf, Float(f)) => Float(libm::erf(f)),
        (Logistic, Float(f)) => Float(logistic(f)),
        (Logistic, Complex(c)) => {
            Complex(Complex64::new(1.0, 0.0) / (Complex64::new(1.0, 0.0) + (-c).exp()))
        }
        (Exp, Float(f)) => Float(f.exp()),
        (Expm1, Float(f)) => Float(f.exp_m1()),
        (Log, Float(f)) => Float(f.ln()),
        (Log1p, Float(f)) => Float(f.ln_1p()),
        (Sqrt, Float(f)) => Float(f.sqrt()),
        (Rsqrt, Float(f)) => Float(1.0 / f.sqrt()),
        (Sin, Float(f)) => Float(f.sin()),
        (Cos, Float(f)) => Float(f.cos()),
        (Tan, Float(f)) => Float(f.tan()),
        (Tanh, Float(f)) => Float(f.tanh()),
        (Cbrt, Complex(c)) => Complex(c.powf(1.0 / 3.0)),
        (Exp, Complex(c)) => Complex(c.exp()),
        (Expm1, Complex(c)) => Complex(c.exp() - 1.0),
        (Log, Complex(c)) => Complex(c.ln()),
        (Log1p, Complex(c)) => Complex((c + 1.0).ln()),
        (Sqrt, Complex(c)) => Complex(c.sqrt()),
        (Rsqrt, Complex(c)) => Complex(Complex64::new(1.0, 0.0) / c.sqrt()),
        (Sin, Complex(c)) => Complex(c.sin()),
        (Cos, Complex(c)) => Complex(c.cos()),
        (Tan, Complex(c)) => Complex(c.tan()),
        (Tanh, Complex(c)) => Complex(c.tanh()),
        _ => return Err(bad(op.name(), t)),
    })
}

fn logistic(f: f64) -> f64 {
    // Stable for both signs.
    if f >= 0.0 {
        1.0 / (1.0 + (-f).exp())
    } else {
        let e = f.exp();
        e / (1.0 + e)
    }
}

/// IEEE maximum / minimum: NaN propagates; -0 < +0.
fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
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

fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
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

fn int_pow(t: PrimitiveType, base: i128, exp: i128) -> i128 {
    if exp < 0 {
        return match base {
            1 => 1,
            -1 => {
                if exp % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => 0,
        };
    }
    let (mut result, mut b, mut e) = (1i128, base, exp);
    while e > 0 {
        if e & 1 == 1 {
            result = wrap_int(t, result.wrapping_mul(b));
        }
        b = wrap_int(t, b.wrapping_mul(b));
        e >>= 1;
    }
    result
}

fn lex_cmp(a: Complex64, b: Complex64) -> std::cmp::Ordering {
    a.re.partial_cmp(&b.re)
        .unwrap_or(std::cmp::Ordering::Equal)
        .then(a.im.partial_cmp(&b.im).unwrap_or(std::cmp::Ordering::Equal))
}

pub fn binary(op: BinaryOp, t: PrimitiveType, a: Scalar, b: Scalar) -> Result<Scalar> {
    use BinaryOp::*;
    let w = t.bit_width() as i128;
    Ok(match (op, a, b) {
        (Add, Pred(x), Pred(y)) | (Or, Pred(x), Pred(y)) | (Max, Pred(x), Pred(y)) => Pred(x || y),
        (Mul, Pred(x), Pred(y)) | (And, Pred(x), Pred(y)) | (Min, Pred(x), Pred(y)) => Pred(x && y),
        (Xor, Pred(x), Pred(y)) => Pred(x ^ y),
        (Add, Int(x), Int(y)) => Int(wrap_int(t, x + y)),
        (Sub, Int(x), Int(y)) => Int(wrap_int(t, x - y)),
        (Mul, Int(x), Int(y)) => Int(wrap_int(t, x.wrapping_mul(y))),
        // Division by zero gives -1 (all bits set); INT_MIN / -1 wraps to INT_MIN.
        (Div, Int(x), Int(y)) => Int(if y == 0 {
            wrap_int(t, -1)
        } else {
            wrap_int(t, x / y)
        }),
        // Remainder by zero gives the dividend; INT_MIN % -1 is 0.
        (Rem, Int(x), Int(y)) => Int(if y == 0 { x } else { wrap_int(t, x % y) }),
        (Pow, Int(x), Int(y)) => Int(int_pow(t, x, y)),
        (Max, Int(x), Int(y)) => Int(x.max(y)),
        (Min, Int(x), Int(y)) => Int(x.min(y)),
        (And, Int(x), Int(y)) => Int(wrap_int(t, x & y)),
        (Or, Int(x), Int(y)) => Int(wrap_int(t, x | y)),
        (Xor, Int(x), Int(y)) => Int(wrap_int(t, x ^ y)),
        (ShiftLeft, Int(x), Int(y)) => {
            let n = unsigned_bits(t, y) as i128;
            Int(if n >= w { 0 } else { wrap_int(t, x << n) })
        }
        (ShiftRightLogical, Int(x), Int(y)) => {
            let n = unsigned_bits(t, y) as i128;
            Int(if n >= w {
                0
            } else {
                wrap_int(t, (unsigned_bits(t, x) >> n) as i128)
            })
        }
        (ShiftRightArithmetic, Int(x), Int(y)) => {
            let n = unsigned_bits(t, y) as i128;
            // Shift the value as a signed number of the type's width.
            let sx = {
                let u = unsigned_bits(t, x) as i128;
                if u >= 1 << (w - 1) {
                    u - (1 << w)
                } else {
                    u
                }
            };
            let r = if n >= w {
                if sx < 0 {
                    -1
                } else {
                    0
                }
            } else {
                sx >> n
            };
            Int(wrap_int(t, r))
        }
        (Add, Float(x), Float(y)) => Float(x + y),
        (Sub, Float(x), Float(y)) => Float(x - y),
        (Mul, Float(x), Float(y)) => Float(x * y),
        (Div, Float(x), Float(y)) => Float(x / y),
        (Rem, Float(x), Float(y)) => Float(x % y),
        (Pow, Float(x), Float(y)) => Float(x.powf(y)),
        (Max, Float(x), Float(y)) => Float(fmax(x, y)),
        (Min, Float(x), Float(y)) => Float(fmin(x, y)),
        (Atan2, Float(x), Float(y)) => Float(x.atan2(y)),
        (Complex, Float(x), Float(y)) => Scalar::Complex(Complex64::new(x, y)),
        // atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)) for complex y, x.
        (Atan2, Scalar::Complex(y), Scalar::Complex(x)) => {
            let i = Complex64::new(0.0, 1.0);
            Scalar::Complex(-i * ((x + i * y) / (x * x + y * y).sqrt()).ln())
        }
        (Add, Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(x + y),
        (Sub, Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(x - y),
        (Mul, Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(x * y),
        (Div, Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(x / y),
        (Pow, Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(x.powc(y)),
        (Max, Scalar::Complex(x), Scalar::Complex(y)) => {
            Scalar::Complex(if lex_cmp(x, y).is_ge() { x } else { y })
        }
        (Min, Scalar::Complex(x), Scalar::Complex(y)) => {
            Scalar::Complex(if lex_cmp(x, y).is_le() { x } else { y })
        }
        _ => return Err(bad(op.name(), t)),
    })
}

/// Key that orders floats as −NaN < −inf < … < −0 < +0 < … < +inf < +NaN.
fn total_order_key(f: f64) -> i64 {
    let b = f.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

pub fn compare(
    dir: ComparisonDirection,
    ty: Option<ComparisonType>,
    t: PrimitiveType,
    a: Scalar,
    b: Scalar,
) -> Result<bool> {
    use std::cmp::Ordering;
    use ComparisonDirection::*;
    let total = ty == Some(ComparisonType::TotalOrder);
    let ord: Option<Ordering> = match (a, b) {
        (Pred(x), Pred(y)) => Some(x.cmp(&y)),
        (Int(x), Int(y)) => Some(x.cmp(&y)),
        (Float(x), Float(y)) if total => Some(total_order_key(x).cmp(&total_order_key(y))),
        (Float(x), Float(y)) => x.partial_cmp(&y),
        (Scalar::Complex(x), Scalar::Complex(y)) => {
            if x.re.is_nan() || x.im.is_nan() || y.re.is_nan() || y.im.is_nan() {
                None
            } else {
                Some(lex_cmp(x, y))
            }
        }
        _ => return Err(bad("compare", t)),
    };
    Ok(match ord {
        None => dir == Ne,
        Some(o) => match dir {
            Eq => o == Ordering::Equal,
            Ne => o != Ordering::Equal,
            Lt => o == Ordering::Less,
            Le => o != Ordering::Greater,
            Gt => o == Ordering::Greater,
            Ge => o != Ordering::Less,
        },
    })
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
