//! Element access for every element type through [`Scalar`], conversions between element
//! types with XLA's CPU semantics, reshape, indexing, raw bytes and text display.

use std::fmt;

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use super::{storage_kind, Literal, LiteralData, Storage, StorageKind};
use crate::error::{Error, Result};
use crate::minifloat;
use crate::shape::Shape;
use crate::types::PrimitiveType;

/// One element of any array type, widened: PRED, any integer (as i128, exact for u64 and
/// s64), any real float (as f64, exact for every float type), any complex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Pred(bool),
    Int(i128),
    Float(f64),
    Complex(Complex64),
}

impl Scalar {
    /// The value as f64 (pred 0/1, ints converted, complex's real part).
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Pred(b) => b as i32 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
            Scalar::Complex(c) => c.re,
        }
    }
    /// The value as i128 (floats truncated toward zero, saturating; NaN → 0).
    pub fn as_i128(self) -> i128 {
        match self {
            Scalar::Pred(b) => b as i128,
            Scalar::Int(i) => i,
            Scalar::Float(f) => f as i128,
            Scalar::Complex(c) => c.re as i128,
        }
    }
    pub fn as_complex(self) -> Complex64 {
        match self {
            Scalar::Complex(c) => c,
            s => Complex64::new(s.as_f64(), 0.0),
        }
    }
    pub fn is_true(self) -> bool {
        match self {
            Scalar::Pred(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::Float(f) => f != 0.0,
            Scalar::Complex(c) => c.re != 0.0 || c.im != 0.0,
        }
    }
}

/// Integer range of an integer type as (min, max).
/// The identity of reducer `op` over element type `t`: what a reduction's partial results
/// start from (0 for add/or/xor, 1 for mul, all ones for and, the type's lowest value for
/// max and highest for min; complex max/min order lexicographically, so both parts sit at
/// the far end). `None` for ops that are not reducers.
pub fn reduction_identity(op: crate::op::BinaryOp, t: PrimitiveType) -> Option<Scalar> {
    use crate::op::BinaryOp::*;
    let s = match op {
        Add | Or | Xor => Scalar::Int(0),
        Mul => Scalar::Int(1),
        And => Scalar::Int(-1),
        Max | Min => {
            let inf = if op == Max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            if t.is_complex() {
                Scalar::Complex(Complex64::new(inf, inf))
            } else if t.is_float() {
                Scalar::Float(inf)
            } else if t == PrimitiveType::Pred {
                Scalar::Int((op == Min) as i128)
            } else {
                let (lo, hi) = int_range(t);
                Scalar::Int(if op == Max { lo } else { hi })
            }
        }
        _ => return None,
    };
    Some(match (s, t) {
        (Scalar::Int(i), PrimitiveType::Pred) => Scalar::Pred(i != 0),
        (Scalar::Int(i), t) if t.is_float() => Scalar::Float(i as f64),
        (s, _) => s,
    })
}

pub fn int_range(t: PrimitiveType) -> (i128, i128) {
    let w = t.bit_width() as u32;
    if t.is_signed_int() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else if t.is_unsigned_int() {
        (0, (1i128 << w) - 1)
    } else {
        (0, 1)
    }
}

/// Two's-complement wrap of `v` to the width of integer type `t`.
pub fn wrap_int(t: PrimitiveType, v: i128) -> i128 {
    let w = t.bit_width() as u32;
    let m = v & ((1i128 << w) - 1);
    if t.is_signed_int() && m >= 1i128 << (w - 1) {
        m - (1i128 << w)
    } else {
        m
    }
}

/// Rounds an f64 to the float type `t` and returns the rounded value as f64.
pub fn round_to_float(t: PrimitiveType, v: f64) -> f64 {
    match t {
        PrimitiveType::F64 => v,
        // A NaN keeps its sign and payload (see [`nan_bits`]).
        PrimitiveType::F32 => nan_bits::f32_to_f64(nan_bits::f64_to_f32(v)),
        PrimitiveType::F16 => nan_bits::f16_to_f64(nan_bits::f64_to_f16(v)),
        PrimitiveType::BF16 => nan_bits::bf16_to_f64(nan_bits::f64_to_bf16(v)),
        t if t.is_minifloat() => minifloat::bits_to_f64(t, minifloat::f64_to_bits(t, v)),
        _ => v,
    }
}

