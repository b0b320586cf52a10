//! Scalar functions that JIT code calls for what is not worth open-coding: transcendental
//! functions in scalar loops, float remainder/pow/atan2, integer pow, complex arithmetic,
//! f16/bf16/minifloat conversions, reduce-precision.
//!
//! Each is a thin `extern "C"` wrapper over one `oxla_elem` function (one per op and type),
//! the same function the interpreter evaluates, so kernels agree with the reference bit for
//! bit on these ops. Which helper an op calls is decided by the exhaustive matches below.

use cranelift_codegen::ir::types::{F32, F64, I32, I64};
use cranelift_codegen::ir::Type;
use num_complex::Complex64;
use oxla_hlo::{BinaryOp, PrimitiveType, UnaryOp};

/// A helper as the JIT declares it: symbol, address, parameter types, result type.
pub(crate) type Helper = (&'static str, *const u8, Vec<Type>, Option<Type>);

macro_rules! clif {
    (f32) => {
        F32
    };
    (f64) => {
        F64
    };
    (i32) => {
        I32
    };
    (i64) => {
        I64
    };
}

/// Defines `extern "C"` wrappers and the list of (symbol, wrapper, signature) entries.
macro_rules! scalar_helpers {
    ($list:ident; $($sym:literal => fn $c:ident($($a:ident: $t:ident),*) -> $r:ident $body:block)*) => {
        $(extern "C" fn $c($($a: $t),*) -> $r $body)*
        fn $list() -> Vec<Helper> {
            vec![$(($sym, $c as *const u8, vec![$(clif!($t)),*], Some(clif!($r)))),*]
        }
    };
}

scalar_helpers! { float_helpers;
    "oxla_round_f32" => fn round_f32(x: f32) -> f32 { oxla_elem::round_f32(x) }
    "oxla_round_f64" => fn round_f64(x: f64) -> f64 { oxla_elem::round_f64(x) }
    "oxla_cbrt_f32" => fn cbrt_f32(x: f32) -> f32 { oxla_elem::cbrt_f32(x) }
    "oxla_cbrt_f64" => fn cbrt_f64(x: f64) -> f64 { oxla_elem::cbrt_f64(x) }
    // f32 erf is `vmath`'s approximation at every width (tiles, vector programs and these
    // one-lane calls give the same bits), within 2 ulp of the interpreter's.
    "oxla_erf_f32" => fn erf_f32(x: f32) -> f32 { oxla_kernels::vmath::scalar(oxla_kernels::vmath::VFunc::Erf, x) }
    "oxla_erf_f64" => fn erf_f64(x: f64) -> f64 { oxla_elem::erf_f64(x) }
    "oxla_logistic_f32" => fn logistic_f32(x: f32) -> f32 { oxla_elem::logistic_f32(x) }
    "oxla_logistic_f64" => fn logistic_f64(x: f64) -> f64 { oxla_elem::logistic_f64(x) }
    "oxla_exp_f32" => fn exp_f32(x: f32) -> f32 { oxla_elem::exp_f32(x) }
    "oxla_exp_f64" => fn exp_f64(x: f64) -> f64 { oxla_elem::exp_f64(x) }
    // An f64 kernel's exp, log and log1p: `vmath64`'s at every width (wide-math tiles and
    // these one-lane calls give the same bits), within 1 ulp of the interpreter's.
    "oxla_vm64_exp_f64" => fn vm64_exp_f64(x: f64) -> f64 { oxla_kernels::vmath64::scalar(oxla_kernels::vmath64::VFunc64::Exp, x) }
    "oxla_vm64_log_f64" => fn vm64_log_f64(x: f64) -> f64 { oxla_kernels::vmath64::scalar(oxla_kernels::vmath64::VFunc64::Log, x) }
    "oxla_vm64_log1p_f64" => fn vm64_log1p_f64(x: f64) -> f64 { oxla_kernels::vmath64::scalar(oxla_kernels::vmath64::VFunc64::Log1p, x) }
    "oxla_expm1_f32" => fn expm1_f32(x: f32) -> f32 { oxla_elem::expm1_f32(x) }
    "oxla_expm1_f64" => fn expm1_f64(x: f64) -> f64 { oxla_elem::expm1_f64(x) }
    "oxla_log_f32" => fn log_f32(x: f32) -> f32 { oxla_elem::log_f32(x) }
    "oxla_log_f64" => fn log_f64(x: f64) -> f64 { oxla_elem::log_f64(x) }
    // As erf: `vmath`'s log1p at every width.
    "oxla_log1p_f32" => fn log1p_f32(x: f32) -> f32 { oxla_kernels::vmath::scalar(oxla_kernels::vmath::VFunc::Log1p, x) }
    "oxla_log1p_f64" => fn log1p_f64(x: f64) -> f64 { oxla_elem::log1p_f64(x) }
    // f32 sin, cos and tan: `vmath`'s at every width too (within 1 ulp of the interpreter's).
    "oxla_sin_f32" => fn sin_f32(x: f32) -> f32 { oxla_kernels::vmath::scalar(oxla_kernels::vmath::VFunc::Sin, x) }
    "oxla_sin_f64" => fn sin_f64(x: f64) -> f64 { oxla_elem::sin_f64(x) }
    "oxla_cos_f32" => fn cos_f32(x: f32) -> f32 { oxla_kernels::vmath::scalar(oxla_kernels::vmath::VFunc::Cos, x) }
    "oxla_cos_f64" => fn cos_f64(x: f64) -> f64 { oxla_elem::cos_f64(x) }
    "oxla_tan_f32" => fn tan_f32(x: f32) -> f32 { oxla_kernels::vmath::scalar(oxla_kernels::vmath::VFunc::Tan, x) }
    "oxla_tan_f64" => fn tan_f64(x: f64) -> f64 { oxla_elem::tan_f64(x) }
    "oxla_tanh_f32" => fn tanh_f32(x: f32) -> f32 { oxla_elem::tanh_f32(x) }
    "oxla_tanh_f64" => fn tanh_f64(x: f64) -> f64 { oxla_elem::tanh_f64(x) }
    "oxla_rem_f32" => fn rem_f32(a: f32, b: f32) -> f32 { oxla_elem::rem_f32(a, b) }
    "oxla_rem_f64" => fn rem_f64(a: f64, b: f64) -> f64 { oxla_elem::rem_f64(a, b) }
    // As atan2: the vector programs' pow (f64 lanes, within 1 ulp of the interpreter's).
    "oxla_pow_f32" => fn pow_f32(a: f32, b: f32) -> f32 { oxla_kernels::pow::scalar(a, b) }
    "oxla_pow_f64" => fn pow_f64(a: f64, b: f64) -> f64 { oxla_elem::pow_f64(a, b) }
    // bf16's power: its f32 operands widened bit for bit (a signaling NaN stays signaling).
    "oxla_pow_f32_bits_to_f64" => fn pow_f32_bits_to_f64(a: f32, b: f32) -> f64 { oxla_elem::pow_f32_wide(a, b) }
    // As sin: the vector programs' atan2 (f64 lanes, within 1 ulp of the interpreter's).
    "oxla_atan2_f32" => fn atan2_f32(a: f32, b: f32) -> f32 { oxla_kernels::atan2::scalar(a, b) }
    "oxla_atan2_f64" => fn atan2_f64(a: f64, b: f64) -> f64 { oxla_elem::atan2_f64(a, b) }
    // Narrower integers pass sign- or zero-extended values and truncate the result.
    "oxla_pow_s64" => fn pow_s64(a: i64, b: i64) -> i64 { oxla_elem::pow_s64(a, b) }
    "oxla_pow_u64" => fn pow_u64(a: i64, b: i64) -> i64 { oxla_elem::pow_u64(a as u64, b as u64) as i64 }
    "oxla_f16_to_f32" => fn f16_to_f32(bits: i32) -> f32 { oxla_elem::f16_bits_to_f32(bits as u16) }
    "oxla_f32_to_f16" => fn f32_to_f16(x: f32) -> i32 { oxla_elem::f32_to_f16_bits(x) as i32 }
    "oxla_round_f16" => fn round_f16(x: f32) -> f32 { oxla_elem::round_to_f16(x) }
    "oxla_round_bf16" => fn round_bf16(x: f32) -> f32 { oxla_elem::round_to_bf16(x) }
    "oxla_f64_round_f16" => fn f64_round_f16(x: f64) -> f32 { oxla_elem::round_f64_to_f16(x) }
    "oxla_f64_round_bf16" => fn f64_round_bf16(x: f64) -> f32 { oxla_elem::round_f64_to_bf16(x) }
    "oxla_reduce_precision" => fn reduce_precision(x: f64, is_f64: i64, e: i64, m: i64) -> f64 {
        oxla_elem::reduce_precision(x, is_f64 != 0, e as u32, m as u32)
    }
}

/// The helper computing a float unary op that is not open-coded, on f32 or f64 (f16/bf16
/// and minifloats call the f64 one and round once). `None`: the op has no float meaning.
pub(crate) fn float_unary(op: UnaryOp, t: PrimitiveType) -> Option<&'static str> {
    use UnaryOp::*;
    let (f32, f64) = match op {
        Round => ("oxla_round_f32", "oxla_round_f64"),
        Cbrt => ("oxla_cbrt_f32", "oxla_cbrt_f64"),
        Erf => ("oxla_erf_f32", "oxla_erf_f64"),
        Logistic => ("oxla_logistic_f32", "oxla_logistic_f64"),
        Exp => ("oxla_exp_f32", "oxla_exp_f64"),
        Expm1 => ("oxla_expm1_f32", "oxla_expm1_f64"),
        Log => ("oxla_log_f32", "oxla_log_f64"),
        Log1p => ("oxla_log1p_f32", "oxla_log1p_f64"),
        Sin => ("oxla_sin_f32", "oxla_sin_f64"),
        Cos => ("oxla_cos_f32", "oxla_cos_f64"),
        Tan => ("oxla_tan_f32", "oxla_tan_f64"),
        Tanh => ("oxla_tanh_f32", "oxla_tanh_f64"),
        // Open-coded in CLIF, or not defined on floats.
        Abs | Neg | Sign | Floor | Ceil | RoundNearestEven | Sqrt | Rsqrt | IsFinite | Real
        | Imag | Not | PopCnt | Clz => return None,
    };
    Some(if t == PrimitiveType::F32 { f32 } else { f64 })
}

