//! Vectorized f32 transcendental functions as Cranelift IR (range reduction + polynomial),
//! accurate to a few ULP; the scalar paths call the helpers instead.

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use oxla_hlo::literal::Scalar;
use oxla_hlo::PrimitiveType::{self, F32};
use oxla_kernels::vmath::{EXP_P, TANH_CLAMP, TANH_P, TANH_Q};

use crate::emit::{Emitter, Val, R};

fn k(em: &mut Emitter, f: f64, lanes: u32) -> R<Value> {
    Ok(em.constant(F32, Scalar::Float(f), lanes)?.v)
}

/// a * b + c, fused when the CPU has FMA (one rounding instead of two).
fn mul_add(em: &mut Emitter, a: Value, b: Value, c: Value) -> Value {
    if has_fma() {
        em.b.ins().fma(a, b, c)
    } else {
        let m = em.b.ins().fmul(a, b);
        em.b.ins().fadd(m, c)
    }
}

fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn horner(em: &mut Emitter, x: Value, coeffs: &[f64], lanes: u32) -> R<Value> {
    let mut p = k(em, coeffs[0], lanes)?;
    for &c in &coeffs[1..] {
        let cv = k(em, c, lanes)?;
        p = mul_add(em, p, x, cv);
    }
    Ok(p)
}

/// max(x, lo) / min(x, hi) that keep NaN (compare + blend: cheaper than fmax/fmin, whose
/// IEEE semantics need a longer x86 sequence).
fn clamp_lo(em: &mut Emitter, x: Value, lo: Value, l: u32) -> Value {
    let c = em.b.ins().fcmp(FloatCC::LessThan, x, lo);
    sel(em, c, lo, x, l)
}

fn clamp_hi(em: &mut Emitter, x: Value, hi: Value, l: u32) -> Value {
    let c = em.b.ins().fcmp(FloatCC::GreaterThan, x, hi);
    sel(em, c, hi, x, l)
}

/// exp(x): x = n ln2 + r with |r| <= ln2/2, exp(r) by a degree-6 polynomial, and 2^n
/// applied through the exponent field (two ways, so the results down to the smallest
/// normal are right; below it they flush, as on XLA's CPU backend). Within 1 ULP.
pub(crate) fn exp_f32(em: &mut Emitter, x: Val) -> R<Val> {
    let l = x.lanes;
    let log2e = k(em, std::f64::consts::LOG2_E, l)?;
    // Round x·log2(e) to nearest with the 1.5 * 2^23 trick; the integer lands in the low
    // bits. Inputs too large for the trick are replaced by the overflow/underflow selects
    // below.
    let magic = k(em, 12_582_912.0, l)?;
    let tm = mul_add(em, x.v, log2e, magic);
    let n = em.b.ins().fsub(tm, magic);
    let ln2_hi = k(em, -0.693_145_751_953_125, l)?;
    let ln2_lo = k(em, -1.428_606_765_330_187e-6, l)?;
    let r = mul_add(em, n, ln2_hi, x.v);
    let r = mul_add(em, n, ln2_lo, r);
    // 2·exp(r) (`vmath`'s coefficients), so that 2^(n-1) below stays a normal float for
    // every n in [-125, 128].
    let p = horner(em, r, &EXP_P, l)?;
    // 2^(n-1) built in the exponent field.
    let (fty, ity) = vec_types(em, x.v);
    let tmi = em.b.ins().bitcast(ity, MemFlagsData::new(), tm);
    let pow2 = |em: &mut Emitter, bias: i64| {
        let magic_i = em.b.ins().iconst(I32, 0x4B40_0000 - bias);
        let magic_i = em.b.ins().splat(ity, magic_i);
        let e = em.b.ins().isub(tmi, magic_i);
        let e = em.b.ins().ishl_imm_s(e, 23);
        em.b.ins().bitcast(fty, MemFlagsData::new(), e)
    };
    let scale = pow2(em, 126);
    let res = em.b.ins().fmul(p, scale);
    // Below -125.5·ln2, n < -125 and 2^(n-1) is not a normal float: scale by 2^(n+1) and
    // then by 1/4 (exact while the result stays normal). Results below f32's smallest normal
    // flush to 0, as XLA's CPU backend computes with denormals flushed; past -88 all do (and
    // the rounding trick no longer holds). Overflow is +inf; NaN falls through every test.
    let scale_low = pow2(em, 128);
    let low = em.b.ins().fmul(p, scale_low);
    let quarter = k(em, 0.25, l)?;
    let low = em.b.ins().fmul(low, quarter);
    let tiny = k(em, f32::MIN_POSITIVE as f64, l)?;
    let zero = k(em, 0.0, l)?;
    let is_tiny = em.b.ins().fcmp(FloatCC::LessThan, low, tiny);
    let low = sel(em, is_tiny, zero, low, l);
    let is_low = {
        let c = k(em, -86.98, l)?;
        em.b.ins().fcmp(FloatCC::LessThan, x.v, c)
    };
    let res = sel(em, is_low, low, res, l);
    let over = k(em, 88.722_839_355_468_75, l)?;
    let under = k(em, -88.0, l)?;
    let inf = k(em, f64::INFINITY, l)?;
    let is_over = em.b.ins().fcmp(FloatCC::GreaterThan, x.v, over);
    let is_under = em.b.ins().fcmp(FloatCC::LessThan, x.v, under);
    let res = sel(em, is_over, inf, res, l);
    let res = sel(em, is_under, zero, res, l);
    Ok(Val {
        v: res,
        t: F32,
        lanes: l,
    })
}

