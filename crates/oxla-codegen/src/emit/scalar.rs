//! Element-wise arithmetic: unary and binary ops, comparison, select, conversion,
//! copysign, rounding of f16/bf16/minifloats, sub-byte wrapping and signed division by
//! a constant through a magic multiplier.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I32, I64, I8};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use oxla_hlo::literal::Scalar;
use oxla_hlo::{BinaryOp, ComparisonDirection, ComparisonType, Error, PrimitiveType, UnaryOp};

use super::{scalar_ty, unsup, Emitter, Val, R};
use crate::helpers;

/// Magic multiplier and shift for signed 32-bit division by a constant (shared with the
/// vector programs, which run the same sequence at full width).
pub(crate) use oxla_kernels::vprog::signed_magic_32;

/// The width of a sub-byte integer type (held in an i8).
fn sub_byte(t: PrimitiveType) -> Option<i64> {
    (t.is_integer() && t.bit_width() < 8).then_some(t.bit_width() as i64)
}

/// Floats held in f32 but rounded to a narrower type after every operation.
fn is_narrow_float(t: PrimitiveType) -> bool {
    matches!(t, PrimitiveType::F16 | PrimitiveType::BF16) || t.is_minifloat()
}

pub(super) fn is_unsigned(t: PrimitiveType) -> bool {
    t.is_unsigned_int() || t == PrimitiveType::Pred
}

impl<'a, 'b> Emitter<'a, 'b> {
    /// Rounds an f32-held f16/bf16 value to its type (no-op for other types).
    pub fn round_narrow(&mut self, x: Val) -> R<Val> {
        if x.t.is_minifloat() {
            return self.lanewise(&[x], &mut |em, a| {
                let w = em.b.ins().fpromote(F64, a[0].v);
                em.round_from_f64(w, a[0].t)
            });
        }
        if x.t == PrimitiveType::BF16 {
            return Ok(self.round_bf16_inline(x));
        }
        let name = match x.t {
            PrimitiveType::F16 => "oxla_round_f16",
            _ => return Ok(x),
        };
        self.lanewise(&[x], &mut |em, a| {
            let v = em.call_helper(name, &[a[0].v], F32)?;
            Ok(Val {
                v,
                t: a[0].t,
                lanes: 1,
            })
        })
    }

    /// An f32-held value rounded to bf16 with integer operations on its bits, at any lane
    /// count: ties to even by adding 0x7fff plus the lowest kept bit, then cutting (a
    /// carry into the exponent rounds up to infinity); a NaN keeps its sign and top payload
    /// bits, quieted. These are `half`'s `bf16::from_f32` bits (the interpreter's), without
    /// a call per lane.
    fn round_bf16_inline(&mut self, x: Val) -> Val {
        let ft = self.b.func.dfg.value_type(x.v);
        let it = ft.as_int();
        let k = |em: &mut Self, c: i64| {
            let v = em.b.ins().iconst(I32, c);
            if it.is_vector() {
                em.b.ins().splat(it, v)
            } else {
                v
            }
        };
        let bits = self.b.ins().bitcast(it, MemFlagsData::new(), x.v);
        let one = k(self, 1);
        let half = k(self, 0x7fff);
        let hi = k(self, 0xffff_0000u32 as i32 as i64);
        let quiet = k(self, 0x0040_0000);
        let kept = self.b.ins().ushr_imm_s(bits, 16);
        let lsb = self.b.ins().band(kept, one);
        let up = self.b.ins().iadd(bits, half);
        let up = self.b.ins().iadd(up, lsb);
        let rne = self.b.ins().band(up, hi);
        let nan = self.b.ins().bor(bits, quiet);
        let nan = self.b.ins().band(nan, hi);
        let is_nan = self.b.ins().fcmp(FloatCC::Unordered, x.v, x.v);
        let r = if it.is_vector() {
            let m = self.b.ins().bitcast(it, MemFlagsData::new(), is_nan);
            self.b.ins().bitselect(m, nan, rne)
        } else {
            self.b.ins().select(is_nan, nan, rne)
        };
        Val {
            v: self.b.ins().bitcast(ft, MemFlagsData::new(), r),
            t: x.t,
            lanes: x.lanes,
        }
    }

    /// |a| with the sign of b (bit operations: x64 has no vector fcopysign in Cranelift).
    pub fn copysign(&mut self, a: Value, b: Value, lanes: u32) -> Value {
        if lanes == 1 {
            return self.b.ins().fcopysign(a, b);
        }
        let ft = self.b.func.dfg.value_type(a);
        let it = ft.as_int();
        let bits = it.lane_bits() as i64;
        let ai = self.b.ins().bitcast(it, MemFlagsData::new(), a);
        let bi = self.b.ins().bitcast(it, MemFlagsData::new(), b);
        let sign = self.b.ins().iconst(
            it.lane_type(),
            if bits == 64 {
                i64::MIN
            } else {
                1 << (bits - 1)
            },
        );
        let sign = self.b.ins().splat(it, sign);
        let mag = self.b.ins().band_not(ai, sign);
        let sb = self.b.ins().band(bi, sign);
        let r = self.b.ins().bor(mag, sb);
        self.b.ins().bitcast(ft, MemFlagsData::new(), r)
    }

    /// An f64 scalar rounded once to f16/bf16 (held as f32).
    fn round_from_f64(&mut self, r: Value, t: PrimitiveType) -> R<Val> {
        if t.is_minifloat() {
            let v = self.call_helper(minifloat_helper(t, 2)?, &[r], F32)?;
            return Ok(Val { v, t, lanes: 1 });
        }
        let name = if t == PrimitiveType::F16 {
            "oxla_f64_round_f16"
        } else {
            "oxla_f64_round_bf16"
        };
        let v = self.call_helper(name, &[r], F32)?;
        Ok(Val { v, t, lanes: 1 })
    }