/// The helper an f64 kernel calls for a float unary op that is not open-coded: exp, log and
/// log1p as the wide-math tiles compute them (`vmath64`), the rest as [`float_unary`]'s.
/// (f16/bf16 values, computed in f64 and rounded once, take [`float_unary`]'s libm ones.)
pub(crate) fn f64_kernel_unary(op: UnaryOp) -> Option<&'static str> {
    match op {
        UnaryOp::Exp => Some("oxla_vm64_exp_f64"),
        UnaryOp::Log => Some("oxla_vm64_log_f64"),
        UnaryOp::Log1p => Some("oxla_vm64_log1p_f64"),
        _ => float_unary(op, PrimitiveType::F64),
    }
}

/// The helper computing a float binary op that is not open-coded (see `float_unary`).
pub(crate) fn float_binary(op: BinaryOp, t: PrimitiveType) -> Option<&'static str> {
    use BinaryOp::*;
    let (f32, f64) = match op {
        Rem => ("oxla_rem_f32", "oxla_rem_f64"),
        Pow => ("oxla_pow_f32", "oxla_pow_f64"),
        Atan2 => ("oxla_atan2_f32", "oxla_atan2_f64"),
        Add | Sub | Mul | Div | Max | Min | Complex | And | Or | Xor | ShiftLeft
        | ShiftRightLogical | ShiftRightArithmetic => return None,
    };
    Some(if t == PrimitiveType::F32 { f32 } else { f64 })
}

