//! Complex numbers in loop kernels. A c64 value is an F32X4 holding (re, im, 0, 0) and a
//! c128 value an F64X2 (re, im); kernels with complex values run one element per
//! iteration. Addition, subtraction, negation, real/imag, comparisons and conversions are
//! open-coded, and so are c64 multiplication and absolute value (in f64, the helpers' bits);
//! everything else calls the `oxla_elem` function the interpreter also uses (helpers.rs),
//! so results agree with the reference exactly.

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::types::{F32, F32X4, F64, F64X2, I64};
use cranelift_codegen::ir::{
    Endianness, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value,
};
use oxla_hlo::{BinaryOp, ComparisonDirection, Error, PrimitiveType, UnaryOp};

use crate::emit::{Emitter, Val, R};
use crate::helpers;

fn unsup(what: impl std::fmt::Display) -> Error {
    Error::unimplemented(format!("JIT: {what}"))
}

/// The float type of a complex type's components.
pub(crate) fn component(t: PrimitiveType) -> PrimitiveType {
    if t == PrimitiveType::C64 {
        PrimitiveType::F32
    } else {
        PrimitiveType::F64
    }
}

fn little() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl Emitter<'_, '_> {
    /// A complex value from its parts (each of the component type).
    pub(crate) fn complex_make(&mut self, re: Value, im: Value, t: PrimitiveType) -> Val {
        let vt = if t == PrimitiveType::C64 {
            F32X4
        } else {
            F64X2
        };
        let v = self.b.ins().splat(vt, re);
        let v = self.b.ins().insertlane(v, im, 1);
        Val { v, t, lanes: 1 }
    }

    pub(crate) fn complex_parts(&mut self, x: Val) -> (Value, Value) {
        let re = self.b.ins().extractlane(x.v, 0);
        let im = self.b.ins().extractlane(x.v, 1);
        (re, im)
    }

    pub(crate) fn complex_load(&mut self, f: MemFlagsData, t: PrimitiveType, addr: Value) -> Val {
        let v = if t == PrimitiveType::C64 {
            // 8 bytes: (re, im) become lanes 0 and 1.
            let bits = self.b.ins().load(F64, f, addr, 0);
            let wide = self.b.ins().scalar_to_vector(F64X2, bits);
            self.b.ins().bitcast(F32X4, little(), wide)
        } else {
            self.b.ins().load(F64X2, f, addr, 0)
        };
        Val { v, t, lanes: 1 }
    }

    pub(crate) fn complex_store(&mut self, x: Val, addr: Value) {
        let f = crate::emit::flags();
        if x.t == PrimitiveType::C64 {
            let wide = self.b.ins().bitcast(F64X2, little(), x.v);
            let bits = self.b.ins().extractlane(wide, 0);
            self.b.ins().store(f, bits, addr, 0);
        } else {
            self.b.ins().store(f, x.v, addr, 0);
        }
    }

    /// A 16-byte stack slot for a helper's (re, im) result.
    fn out_slot(&mut self) -> Value {
        let slot =
            self.b
                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3));
        self.b.ins().stack_addr(I64, slot, 0)
    }

    fn widen(&mut self, v: Value, t: PrimitiveType) -> Value {
        if component(t) == PrimitiveType::F32 {
            self.b.ins().fpromote(F64, v)
        } else {
            v
        }
    }

    fn narrow(&mut self, v: Value, to: PrimitiveType) -> Value {
        if to == PrimitiveType::F32 {
            self.b.ins().fdemote(F32, v)
        } else {
            v
        }
    }

    /// Reads a helper's result slot as a value of `out_t` (complex or real).
    fn complex_result(&mut self, slot: Value, out_t: PrimitiveType) -> R<Val> {
        let f = crate::emit::flags();
        let re = self.b.ins().load(F64, f, slot, 0);
        let im = self.b.ins().load(F64, f, slot, 8);
        if out_t.is_complex() {
            let c = component(out_t);
            let (re, im) = (self.narrow(re, c), self.narrow(im, c));
            Ok(self.complex_make(re, im, out_t))
        } else if out_t.is_float() {
            let v = self.narrow(re, out_t);
            Ok(Val {
                v,
                t: out_t,
                lanes: 1,
            })
        } else {
            Err(unsup(format!("complex op producing {out_t}")))
        }
    }

    pub(crate) fn complex_unary(&mut self, op: UnaryOp, x: Val, out_t: PrimitiveType) -> R<Val> {
        let t = x.t;
        match op {
            UnaryOp::Neg => {
                let v = self.b.ins().fneg(x.v);
                return Ok(Val { v, t, lanes: 1 });
            }
            UnaryOp::Real | UnaryOp::Imag => {
                let v = self.b.ins().extractlane(x.v, (op == UnaryOp::Imag) as u8);
                return Ok(Val {
                    v,
                    t: component(t),
                    lanes: 1,
                });
            }
            _ => {}
        }
        let (re, im) = self.complex_parts(x);
        let (re, im) = (self.widen(re, t), self.widen(im, t));
        if op == UnaryOp::Abs && t == PrimitiveType::C64 {
            return Ok(self.c64_abs(re, im));
        }
        let name =
            helpers::complex_unary(op).ok_or_else(|| unsup(format!("{} on {t}", op.name())))?;
        let slot = self.out_slot();
        self.call_helper_void(name, &[re, im, slot])?;
        self.complex_result(slot, out_t)
    }

    /// |c| of a c64 from its parts widened to f64: √(re² + im²) there (the squares exact,
    /// no overflow or underflow for f32 parts), +inf where a part is infinite (even beside
    /// a NaN, as hypot), rounded to f32. libm's hypot rounded to f32 gave the same bits on
    /// 2·10^8 random pairs with exponents up to 30 apart; the helper call cost 20 ns an
    /// element.
    fn c64_abs(&mut self, re: Value, im: Value) -> Val {
        let rr = self.b.ins().fmul(re, re);
        let ii = self.b.ins().fmul(im, im);
        let sum = self.b.ins().fadd(rr, ii);
        let root = self.b.ins().sqrt(sum);
        let inf = self.b.ins().f64const(f64::INFINITY);
        let (ar, ai) = (self.b.ins().fabs(re), self.b.ins().fabs(im));
        let re_inf = self.b.ins().fcmp(FloatCC::Equal, ar, inf);
        let im_inf = self.b.ins().fcmp(FloatCC::Equal, ai, inf);
        let any_inf = self.b.ins().bor(re_inf, im_inf);
        let v = self.b.ins().select(any_inf, inf, root);
        let v = self.b.ins().fdemote(F32, v);
        Val {
            v,
            t: PrimitiveType::F32,
            lanes: 1,
        }
    }

    pub(crate) fn complex_binary(&mut self, op: BinaryOp, a: Val, b: Val) -> R<Val> {
        let t = a.t;
        match op {
            BinaryOp::Add => {
                let v = self.b.ins().fadd(a.v, b.v);
                return Ok(Val { v, t, lanes: 1 });
            }
            BinaryOp::Sub => {
                let v = self.b.ins().fsub(a.v, b.v);
                return Ok(Val { v, t, lanes: 1 });
            }
            _ => {}
        }
        let (ar, ai) = self.complex_parts(a);
        let (br, bi) = self.complex_parts(b);
        let ar = self.widen(ar, t);
        let ai = self.widen(ai, t);
        let br = self.widen(br, t);
        let bi = self.widen(bi, t);
        if op == BinaryOp::Mul && t == PrimitiveType::C64 {
            // num-complex's product in f64, as the helper computes it: the f32 parts'
            // products are exact there, so each part is rounded once, then to f32.
            let (rr, ii) = (self.b.ins().fmul(ar, br), self.b.ins().fmul(ai, bi));
            let (ri, ir) = (self.b.ins().fmul(ar, bi), self.b.ins().fmul(ai, br));
            let re = self.b.ins().fsub(rr, ii);
            let im = self.b.ins().fadd(ri, ir);
            let (re, im) = (self.narrow(re, component(t)), self.narrow(im, component(t)));
            return Ok(self.complex_make(re, im, t));
        }
        let name =
            helpers::complex_binary(op).ok_or_else(|| unsup(format!("{} on {t}", op.name())))?;
        let slot = self.out_slot();
        self.call_helper_void(name, &[ar, ai, br, bi, slot])?;
        self.complex_result(slot, t)
    }

    pub(crate) fn complex_compare(&mut self, dir: ComparisonDirection, a: Val, b: Val) -> R<Val> {
        let (ar, ai) = self.complex_parts(a);
        let (br, bi) = self.complex_parts(b);
        let v = match dir {
            ComparisonDirection::Eq => {
                let r = self.b.ins().fcmp(FloatCC::Equal, ar, br);
                let i = self.b.ins().fcmp(FloatCC::Equal, ai, bi);
                self.b.ins().band(r, i)
            }
            ComparisonDirection::Ne => {
                let r = self.b.ins().fcmp(FloatCC::NotEqual, ar, br);
                let i = self.b.ins().fcmp(FloatCC::NotEqual, ai, bi);
                self.b.ins().bor(r, i)
            }
            d => return Err(unsup(format!("complex comparison {d:?}"))),
        };
        Ok(Val {
            v,
            t: PrimitiveType::Pred,
            lanes: 1,
        })
    }

    /// Conversions to, from and between complex types (to real: the real part).
    pub(crate) fn complex_convert(&mut self, x: Val, to: PrimitiveType) -> R<Val> {
        let from = x.t;
        if from.is_complex() && to.is_complex() {
            let (re, im) = self.complex_parts(x);
            let c = component(to);
            let re = self.convert(
                Val {
                    v: re,
                    t: component(from),
                    lanes: 1,
                },
                c,
            )?;
            let im = self.convert(
                Val {
                    v: im,
                    t: component(from),
                    lanes: 1,
                },
                c,
            )?;
            return Ok(self.complex_make(re.v, im.v, to));
        }
        if from.is_complex() {
            let re = self.b.ins().extractlane(x.v, 0);
            return self.convert(
                Val {
                    v: re,
                    t: component(from),
                    lanes: 1,
                },
                to,
            );
        }
        let c = component(to);
        let re = self.convert(x, c)?;
        let zero = if c == PrimitiveType::F32 {
            self.b.ins().f32const(0.0)
        } else {
            self.b.ins().f64const(0.0)
        };
        Ok(self.complex_make(re.v, zero, to))
    }
}