fn get(t: PrimitiveType, s: &Storage, i: usize) -> Scalar {
    match s {
        Storage::Bool(v) => Scalar::Pred(v[i]),
        Storage::I8(v) => Scalar::Int(v[i] as i128),
        Storage::I16(v) => Scalar::Int(v[i] as i128),
        Storage::I32(v) => Scalar::Int(v[i] as i128),
        Storage::I64(v) => Scalar::Int(v[i] as i128),
        Storage::U8(v) if t.is_minifloat() => Scalar::Float(minifloat::bits_to_f64(t, v[i])),
        Storage::U8(v) => Scalar::Int(v[i] as i128),
        Storage::U16(v) => Scalar::Int(v[i] as i128),
        Storage::U32(v) => Scalar::Int(v[i] as i128),
        Storage::U64(v) => Scalar::Int(v[i] as i128),
        Storage::F16(v) => Scalar::Float(nan_bits::f16_to_f64(v[i])),
        Storage::BF16(v) => Scalar::Float(nan_bits::bf16_to_f64(v[i])),
        Storage::F32(v) => Scalar::Float(nan_bits::f32_to_f64(v[i])),
        Storage::F64(v) => Scalar::Float(v[i]),
        Storage::C64(v) => Scalar::Complex(Complex64::new(
            nan_bits::f32_to_f64(v[i].re),
            nan_bits::f32_to_f64(v[i].im),
        )),
        Storage::C128(v) => Scalar::Complex(v[i]),
    }
}

/// Converts `x` to element type `t` with XLA CPU semantics (see docs/semantics.md): ints
/// wrap, float → int truncates and saturates (NaN → 0), → float rounds to nearest even,
/// → pred is `!= 0`, complex → real drops the imaginary part.
pub fn convert_scalar(x: Scalar, t: PrimitiveType) -> Scalar {
    // complex -> real types: the real part first (so (0, 1) -> pred is false).
    let x = match x {
        Scalar::Complex(c) if !t.is_complex() => Scalar::Float(c.re),
        x => x,
    };
    if t == PrimitiveType::Pred {
        return Scalar::Pred(x.is_true());
    }
    if t.is_integer() {
        return Scalar::Int(match x {
            Scalar::Pred(b) => b as i128,
            Scalar::Int(i) => wrap_int(t, i),
            Scalar::Float(_) | Scalar::Complex(_) => {
                let f = x.as_f64();
                let (lo, hi) = int_range(t);
                if f.is_nan() {
                    0
                } else if f <= lo as f64 {
                    lo
                } else if f >= hi as f64 {
                    hi
                } else {
                    f.trunc() as i128
                }
            }
        });
    }
    if t.is_complex() {
        let r = t.component_type();
        // An integer's real part rounds once to the component type, as to that real type
        // (through f64 first, u64 0xc03ff77fffffffff became the c64 1 ulp above it: fuzz
        // seed 21018506 at --max-dim 24).
        if let Scalar::Int(_) = x {
            return Scalar::Complex(Complex64::new(convert_scalar(x, r).as_f64(), 0.0));
        }
        let c = x.as_complex();
        return Scalar::Complex(Complex64::new(
            round_to_float(r, c.re),
            round_to_float(r, c.im),
        ));
    }
    let f = match x {
        // Rust's int → float casts round to nearest even; going to f32 directly avoids a
        // double rounding through f64 for integers beyond 2^53.
        Scalar::Int(i) if t == PrimitiveType::F32 => i as f32 as f64,
        Scalar::Int(i) if t == PrimitiveType::F64 => i as f64,
        // Narrower floats: f64 rounded to odd keeps the one rounding to `t` correct (at
        // nearest, u64 2^63 + 2^56 + 2^55 - 1 became the bf16 midpoint 2^63 + 2^56 + 2^55,
        // which then rounded up to even).
        Scalar::Int(i) => int_to_f64_odd(i),
        s => s.as_f64(),
    };
    Scalar::Float(round_to_float(t, f))
}