// ---------------------------------------------------------------- complex numbers

/// Writes a c128 result to the 16-byte slot the JIT passes.
fn complex_out(c: Complex64, out: *mut f64) {
    // SAFETY: the JIT passes a 16-byte, 8-aligned stack slot.
    unsafe {
        *out = c.re;
        *out.add(1) = c.im;
    }
}

/// Complex helpers: `fn(re, im, out)` for unary ops, `fn(are, aim, bre, bim, out)` for
/// binary ones; c64 operands arrive widened to f64 and the caller rounds the parts.
macro_rules! complex_helpers {
    (unary: $($usym:literal => $uc:ident = $uf:path;)* binary: $($bsym:literal => $bc:ident = $bf:path;)*) => {
        $(extern "C" fn $uc(re: f64, im: f64, out: *mut f64) {
            complex_out($uf(Complex64::new(re, im)), out)
        })*
        $(extern "C" fn $bc(are: f64, aim: f64, bre: f64, bim: f64, out: *mut f64) {
            complex_out($bf(Complex64::new(are, aim), Complex64::new(bre, bim)), out)
        })*
        fn complex_helpers() -> Vec<Helper> {
            let mut v: Vec<Helper> = vec![$(($usym, $uc as *const u8, vec![F64, F64, I64], None)),*];
            v.extend([$(($bsym, $bc as *const u8, vec![F64, F64, F64, F64, I64], None)),*]);
            v
        }
    };
}

/// |c| as a complex with a zero imaginary part (the caller takes the real part).
fn abs_as_complex(c: Complex64) -> Complex64 {
    Complex64::new(oxla_elem::abs_c128(c), 0.0)
}

complex_helpers! {
    unary:
    "oxla_abs_c128" => c_abs = abs_as_complex;
    "oxla_sign_c128" => c_sign = oxla_elem::sign_c128;
    "oxla_logistic_c128" => c_logistic = oxla_elem::logistic_c128;
    "oxla_cbrt_c128" => c_cbrt = oxla_elem::cbrt_c128;
    "oxla_exp_c128" => c_exp = oxla_elem::exp_c128;
    "oxla_expm1_c128" => c_expm1 = oxla_elem::expm1_c128;
    "oxla_log_c128" => c_log = oxla_elem::log_c128;
    "oxla_log1p_c128" => c_log1p = oxla_elem::log1p_c128;
    "oxla_sqrt_c128" => c_sqrt = oxla_elem::sqrt_c128;
    "oxla_rsqrt_c128" => c_rsqrt = oxla_elem::rsqrt_c128;
    "oxla_sin_c128" => c_sin = oxla_elem::sin_c128;
    "oxla_cos_c128" => c_cos = oxla_elem::cos_c128;
    "oxla_tan_c128" => c_tan = oxla_elem::tan_c128;
    "oxla_tanh_c128" => c_tanh = oxla_elem::tanh_c128;
    binary:
    "oxla_mul_c128" => c_mul = oxla_elem::mul_c128;
    "oxla_div_c128" => c_div = oxla_elem::div_c128;
    "oxla_pow_c128" => c_pow = oxla_elem::pow_c128;
    "oxla_max_c128" => c_max = oxla_elem::max_c128;
    "oxla_min_c128" => c_min = oxla_elem::min_c128;
    "oxla_atan2_c128" => c_atan2 = oxla_elem::atan2_c128;
}