    pub fn select(&mut self, c: Val, a: Val, b: Val) -> R<Val> {
        let lanes = c.lanes.max(a.lanes).max(b.lanes);
        let a = self.splat(a, lanes)?;
        let b = self.splat(b, lanes)?;
        if c.lanes == 1 {
            return Ok(Val {
                v: self.b.ins().select(c.v, a.v, b.v),
                t: a.t,
                lanes,
            });
        }
        let vt = self.b.func.dfg.value_type(a.v);
        let ct = self.b.func.dfg.value_type(c.v);
        if vt.lane_bits() != ct.lane_bits() {
            return self.lanewise(&[c, a, b], &mut |em, x| em.select(x[0], x[1], x[2]));
        }
        let m = if vt == ct {
            c.v
        } else {
            self.b.ins().bitcast(vt, MemFlagsData::new(), c.v)
        };
        Ok(Val {
            v: self.b.ins().bitselect(m, a.v, b.v),
            t: a.t,
            lanes,
        })
    }

    /// rsqrt of four f32 lanes in f64 halves (two lanes per 128-bit vector), rounded once.
    fn rsqrt_f32x4(&mut self, x: Val) -> Val {
        use cranelift_codegen::ir::types::{F32X4, F64X2, I64X2};
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let b = &mut self.b;
        // Lanes 2 and 3 moved down to 0 and 1.
        let bits = b.ins().bitcast(I64X2, le, x.v);
        let hi64 = b.ins().extractlane(bits, 1);
        let hi = b.ins().scalar_to_vector(I64X2, hi64);
        let hi = b.ins().bitcast(F32X4, le, hi);
        let one = b.ins().f64const(1.0);
        let one = b.ins().splat(F64X2, one);
        let mut half = |v: Value| {
            let w = b.ins().fvpromote_low(v);
            let s = b.ins().sqrt(w);
            let r = b.ins().fdiv(one, s);
            let n = b.ins().fvdemote(r);
            b.ins().bitcast(I64X2, le, n)
        };
        let (lo, hi) = (half(x.v), half(hi));
        let hi64 = b.ins().extractlane(hi, 0);
        let both = b.ins().insertlane(lo, hi64, 1);
        let v = b.ins().bitcast(F32X4, le, both);
        Val { v, ..x }
    }

