//! Exact conversions between f64 and the sub-16-bit float formats (f8/f6/f4 families).
//!
//! Behaviour follows ml_dtypes (the types XLA uses), checked against vectors generated with
//! it (`tests/data/minifloat_vectors.txt`):
//!
//! | format | bias | inf | NaN encoding | -0 | overflow (and ±inf) | NaN input |
//! |---|---|---|---|---|---|---|
//! | f8e5m2, f8e4m3, f8e3m4 | IEEE | yes | exp all ones, mantissa ≠ 0 | yes | ±inf | exp ones, top mantissa bit |
//! | f8e4m3fn | 7 | no | S.1111.111 | yes | NaN (sign kept) | 0x7f |
//! | f8e4m3fnuz, f8e5m2fnuz | IEEE+1 | no | 0x80 | no | NaN | 0x80 |
//! | f8e4m3b11fnuz | 11 | no | 0x80 | no | NaN | 0x80 |
//! | f6e2m3fn, f6e3m2fn, f4e2m1fn (MX) | IEEE | no | none | yes | saturate to ±max | zero with the inverted sign (as ml_dtypes) |
//! | f8e8m0fnu | 127 | no | 0xff | no zero | NaN | 0xff; also for ≤ 0 |
//!
//! An f64 is first rounded to f32, then to the format, as ml_dtypes does (exact for f32
//! inputs). Rounding is to nearest, ties to even (ties away from zero for f8e8m0fnu, which has no
//! mantissa bits: ml_dtypes rounds its exponent up on a tie). Values below the smallest
//! subnormal round to zero (to the smallest value for f8e8m0fnu, which has no zero).

use crate::types::PrimitiveType;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Nan {
    /// All-ones exponent with a non-zero mantissa (IEEE-like, has infinities).
    Ieee,
    /// Only S.1111…1 is NaN (the `fn` formats).
    AllOnes,
    /// 0x80 (negative zero's encoding) is the only NaN (`fnuz`).
    NegZero,
    /// No NaN at all (MX formats).
    None,
    /// f8e8m0fnu: 0xff.
    E8M0,
}

#[derive(Clone, Copy)]
struct Format {
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    nan: Nan,
}

fn format(t: PrimitiveType) -> Option<Format> {
    use PrimitiveType::*;
    let f = |exp_bits, man_bits, bias, nan| Format {
        exp_bits,
        man_bits,
        bias,
        nan,
    };
    Some(match t {
        F8E5M2 => f(5, 2, 15, Nan::Ieee),
        F8E4M3 => f(4, 3, 7, Nan::Ieee),
        F8E3M4 => f(3, 4, 3, Nan::Ieee),
        F8E4M3FN => f(4, 3, 7, Nan::AllOnes),
        F8E4M3FNUZ => f(4, 3, 8, Nan::NegZero),
        F8E5M2FNUZ => f(5, 2, 16, Nan::NegZero),
        F8E4M3B11FNUZ => f(4, 3, 11, Nan::NegZero),
        F6E2M3FN => f(2, 3, 1, Nan::None),
        F6E3M2FN => f(3, 2, 3, Nan::None),
        F4E2M1FN => f(2, 1, 1, Nan::None),
        F8E8M0FNU => f(8, 0, 127, Nan::E8M0),
        _ => return None,
    })
}

impl Format {
    fn signed(&self) -> bool {
        self.nan != Nan::E8M0
    }
    fn sign_bit(&self) -> u8 {
        if self.signed() {
            1 << (self.exp_bits + self.man_bits)
        } else {
            0
        }
    }
    fn max_exp(&self) -> u32 {
        (1 << self.exp_bits) - 1
    }
    /// Value of a non-negative code, or None for NaN / infinity codes.
    fn finite_value(&self, code: u8) -> Option<f64> {
        let m_mask = (1u32 << self.man_bits) - 1;
        let e = (code as u32 >> self.man_bits) & self.max_exp();
        let m = code as u32 & m_mask;
        match self.nan {
            Nan::Ieee if e == self.max_exp() => return None,
            Nan::AllOnes if e == self.max_exp() && m == m_mask => return None,
            Nan::E8M0 if code == 0xff => return None,
            _ => {}
        }
        let scale = |p: i32| 2f64.powi(p);
        Some(if e == 0 && self.nan != Nan::E8M0 {
            m as f64 * scale(1 - self.bias - self.man_bits as i32)
        } else {
            (1.0 + m as f64 / (1u32 << self.man_bits) as f64) * scale(e as i32 - self.bias)
        })
    }
    fn nan_bits(&self, negative: bool) -> u8 {
        match self.nan {
            Nan::Ieee => {
                (self.max_exp() << self.man_bits | 1 << (self.man_bits - 1)) as u8
                    | if negative { self.sign_bit() } else { 0 }
            }
            Nan::AllOnes => {
                ((1u8 << (self.exp_bits + self.man_bits)) - 1)
                    | if negative { self.sign_bit() } else { 0 }
            }
            Nan::NegZero => 0x80,
            Nan::None => {
                if negative {
                    0
                } else {
                    self.sign_bit()
                }
            }
            Nan::E8M0 => 0xff,
        }
    }
    /// Largest finite code (non-negative).
    fn max_code(&self) -> u8 {
        let all = ((1u32 << (self.exp_bits + self.man_bits)) - 1) as u8;
        match self.nan {
            Nan::Ieee => ((self.max_exp() << self.man_bits) - 1) as u8,
            Nan::AllOnes => all - 1,
            Nan::NegZero | Nan::None => all,
            Nan::E8M0 => 0xfe,
        }
    }
}