/// The helper of a complex unary op that is not open-coded (`None`: not defined on complex).
pub(crate) fn complex_unary(op: UnaryOp) -> Option<&'static str> {
    use UnaryOp::*;
    Some(match op {
        Abs => "oxla_abs_c128",
        Sign => "oxla_sign_c128",
        Logistic => "oxla_logistic_c128",
        Cbrt => "oxla_cbrt_c128",
        Exp => "oxla_exp_c128",
        Expm1 => "oxla_expm1_c128",
        Log => "oxla_log_c128",
        Log1p => "oxla_log1p_c128",
        Sqrt => "oxla_sqrt_c128",
        Rsqrt => "oxla_rsqrt_c128",
        Sin => "oxla_sin_c128",
        Cos => "oxla_cos_c128",
        Tan => "oxla_tan_c128",
        Tanh => "oxla_tanh_c128",
        // Open-coded (neg, real, imag) or not defined on complex numbers.
        Neg | Real | Imag | Not | PopCnt | Clz | IsFinite | Floor | Ceil | Round
        | RoundNearestEven | Erf => return None,
    })
}

/// The helper of a complex binary op that is not open-coded (`None`: not defined).
pub(crate) fn complex_binary(op: BinaryOp) -> Option<&'static str> {
    use BinaryOp::*;
    Some(match op {
        Mul => "oxla_mul_c128",
        Div => "oxla_div_c128",
        Pow => "oxla_pow_c128",
        Max => "oxla_max_c128",
        Min => "oxla_min_c128",
        Atan2 => "oxla_atan2_c128",
        Add | Sub | Rem | Complex | And | Or | Xor | ShiftLeft | ShiftRightLogical
        | ShiftRightArithmetic => return None,
    })
}

// ---------------------------------------------------------------- minifloats

