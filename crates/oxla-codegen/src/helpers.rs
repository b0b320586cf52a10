//! Scalar functions that JIT code calls for what is not worth open-coding: transcendental
//! functions in scalar loops, float remainder/pow/atan2, f16 conversions, reduce-precision.
//! They evaluate through the interpreter's scalar semantics (widened to f64, rounded once),
//! so a scalar kernel agrees with the reference bit for bit on these ops.

use cranelift_codegen::ir::types::{F32, F64, I32, I64};
use cranelift_codegen::ir::Type;
use half::{bf16, f16};
use oxla_hlo::literal::Scalar;
use oxla_hlo::{BinaryOp, PrimitiveType, UnaryOp};
use oxla_interp::scalar_ops;

/// Unary and binary ops travel to helpers as their index in these lists.
pub(crate) const UNARY: [UnaryOp; 26] = UnaryOp::ALL;
pub(crate) const BINARY: [BinaryOp; 16] = BinaryOp::ALL;

pub(crate) fn unary_code(op: UnaryOp) -> i64 {
    UNARY.iter().position(|&o| o == op).unwrap_or(0) as i64
}

pub(crate) fn binary_code(op: BinaryOp) -> i64 {
    BINARY.iter().position(|&o| o == op).unwrap_or(0) as i64
}

fn float_of(s: Result<Scalar, oxla_hlo::Error>) -> f64 {
    match s {
        Ok(Scalar::Float(f)) => f,
        Ok(s) => s.as_f64(),
        Err(_) => f64::NAN,
    }
}

extern "C" fn unary_f64(op: i64, x: f64) -> f64 {
    let op = UNARY[(op as usize).min(UNARY.len() - 1)];
    float_of(scalar_ops::unary(op, PrimitiveType::F64, Scalar::Float(x)))
}

extern "C" fn unary_f32(op: i64, x: f32) -> f32 {
    let op = UNARY[(op as usize).min(UNARY.len() - 1)];
    float_of(scalar_ops::unary(
        op,
        PrimitiveType::F32,
        Scalar::Float(x as f64),
    )) as f32
}

extern "C" fn binary_f64(op: i64, a: f64, b: f64) -> f64 {
    let op = BINARY[(op as usize).min(BINARY.len() - 1)];
    float_of(scalar_ops::binary(
        op,
        PrimitiveType::F64,
        Scalar::Float(a),
        Scalar::Float(b),
    ))
}

extern "C" fn binary_f32(op: i64, a: f32, b: f32) -> f32 {
    let op = BINARY[(op as usize).min(BINARY.len() - 1)];
    float_of(scalar_ops::binary(
        op,
        PrimitiveType::F32,
        Scalar::Float(a as f64),
        Scalar::Float(b as f64),
    )) as f32
}

/// Integer pow with the interpreter's rules (negative exponents, wrapping). `signed` says
/// how the 64-bit operands were extended; the result is truncated by the caller.
extern "C" fn int_pow(a: i64, b: i64, signed: i64, bits: i64) -> i64 {
    let t = match (signed != 0, bits) {
        (true, 8) => PrimitiveType::S8,
        (true, 16) => PrimitiveType::S16,
        (true, 32) => PrimitiveType::S32,
        (true, _) => PrimitiveType::S64,
        (false, 8) => PrimitiveType::U8,
        (false, 16) => PrimitiveType::U16,
        (false, 32) => PrimitiveType::U32,
        (false, _) => PrimitiveType::U64,
    };
    let widen = |v: i64| {
        if signed != 0 {
            v as i128
        } else {
            v as u64 as i128
        }
    };
    match scalar_ops::binary(
        BinaryOp::Pow,
        t,
        Scalar::Int(widen(a)),
        Scalar::Int(widen(b)),
    ) {
        Ok(s) => s.as_i128() as i64,
        Err(_) => 0,
    }
}

extern "C" fn f16_to_f32(bits: i32) -> f32 {
    f16::from_bits(bits as u16).to_f32()
}

extern "C" fn f32_to_f16(x: f32) -> i32 {
    f16::from_f32(x).to_bits() as i32
}

extern "C" fn round_f16(x: f32) -> f32 {
    f16::from_f32(x).to_f32()
}

extern "C" fn round_bf16(x: f32) -> f32 {
    bf16::from_f32(x).to_f32()
}

extern "C" fn f64_round_f16(x: f64) -> f32 {
    f16::from_f64(x).to_f32()
}

extern "C" fn f64_round_bf16(x: f64) -> f32 {
    bf16::from_f64(x).to_f32()
}

/// Minifloat types in the order of their codes.
pub(crate) const MINIFLOATS: [PrimitiveType; 11] = {
    use PrimitiveType::*;
    [
        F4E2M1FN,
        F6E2M3FN,
        F6E3M2FN,
        F8E3M4,
        F8E4M3,
        F8E4M3FN,
        F8E4M3FNUZ,
        F8E4M3B11FNUZ,
        F8E5M2,
        F8E5M2FNUZ,
        F8E8M0FNU,
    ]
};

pub(crate) fn minifloat_code(t: PrimitiveType) -> i64 {
    MINIFLOATS.iter().position(|&m| m == t).unwrap_or(0) as i64
}