/// `i` as f64 rounded to odd: truncated toward zero, its last bit set when bits were lost.
fn int_to_f64_odd(i: i128) -> f64 {
    let f = i as f64;
    let back = f as i128;
    if back == i {
        return f;
    }
    // Rounded away from zero: one step back toward it (f is not zero: |i| >= 2^53).
    let bits = if back.unsigned_abs() > i.unsigned_abs() {
        f.to_bits() - 1
    } else {
        f.to_bits()
    };
    f64::from_bits(bits | 1)
}

/// An empty storage of `kind` with capacity `n`.
fn storage_with_capacity(kind: StorageKind, n: usize) -> Storage {
    match kind {
        StorageKind::Bool => Storage::Bool(Vec::with_capacity(n)),
        StorageKind::I8 => Storage::I8(Vec::with_capacity(n)),
        StorageKind::I16 => Storage::I16(Vec::with_capacity(n)),
        StorageKind::I32 => Storage::I32(Vec::with_capacity(n)),
        StorageKind::I64 => Storage::I64(Vec::with_capacity(n)),
        StorageKind::U8 => Storage::U8(Vec::with_capacity(n)),
        StorageKind::U16 => Storage::U16(Vec::with_capacity(n)),
        StorageKind::U32 => Storage::U32(Vec::with_capacity(n)),
        StorageKind::U64 => Storage::U64(Vec::with_capacity(n)),
        StorageKind::F16 => Storage::F16(Vec::with_capacity(n)),
        StorageKind::BF16 => Storage::BF16(Vec::with_capacity(n)),
        StorageKind::F32 => Storage::F32(Vec::with_capacity(n)),
        StorageKind::F64 => Storage::F64(Vec::with_capacity(n)),
        StorageKind::C64 => Storage::C64(Vec::with_capacity(n)),
        StorageKind::C128 => Storage::C128(Vec::with_capacity(n)),
    }
}

/// Appends `x` converted to `t` (see [`convert_scalar`]).
fn push(t: PrimitiveType, s: &mut Storage, x: Scalar) {
    let x = convert_scalar(x, t);
    match s {
        Storage::Bool(v) => v.push(x.is_true()),
        Storage::I8(v) => v.push(x.as_i128() as i8),
        Storage::I16(v) => v.push(x.as_i128() as i16),
        Storage::I32(v) => v.push(x.as_i128() as i32),
        Storage::I64(v) => v.push(x.as_i128() as i64),
        Storage::U8(v) if t.is_minifloat() => v.push(minifloat::f64_to_bits(t, x.as_f64())),
        Storage::U8(v) => v.push(x.as_i128() as u8),
        Storage::U16(v) => v.push(x.as_i128() as u16),
        Storage::U32(v) => v.push(x.as_i128() as u32),
        Storage::U64(v) => v.push(x.as_i128() as u64),
        Storage::F16(v) => v.push(nan_bits::f64_to_f16(x.as_f64())),
        Storage::BF16(v) => v.push(nan_bits::f64_to_bf16(x.as_f64())),
        Storage::F32(v) => v.push(nan_bits::f64_to_f32(x.as_f64())),
        Storage::F64(v) => v.push(x.as_f64()),
        Storage::C64(v) => {
            let c = x.as_complex();
            v.push(Complex32::new(
                nan_bits::f64_to_f32(c.re),
                nan_bits::f64_to_f32(c.im),
            ))
        }
        Storage::C128(v) => v.push(x.as_complex()),
    }
}

/// Widening and narrowing of float elements that keep a NaN's sign and payload, signaling
/// ones included. The hardware's and `half`'s conversions set the quiet bit, which would
/// turn a signaling NaN quiet in pure data movement (pad, slice, transpose, ...), where XLA
/// copies bits. Non-NaN values convert as usual (exact widening, round-to-nearest narrowing).
pub mod nan_bits {
    use half::{bf16, f16};