    pub fn unary(&mut self, op: UnaryOp, x: Val, out_t: PrimitiveType) -> R<Val> {
        use UnaryOp::*;
        let t = x.t;
        if t.is_complex() {
            return self.complex_unary(op, x, out_t);
        }
        let lanes = x.lanes;
        if op == Rsqrt && t == PrimitiveType::F32 {
            // 1/sqrt rounded twice in f32 is off by an ulp now and then; in f64 and rounded
            // once it is the interpreter's (oxla-elem's) value.
            if lanes == 4 {
                return Ok(self.rsqrt_f32x4(x));
            }
            return self.lanewise(&[x], &mut |e, a| {
                let w = e.b.ins().fpromote(F64, a[0].v);
                let s = e.b.ins().sqrt(w);
                let one = e.b.ins().f64const(1.0);
                let r = e.b.ins().fdiv(one, s);
                let v = e.b.ins().fdemote(F32, r);
                Ok(Val { v, ..a[0] })
            });
        }
        let b = &mut self.b;
        if t == PrimitiveType::Pred {
            return match op {
                Not => {
                    let v = if lanes == 1 {
                        b.ins().bxor_imm_s(x.v, 1)
                    } else {
                        b.ins().bnot(x.v)
                    };
                    Ok(Val { v, ..x })
                }
                _ => Err(unsup(format!("{} on pred", op.name()))),
            };
        }
        if t.is_float() {
            let v = match op {
                Abs => b.ins().fabs(x.v),
                Neg => b.ins().fneg(x.v),
                Sqrt => b.ins().sqrt(x.v),
                Ceil => b.ins().ceil(x.v),
                Floor => b.ins().floor(x.v),
                RoundNearestEven => b.ins().nearest(x.v),
                Real => x.v,
                Rsqrt => {
                    let one = self.constant(t, Scalar::Float(1.0), lanes)?;
                    let s = self.b.ins().sqrt(x.v);
                    self.b.ins().fdiv(one.v, s)
                }
                Sign => {
                    let one = self.constant(t, Scalar::Float(1.0), lanes)?;
                    let zero = self.constant(t, Scalar::Float(0.0), lanes)?;
                    // copysign(1, x), but x itself for ±0 and NaN.
                    let s = self.copysign(one.v, x.v, lanes);
                    let is_zero = self.b.ins().fcmp(FloatCC::Equal, x.v, zero.v);
                    let is_nan = self.b.ins().fcmp(FloatCC::Unordered, x.v, x.v);
                    let keep = self.b.ins().bor(is_zero, is_nan);
                    let keep = Val {
                        v: keep,
                        t: PrimitiveType::Pred,
                        lanes,
                    };
                    let sv = Val { v: s, t, lanes };
                    return self.select(keep, x, sv);
                }
                Imag => self.constant(t, Scalar::Float(0.0), lanes)?.v,
                IsFinite => {
                    let inf = self.constant(t, Scalar::Float(f64::INFINITY), lanes)?;
                    let a = self.b.ins().fabs(x.v);
                    let c = self.b.ins().fcmp(FloatCC::LessThan, a, inf.v);
                    return Ok(Val {
                        v: c,
                        t: PrimitiveType::Pred,
                        lanes,
                    });
                }
                // A scalar f32 (a loop's tail, a kernel of one lane) computes these as the
                // vector lanes do, in lane 0 of a vector: an element's result must not depend
                // on where it sits in the array.
                Exp | Tanh | Log | Logistic if lanes == 1 && t == PrimitiveType::F32 => {
                    let v = self.splat(x, 4)?;
                    let r = match op {
                        Exp => crate::math::exp_f32(self, v)?,
                        Tanh => crate::math::tanh_f32(self, v)?,
                        Log => crate::math::log_f32(self, v)?,
                        _ => crate::math::logistic_f32(self, v)?,
                    };
                    return Ok(self.lane(r, 0));
                }
                Exp if lanes > 1 && t == PrimitiveType::F32 => {
                    return crate::math::exp_f32(self, x)
                }
                Tanh if lanes > 1 && t == PrimitiveType::F32 => {
                    return crate::math::tanh_f32(self, x)
                }
                Log if lanes > 1 && t == PrimitiveType::F32 => {
                    return crate::math::log_f32(self, x)
                }
                Logistic if lanes > 1 && t == PrimitiveType::F32 => {
                    return crate::math::logistic_f32(self, x)
                }
                Not | PopCnt | Clz => return Err(unsup(format!("{} on {t}", op.name()))),
                Round | Cbrt | Erf | Logistic | Exp | Expm1 | Log | Log1p | Sin | Cos | Tan
                | Tanh => {
                    let unsupported = || unsup(format!("{} on {t}", op.name()));
                    let name = if t == PrimitiveType::F64 {
                        helpers::f64_kernel_unary(op)
                    } else {
                        helpers::float_unary(op, t)
                    }
                    .ok_or_else(unsupported)?;
                    let name64 =
                        helpers::float_unary(op, PrimitiveType::F64).ok_or_else(unsupported)?;
                    return self.lanewise(&[x], &mut |em, a| {
                        let a = a[0];
                        let v = match a.t {
                            PrimitiveType::F64 => em.call_helper(name, &[a.v], F64)?,
                            PrimitiveType::F32 => em.call_helper(name, &[a.v], F32)?,
                            _ => {
                                // f16/bf16: compute in f64 and round once, as the reference does.
                                let w = em.b.ins().fpromote(F64, a.v);
                                let r = em.call_helper(name64, &[w], F64)?;
                                return em.round_from_f64(r, a.t);
                            }
                        };
                        Ok(Val {
                            v,
                            t: a.t,
                            lanes: 1,
                        })
                    });
                }
            };
            let _ = out_t;
            return self.round_narrow(Val { v, t, lanes });
        }
        // Integers.
        let sub = sub_byte(t);
        let v = match op {
            Neg => b.ins().ineg(x.v),
            Not => b.ins().bnot(x.v),
            Abs if lanes == 1 || scalar_ty(t)? == I32 => b.ins().iabs(x.v),
            // Sub-byte values are sign-extended in their byte: count within their width.
            PopCnt if lanes == 1 && sub.is_some() => {
                let m = b.ins().band_imm_s(x.v, (1i64 << t.bit_width()) - 1);
                b.ins().popcnt(m)
            }
            Clz if lanes == 1 && sub.is_some() => {
                let m = b.ins().band_imm_s(x.v, (1i64 << t.bit_width()) - 1);
                let c = b.ins().clz(m);
                b.ins().iadd_imm_s(c, t.bit_width() as i64 - 8)
            }
            PopCnt if lanes == 1 => b.ins().popcnt(x.v),
            Clz if lanes == 1 => b.ins().clz(x.v),
            Sign if lanes == 1 => {
                let zero = b.ins().iconst(scalar_ty(t)?, 0);
                let one = b.ins().iconst(scalar_ty(t)?, 1);
                if is_unsigned(t) {
                    let nz = b.ins().icmp(IntCC::NotEqual, x.v, zero);
                    b.ins().select(nz, one, zero)
                } else {
                    let m1 = b.ins().iconst(scalar_ty(t)?, -1);
                    let pos = b.ins().icmp(IntCC::SignedGreaterThan, x.v, zero);
                    let neg = b.ins().icmp(IntCC::SignedLessThan, x.v, zero);
                    let s = b.ins().select(neg, m1, zero);
                    b.ins().select(pos, one, s)
                }
            }
            Abs | PopCnt | Clz | Sign => {
                return self.lanewise(&[x], &mut |em, a| em.unary(op, a[0], out_t));
            }
            _ => return Err(unsup(format!("{} on {t}", op.name()))),
        };
        let v = self.wrap_sub_byte(v, t);
        Ok(Val { v, t, lanes })
    }

    /// Re-normalizes a sub-byte integer held in a byte (sign- or zero-extends its low bits);
    /// other values pass through.
    fn wrap_sub_byte(&mut self, v: Value, t: PrimitiveType) -> Value {
        match sub_byte(t) {
            Some(w) if is_unsigned(t) => self.b.ins().band_imm_s(v, (1i64 << w) - 1),
            Some(w) => {
                let sh = self.b.ins().ishl_imm_s(v, 8 - w);
                self.b.ins().sshr_imm_s(sh, 8 - w)
            }
            None => v,
        }
    }