fn minifloat(code: i64) -> PrimitiveType {
    MINIFLOATS[(code as usize).min(MINIFLOATS.len() - 1)]
}

extern "C" fn minifloat_to_f32(code: i64, bits: i32) -> f32 {
    oxla_hlo::minifloat::bits_to_f64(minifloat(code), bits as u8) as f32
}

extern "C" fn f32_to_minifloat(code: i64, x: f32) -> i32 {
    oxla_hlo::minifloat::f64_to_bits(minifloat(code), x as f64) as i32
}

/// Rounds to the minifloat type (from f64, once) and back to f32, where it is exact.
extern "C" fn f64_round_minifloat(code: i64, x: f64) -> f32 {
    let t = minifloat(code);
    oxla_hlo::minifloat::bits_to_f64(t, oxla_hlo::minifloat::f64_to_bits(t, x)) as f32
}

extern "C" fn reduce_precision_f64(x: f64, is_f64: i64, e: i64, m: i64) -> f64 {
    scalar_ops::reduce_precision(x, is_f64 != 0, e as u32, m as u32)
}

/// (name, address, parameter types, result type) of every helper, for the JIT.
pub(crate) fn symbols() -> Vec<(&'static str, *const u8, Vec<Type>, Option<Type>)> {
    vec![
        (
            "oxla_unary_f64",
            unary_f64 as *const u8,
            vec![I64, F64],
            Some(F64),
        ),
        (
            "oxla_unary_f32",
            unary_f32 as *const u8,
            vec![I64, F32],
            Some(F32),
        ),
        (
            "oxla_binary_f64",
            binary_f64 as *const u8,
            vec![I64, F64, F64],
            Some(F64),
        ),
        (
            "oxla_binary_f32",
            binary_f32 as *const u8,
            vec![I64, F32, F32],
            Some(F32),
        ),
        (
            "oxla_int_pow",
            int_pow as *const u8,
            vec![I64, I64, I64, I64],
            Some(I64),
        ),
        (
            "oxla_f16_to_f32",
            f16_to_f32 as *const u8,
            vec![I32],
            Some(F32),
        ),
        (
            "oxla_f32_to_f16",
            f32_to_f16 as *const u8,
            vec![F32],
            Some(I32),
        ),
        (
            "oxla_round_f16",
            round_f16 as *const u8,
            vec![F32],
            Some(F32),
        ),
        (
            "oxla_round_bf16",
            round_bf16 as *const u8,
            vec![F32],
            Some(F32),
        ),
        (
            "oxla_f64_round_f16",
            f64_round_f16 as *const u8,
            vec![F64],
            Some(F32),
        ),
        (
            "oxla_f64_round_bf16",
            f64_round_bf16 as *const u8,
            vec![F64],
            Some(F32),
        ),
        (
            "oxla_minifloat_to_f32",
            minifloat_to_f32 as *const u8,
            vec![I64, I32],
            Some(F32),
        ),
        (
            "oxla_f32_to_minifloat",
            f32_to_minifloat as *const u8,
            vec![I64, F32],
            Some(I32),
        ),
        (
            "oxla_f64_round_minifloat",
            f64_round_minifloat as *const u8,
            vec![I64, F64],
            Some(F32),
        ),
        (
            "oxla_complex_unary",
            complex_unary as *const u8,
            vec![I64, F64, F64, I64],
            None,
        ),
        (
            "oxla_complex_binary",
            complex_binary as *const u8,
            vec![I64, F64, F64, F64, F64, I64],
            None,
        ),
        (
            "oxla_reduce_precision",
            reduce_precision_f64 as *const u8,
            vec![F64, I64, I64, I64],
            Some(F64),
        ),
    ]
}

fn complex_out(s: Result<Scalar, oxla_hlo::Error>, out: *mut f64) {
    let (re, im) = match s {
        Ok(Scalar::Complex(c)) => (c.re, c.im),
        Ok(Scalar::Float(f)) => (f, 0.0),
        Ok(s) => (s.as_f64(), 0.0),
        Err(_) => (f64::NAN, f64::NAN),
    };
    // SAFETY: the JIT passes a 16-byte stack slot.
    unsafe {
        *out = re;
        *out.add(1) = im;
    }
}

/// A complex unary op with the interpreter's semantics; writes (re, im) to `out`.
pub(crate) extern "C" fn complex_unary(op: i64, re: f64, im: f64, out: *mut f64) {
    let op = UNARY[(op as usize).min(UNARY.len() - 1)];
    let x = Scalar::Complex(num_complex::Complex64::new(re, im));
    complex_out(scalar_ops::unary(op, PrimitiveType::C128, x), out);
}

/// A complex binary op with the interpreter's semantics; writes (re, im) to `out`.
pub(crate) extern "C" fn complex_binary(
    op: i64,
    are: f64,
    aim: f64,
    bre: f64,
    bim: f64,
    out: *mut f64,
) {
    let op = BINARY[(op as usize).min(BINARY.len() - 1)];
    let a = Scalar::Complex(num_complex::Complex64::new(are, aim));
    let b = Scalar::Complex(num_complex::Complex64::new(bre, bim));
    complex_out(scalar_ops::binary(op, PrimitiveType::C128, a, b), out);
}
