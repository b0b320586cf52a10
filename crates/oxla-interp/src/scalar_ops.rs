//! Element-wise semantics on widened scalars. Each function gets the operand element type
//! so integer results wrap to its width; float results are rounded to the type when they
//! are stored (`Literal::from_scalars`). See docs/semantics.md for the edge cases.

use num_complex::Complex64;
use oxla_elem as elem;
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
        (Neg, Int(i)) => Int(wrap_int(t, -i)),
        (Not, Pred(b)) => Pred(!b),
        (Not, Int(i)) => Int(wrap_int(t, !i)),
        (PopCnt, Int(i)) => Int(unsigned_bits(t, i).count_ones() as i128),
        (Clz, Int(i)) => {
            let u = unsigned_bits(t, i);
            Int((u.leading_zeros() - (128 - w)) as i128)
        }
        (Sign, Int(i)) => Int(i.signum()),
        (IsFinite, Float(f)) => Pred(f.is_finite()),
        (Real, Complex(c)) => Float(c.re),
        (Imag, Complex(c)) => Float(c.im),
        (Real, Float(f)) => Float(f),
        (Imag, Float(_)) => Float(0.0),
        (op, Float(f)) => Float(match float_unary(op) {
            Some(func) => func(f),
            None => return Err(bad(op.name(), t)),
        }),
        (Abs, Complex(c)) => Float(elem::abs_c128(c)),
        (op, Complex(c)) => Complex(match complex_unary(op) {
            Some(func) => func(c),
            None => return Err(bad(op.name(), t)),
        }),
        _ => return Err(bad(op.name(), t)),
    })
}

/// The element function of a float unary op (f64; narrower types round its result once).
pub fn float_unary(op: UnaryOp) -> Option<fn(f64) -> f64> {
    use UnaryOp::*;
    Some(match op {
        Abs => elem::abs_f64,
        Neg => elem::neg_f64,
        Sign => elem::sign_f64,
        Floor => elem::floor_f64,
        Ceil => elem::ceil_f64,
        Round => elem::round_f64,
        RoundNearestEven => elem::round_nearest_even_f64,
        Cbrt => elem::cbrt_f64,
        Erf => elem::erf_f64,
        Logistic => elem::logistic_f64,
        Exp => elem::exp_f64,
        Expm1 => elem::expm1_f64,
        Log => elem::log_f64,
        Log1p => elem::log1p_f64,
        Sqrt => elem::sqrt_f64,
        Rsqrt => elem::rsqrt_f64,
        Sin => elem::sin_f64,
        Cos => elem::cos_f64,
        Tan => elem::tan_f64,
        Tanh => elem::tanh_f64,
        Not | PopCnt | Clz | IsFinite | Real | Imag => return None,
    })
}

/// The element function of a complex unary op with a complex result (on c128).
pub fn complex_unary(op: UnaryOp) -> Option<fn(Complex64) -> Complex64> {
    use UnaryOp::*;
    Some(match op {
        Neg => elem::neg_c128,
        Sign => elem::sign_c128,
        Logistic => elem::logistic_c128,
        Cbrt => elem::cbrt_c128,
        Exp => elem::exp_c128,
        Expm1 => elem::expm1_c128,
        Log => elem::log_c128,
        Log1p => elem::log1p_c128,
        Sqrt => elem::sqrt_c128,
        Rsqrt => elem::rsqrt_c128,
        Sin => elem::sin_c128,
        Cos => elem::cos_c128,
        Tan => elem::tan_c128,
        Tanh => elem::tanh_c128,
        Abs | Not | PopCnt | Clz | IsFinite | Real | Imag | Floor | Ceil | Round
        | RoundNearestEven | Erf => return None,
    })
}

/// The element function of a float binary op (f64; narrower types round its result once).
pub fn float_binary(op: BinaryOp) -> Option<fn(f64, f64) -> f64> {
    use BinaryOp::*;
    Some(match op {
        Add => |a, b| a + b,
        Sub => |a, b| a - b,
        Mul => |a, b| a * b,
        Div => |a, b| a / b,
        Rem => elem::rem_f64,
        Pow => elem::pow_f64,
        Max => elem::max_f64,
        Min => elem::min_f64,
        Atan2 => elem::atan2_f64,
        Complex | And | Or | Xor | ShiftLeft | ShiftRightLogical | ShiftRightArithmetic => {
            return None
        }
    })
}

/// The element function of a complex binary op (on c128).
pub fn complex_binary(op: BinaryOp) -> Option<fn(Complex64, Complex64) -> Complex64> {
    use BinaryOp::*;
    Some(match op {
        Add => elem::add_c128,
        Sub => elem::sub_c128,
        Mul => elem::mul_c128,
        Div => elem::div_c128,
        Pow => elem::pow_c128,
        Max => elem::max_c128,
        Min => elem::min_c128,
        Atan2 => elem::atan2_c128,
        Rem | Complex | And | Or | Xor | ShiftLeft | ShiftRightLogical | ShiftRightArithmetic => {
            return None
        }
    })
}

/// [`binary`] rounded to element type `t` (floats are computed in f64, complex numbers in
/// c128): what a combiner returns, where a loop keeps combining the result (reductions,
/// scatter's duplicate indices).
pub fn binary_rounded(op: BinaryOp, t: PrimitiveType, a: Scalar, b: Scalar) -> Result<Scalar> {
    Ok(match binary(op, t, a, b)? {
        Float(v) => Float(oxla_hlo::literal::round_to_float(t, v)),
        Scalar::Complex(c) if t == PrimitiveType::C64 => {
            Scalar::Complex(Complex64::new(c.re as f32 as f64, c.im as f32 as f64))
        }
        s => s,
    })
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
        (Pow, Int(x), Int(y)) => Int(wrap_int(
            t,
            if t.is_unsigned_int() {
                elem::pow_u64(x as u64, y as u64) as i128
            } else {
                elem::pow_s64(x as i64, y as i64) as i128
            },
        )),
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
        (Complex, Float(x), Float(y)) => Scalar::Complex(Complex64::new(x, y)),
        // XLA CPU computes f16 (and the 8-bit floats, through f16) in f32, and F16C's
        // f16 -> f32 conversion quiets a signaling NaN: the power of one then sees a quiet
        // NaN (pow(1, qNaN) = pow(qNaN, 0) = 1). bf16 widens by a shift and keeps it.
        (Pow, Float(x), Float(y)) if t == PrimitiveType::F16 || t.is_minifloat() => {
            use oxla_hlo::literal::nan_bits::quiet;
            Float(elem::pow_f64(quiet(x), quiet(y)))
        }
        (op, Float(x), Float(y)) => Float(match float_binary(op) {
            Some(f) => f(x, y),
            None => return Err(bad(op.name(), t)),
        }),
        (op, Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(match complex_binary(op) {
            Some(f) => f(x, y),
            None => return Err(bad(op.name(), t)),
        }),
        _ => return Err(bad(op.name(), t)),
    })
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
        (Float(x), Float(y)) if total => {
            Some(elem::total_order_key_f64(x).cmp(&elem::total_order_key_f64(y)))
        }
        (Float(x), Float(y)) => x.partial_cmp(&y),
        (Scalar::Complex(x), Scalar::Complex(y)) => {
            if x.re.is_nan() || x.im.is_nan() || y.re.is_nan() || y.im.is_nan() {
                None
            } else {
                Some(elem::lex_cmp_c128(x, y))
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

/// Reduce-precision on a widened float (the element function lives in oxla-elem).
pub use oxla_elem::reduce_precision;