    /// An f64 NaN with `sign` and the `bits`-wide mantissa `m` at the top of its mantissa.
    fn widen(sign: bool, m: u64, bits: u32) -> f64 {
        f64::from_bits((sign as u64) << 63 | 0x7ff << 52 | m << (52 - bits))
    }

    /// The sign and the top `bits` mantissa bits of NaN `x` (never all zero: that would be
    /// an infinity, so the quiet bit is set then).
    fn narrow(x: f64, bits: u32) -> (bool, u64) {
        let b = x.to_bits();
        let m = (b & ((1 << 52) - 1)) >> (52 - bits);
        (b >> 63 != 0, if m == 0 { 1 << (bits - 1) } else { m })
    }

    /// `x` with a NaN's quiet bit set (sign and payload kept), as arithmetic makes it.
    pub fn quiet(x: f64) -> f64 {
        if x.is_nan() {
            f64::from_bits(x.to_bits() | 1 << 51)
        } else {
            x
        }
    }

    pub fn f32_to_f64(x: f32) -> f64 {
        if x.is_nan() {
            let b = x.to_bits();
            widen(b >> 31 != 0, (b & 0x7f_ffff) as u64, 23)
        } else {
            x as f64
        }
    }

    pub fn f64_to_f32(x: f64) -> f32 {
        if x.is_nan() {
            let (s, m) = narrow(x, 23);
            f32::from_bits((s as u32) << 31 | 0x7f80_0000 | m as u32)
        } else {
            x as f32
        }
    }

    pub fn f16_to_f64(x: f16) -> f64 {
        if x.is_nan() {
            let b = x.to_bits();
            widen(b >> 15 != 0, (b & 0x3ff) as u64, 10)
        } else {
            x.to_f64()
        }
    }

    /// `x` rounded to f32 toward zero with its last bit set when inexact (round to odd).
    /// Rounding that to nearest into a type at least two bits narrower (f16, bf16) gives
    /// `x` rounded once. `half`'s own f64 conversions drop the low 32 bits of the mantissa
    /// first, so a value just past a tie (an f32 such as 0x3e9a8001 converted to bf16)
    /// rounded as the tie, to even (fuzz seeds 15140839, 15207768 with --max-dim 24).
    pub fn f64_to_f32_odd(x: f64) -> f32 {
        let r = x as f32;
        if !x.is_finite() || r as f64 == x {
            return r;
        }
        // Inexact: r is the nearest; step back toward zero where it rounded away (its
        // magnitude's bits one lower; |r| > |x| > 0 then), then the odd neighbour.
        let mut bits = r.to_bits();
        if (r as f64).abs() > x.abs() {
            bits -= 1;
        }
        f32::from_bits(bits | 1)
    }

    pub fn f64_to_f16(x: f64) -> f16 {
        if x.is_nan() {
            let (s, m) = narrow(x, 10);
            f16::from_bits((s as u16) << 15 | 0x7c00 | m as u16)
        } else {
            f16::from_f32(f64_to_f32_odd(x))
        }
    }

    pub fn bf16_to_f64(x: bf16) -> f64 {
        if x.is_nan() {
            let b = x.to_bits();
            widen(b >> 15 != 0, (b & 0x7f) as u64, 7)
        } else {
            x.to_f64()
        }
    }

    pub fn f64_to_bf16(x: f64) -> bf16 {
        if x.is_nan() {
            let (s, m) = narrow(x, 7);
            bf16::from_bits((s as u16) << 15 | 0x7f80 | m as u16)
        } else {
            bf16::from_f32(f64_to_f32_odd(x))
        }
    }

    /// f16 bits to f32 keeping a NaN's payload (the JIT's f16 loads).
    pub fn f16_bits_to_f32(bits: u16) -> f32 {
        f64_to_f32(f16_to_f64(f16::from_bits(bits)))
    }