/// Minifloat types; a helper's const parameter indexes this list, so each type gets its own
/// monomorphized function.
const MINIFLOATS: [PrimitiveType; 11] = {
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

extern "C" fn minifloat_to_f32<const T: usize>(bits: i32) -> f32 {
    oxla_elem::minifloat_bits_to_f32(MINIFLOATS[T], bits as u8)
}

extern "C" fn f32_to_minifloat<const T: usize>(x: f32) -> i32 {
    oxla_elem::f32_to_minifloat_bits(MINIFLOATS[T], x) as i32
}

extern "C" fn f64_round_minifloat<const T: usize>(x: f64) -> f32 {
    oxla_elem::round_f64_to_minifloat(MINIFLOATS[T], x)
}

/// Symbols of the minifloat helpers: `oxla_{to_f32,from_f32,f64_round}_<type>`.
macro_rules! minifloat_helpers {
    ($($i:literal $name:literal),*) => {
        fn minifloat_helpers() -> Vec<Helper> {
            vec![$(
                (concat!("oxla_to_f32_", $name), minifloat_to_f32::<$i> as *const u8, vec![I32], Some(F32)),
                (concat!("oxla_from_f32_", $name), f32_to_minifloat::<$i> as *const u8, vec![F32], Some(I32)),
                (concat!("oxla_f64_round_", $name), f64_round_minifloat::<$i> as *const u8, vec![F64], Some(F32)),
            )*]
        }

        /// The helpers (to f32, from f32, f64 rounded once) of a minifloat type.
        pub(crate) fn minifloat(t: PrimitiveType) -> Option<[&'static str; 3]> {
            match MINIFLOATS.iter().position(|&m| m == t)? {
                $($i => Some([
                    concat!("oxla_to_f32_", $name),
                    concat!("oxla_from_f32_", $name),
                    concat!("oxla_f64_round_", $name),
                ]),)*
                _ => None,
            }
        }
    };
}

minifloat_helpers!(
    0 "f4e2m1fn", 1 "f6e2m3fn", 2 "f6e3m2fn", 3 "f8e3m4", 4 "f8e4m3", 5 "f8e4m3fn",
    6 "f8e4m3fnuz", 7 "f8e4m3b11fnuz", 8 "f8e5m2", 9 "f8e5m2fnuz", 10 "f8e8m0fnu"
);

// ---------------------------------------------------------------- wide math

/// `fn(ptr, n)`: f32 exp/tanh/logistic/log over `n` floats in place at the CPU's vector
/// width (`oxla_kernels::vmath`); the tiles of `schedule/wide_math.rs`.
macro_rules! vmath_helpers {
    ($($sym:literal => $c:ident = $f:ident;)*) => {
        $(extern "C" fn $c(ptr: *mut f32, n: i64) {
            if ptr.is_null() || n <= 0 {
                return;
            }
            // SAFETY: the JIT passes a tile buffer of at least `n` floats.
            let xs = unsafe { std::slice::from_raw_parts_mut(ptr, n as usize) };
            oxla_kernels::vmath::apply(oxla_kernels::vmath::VFunc::$f, xs);
        })*
        fn vmath_helpers() -> Vec<Helper> {
            vec![$(($sym, $c as *const u8, vec![I64, I64], None)),*]
        }
    };
}

vmath_helpers! {
    "oxla_vexp_f32" => vexp_f32 = Exp;
    "oxla_vtanh_f32" => vtanh_f32 = Tanh;
    "oxla_vlogistic_f32" => vlogistic_f32 = Logistic;
    "oxla_verf_f32" => verf_f32 = Erf;
    "oxla_vlog1p_f32" => vlog1p_f32 = Log1p;
    "oxla_vlog_f32" => vlog_f32 = Log;
    "oxla_vsin_f32" => vsin_f32 = Sin;
    "oxla_vcos_f32" => vcos_f32 = Cos;
    "oxla_vtan_f32" => vtan_f32 = Tan;
}

/// `fn(ptr, n)`: f64 exp/log/log1p over `n` doubles in place at the CPU's vector width
/// (`oxla_kernels::vmath64`, within 1 ulp of the interpreter's libm); f64 tiles of
/// `schedule/wide_math.rs`.
macro_rules! vmath64_helpers {
    ($($sym:literal => $c:ident = $f:ident;)*) => {
        $(extern "C" fn $c(ptr: *mut f64, n: i64) {
            if ptr.is_null() || n <= 0 {
                return;
            }
            // SAFETY: the JIT passes a tile buffer of at least `n` doubles.
            let xs = unsafe { std::slice::from_raw_parts_mut(ptr, n as usize) };
            oxla_kernels::vmath64::apply(oxla_kernels::vmath64::VFunc64::$f, xs);
        })*
        fn vmath64_helpers() -> Vec<Helper> {
            vec![$(($sym, $c as *const u8, vec![I64, I64], None)),*]
        }
    };
}

vmath64_helpers! {
    "oxla_vexp_f64" => vexp_f64 = Exp;
    "oxla_vlog_f64" => vlog_f64 = Log;
    "oxla_vlog1p_f64" => vlog1p_f64 = Log1p;
}

/// `fn(ptr, n, d)`: `n` floats divided by `d` in place at the CPU's vector width (a row
/// tile's division by a value constant along the row, `schedule/wide_math.rs`).
extern "C" fn vdiv_f32(ptr: *mut f32, n: i64, d: f32) {
    if ptr.is_null() || n <= 0 {
        return;
    }
    // SAFETY: the JIT passes a tile buffer of at least `n` floats.
    let xs = unsafe { std::slice::from_raw_parts_mut(ptr, n as usize) };
    oxla_kernels::vmath::div_by(xs, d);
}

/// `fn(dst, x, a, y, n)`: `dst[i] = x[i] * a + y[i]` for `n` floats, multiply and add
/// rounded apart (`oxla_kernels::vmath::mul_add_raw`; a wide-math tile's fill).
extern "C" fn vmuladd_f32(dst: *mut f32, x: *const f32, a: f32, y: *const f32, n: i64) {
    mul_add(dst, x, Some(a), y, n)
}

/// `fn(program, inputs, out, lo, hi)`: a vector program (`schedule/vector_program.rs`)
/// over elements `[lo, hi)`.
extern "C" fn vprog_f32(
    prog: *const u8,
    inputs: *const *const f32,
    out: *mut f32,
    lo: i64,
    hi: i64,
) {
    if prog.is_null() || inputs.is_null() || out.is_null() || lo < 0 || hi <= lo {
        return;
    }
    // SAFETY: the JIT passes the bytes of a program it embedded, its kernel's input pointer
    // array (each input the program reads as an array of the output's size, or one float)
    // and its output, and a range inside them.
    unsafe { oxla_kernels::vprog::VProg::run_bytes(prog, inputs, out, lo as usize, hi as usize) }
}

/// `fn(out, row, indices, wide, n, updates, lo, hi, current_first)`: adds update rows
/// (`n` of `row` floats) into `out`'s rows that the `n` indices (s64 where `wide`, else s32)
/// pick, for target rows `[lo, hi)` (`oxla_kernels::scatter_rows`).
#[allow(clippy::too_many_arguments)]
extern "C" fn scatter_add_rows_f32(
    out: *mut f32,
    row: i64,
    indices: *const u8,
    wide: i64,
    n: i64,
    updates: *const f32,
    lo: i64,
    hi: i64,
    current_first: i64,
) {
    use oxla_kernels::scatter_rows::{scatter_add_rows_f32, Indices};
    let (Ok(row), Ok(n), Ok(lo), Ok(hi)) = (
        usize::try_from(row),
        usize::try_from(n),
        usize::try_from(lo),
        usize::try_from(hi),
    ) else {
        return;
    };
    if out.is_null() || indices.is_null() || updates.is_null() || row == 0 || hi <= lo {
        return;
    }
    // SAFETY: the JIT passes the scatter's index buffer (`n` indices of the width it says),
    // its updates (`n` rows) and its output (`hi` rows at least), and a range of rows.
    unsafe {
        let idx = if wide != 0 {
            Indices::S64(std::slice::from_raw_parts(indices.cast::<i64>(), n))
        } else {
            Indices::S32(std::slice::from_raw_parts(indices.cast::<i32>(), n))
        };
        scatter_add_rows_f32(out, row, idx, updates, (lo, hi), current_first != 0)
    }
}

/// `fn(program, inputs, out, init, lo, hi, d)`: `out[r]` = `init` plus the sum, in the JIT's
/// row order (`oxla_kernels::rowsum`), of a vector program's elements `[r d, (r + 1) d)`,
/// for rows `[lo, hi)`; blocks of rows are computed into a per-thread buffer.
extern "C" fn vprog_row_sums(
    prog: *const u8,
    inputs: *const *const f32,
    out: *mut f32,
    init: f32,
    lo: i64,
    hi: i64,
    d: i64,
) {
    /// Elements one block of rows computes at once (32 KiB: in L1 and L2 when summed).
    const BLOCK: usize = 8192;
    thread_local! {
        static ROWS: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let (Ok(lo), Ok(hi), Ok(d)) = (usize::try_from(lo), usize::try_from(hi), usize::try_from(d))
    else {
        return;
    };
    if prog.is_null() || inputs.is_null() || out.is_null() || d == 0 || hi <= lo {
        return;
    }
    let p = prog.cast::<oxla_kernels::vprog::VProg>();
    // SAFETY: the JIT passes a program it embedded (read in place where aligned).
    let copy;
    let prog = unsafe {
        if p.is_aligned() {
            &*p
        } else {
            copy = std::ptr::read_unaligned(p);
            &copy
        }
    };
    let block = (BLOCK / d).max(1);
    ROWS.with_borrow_mut(|buf| {
        let mut r0 = lo;
        while r0 < hi {
            let r1 = hi.min(r0 + block);
            buf.clear();
            buf.resize((r1 - r0) * d, 0.0);
            // SAFETY: the JIT passes its kernel's inputs (arrays of the operand's elements,
            // `hi d` at least) and output (`hi` sums); `buf` holds the block's elements.
            unsafe {
                prog.run_at(inputs, buf.as_mut_ptr(), r0 * d, r0 * d, r1 * d);
                for (k, row) in buf.chunks_exact(d).enumerate() {
                    *out.add(r0 + k) = oxla_kernels::rowsum::row_sum(row, init);
                }
            }
            r0 = r1;
        }
    })
}

/// `fn(op, x, out, init, lo, hi, geometry)`: outputs `[lo, hi)` of an f32 reduce-window
/// of `x` (`oxla_kernels::window`), its geometry the words the JIT embedded.
extern "C" fn window_f32(
    op: i64,
    x: *const f32,
    out: *mut f32,
    init: f32,
    lo: i64,
    hi: i64,
    geometry: *const i64,
) {
    use oxla_kernels::window::{reduce_window, Window};
    let Some(op) = oxla_kernels::colreduce::ColOp::from_code(op) else {
        return;
    };
    if x.is_null() || out.is_null() || geometry.is_null() || lo < 0 || hi <= lo {
        return;
    }
    // SAFETY: the JIT embeds the geometry's words, its rank first, for the kernel's
    // lifetime (a rank over 64 is not one it wrote).
    let words = unsafe {
        let r = *geometry;
        if !(1..=64).contains(&r) {
            return;
        }
        std::slice::from_raw_parts(geometry, 1 + 6 * r as usize)
    };
    let Some(g) = Window::from_words(words) else {
        return;
    };
    // SAFETY: the JIT passes its kernel's input and output, of the geometry's sizes, and a
    // range of the output.
    unsafe { reduce_window(op, x, out, init, (lo as usize, hi as usize), &g) }
}

/// `fn(code, x, out, init, lo, hi, rows, inner)`: outputs `[lo, hi)` of a reduction of `x`,
/// viewed as `[outer, rows, inner]`, over its rows (`oxla_kernels::colreduce`); `code` is
/// the operation's code plus 4 times the element type's (an integer init is its bits).
#[allow(clippy::too_many_arguments)]
extern "C" fn colreduce_f32(
    code: i64,
    x: *const f32,
    out: *mut f32,
    init: f32,
    lo: i64,
    hi: i64,
    rows: i64,
    inner: i64,
) {
    use oxla_kernels::colreduce::{ColOp, ColType};
    let (Some(op), Some(ty)) = (ColOp::from_code(code % 4), ColType::from_code(code / 4)) else {
        return;
    };
    if x.is_null() || out.is_null() || lo < 0 || hi <= lo || rows < 0 || inner <= 0 {
        return;
    }
    // SAFETY: the JIT passes its kernel's input (outer · rows · inner elements of 4 bytes)
    // and output (outer · inner), and a range of the output.
    unsafe {
        oxla_kernels::colreduce::column_reduce(
            (op, ty),
            x,
            out,
            init,
            (lo as usize, hi as usize),
            rows as usize,
            inner as usize,
        )
    }
}

/// `fn(dst, x, y, n)`: `dst[i] = x[i] + y[i]` for `n` floats.
extern "C" fn vadd_f32(dst: *mut f32, x: *const f32, y: *const f32, n: i64) {
    mul_add(dst, x, None, y, n)
}

/// `fn(dst, x, s, n)`: `dst[i] = x[i] - s` for `n` floats (`oxla_kernels::vmath::row_op_raw`;
/// a wide-math tile's fill where a transcendental's argument is an input row shifted by a
/// value constant along the row: a softmax's `x - max`).
extern "C" fn vsubs_f32(dst: *mut f32, x: *const f32, s: f32, n: i64) {
    row_op(dst, x, oxla_kernels::vmath::RowOp::Sub, s, n)
}

/// `fn(dst, x, s, n)`: `dst[i] = x[i] / s` for `n` floats (a wide-math tile's division of an
/// input row by a value constant along the row, read and divided in one pass).
extern "C" fn vdivs_f32(dst: *mut f32, x: *const f32, s: f32, n: i64) {
    row_op(dst, x, oxla_kernels::vmath::RowOp::Div, s, n)
}

fn row_op(dst: *mut f32, x: *const f32, op: oxla_kernels::vmath::RowOp, s: f32, n: i64) {
    if dst.is_null() || x.is_null() || n <= 0 {
        return;
    }
    // SAFETY: the JIT passes a tile buffer (or its output row, which may be the input only
    // at the same position) and an input row, each of at least `n` floats.
    unsafe { oxla_kernels::vmath::row_op_raw(dst, x, op, s, n as usize) }
}

fn mul_add(dst: *mut f32, x: *const f32, a: Option<f32>, y: *const f32, n: i64) {
    if dst.is_null() || x.is_null() || y.is_null() || n <= 0 {
        return;
    }
    // SAFETY: the JIT passes a tile buffer (or its output row, which may be one of the
    // inputs only at the same position) and two input rows, each of at least `n` floats.
    unsafe { oxla_kernels::vmath::mul_add_raw(dst, x, a, y, n as usize) }
}

/// `fn(ptr, n) -> f32`: the max / min of `n` floats with XLA's semantics at the CPU's
/// vector width (`oxla_kernels::rowminmax`; a row reduction read straight from a buffer).
extern "C" fn vrow_max_f32(ptr: *const f32, n: i64) -> f32 {
    vrow(oxla_kernels::rowminmax::MinMax::Max, ptr, n)
}

extern "C" fn vrow_min_f32(ptr: *const f32, n: i64) -> f32 {
    vrow(oxla_kernels::rowminmax::MinMax::Min, ptr, n)
}

/// `fn(ptr, n) -> f32`: the max / min of `n` bf16 values, widened to f32 (exact), with
/// XLA's semantics (`oxla_kernels::rowminmax::row_minmax_bf16`).
extern "C" fn vrow_max_bf16(ptr: *const u16, n: i64) -> f32 {
    vrow_bf16(oxla_kernels::rowminmax::MinMax::Max, ptr, n)
}

extern "C" fn vrow_min_bf16(ptr: *const u16, n: i64) -> f32 {
    vrow_bf16(oxla_kernels::rowminmax::MinMax::Min, ptr, n)
}

/// `fn(ptr, n, cur) -> f32`: `cur` plus the f32 sum of `n` bf16 values, in the JIT's row
/// loop's order (`oxla_kernels::rowsum`).
extern "C" fn vrow_sum_bf16(ptr: *const u16, n: i64, cur: f32) -> f32 {
    if ptr.is_null() || n <= 0 {
        return oxla_kernels::rowsum::row_sum_bf16(&[], cur);
    }
    // SAFETY: the JIT passes a row of `n` bf16 values of an input buffer.
    let xs = unsafe { std::slice::from_raw_parts(ptr, n as usize) };
    oxla_kernels::rowsum::row_sum_bf16(xs, cur)
}

/// `fn(ptr, n, cur) -> f32`: `cur` plus the f32 sum of `n` f16 values, in the JIT's row
/// loop's order (`oxla_kernels::rowsum`).
extern "C" fn vrow_sum_f16(ptr: *const u16, n: i64, cur: f32) -> f32 {
    if ptr.is_null() || n <= 0 {
        return oxla_kernels::rowsum::row_sum_f16(&[], cur);
    }
    // SAFETY: the JIT passes a row of `n` f16 values of an input buffer.
    let xs = unsafe { std::slice::from_raw_parts(ptr, n as usize) };
    oxla_kernels::rowsum::row_sum_f16(xs, cur)
}

/// `fn(ptr, n) -> f32`: the max / min of `n` f16 values, widened to f32 (exact), with
/// XLA's semantics (`oxla_kernels::rowminmax::row_minmax_f16`).
extern "C" fn vrow_max_f16(ptr: *const u16, n: i64) -> f32 {
    vrow_f16(oxla_kernels::rowminmax::MinMax::Max, ptr, n)
}

extern "C" fn vrow_min_f16(ptr: *const u16, n: i64) -> f32 {
    vrow_f16(oxla_kernels::rowminmax::MinMax::Min, ptr, n)
}

fn vrow_f16(op: oxla_kernels::rowminmax::MinMax, ptr: *const u16, n: i64) -> f32 {
    if ptr.is_null() || n <= 0 {
        return oxla_kernels::rowminmax::row_minmax_f16(op, &[]);
    }
    // SAFETY: the JIT passes a row of `n` f16 values of an input buffer.
    let xs = unsafe { std::slice::from_raw_parts(ptr, n as usize) };
    oxla_kernels::rowminmax::row_minmax_f16(op, xs)
}

fn vrow_bf16(op: oxla_kernels::rowminmax::MinMax, ptr: *const u16, n: i64) -> f32 {
    if ptr.is_null() || n <= 0 {
        return oxla_kernels::rowminmax::row_minmax_bf16(op, &[]);
    }
    // SAFETY: the JIT passes a row of `n` bf16 values of an input buffer.
    let xs = unsafe { std::slice::from_raw_parts(ptr, n as usize) };
    oxla_kernels::rowminmax::row_minmax_bf16(op, xs)
}

fn vrow(op: oxla_kernels::rowminmax::MinMax, ptr: *const f32, n: i64) -> f32 {
    if ptr.is_null() || n <= 0 {
        return oxla_kernels::rowminmax::row_minmax_scalar(op, &[]);
    }
    // SAFETY: the JIT passes a row of `n` floats of an input buffer.
    let xs = unsafe { std::slice::from_raw_parts(ptr, n as usize) };
    oxla_kernels::rowminmax::row_minmax(op, xs)
}

/// Every helper, for the JIT to declare.
pub(crate) fn symbols() -> Vec<Helper> {
    let mut v = vmath_helpers();
    v.extend(vmath64_helpers());
    v.push((
        "oxla_vdiv_f32",
        vdiv_f32 as *const u8,
        vec![I64, I64, F32],
        None,
    ));
    v.push((
        "oxla_vmuladd_f32",
        vmuladd_f32 as *const u8,
        vec![I64, I64, F32, I64, I64],
        None,
    ));
    v.push((
        "oxla_colreduce_f32",
        colreduce_f32 as *const u8,
        vec![I64, I64, I64, F32, I64, I64, I64, I64],
        None,
    ));
    v.push((
        "oxla_scatter_add_rows_f32",
        scatter_add_rows_f32 as *const u8,
        vec![I64, I64, I64, I64, I64, I64, I64, I64, I64],
        None,
    ));
    v.push((
        "oxla_vprog_row_sums",
        vprog_row_sums as *const u8,
        vec![I64, I64, I64, F32, I64, I64, I64],
        None,
    ));
    v.push((
        "oxla_window_f32",
        window_f32 as *const u8,
        vec![I64, I64, I64, F32, I64, I64, I64],
        None,
    ));
    v.push((
        "oxla_vprog_f32",
        vprog_f32 as *const u8,
        vec![I64, I64, I64, I64, I64],
        None,
    ));
    v.push((
        "oxla_vadd_f32",
        vadd_f32 as *const u8,
        vec![I64, I64, I64, I64],
        None,
    ));
    v.push((
        "oxla_vsubs_f32",
        vsubs_f32 as *const u8,
        vec![I64, I64, F32, I64],
        None,
    ));
    v.push((
        "oxla_vdivs_f32",
        vdivs_f32 as *const u8,
        vec![I64, I64, F32, I64],
        None,
    ));
    v.push((
        "oxla_vrow_max_f32",
        vrow_max_f32 as *const u8,
        vec![I64, I64],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_min_f32",
        vrow_min_f32 as *const u8,
        vec![I64, I64],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_sum_bf16",
        vrow_sum_bf16 as *const u8,
        vec![I64, I64, F32],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_max_bf16",
        vrow_max_bf16 as *const u8,
        vec![I64, I64],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_min_bf16",
        vrow_min_bf16 as *const u8,
        vec![I64, I64],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_sum_f16",
        vrow_sum_f16 as *const u8,
        vec![I64, I64, F32],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_max_f16",
        vrow_max_f16 as *const u8,
        vec![I64, I64],
        Some(F32),
    ));
    v.push((
        "oxla_vrow_min_f16",
        vrow_min_f16 as *const u8,
        vec![I64, I64],
        Some(F32),
    ));
    v.extend(float_helpers());
    v.extend(complex_helpers());
    v.extend(minifloat_helpers());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_unique_and_every_mapped_helper_exists() {
        let syms = symbols();
        let names: std::collections::HashSet<_> = syms.iter().map(|s| s.0).collect();
        assert_eq!(names.len(), syms.len());
        for op in UnaryOp::ALL {
            for t in [PrimitiveType::F32, PrimitiveType::F64] {
                if let Some(n) = float_unary(op, t) {
                    assert!(names.contains(n), "{n}");
                }
            }
            if let Some(n) = f64_kernel_unary(op) {
                assert!(names.contains(n), "{n}");
            }
            if let Some(n) = complex_unary(op) {
                assert!(names.contains(n), "{n}");
            }
        }
        for op in BinaryOp::ALL {
            if let Some(n) = float_binary(op, PrimitiveType::F32) {
                assert!(names.contains(n), "{n}");
            }
            if let Some(n) = complex_binary(op) {
                assert!(names.contains(n), "{n}");
            }
        }
        for t in MINIFLOATS {
            for n in minifloat(t).unwrap() {
                assert!(names.contains(n), "{n}");
            }
        }
    }
}