    pub fn binary(&mut self, op: BinaryOp, a: Val, b: Val) -> R<Val> {
        use BinaryOp::*;
        let lanes = a.lanes.max(b.lanes);
        let a = self.splat(a, lanes)?;
        let b = self.splat(b, lanes)?;
        let t = a.t;
        if op == Complex {
            // (re, im) floats -> complex of the matching width.
            let ct = if t == PrimitiveType::F32 {
                PrimitiveType::C64
            } else {
                PrimitiveType::C128
            };
            if lanes > 1 || !matches!(t, PrimitiveType::F32 | PrimitiveType::F64) {
                return Err(unsup(format!("complex from {t}")));
            }
            return Ok(self.complex_make(a.v, b.v, ct));
        }
        if t.is_complex() {
            return self.complex_binary(op, a, b);
        }
        if t == PrimitiveType::Pred {
            let v = match op {
                And | Mul | Min => self.b.ins().band(a.v, b.v),
                Or | Add | Max => self.b.ins().bor(a.v, b.v),
                Xor | Sub => self.b.ins().bxor(a.v, b.v),
                _ => return Err(unsup(format!("{} on pred", op.name()))),
            };
            return Ok(Val { v, t, lanes });
        }
        if t.is_float() {
            let v = match op {
                Add => self.b.ins().fadd(a.v, b.v),
                Sub => self.b.ins().fsub(a.v, b.v),
                Mul => self.b.ins().fmul(a.v, b.v),
                Div => self.b.ins().fdiv(a.v, b.v),
                Max | Min => {
                    // A NaN operand is the result itself (its sign and payload), as XLA's
                    // CPU backend and the interpreter give; fmax/fmin would make a new one.
                    let m = if op == Max {
                        self.b.ins().fmax(a.v, b.v)
                    } else {
                        self.b.ins().fmin(a.v, b.v)
                    };
                    let nan = |e: &mut Self, x: Val| Val {
                        v: e.b.ins().fcmp(FloatCC::Unordered, x.v, x.v),
                        t: PrimitiveType::Pred,
                        lanes,
                    };
                    let (an, bn) = (nan(self, a), nan(self, b));
                    let r = self.select(bn, b, Val { v: m, t, lanes })?;
                    return self.select(an, a, r);
                }
                Rem | Pow | Atan2 => {
                    let unsupported = || unsup(format!("{} on {t}", op.name()));
                    let name = helpers::float_binary(op, t).ok_or_else(unsupported)?;
                    let name64 =
                        helpers::float_binary(op, PrimitiveType::F64).ok_or_else(unsupported)?;
                    return self.lanewise(&[a, b], &mut |em, x| {
                        let v = match x[0].t {
                            PrimitiveType::F64 => em.call_helper(name, &[x[0].v, x[1].v], F64)?,
                            PrimitiveType::F32 => em.call_helper(name, &[x[0].v, x[1].v], F32)?,
                            // bf16 keeps a signaling NaN through its f32 (a shift, as
                            // XLA's), which `fpromote` would quiet: its power widens bit for
                            // bit (f16 and the 8-bit floats widen as F16C does, quieting).
                            PrimitiveType::BF16 if op == Pow => {
                                let r = em.call_helper(
                                    "oxla_pow_f32_bits_to_f64",
                                    &[x[0].v, x[1].v],
                                    F64,
                                )?;
                                return em.round_from_f64(r, PrimitiveType::BF16);
                            }
                            t => {
                                let a = em.b.ins().fpromote(F64, x[0].v);
                                let b = em.b.ins().fpromote(F64, x[1].v);
                                let r = em.call_helper(name64, &[a, b], F64)?;
                                return em.round_from_f64(r, t);
                            }
                        };
                        Ok(Val {
                            v,
                            t: x[0].t,
                            lanes: 1,
                        })
                    });
                }
                _ => return Err(unsup(format!("{} on {t}", op.name()))),
            };
            return self.round_narrow(Val { v, t, lanes });
        }
        let sty = scalar_ty(t)?;
        // The logical width (4 for s4, held in an i8).
        let bits = t.bit_width() as i64;
        let uns = is_unsigned(t);
        let vec64 = lanes > 1 && bits == 64;
        let v = match op {
            Add => self.b.ins().iadd(a.v, b.v),
            Sub => self.b.ins().isub(a.v, b.v),
            Mul if !vec64 => self.b.ins().imul(a.v, b.v),
            And => self.b.ins().band(a.v, b.v),
            Or => self.b.ins().bor(a.v, b.v),
            Xor => self.b.ins().bxor(a.v, b.v),
            Max if !vec64 => {
                if uns {
                    self.b.ins().umax(a.v, b.v)
                } else {
                    self.b.ins().smax(a.v, b.v)
                }
            }
            Min if !vec64 => {
                if uns {
                    self.b.ins().umin(a.v, b.v)
                } else {
                    self.b.ins().smin(a.v, b.v)
                }
            }
            ShiftLeft | ShiftRightLogical | ShiftRightArithmetic
                if lanes > 1 && self.splat_src.contains_key(&b.v) =>
            {
                // A uniform amount: one vector shift, with XLA's rule for amounts >= width.
                let amt = self.splat_src[&b.v];
                let w = self.b.ins().iconst(sty, bits);
                let big = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, amt, w);
                let vt = self.b.func.dfg.value_type(a.v);
                let zero_s = self.b.ins().iconst(sty, 0);
                let zero = self.b.ins().splat(vt, zero_s);
                match op {
                    ShiftLeft => {
                        let r = self.b.ins().ishl(a.v, amt);
                        self.b.ins().select(big, zero, r)
                    }
                    ShiftRightLogical => {
                        let r = self.b.ins().ushr(a.v, amt);
                        self.b.ins().select(big, zero, r)
                    }
                    _ => {
                        let m = self.b.ins().iconst(sty, bits - 1);
                        let amt = self.b.ins().select(big, m, amt);
                        self.b.ins().sshr(a.v, amt)
                    }
                }
            }
            Div | Rem
                if lanes == 4
                    && !uns
                    && bits == 32
                    && self.splat_const(b.v).is_some_and(|d| d >= 2) =>
            {
                let d = self.splat_const(b.v).unwrap_or(2);
                return Ok(Val {
                    v: self.div_const_i32x4(op, a.v, d as i32),
                    t,
                    lanes,
                });
            }
            _ if lanes > 1 => {
                return self.lanewise(&[a, b], &mut |em, x| em.binary(op, x[0], x[1]));
            }
            Div | Rem if !uns && bits == 32 && self.const_of(b.v).is_some_and(|d| d >= 2) => {
                // Signed division by a constant: multiply by a magic number (Granlund and
                // Montgomery) instead of a hardware divide.
                let d = self.const_of(b.v).unwrap_or(2);
                let (m, sh) = signed_magic_32(d as i32);
                let mv = self.b.ins().iconst(I32, m as i64);
                let hi = self.b.ins().smulhi(a.v, mv);
                let hi = if m < 0 {
                    self.b.ins().iadd(hi, a.v)
                } else {
                    hi
                };
                let q = self.b.ins().sshr_imm_s(hi, sh as i64);
                let sign = self.b.ins().ushr_imm_s(q, 31);
                let q = self.b.ins().iadd(q, sign);
                if op == Div {
                    q
                } else {
                    let qd = self.mul_imm(q, d);
                    self.b.ins().isub(a.v, qd)
                }
            }
            Div | Rem => {
                let zero = self.b.ins().iconst(sty, 0);
                let one = self.b.ins().iconst(sty, 1);
                let is_zero = self.b.ins().icmp(IntCC::Equal, b.v, zero);
                let overflow = if uns {
                    self.b.ins().iconst(I8, 0)
                } else {
                    let min = self.b.ins().iconst(sty, i64::MIN >> (64 - bits));
                    let m1 = self.b.ins().iconst(sty, -1);
                    let c1 = self.b.ins().icmp(IntCC::Equal, a.v, min);
                    let c2 = self.b.ins().icmp(IntCC::Equal, b.v, m1);
                    self.b.ins().band(c1, c2)
                };
                let bad = self.b.ins().bor(is_zero, overflow);
                let safe = self.b.ins().select(bad, one, b.v);
                if op == Div {
                    let q = if uns {
                        self.b.ins().udiv(a.v, safe)
                    } else {
                        self.b.ins().sdiv(a.v, safe)
                    };
                    // x / 0 = -1 (all ones); INT_MIN / -1 = INT_MIN (= a).
                    let m1 = self.b.ins().iconst(sty, -1);
                    let q = self.b.ins().select(overflow, a.v, q);
                    self.b.ins().select(is_zero, m1, q)
                } else {
                    let r = if uns {
                        self.b.ins().urem(a.v, safe)
                    } else {
                        self.b.ins().srem(a.v, safe)
                    };
                    // x % 0 = x; INT_MIN % -1 = 0.
                    let r = self.b.ins().select(overflow, zero, r);
                    self.b.ins().select(is_zero, a.v, r)
                }
            }
            ShiftLeft | ShiftRightLogical | ShiftRightArithmetic => {
                let w = self.b.ins().iconst(sty, bits);
                let big = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, b.v, w);
                let zero = self.b.ins().iconst(sty, 0);
                match op {
                    ShiftLeft => {
                        let s = self.b.ins().ishl(a.v, b.v);
                        self.b.ins().select(big, zero, s)
                    }
                    ShiftRightLogical => {
                        // A sub-byte value shifts as its own width's unsigned bits.
                        let av = match sub_byte(t) {
                            Some(w) => self.b.ins().band_imm_s(a.v, (1i64 << w) - 1),
                            None => a.v,
                        };
                        let s = self.b.ins().ushr(av, b.v);
                        self.b.ins().select(big, zero, s)
                    }
                    _ => {
                        let m = self.b.ins().iconst(sty, bits - 1);
                        let amt = self.b.ins().select(big, m, b.v);
                        // The value as a signed number of its own width.
                        let av = match sub_byte(t) {
                            Some(w) if uns => {
                                let sh = self.b.ins().ishl_imm_s(a.v, 8 - w);
                                self.b.ins().sshr_imm_s(sh, 8 - w)
                            }
                            _ => a.v,
                        };
                        self.b.ins().sshr(av, amt)
                    }
                }
            }
            Pow => {
                let x = self.widen_i64(a);
                let y = self.widen_i64(b);
                let name = if uns { "oxla_pow_u64" } else { "oxla_pow_s64" };
                let r = self.call_helper(name, &[x, y], I64)?;
                if bits == 64 {
                    r
                } else {
                    self.b.ins().ireduce(sty, r)
                }
            }
            Mul | Max | Min => return Err(Error::internal("vector integer op")),
            _ => return Err(unsup(format!("{} on {t}", op.name()))),
        };
        let v = self.wrap_sub_byte(v, t);
        Ok(Val { v, t, lanes })
    }

    /// The constant in every lane of `v` when it is a splatted integer constant.
    fn splat_const(&self, v: Value) -> Option<i64> {
        self.splat_src.get(&v).and_then(|&s| self.const_of(s))
    }

    /// Signed i32x4 division (or remainder) by a constant `d` >= 2: the scalar arm's magic
    /// multiply on all four lanes at once, the high halves of the products taken from two
    /// widening 32 x 32 -> 64-bit multiplies (`vpmullq` on sign-extended halves with
    /// AVX-512DQ), instead of extracting each lane, which made a hash with a remainder (the
    /// matmul benches' data generation) several times slower.
    fn div_const_i32x4(&mut self, op: BinaryOp, a: Value, d: i32) -> Value {
        use cranelift_codegen::ir::types::{I32X4, I8X16};
        use cranelift_codegen::ir::{ConstantData, Endianness};
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let (m, sh) = signed_magic_32(d);
        let b = &mut self.b;
        let splat = |b: &mut cranelift_frontend::FunctionBuilder, x: i32| {
            let s = b.ins().iconst(I32, x as u32 as i64);
            b.ins().splat(I32X4, s)
        };
        let mv = splat(b, m);
        let (al, ml) = (b.ins().swiden_low(a), b.ins().swiden_low(mv));
        let lo = b.ins().imul(al, ml);
        let (ah, mh) = (b.ins().swiden_high(a), b.ins().swiden_high(mv));
        let hi = b.ins().imul(ah, mh);
        let lo = b.ins().bitcast(I8X16, le, lo);
        let hi = b.ins().bitcast(I8X16, le, hi);
        // The odd 32-bit lanes of lo:hi (the products' high halves): one shufps.
        let mask: Vec<u8> = [1u8, 3, 5, 7]
            .iter()
            .flat_map(|&l| (0..4).map(move |i| l * 4 + i))
            .collect();
        let mask = b.func.dfg.immediates.push(ConstantData::from(mask));
        let prod = b.ins().shuffle(lo, hi, mask);
        let hi = b.ins().bitcast(I32X4, le, prod);
        let hi = if m < 0 { b.ins().iadd(hi, a) } else { hi };
        let (sh, s31) = (b.ins().iconst(I32, sh as i64), b.ins().iconst(I32, 31));
        let q = b.ins().sshr(hi, sh);
        let sign = b.ins().ushr(q, s31);
        let q = b.ins().iadd(q, sign);
        if op == BinaryOp::Div {
            return q;
        }
        let dv = splat(b, d);
        let qd = b.ins().imul(q, dv);
        b.ins().isub(a, qd)
    }

    /// The value of `v` when it is an integer constant.
    /// The value of an integer constant, sign-extended from its type's width (Cranelift
    /// keeps a narrow constant's immediate zero-extended: s32 -1 is 0xffffffff).
    fn const_of(&self, v: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        let bits = self.b.func.dfg.value_type(v).bits();
        match self.b.func.dfg.value_def(v) {
            ValueDef::Result(inst, _) => match self.b.func.dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    imm,
                } => {
                    let x = imm.bits();
                    Some(if (1..64).contains(&bits) {
                        (x << (64 - bits)) >> (64 - bits)
                    } else {
                        x
                    })
                }
                _ => None,
            },
            _ => None,
        }
    }

    pub fn compare(
        &mut self,
        dir: ComparisonDirection,
        ct: Option<ComparisonType>,
        a: Val,
        b: Val,
    ) -> R<Val> {
        use ComparisonDirection::*;
        let lanes = a.lanes.max(b.lanes);
        let a = self.splat(a, lanes)?;
        let b = self.splat(b, lanes)?;
        let t = a.t;
        if t.is_complex() {
            return self.complex_compare(dir, a, b);
        }
        let out = |v| Val {
            v,
            t: PrimitiveType::Pred,
            lanes,
        };
        if t.is_float() && ct != Some(ComparisonType::TotalOrder) {
            let cc = match dir {
                Eq => FloatCC::Equal,
                Ne => FloatCC::NotEqual,
                Lt => FloatCC::LessThan,
                Le => FloatCC::LessThanOrEqual,
                Gt => FloatCC::GreaterThan,
                Ge => FloatCC::GreaterThanOrEqual,
            };
            if lanes > 1 && t != PrimitiveType::F32 && t != PrimitiveType::F64 {
                return self.lanewise(&[a, b], &mut |em, x| em.compare(dir, ct, x[0], x[1]));
            }
            return Ok(out(self.b.ins().fcmp(cc, a.v, b.v)));
        }
        if t.is_float() {
            // Total order: compare the bit patterns mapped to signed integers.
            if lanes > 1 {
                return self.lanewise(&[a, b], &mut |em, x| em.compare(dir, ct, x[0], x[1]));
            }
            let it = if t == PrimitiveType::F64 { I64 } else { I32 };
            let key = |em: &mut Self, v: Value| {
                let i = em.b.ins().bitcast(it, MemFlagsData::new(), v);
                let s = em.b.ins().sshr_imm_s(i, it.bits() as i64 - 1);
                let m = em.b.ins().ushr_imm_s(s, 1);
                em.b.ins().bxor(i, m)
            };
            let ka = key(self, a.v);
            let kb = key(self, b.v);
            let cc = match dir {
                Eq => IntCC::Equal,
                Ne => IntCC::NotEqual,
                Lt => IntCC::SignedLessThan,
                Le => IntCC::SignedLessThanOrEqual,
                Gt => IntCC::SignedGreaterThan,
                Ge => IntCC::SignedGreaterThanOrEqual,
            };
            return Ok(out(self.b.ins().icmp(cc, ka, kb)));
        }
        let uns = is_unsigned(t) || ct == Some(ComparisonType::Unsigned);
        let uns = uns && ct != Some(ComparisonType::Signed);
        let cc = match (dir, uns) {
            (Eq, _) => IntCC::Equal,
            (Ne, _) => IntCC::NotEqual,
            (Lt, false) => IntCC::SignedLessThan,
            (Le, false) => IntCC::SignedLessThanOrEqual,
            (Gt, false) => IntCC::SignedGreaterThan,
            (Ge, false) => IntCC::SignedGreaterThanOrEqual,
            (Lt, true) => IntCC::UnsignedLessThan,
            (Le, true) => IntCC::UnsignedLessThanOrEqual,
            (Gt, true) => IntCC::UnsignedGreaterThan,
            (Ge, true) => IntCC::UnsignedGreaterThanOrEqual,
        };
        if lanes > 1
            && (t == PrimitiveType::Pred || scalar_ty(t)?.bits() == 64 && !matches!(dir, Eq | Ne))
        {
            return self.lanewise(&[a, b], &mut |em, x| em.compare(dir, ct, x[0], x[1]));
        }
        Ok(out(self.b.ins().icmp(cc, a.v, b.v)))
    }

    /// Element type conversion with XLA's rules (saturating float->int, NaN -> 0).
    pub fn convert(&mut self, x: Val, to: PrimitiveType) -> R<Val> {
        use PrimitiveType::{Pred, BF16, F16, S32, S64, U32, U64};
        let from = x.t;
        if from == to {
            return Ok(x);
        }
        if from.is_complex() || to.is_complex() {
            return self.complex_convert(x, to);
        }
        let lanes = x.lanes;
        let to_ty = scalar_ty(to)?;
        if lanes > 1 {
            // Vector fast paths; everything else lane by lane.
            let fast = match (from, to) {
                (S32, PrimitiveType::F32) => {
                    let ty = self.ty(PrimitiveType::F32, lanes)?;
                    Some(self.b.ins().fcvt_from_sint(ty, x.v))
                }
                (PrimitiveType::F32, S32) => {
                    let ty = self.ty(S32, lanes)?;
                    Some(self.b.ins().fcvt_to_sint_sat(ty, x.v))
                }
                (S32, U32) | (U32, S32) | (S64, U64) | (U64, S64) => Some(x.v),
                (Pred, PrimitiveType::F32) | (Pred, PrimitiveType::F64) => {
                    let one = self.constant(to, Scalar::Float(1.0), lanes)?;
                    let zero = self.constant(to, Scalar::Float(0.0), lanes)?;
                    return self.select(x, one, zero);
                }
                (Pred, S32) | (Pred, U32) | (Pred, S64) | (Pred, U64) => {
                    let vt = self.ty(to, lanes)?;
                    let one = self.constant(to, Scalar::Int(1), lanes)?;
                    let m = if self.b.func.dfg.value_type(x.v) == vt {
                        x.v
                    } else {
                        self.b.ins().bitcast(vt, MemFlagsData::new(), x.v)
                    };
                    Some(self.b.ins().band(m, one.v))
                }
                (PrimitiveType::F32, Pred) | (PrimitiveType::F64, Pred) => {
                    let zero = self.constant(from, Scalar::Float(0.0), lanes)?;
                    return self.compare(ComparisonDirection::Ne, None, x, zero);
                }
                (S32 | U32 | S64 | U64, Pred) => {
                    let zero = self.constant(from, Scalar::Int(0), lanes)?;
                    return self.compare(ComparisonDirection::Ne, None, x, zero);
                }
                _ => None,
            };
            if let Some(v) = fast {
                return Ok(Val { v, t: to, lanes });
            }
            return self.lanewise(&[x], &mut |em, a| em.convert(a[0], to));
        }
        let b = &mut self.b;
        let v = if to == Pred {
            if from.is_float() {
                let z = if scalar_ty(from)? == F64 {
                    b.ins().f64const(0.0)
                } else {
                    b.ins().f32const(0.0)
                };
                b.ins().fcmp(FloatCC::NotEqual, x.v, z)
            } else {
                b.ins().icmp_imm_s(IntCC::NotEqual, x.v, 0)
            }
        } else if from == Pred {
            if to.is_float() {
                let w = b.ins().uextend(I32, x.v);
                let f = b.ins().fcvt_from_uint(to_ty, w);
                f
            } else if to_ty == I8 {
                x.v
            } else {
                b.ins().uextend(to_ty, x.v)
            }
        } else if from.is_integer() && to.is_integer() {
            let fb = scalar_ty(from)?.bits();
            let tb = to_ty.bits();
            let v = if fb == tb {
                x.v
            } else if fb > tb {
                b.ins().ireduce(to_ty, x.v)
            } else if is_unsigned(from) {
                b.ins().uextend(to_ty, x.v)
            } else {
                b.ins().sextend(to_ty, x.v)
            };
            self.wrap_sub_byte(v, to)
        } else if from.is_integer() && to == BF16 && scalar_ty(from)?.bits() >= 32 {
            // Through f32 this rounds twice (to 24 bits, then to 8), which misses ties
            // (s64 -4494592424892432384 is 249.4999998 x 2^54: f32 makes it 249.5, bf16
            // then 250). Through f64 the value is exact (32-bit) or rounded to odd (64-bit),
            // so the one rounding to bf16 is the correct one.
            let uns = is_unsigned(from);
            let f = if scalar_ty(from)?.bits() == 64 {
                self.int64_to_f64_odd(x.v, uns)
            } else if uns {
                self.b.ins().fcvt_from_uint(F64, x.v)
            } else {
                self.b.ins().fcvt_from_sint(F64, x.v)
            };
            self.call_helper("oxla_f64_round_bf16", &[f], F32)?
        } else if from.is_integer() {
            // int -> float, rounding to nearest even.
            let fb = scalar_ty(from)?.bits();
            let src = if fb < 32 {
                if is_unsigned(from) {
                    b.ins().uextend(I32, x.v)
                } else {
                    b.ins().sextend(I32, x.v)
                }
            } else {
                x.v
            };
            let f = if is_unsigned(from) {
                b.ins().fcvt_from_uint(to_ty, src)
            } else {
                b.ins().fcvt_from_sint(to_ty, src)
            };
            return self.round_narrow(Val { v: f, t: to, lanes });
        } else if to.is_integer() {
            // float -> int: truncate, saturate, NaN -> 0.
            let tb = to_ty.bits();
            let uns = is_unsigned(to);
            if tb >= 32 {
                if uns {
                    b.ins().fcvt_to_uint_sat(to_ty, x.v)
                } else {
                    b.ins().fcvt_to_sint_sat(to_ty, x.v)
                }
            } else {
                let wide = b.ins().fcvt_to_sint_sat(I32, x.v);
                let (lo, hi) = oxla_hlo::literal::int_range(to);
                let lo = b.ins().iconst(I32, lo as i64);
                let hi = b.ins().iconst(I32, hi as i64);
                let c = b.ins().smax(wide, lo);
                let c = b.ins().smin(c, hi);
                b.ins().ireduce(to_ty, c)
            }
        } else {
            // float -> float.
            let fty = scalar_ty(from)?;
            match (fty == F64, to) {
                (true, PrimitiveType::F32) => b.ins().fdemote(F32, x.v),
                (false, PrimitiveType::F64) => b.ins().fpromote(F64, x.v),
                (false, PrimitiveType::F32) => x.v,
                (true, t) if t.is_minifloat() => return self.round_from_f64(x.v, t),
                (true, F16) => self.call_helper("oxla_f64_round_f16", &[x.v], F32)?,
                (true, BF16) => self.call_helper("oxla_f64_round_bf16", &[x.v], F32)?,
                (false, t) if is_narrow_float(t) => {
                    return self.round_narrow(Val {
                        v: x.v,
                        t: to,
                        lanes,
                    })
                }
                _ => return Err(unsup(format!("convert {from} -> {to}"))),
            }
        };
        Ok(Val { v, t: to, lanes })
    }

    /// A 64-bit integer as f64 rounded to odd: truncated toward zero, its last bit set when
    /// bits were lost. Rounding that to a format at least two bits narrower rounds once,
    /// as from the integer itself.
    fn int64_to_f64_odd(&mut self, x: Value, unsigned: bool) -> Value {
        let b = &mut self.b;
        let (f, back) = if unsigned {
            let f = b.ins().fcvt_from_uint(F64, x);
            (f, b.ins().fcvt_to_uint_sat(I64, f))
        } else {
            let f = b.ins().fcvt_from_sint(F64, x);
            (f, b.ins().fcvt_to_sint_sat(I64, f))
        };
        // Rounded away from zero: past x (2^63, or 2^64 unsigned, saturates back to the
        // largest integer, so that case is the bound itself; no negative f saturates).
        let bound = b.ins().f64const(if unsigned {
            18_446_744_073_709_551_616.0
        } else {
            9_223_372_036_854_775_808.0
        });
        let at_bound = b.ins().fcmp(FloatCC::GreaterThanOrEqual, f, bound);
        let past = if unsigned {
            b.ins().icmp(IntCC::UnsignedGreaterThan, back, x)
        } else {
            let above = b.ins().icmp(IntCC::SignedGreaterThan, back, x);
            let below = b.ins().icmp(IntCC::SignedLessThan, back, x);
            let neg = b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
            b.ins().select(neg, below, above)
        };
        let away = b.ins().bor(past, at_bound);
        let inexact = b.ins().icmp(IntCC::NotEqual, back, x);
        let inexact = b.ins().bor(inexact, at_bound);
        // One step toward zero is one less in the magnitude bits (f is not zero here).
        let bits = b.ins().bitcast(I64, MemFlagsData::new(), f);
        let away = b.ins().uextend(I64, away);
        let bits = b.ins().isub(bits, away);
        let odd = b.ins().uextend(I64, inexact);
        let bits = b.ins().bor(bits, odd);
        b.ins().bitcast(F64, MemFlagsData::new(), bits)
    }

    /// bitcast-convert: the bits of `x` as element type `t` (of the same width).
    pub(super) fn bitcast_convert(&mut self, x: Val, t: PrimitiveType) -> R<Val> {
        // Bytes as pred: any non-zero byte is true (a pred holds 0 or 1, as the interpreter
        // reads it; buffer assignment does not alias this case).
        if t == PrimitiveType::Pred && matches!(x.t, PrimitiveType::S8 | PrimitiveType::U8) {
            let zero = self.constant(x.t, Scalar::Int(0), x.lanes)?;
            return self.compare(ComparisonDirection::Ne, None, x, zero);
        }
        if x.t.bit_width() != t.bit_width()
            || x.t.is_complex()
            || t.is_complex()
            || matches!(
                x.t,
                PrimitiveType::F16 | PrimitiveType::BF16 | PrimitiveType::Pred
            )
            || matches!(
                t,
                PrimitiveType::F16 | PrimitiveType::BF16 | PrimitiveType::Pred
            )
        {
            return Err(unsup(format!(
                "bitcast-convert {} -> {} (different widths or 16-bit floats)",
                x.t, t
            )));
        }
        let ty = self.ty(t, x.lanes)?;
        let v = if self.b.func.dfg.value_type(x.v) == ty {
            x.v
        } else {
            self.b.ins().bitcast(ty, MemFlagsData::new(), x.v)
        };
        Ok(Val {
            v,
            t,
            lanes: x.lanes,
        })
    }

    /// reduce-precision: `x` rounded to a float with the given exponent and mantissa bits.
    pub(super) fn reduce_precision(
        &mut self,
        x: Val,
        exponent_bits: u32,
        mantissa_bits: u32,
    ) -> R<Val> {
        let (e, m) = (exponent_bits as i64, mantissa_bits as i64);
        self.lanewise(&[x], &mut |em, a| {
            let a = a[0];
            let wide = if a.t == PrimitiveType::F64 {
                a.v
            } else {
                em.b.ins().fpromote(F64, a.v)
            };
            let is64 = em.iconst((a.t == PrimitiveType::F64) as i64);
            let ev = em.iconst(e);
            let mv = em.iconst(m);
            let r = em.call_helper("oxla_reduce_precision", &[wide, is64, ev, mv], F64)?;
            let v = if a.t == PrimitiveType::F64 {
                r
            } else {
                em.b.ins().fdemote(F32, r)
            };
            let v = Val {
                v,
                t: a.t,
                lanes: 1,
            };
            em.round_narrow(v)
        })
    }
}