    /// f32 to f16 bits, rounding to nearest even, keeping a NaN's payload (the JIT's f16
    /// stores).
    pub fn f32_to_f16_bits(x: f32) -> u16 {
        if x.is_nan() {
            f64_to_f16(f32_to_f64(x)).to_bits()
        } else {
            f16::from_f32(x).to_bits()
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn signaling_nans_round_trip_and_values_convert_as_usual() {
            for b in [
                0x7f80_0001u32,
                0xff80_0001,
                0x7fa0_0000,
                0xffc0_1234,
                0x7fff_ffff,
            ] {
                let x = f32::from_bits(b);
                assert_eq!(f64_to_f32(f32_to_f64(x)).to_bits(), b);
            }
            for b in [0x7c01u16, 0xfdb8, 0x7e00, 0xffff] {
                assert_eq!(f64_to_f16(f16_to_f64(f16::from_bits(b))).to_bits(), b);
                assert_eq!(f32_to_f16_bits(f16_bits_to_f32(b)), b);
            }
            for b in [0x7f81u16, 0xffb8, 0x7fc0, 0xffff] {
                assert_eq!(f64_to_bf16(bf16_to_f64(bf16::from_bits(b))).to_bits(), b);
            }
            // A NaN whose payload lies below the narrow mantissa stays a NaN.
            assert!(f64_to_f32(f64::from_bits(0x7ff0_0000_0000_0001)).is_nan());
            assert!(f64_to_f16(f64::from_bits(0xfff0_0000_0000_0001)).is_nan());
            // Ordinary values: exact widening, nearest-even narrowing.
            assert_eq!(f32_to_f64(1.5), 1.5);
            assert_eq!(f64_to_f32(0.1), 0.1f32);
            assert_eq!(f64_to_f16(65520.0), f16::INFINITY);
            assert_eq!(f64_to_bf16(-0.0).to_bits(), 0x8000);
            assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        }

        #[test]
        fn narrowing_rounds_once_with_every_bit_below_the_tie() {
            // f32s just past a bf16 tie (by their last bit): up.
            for (b, want) in [(0x3e9a_8001u32, 0x3e9bu16), (0x40e0_8007, 0x40e1)] {
                let x = f32_to_f64(f32::from_bits(b));
                assert_eq!(f64_to_bf16(x).to_bits(), want, "{b:#x}");
                assert_eq!(bf16::from_f32(f32::from_bits(b)).to_bits(), want);
            }
            // f64s past a tie by a bit below f32's precision: up; the ties themselves: even.
            let tiny = 2f64.powi(-40);
            assert_eq!(f64_to_bf16(1.0 + 2f64.powi(-8) + tiny).to_bits(), 0x3f81);
            assert_eq!(f64_to_bf16(1.0 + 2f64.powi(-8)).to_bits(), 0x3f80);
            assert_eq!(f64_to_bf16(-(1.0 + 2f64.powi(-8) + tiny)).to_bits(), 0xbf81);
            assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11) + tiny).to_bits(), 0x3c01);
            assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)).to_bits(), 0x3c00);
            // Below a tie by a little: down.
            assert_eq!(f64_to_bf16(1.0 + 2f64.powi(-8) - tiny).to_bits(), 0x3f80);
            // Past f32's range, and below its subnormals.
            assert_eq!(f64_to_bf16(1e300).to_bits(), 0x7f80);
            assert_eq!(f64_to_bf16(-1e300).to_bits(), 0xff80);
            assert_eq!(f64_to_bf16(1e-300).to_bits(), 0x0000);
            assert_eq!(f64_to_f16(70000.0), f16::INFINITY);
            // Every f32 of a sweep agrees with the direct (correct) f32 conversions.
            for i in 0..200_000u32 {
                let b = 0x3e9a_0000 + i * 7;
                let x = f32::from_bits(b);
                assert_eq!(f64_to_bf16(x as f64), bf16::from_f32(x), "{b:#x}");
                assert_eq!(f64_to_f16(x as f64), f16::from_f32(x), "{b:#x}");
            }
        }
    }
}