/// Bit pattern (in the low bits) of `v` rounded to the minifloat type `t`; 0 if `t` is not
/// a minifloat.
pub fn f64_to_bits(t: PrimitiveType, v: f64) -> u8 {
    let Some(f) = format(t) else { return 0 };
    // ml_dtypes (and so XLA) converts a double to these types through float: round to f32
    // first, then to the format. Exact for every f32 input.
    let v = v as f32 as f64;
    let negative = v.is_sign_negative();
    if v.is_nan() {
        return f.nan_bits(negative);
    }
    if f.nan == Nan::E8M0 && (negative || v == 0.0) {
        return 0xff;
    }
    let sign = if negative { f.sign_bit() } else { 0 };
    let a = v.abs();
    let max_code = f.max_code();
    let max = f.finite_value(max_code).unwrap_or(0.0);
    let overflow = |f: &Format| -> u8 {
        match f.nan {
            Nan::Ieee => sign | (f.max_exp() << f.man_bits) as u8,
            Nan::AllOnes | Nan::NegZero | Nan::E8M0 => f.nan_bits(negative),
            Nan::None => sign | max_code,
        }
    };
    if a.is_infinite() {
        return overflow(&f);
    }
    // Binary search the largest code whose value is <= a (codes are monotone in value).
    let (mut lo, mut hi) = (0u8, max_code);
    if a >= max {
        let below = f.finite_value(max_code - 1).unwrap_or(0.0);
        let half_ulp = (max - below) / 2.0;
        let beyond = a - max;
        let rounds_up = if beyond > half_ulp {
            true
        } else if beyond == half_ulp {
            // A tie: max's code is odd for every format with mantissa bits.
            max_code & 1 == 1 || f.nan == Nan::E8M0
        } else {
            false
        };
        return if rounds_up {
            overflow(&f)
        } else {
            sign | max_code
        };
    }
    let min = f.finite_value(0).unwrap_or(0.0);
    if a < min {
        // Only f8e8m0fnu has a non-zero smallest code; it has no zero to round to.
        return 0;
    }
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if f.finite_value(mid).unwrap_or(f64::INFINITY) <= a {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let down = f.finite_value(lo).unwrap_or(0.0);
    if down == a {
        return finish(&f, sign, lo);
    }
    let up = f.finite_value(lo + 1).unwrap_or(f64::INFINITY);
    let tie_up = f.nan == Nan::E8M0 || lo & 1 == 1;
    let code = if a - down > up - a || (a - down == up - a && tie_up) {
        lo + 1
    } else {
        lo
    };
    finish(&f, sign, code)
}

fn finish(f: &Format, sign: u8, code: u8) -> u8 {
    // fnuz formats have no negative zero.
    if code == 0 && f.nan == Nan::NegZero {
        0
    } else {
        sign | code
    }
}

/// The exact value of the minifloat bit pattern `bits` of type `t` (0 if `t` is not a
/// minifloat).
pub fn bits_to_f64(t: PrimitiveType, bits: u8) -> f64 {
    let Some(f) = format(t) else { return 0.0 };
    let width = f.exp_bits + f.man_bits + u32::from(f.signed());
    let bits = if width < 8 {
        bits & ((1u16 << width) - 1) as u8
    } else {
        bits
    };
    if f.nan == Nan::NegZero && bits == 0x80 {
        return f64::NAN;
    }
    let negative = bits & f.sign_bit() != 0;
    let code = bits & !f.sign_bit();
    let v = match f.finite_value(code) {
        Some(v) => v,
        None => {
            let e = (code as u32 >> f.man_bits) & f.max_exp();
            let m = code as u32 & ((1 << f.man_bits) - 1);
            if f.nan == Nan::Ieee && e == f.max_exp() && m == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
    };
    if negative {
        -v
    } else {
        v
    }
}