/// The vector type of `x` (F32X4) and its integer twin (I32X4).
fn vec_types(em: &Emitter, x: Value) -> (cranelift_codegen::ir::Type, cranelift_codegen::ir::Type) {
    let f = em.b.func.dfg.value_type(x);
    (f, f.as_int())
}

fn sel(em: &mut Emitter, mask: Value, a: Value, b: Value, _l: u32) -> Value {
    let ty = em.b.func.dfg.value_type(a);
    let m = em.b.ins().bitcast(ty, MemFlagsData::new(), mask);
    em.b.ins().bitselect(m, a, b)
}

/// tanh(x) = (x + x·t·P(t)) / Q(t), t = x², a near-minimax rational fit of tanh(x)/x
/// (relative error 7e-9) on |x| <= 9: x is clamped there first (a NaN kept), and past it the
/// result is ±1 exactly (tanh rounds to ±1 in f32 from 9.011; the rational gives 1 - 2^-23
/// at 9). The coefficients are `oxla_kernels::vmath`'s, which runs the same operations at
/// full width. Within 5 ULP over every f32.
pub(crate) fn tanh_f32(em: &mut Emitter, x: Val) -> R<Val> {
    let l = x.lanes;
    let hi = k(em, TANH_CLAMP, l)?;
    let lo = k(em, -TANH_CLAMP, l)?;
    let xc = clamp_hi(em, x.v, hi, l);
    let xc = clamp_lo(em, xc, lo, l);
    let t = em.b.ins().fmul(xc, xc);
    let p = horner(em, t, &TANH_P, l)?;
    let xt = em.b.ins().fmul(xc, t);
    let num = mul_add(em, xt, p, xc);
    let q = horner(em, t, &TANH_Q, l)?;
    let v = em.b.ins().fdiv(num, q);
    let one = k(em, 1.0, l)?;
    let minus_one = k(em, -1.0, l)?;
    let above = em.b.ins().fcmp(FloatCC::GreaterThan, x.v, hi);
    let below = em.b.ins().fcmp(FloatCC::LessThan, x.v, lo);
    let v = sel(em, above, one, v, l);
    let v = sel(em, below, minus_one, v, l);
    Ok(Val {
        v,
        t: F32,
        lanes: l,
    })
}