/// Row-major strides of `dims`.
pub fn strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1].max(0);
    }
    s
}

impl Literal {
    /// An array literal of any element type from widened scalars (converted to the type).
    pub fn from_scalars(
        element_type: PrimitiveType,
        dims: &[i64],
        values: impl IntoIterator<Item = Scalar>,
    ) -> Result<Literal> {
        let kind = storage_kind(element_type).ok_or_else(|| {
            Error::invalid(format!("{element_type} is not an array element type"))
        })?;
        let shape = Shape::array(element_type, dims);
        let n = shape.element_count() as usize;
        let mut s = storage_with_capacity(kind, n);
        for x in values {
            push(element_type, &mut s, x);
        }
        Literal::from_parts(shape, LiteralData::Array(s))
    }
    /// Any array type from f64 values (rounded / truncated / wrapped as a convert would).
    pub fn from_f64s(element_type: PrimitiveType, dims: &[i64], v: &[f64]) -> Result<Literal> {
        Literal::from_scalars(element_type, dims, v.iter().map(|&x| Scalar::Float(x)))
    }
    /// Any array type from integers (wrapped to the width).
    pub fn from_i64s(element_type: PrimitiveType, dims: &[i64], v: &[i64]) -> Result<Literal> {
        Literal::from_scalars(
            element_type,
            dims,
            v.iter().map(|&x| Scalar::Int(x as i128)),
        )
    }
    /// A literal of `shape` filled with zeros (false, 0, +0.0); tuples recursively.
    pub fn zeros(shape: &Shape) -> Result<Literal> {
        match shape {
            Shape::Array(a) => {
                let n = a.element_count() as usize;
                let mut l = Literal::from_scalars(
                    a.element_type,
                    &a.dims,
                    std::iter::repeat_n(Scalar::Int(0), n),
                )?;
                l.shape = shape.clone();
                Ok(l)
            }
            Shape::Tuple(t) => Ok(Literal::tuple(
                t.iter().map(Literal::zeros).collect::<Result<_>>()?,
            )),
            Shape::Token => Ok(Literal::token()),
        }
    }
    /// Element `i` (row-major linear index) of an array literal.
    pub fn get_linear(&self, i: usize) -> Result<Scalar> {
        let s = self.storage().ok_or_else(|| {
            Error::invalid(format!(
                "cannot index a non-array literal of shape {}",
                self.shape
            ))
        })?;
        if i >= s.len() {
            return Err(Error::invalid(format!(
                "linear index {i} is out of range for {}",
                self.shape
            )));
        }
        Ok(get(self.element_type(), s, i))
    }
    /// Linear index of a multi-index, or an error naming the bad coordinate.
    pub fn linear_index(&self, index: &[i64]) -> Result<usize> {
        let dims = self.shape.dims();
        if index.len() != dims.len() {
            return Err(Error::invalid(format!(
                "index {index:?} has rank {} but the literal is {}",
                index.len(),
                self.shape
            )));
        }
        let st = strides(dims);
        let mut lin = 0i64;
        for (k, (&i, &d)) in index.iter().zip(dims).enumerate() {
            if i < 0 || i >= d {
                return Err(Error::invalid(format!(
                    "index {i} of dimension {k} is out of range for {}",
                    self.shape
                )));
            }
            lin += i * st[k];
        }
        Ok(lin as usize)
    }
    /// Element at a multi-index.
    pub fn get(&self, index: &[i64]) -> Result<Scalar> {
        self.get_linear(self.linear_index(index)?)
    }
    /// Element at a multi-index as f64.
    pub fn get_f64(&self, index: &[i64]) -> Result<f64> {
        self.get(index).map(Scalar::as_f64)
    }
    /// Element at a multi-index as i64 (floats truncated).
    pub fn get_i64(&self, index: &[i64]) -> Result<i64> {
        self.get(index).map(|s| s.as_i128() as i64)
    }
    /// Sets the element at a multi-index (the value is converted to the element type).
    pub fn set(&mut self, index: &[i64], value: Scalar) -> Result<()> {
        let i = self.linear_index(index)?;
        let t = self.element_type();
        let LiteralData::Array(s) = &mut self.data else {
            return Err(Error::invalid(
                "cannot set an element of a non-array literal",
            ));
        };
        let mut one = storage_with_capacity(s.kind(), 1);
        push(t, &mut one, value);
        macro_rules! put {
            ($($v:ident),*) => {
                match (s, one) {
                    $((Storage::$v(d), Storage::$v(o)) => d[i] = o[0],)*
                    _ => return Err(Error::internal("storage kinds differ")),
                }
            };
        }
        put!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128);
        Ok(())
    }
    /// Every element, widened, in row-major order (empty for tuples and tokens).
    pub fn scalars(&self) -> Vec<Scalar> {
        match self.storage() {
            Some(s) => (0..s.len())
                .map(|i| get(self.element_type(), s, i))
                .collect(),
            None => Vec::new(),
        }
    }
    pub fn to_f64s(&self) -> Vec<f64> {
        self.scalars().into_iter().map(Scalar::as_f64).collect()
    }
    pub fn to_i64s(&self) -> Vec<i64> {
        self.scalars()
            .into_iter()
            .map(|s| s.as_i128() as i64)
            .collect()
    }
    /// The same elements with new dims (element counts must match).
    pub fn reshape(&self, dims: &[i64]) -> Result<Literal> {
        let Shape::Array(a) = &self.shape else {
            return Err(Error::invalid(format!("cannot reshape {}", self.shape)));
        };
        let new = Shape::array(a.element_type, dims);
        if new.element_count() != a.element_count() || dims.iter().any(|&d| d < 0) {
            return Err(Error::invalid(format!(
                "cannot reshape {} into {new}",
                self.shape
            )));
        }
        Literal::from_parts(new, self.data.clone())
    }
    /// Element-type conversion with XLA's CPU semantics (see [`convert_scalar`]). A
    /// conversion the hardware makes between f64 and a narrower float (to f64 from f32, f16
    /// or bf16, which go through f32; f64 to f32), complex parts included, quiets a
    /// signaling NaN as `cvtss2sd`/`cvtsd2ss` do for XLA CPU's `fpext`/`fptrunc` and the
    /// JIT's `fpromote`/`fdemote` (fuzz seed 19136006 with --max-dim 24).
    pub fn convert(&self, to: PrimitiveType) -> Result<Literal> {
        let Shape::Array(a) = &self.shape else {
            return Err(Error::invalid(format!("cannot convert {}", self.shape)));
        };
        use PrimitiveType::*;
        let (f, t) = (self.element_type(), to);
        let quiets = matches!(
            (f.component_type(), t.component_type()),
            (F64, F32) | (F32 | F16 | BF16, F64)
        );
        let mut scalars = self.scalars();
        if quiets {
            for s in &mut scalars {
                *s = match *s {
                    Scalar::Float(x) => Scalar::Float(nan_bits::quiet(x)),
                    Scalar::Complex(c) => Scalar::Complex(Complex64::new(
                        nan_bits::quiet(c.re),
                        nan_bits::quiet(c.im),
                    )),
                    s => s,
                };
            }
        }
        Literal::from_scalars(to, &a.dims, scalars)
    }
    /// Little-endian bytes of the elements (one byte per sub-byte element).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let Some(s) = self.storage() else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(s.len() * self.element_type().byte_size());
        match s {
            Storage::Bool(v) => out.extend(v.iter().map(|&b| b as u8)),
            Storage::I8(v) => out.extend(v.iter().map(|&b| b as u8)),
            Storage::U8(v) => out.extend_from_slice(v),
            Storage::I16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::I32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::I64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::U16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::U32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::U64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::F16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::BF16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::F32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::F64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Storage::C64(v) => v.iter().for_each(|x| {
                out.extend(x.re.to_le_bytes());
                out.extend(x.im.to_le_bytes())
            }),
            Storage::C128(v) => v.iter().for_each(|x| {
                out.extend(x.re.to_le_bytes());
                out.extend(x.im.to_le_bytes())
            }),
        }
        out
    }
    /// An array literal from little-endian bytes (one byte per sub-byte element; sub-byte
    /// integers are sign- or zero-extended from their low bits).
    pub fn from_le_bytes(shape: &Shape, bytes: &[u8]) -> Result<Literal> {
        let Shape::Array(a) = shape else {
            return Err(Error::invalid(format!("cannot read bytes into {shape}")));
        };
        let t = a.element_type;
        let w = t.byte_size();
        let n = a.element_count() as usize;
        if bytes.len() != n * w {
            return Err(Error::invalid(format!(
                "{shape} needs {} bytes, got {}",
                n * w,
                bytes.len()
            )));
        }
        let ch = |i: usize| &bytes[i * w..(i + 1) * w];
        macro_rules! arr {
            ($ty:ty) => {
                (0..n)
                    .map(|i| <$ty>::from_le_bytes(ch(i).try_into().unwrap_or_default()))
                    .collect()
            };
        }
        let bits = t.bit_width() as u32;
        let s = match storage_kind(t) {
            Some(StorageKind::Bool) => Storage::Bool(bytes.iter().map(|&b| b != 0).collect()),
            Some(StorageKind::I8) => Storage::I8(
                bytes
                    .iter()
                    .map(|&b| ((b << (8 - bits)) as i8) >> (8 - bits))
                    .collect(),
            ),
            Some(StorageKind::U8) if t.is_unsigned_int() && bits < 8 => Storage::U8(
                bytes
                    .iter()
                    .map(|&b| b & ((1u16 << bits) - 1) as u8)
                    .collect(),
            ),
            Some(StorageKind::U8) => Storage::U8(bytes.to_vec()),
            Some(StorageKind::I16) => Storage::I16(arr!(i16)),
            Some(StorageKind::I32) => Storage::I32(arr!(i32)),
            Some(StorageKind::I64) => Storage::I64(arr!(i64)),
            Some(StorageKind::U16) => Storage::U16(arr!(u16)),
            Some(StorageKind::U32) => Storage::U32(arr!(u32)),
            Some(StorageKind::U64) => Storage::U64(arr!(u64)),
            Some(StorageKind::F16) => Storage::F16(arr!(f16)),
            Some(StorageKind::BF16) => Storage::BF16(arr!(bf16)),
            Some(StorageKind::F32) => Storage::F32(arr!(f32)),
            Some(StorageKind::F64) => Storage::F64(arr!(f64)),
            Some(StorageKind::C64) => Storage::C64(
                (0..n)
                    .map(|i| {
                        let c = ch(i);
                        Complex32::new(
                            f32::from_le_bytes(c[..4].try_into().unwrap_or_default()),
                            f32::from_le_bytes(c[4..].try_into().unwrap_or_default()),
                        )
                    })
                    .collect(),
            ),
            Some(StorageKind::C128) => Storage::C128(
                (0..n)
                    .map(|i| {
                        let c = ch(i);
                        Complex64::new(
                            f64::from_le_bytes(c[..8].try_into().unwrap_or_default()),
                            f64::from_le_bytes(c[8..].try_into().unwrap_or_default()),
                        )
                    })
                    .collect(),
            ),
            None => return Err(Error::invalid(format!("cannot read bytes into {shape}"))),
        };
        Literal::from_parts(shape.clone(), LiteralData::Array(s))
    }
    /// The value part of XLA's literal text (`{ { 1, 2 }, { 3, 4 } }`), as in HLO constants.
    pub fn to_hlo_text_value(&self) -> String {
        crate::text::literal_value_text(self)
    }
}

/// XLA's literal text: `f32[2,2] { { 1, 2 }, { 3, 4 } }`, `s32[] 7`, tuples `(...)`.
impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.shape, self.to_hlo_text_value())
    }
}