/// A minifloat type's helper: 0 to f32, 1 from f32, 2 f64 rounded once.
pub(super) fn minifloat_helper(t: PrimitiveType, which: usize) -> R<&'static str> {
    helpers::minifloat(t)
        .map(|h| h[which])
        .ok_or_else(|| Error::internal(format!("{t} is not a minifloat type")))
}

#[cfg(test)]
mod tests {
    use super::signed_magic_32;

    /// The instruction sequence the JIT emits, in Rust.
    fn div(n: i32, d: i32) -> i32 {
        let (m, s) = signed_magic_32(d);
        let mut q = ((n as i64 * m as i64) >> 32) as i32;
        if m < 0 {
            q = q.wrapping_add(n);
        }
        q >>= s;
        q.wrapping_add(((q as u32) >> 31) as i32)
    }

    #[test]
    fn magic_division_matches_hardware_division() {
        let mut ds: Vec<i32> = (2..2000).collect();
        ds.extend([
            7919,
            65_535,
            65_536,
            1 << 20,
            1_000_003,
            i32::MAX - 1,
            i32::MAX,
        ]);
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut ns: Vec<i32> = vec![0, 1, -1, i32::MIN, i32::MIN + 1, i32::MAX, i32::MAX - 1];
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ns.push(s as i32);
            ns.push((s >> 40) as i32 - (1 << 23));
        }
        for &d in &ds {
            for &n in &ns {
                assert_eq!(div(n, d), n / d, "{n} / {d}");
            }
            for n in -3 * d.min(100_000)..3 * d.min(100_000) {
                assert_eq!(div(n, d), n / d, "{n} / {d}");
            }
        }
    }
}