/// log(x): x = 2^e · m with m in [√½, √2), log(m) = 2·atanh(s), s = (m-1)/(m+1), by its odd
/// series to s¹¹ (|s| <= 0.1716); e·ln2 added in two parts. Subnormal inputs are scaled
/// first; x < 0 gives -NaN, a NaN itself, 0 gives -inf, +inf gives +inf.
pub(crate) fn log_f32(em: &mut Emitter, x: Val) -> R<Val> {
    let l = x.lanes;
    let (fty, ity) = vec_types(em, x.v);
    // Subnormals: multiply by 2^23 and take 23 off the exponent.
    let min_normal = k(em, f32::MIN_POSITIVE as f64, l)?;
    let is_sub = em.b.ins().fcmp(FloatCC::LessThan, x.v, min_normal);
    let big = k(em, 8_388_608.0, l)?;
    let scaled = em.b.ins().fmul(x.v, big);
    let xs = sel(em, is_sub, scaled, x.v, l);
    let bits = em.b.ins().bitcast(ity, MemFlagsData::new(), xs);
    let e = em.b.ins().ushr_imm_s(bits, 23);
    let bias = em.b.ins().iconst(I32, 127);
    let bias = em.b.ins().splat(ity, bias);
    let e = em.b.ins().isub(e, bias);
    let mant = em.b.ins().iconst(I32, 0x007f_ffff);
    let mant = em.b.ins().splat(ity, mant);
    let one_bits = em.b.ins().iconst(I32, 0x3f80_0000);
    let one_bits = em.b.ins().splat(ity, one_bits);
    let mb = em.b.ins().band(bits, mant);
    let mb = em.b.ins().bor(mb, one_bits);
    let m = em.b.ins().bitcast(fty, MemFlagsData::new(), mb);
    let ef = em.b.ins().fcvt_from_sint(fty, e);
    let sub_adj = k(em, -23.0, l)?;
    let zero = k(em, 0.0, l)?;
    let adj = sel(em, is_sub, sub_adj, zero, l);
    let ef = em.b.ins().fadd(ef, adj);
    // m in [1, 2) -> [√½, √2): halve m and bump e above √2.
    let sqrt2 = k(em, std::f64::consts::SQRT_2, l)?;
    let hi = em.b.ins().fcmp(FloatCC::GreaterThan, m, sqrt2);
    let half = k(em, 0.5, l)?;
    let one = k(em, 1.0, l)?;
    let mh = em.b.ins().fmul(m, half);
    let m = sel(em, hi, mh, m, l);
    let ep = em.b.ins().fadd(ef, one);
    let ef = sel(em, hi, ep, ef, l);
    let f = em.b.ins().fsub(m, one);
    let two = k(em, 2.0, l)?;
    let den = em.b.ins().fadd(f, two);
    let s = em.b.ins().fdiv(f, den);
    let z = em.b.ins().fmul(s, s);
    let p = horner(
        em,
        z,
        &[2.0 / 11.0, 2.0 / 9.0, 2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0, 2.0],
        l,
    )?;
    let lm = em.b.ins().fmul(s, p);
    let ln2_hi = k(em, 0.693_145_751_953_125, l)?;
    let ln2_lo = k(em, 1.428_606_765_330_187e-6, l)?;
    let lo = mul_add(em, ef, ln2_lo, lm);
    let res = mul_add(em, ef, ln2_hi, lo);
    // Special values.
    let inf = k(em, f64::INFINITY, l)?;
    let ninf = k(em, f64::NEG_INFINITY, l)?;
    // A NaN input is the result itself and x < 0 gives the negative default NaN, as libm's
    // log (and so the interpreter) does: the sign shows through total-order compares.
    let nan = k(em, -f64::NAN, l)?;
    let is_zero = em.b.ins().fcmp(FloatCC::Equal, x.v, zero);
    let is_inf = em.b.ins().fcmp(FloatCC::Equal, x.v, inf);
    let is_neg = em.b.ins().fcmp(FloatCC::LessThan, x.v, zero);
    let is_nan = em.b.ins().fcmp(FloatCC::Unordered, x.v, x.v);
    let res = sel(em, is_zero, ninf, res, l);
    let res = sel(em, is_inf, inf, res, l);
    let res = sel(em, is_neg, nan, res, l);
    let res = sel(em, is_nan, x.v, res, l);
    Ok(Val {
        v: res,
        t: F32,
        lanes: l,
    })
}

/// logistic(x) = 1 / (1 + exp(-x)); a NaN itself, quieted.
pub(crate) fn logistic_f32(em: &mut Emitter, x: Val) -> R<Val> {
    let l = x.lanes;
    let nx = em.b.ins().fneg(x.v);
    let e = exp_f32(
        em,
        Val {
            v: nx,
            t: F32,
            lanes: l,
        },
    )?
    .v;
    let one = k(em, 1.0, l)?;
    let d = em.b.ins().fadd(one, e);
    let v = em.b.ins().fdiv(one, d);
    // A NaN comes back quieted with its own sign, as `oxla-elem`'s function returns it
    // (the arithmetic above flips it, through -x).
    let nan = em.b.ins().fcmp(FloatCC::Unordered, x.v, x.v);
    let quiet = em.b.ins().fadd(x.v, x.v);
    let v = sel(em, nan, quiet, v, l);
    Ok(Val {
        v,
        t: PrimitiveType::F32,
        lanes: l,
    })
}
