//! Elemental emission: the value of an instruction at an index, as Cranelift IR.
//!
//! A kernel is a loop nest over its output; the innermost dimension advances `lanes`
//! elements at a time (F32X4, I32X4, F64X2 …) with a scalar tail. Each dimension of an index
//! is `base + lane * stride`, so broadcast, transpose, slice, reverse and most reshapes map an
//! index to their operand's without leaving vector form; what cannot (concatenate across
//! lanes, pad, integer division …) is evaluated lane by lane. Indices stay in bounds by
//! construction: dynamic offsets are clamped and every select-guarded read uses a clamped
//! index, so no kernel reads outside its buffers.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I16, I32, I64, I8};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};
use oxla_hlo::literal::Scalar;
use oxla_hlo::{
    BinaryOp, ComparisonDirection, ComparisonType, ComputationId, Error, HloComputation,
    HloInstruction, HloModule, InstrId, Literal, Op, PrimitiveType, Result, UnaryOp,
};

use crate::helpers;

pub(crate) type R<T> = Result<T>;

fn unsup(what: impl std::fmt::Display) -> Error {
    Error::unimplemented(format!("JIT: {what}"))
}

/// A value of element type `t` with `lanes` lanes (1 = scalar). Floats f16/bf16 are held
/// as f32 (already rounded to their type); pred is i8 0/1 as a scalar and an all-ones /
/// all-zeros mask of the kernel's lane width as a vector.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Val {
    pub v: Value,
    pub t: PrimitiveType,
    pub lanes: u32,
}

/// One dimension of an index: lane `l` is at `base + l * stride`.
pub(crate) type IdxDim = (Value, i64);

#[derive(Clone, Debug)]
pub(crate) struct Idx {
    pub d: Vec<IdxDim>,
    pub lanes: u32,
}

/// Where a computation's leaves come from.
pub(crate) enum Leaves {
    /// Instruction `i` (by index) reads input buffer `k`: pointer values per instruction.
    Buffers(Vec<Option<Value>>),
    /// Parameter `n` is bound to these values (inlined reducers, map bodies).
    Values(Vec<Val>),
}

pub(crate) struct Ctx<'m> {
    pub comp: &'m HloComputation,
    pub leaves: Leaves,
    /// Cache key namespace; `None` disables caching (inlined computations).
    pub cache_id: Option<usize>,
}

type Key = (usize, u32, Vec<IdxDim>, u32);

pub(crate) struct Emitter<'a, 'b> {
    pub b: FunctionBuilder<'b>,
    pub jm: &'a mut JITModule,
    pub helpers: &'a HashMap<&'static str, FuncId>,
    pub m: &'a HloModule,
    /// The kernel's vector width (1, 2 or 4).
    pub lanes: u32,
    cache: Vec<HashMap<Key, Vec<Val>>>,
    /// Array constants referenced by address from the code; owned by the compiled kernel.
    pub consts: &'a mut Vec<Box<[u8]>>,
    /// Vector values made by splatting a scalar, with that scalar (vector shifts take a
    /// scalar amount).
    splat_src: HashMap<Value, Value>,
}

pub(crate) fn flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f
}

/// The Cranelift type that holds one element of `t` while computing.
pub(crate) fn scalar_ty(t: PrimitiveType) -> R<Type> {
    use PrimitiveType as P;
    Ok(match t {
        // Sub-byte integers are held in a byte, normalized (sign- or zero-extended).
        P::Pred | P::S8 | P::U8 | P::S4 | P::U4 | P::S2 | P::U2 => I8,
        P::S16 | P::U16 => I16,
        P::S32 | P::U32 => I32,
        P::S64 | P::U64 => I64,
        // f16, bf16 and the minifloats compute in f32 (rounded to their type after each op).
        P::F16 | P::BF16 | P::F32 => F32,
        t if t.is_minifloat() => F32,
        // Complex values are vectors (re, im, ..); see complex.rs.
        P::C64 => types::F32X4,
        P::C128 => types::F64X2,
        P::F64 => F64,
        other => return Err(unsup(format!("element type {other} is not supported"))),
    })
}

/// Magic multiplier and shift for signed 32-bit division by `d` >= 2 (Hacker's Delight,
/// section 10-1): q = (mulhi(n, M) [+ n if M < 0]) >> s, plus one when negative.
pub(crate) fn signed_magic_32(d: i32) -> (i32, u32) {
    let two31: u32 = 0x8000_0000;
    let ad = d.unsigned_abs();
    let t = two31.wrapping_add((d as u32) >> 31);
    let anc = t - 1 - t % ad;
    let mut p = 31u32;
    let (mut q1, mut r1) = (two31 / anc, two31 - (two31 / anc) * anc);
    let (mut q2, mut r2) = (two31 / ad, two31 - (two31 / ad) * ad);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= ad {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(ad);
        }
        let delta = ad - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) || p >= 63 {
            break;
        }
    }
    (q2.wrapping_add(1) as i32, p - 32)
}

/// The width of a sub-byte integer type (held in an i8).
fn sub_byte(t: PrimitiveType) -> Option<i64> {
    (t.is_integer() && t.bit_width() < 8).then_some(t.bit_width() as i64)
}

/// Floats held in f32 but rounded to a narrower type after every operation.
fn is_narrow_float(t: PrimitiveType) -> bool {
    matches!(t, PrimitiveType::F16 | PrimitiveType::BF16) || t.is_minifloat()
}

fn is_unsigned(t: PrimitiveType) -> bool {
    t.is_unsigned_int() || t == PrimitiveType::Pred
}

impl<'a, 'b> Emitter<'a, 'b> {
    pub fn new(
        b: FunctionBuilder<'b>,
        jm: &'a mut JITModule,
        helpers: &'a HashMap<&'static str, FuncId>,
        m: &'a HloModule,
        lanes: u32,
        consts: &'a mut Vec<Box<[u8]>>,
    ) -> Self {
        Emitter {
            b,
            jm,
            helpers,
            m,
            lanes,
            cache: vec![HashMap::new()],
            consts,
            splat_src: HashMap::new(),
        }
    }

    // ---------------------------------------------------------------- types and constants

    /// The Cranelift type of a value of `t` with `lanes` lanes.
    pub fn ty(&self, t: PrimitiveType, lanes: u32) -> R<Type> {
        let s = scalar_ty(t)?;
        if lanes == 1 {
            return Ok(s);
        }
        if t == PrimitiveType::Pred {
            return Ok(if lanes == 4 {
                types::I32X4
            } else {
                types::I64X2
            });
        }
        s.by(lanes)
            .ok_or_else(|| Error::internal(format!("no {lanes}-lane vector of {t}")))
    }

    pub fn iconst(&mut self, v: i64) -> Value {
        self.b.ins().iconst(I64, v)
    }

    /// A constant of type `t` splatted to `lanes`.
    pub fn constant(&mut self, t: PrimitiveType, s: Scalar, lanes: u32) -> R<Val> {
        if t.is_complex() {
            let c = s.as_complex();
            let (re, im) = if t == PrimitiveType::C64 {
                (
                    self.b.ins().f32const(c.re as f32),
                    self.b.ins().f32const(c.im as f32),
                )
            } else {
                (self.b.ins().f64const(c.re), self.b.ins().f64const(c.im))
            };
            return Ok(self.complex_make(re, im, t));
        }
        let sty = scalar_ty(t)?;
        let v = if t == PrimitiveType::Pred {
            let on = s.is_true();
            if lanes > 1 {
                let lt = if lanes == 4 { I32 } else { I64 };
                let x = self.b.ins().iconst(lt, if on { -1 } else { 0 });
                let vt = self.ty(t, lanes)?;
                return Ok(Val {
                    v: self.b.ins().splat(vt, x),
                    t,
                    lanes,
                });
            }
            self.b.ins().iconst(I8, on as i64)
        } else if t.is_float() {
            let f = s.as_f64();
            if sty == F64 {
                self.b.ins().f64const(f)
            } else {
                self.b.ins().f32const(f as f32)
            }
        } else {
            let i = s.as_i128() as i64;
            self.b.ins().iconst(sty, i)
        };
        self.splat(Val { v, t, lanes: 1 }, lanes)
    }

    pub fn splat(&mut self, x: Val, lanes: u32) -> R<Val> {
        if lanes == x.lanes {
            return Ok(x);
        }
        if x.lanes != 1 {
            return Err(Error::internal("splat of a vector"));
        }
        let vt = self.ty(x.t, lanes)?;
        let s = if x.t == PrimitiveType::Pred {
            // 0/1 byte -> 0 / all-ones of the lane width.
            let lt = vt.lane_type();
            let w = self.b.ins().uextend(lt, x.v);
            self.b.ins().ineg(w)
        } else {
            x.v
        };
        let v = self.b.ins().splat(vt, s);
        if x.t != PrimitiveType::Pred {
            self.splat_src.insert(v, x.v);
        }
        Ok(Val { v, t: x.t, lanes })
    }

    /// Lane `l` of `x` as a scalar (pred masks become 0/1 bytes).
    pub fn lane(&mut self, x: Val, l: u32) -> Val {
        if x.lanes == 1 {
            return x;
        }
        // A splatted scalar is that scalar in every lane (keeps constants visible).
        if let Some(&src) = self.splat_src.get(&x.v) {
            return Val {
                v: src,
                t: x.t,
                lanes: 1,
            };
        }
        let s = self.b.ins().extractlane(x.v, l as u8);
        let v = if x.t == PrimitiveType::Pred {
            let one = self.b.ins().band_imm_s(s, 1);
            self.b.ins().ireduce(I8, one)
        } else {
            s
        };
        Val {
            v,
            t: x.t,
            lanes: 1,
        }
    }

    /// A vector from scalar lanes.
    pub fn gather_lanes(&mut self, xs: &[Val]) -> R<Val> {
        let lanes = xs.len() as u32;
        if lanes == 1 {
            return Ok(xs[0]);
        }
        let mut acc = self.splat(xs[0], lanes)?;
        for (l, x) in xs.iter().enumerate().skip(1) {
            let s = if x.t == PrimitiveType::Pred {
                let lt = self.ty(x.t, lanes)?.lane_type();
                let w = self.b.ins().uextend(lt, x.v);
                self.b.ins().ineg(w)
            } else {
                x.v
            };
            acc.v = self.b.ins().insertlane(acc.v, s, l as u8);
        }
        Ok(acc)
    }

    /// Applies a scalar function lane by lane.
    pub fn lanewise(
        &mut self,
        args: &[Val],
        f: &mut dyn FnMut(&mut Self, &[Val]) -> R<Val>,
    ) -> R<Val> {
        let lanes = args.iter().map(|a| a.lanes).max().unwrap_or(1);
        if lanes == 1 {
            return f(self, args);
        }
        let mut outs = Vec::with_capacity(lanes as usize);
        for l in 0..lanes {
            let scalars: Vec<Val> = args.iter().map(|&a| self.lane(a, l)).collect();
            outs.push(f(self, &scalars)?);
        }
        self.gather_lanes(&outs)
    }

    /// Calls a helper that returns nothing (it writes through a pointer argument).
    pub fn call_helper_void(&mut self, name: &str, args: &[Value]) -> R<()> {
        let id = *self
            .helpers
            .get(name)
            .ok_or_else(|| Error::internal(format!("no helper {name}")))?;
        let fref = self.jm.declare_func_in_func(id, self.b.func);
        self.b.ins().call(fref, args);
        Ok(())
    }

    pub fn call_helper(&mut self, name: &str, args: &[Value], ret: Type) -> R<Value> {
        let id = *self
            .helpers
            .get(name)
            .ok_or_else(|| Error::internal(format!("no helper {name}")))?;
        let fref = self.jm.declare_func_in_func(id, self.b.func);
        let call = self.b.ins().call(fref, args);
        let _ = ret;
        Ok(self.b.inst_results(call)[0])
    }

    // ---------------------------------------------------------------- memory

    /// Loads element `t` at element offset `off` (+ lane stride `ls`) from `ptr`.
    pub fn load(
        &mut self,
        t: PrimitiveType,
        ptr: Value,
        off: Value,
        ls: i64,
        lanes: u32,
    ) -> R<Val> {
        let size = t.byte_size() as i64;
        let boff = self.b.ins().imul_imm_s(off, size);
        let addr = self.b.ins().iadd(ptr, boff);
        if lanes == 1 {
            return self.load_scalar(t, addr);
        }
        if ls == 0 {
            let s = self.load_scalar(t, addr)?;
            return self.splat(s, lanes);
        }
        if ls == 1 && t != PrimitiveType::Pred {
            let vt = self.ty(t, lanes)?;
            let v = self.b.ins().load(vt, flags(), addr, 0);
            return Ok(Val { v, t, lanes });
        }
        let mut xs = Vec::new();
        for l in 0..lanes as i64 {
            let a = self.b.ins().iadd_imm_s(addr, l * ls * size);
            xs.push(self.load_scalar(t, a)?);
        }
        self.gather_lanes(&xs)
    }

    fn load_scalar(&mut self, t: PrimitiveType, addr: Value) -> R<Val> {
        use PrimitiveType::{Pred, BF16, F16};
        if t.is_complex() {
            return Ok(self.complex_load(t, addr));
        }
        let v = match t {
            F16 => {
                let h = self.b.ins().uload16(I32, flags(), addr, 0);
                self.call_helper("oxla_f16_to_f32", &[h], F32)?
            }
            BF16 => {
                let h = self.b.ins().uload16(I32, flags(), addr, 0);
                let w = self.b.ins().ishl_imm_s(h, 16);
                self.b.ins().bitcast(F32, MemFlagsData::new(), w)
            }
            Pred => {
                let x = self.b.ins().load(I8, flags(), addr, 0);
                // Any nonzero byte is true.
                self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0)
            }
            t if t.is_minifloat() => {
                let h = self.b.ins().uload8(I32, flags(), addr, 0);
                self.call_helper(minifloat_helper(t, 0)?, &[h], F32)?
            }
            _ => {
                let ty = scalar_ty(t)?;
                self.b.ins().load(ty, flags(), addr, 0)
            }
        };
        Ok(Val { v, t, lanes: 1 })
    }

    /// Stores `x` at element offset `off` (lanes contiguous).
    pub fn store(&mut self, x: Val, ptr: Value, off: Value) -> R<()> {
        let size = x.t.byte_size() as i64;
        let boff = self.b.ins().imul_imm_s(off, size);
        let addr = self.b.ins().iadd(ptr, boff);
        if x.lanes > 1 && x.t != PrimitiveType::Pred {
            self.b.ins().store(flags(), x.v, addr, 0);
            return Ok(());
        }
        for l in 0..x.lanes {
            let s = self.lane(x, l);
            let a = self.b.ins().iadd_imm_s(addr, l as i64 * size);
            self.store_scalar(s, a)?;
        }
        Ok(())
    }

    fn store_scalar(&mut self, x: Val, addr: Value) -> R<()> {
        use PrimitiveType::{BF16, F16};
        if x.t.is_complex() {
            self.complex_store(x, addr);
            return Ok(());
        }
        match x.t {
            F16 => {
                let h = self.call_helper("oxla_f32_to_f16", &[x.v], I32)?;
                self.b.ins().istore16(flags(), h, addr, 0);
            }
            BF16 => {
                let w = self.b.ins().bitcast(I32, MemFlagsData::new(), x.v);
                let h = self.b.ins().ushr_imm_s(w, 16);
                self.b.ins().istore16(flags(), h, addr, 0);
            }
            t if t.is_minifloat() => {
                let h = self.call_helper(minifloat_helper(t, 1)?, &[x.v], I32)?;
                self.b.ins().istore8(flags(), h, addr, 0);
            }
            _ => {
                self.b.ins().store(flags(), x.v, addr, 0);
            }
        }
        Ok(())
    }

    /// Element offset and lane stride of `idx` in a row-major array of `dims`.
    pub fn linear(&mut self, idx: &Idx, dims: &[i64]) -> (Value, i64) {
        let mut off: Option<Value> = None;
        let mut ls = 0i64;
        let mut stride = 1i64;
        for (k, &(base, s)) in idx.d.iter().enumerate().rev() {
            if k >= dims.len() {
                continue;
            }
            let term = if stride == 1 {
                base
            } else {
                self.b.ins().imul_imm_s(base, stride)
            };
            off = Some(match off {
                None => term,
                Some(o) => self.b.ins().iadd(o, term),
            });
            ls += s * stride;
            stride *= dims[k];
        }
        let off = off.unwrap_or_else(|| self.b.ins().iconst(I64, 0));
        (off, ls)
    }

    // ---------------------------------------------------------------- loops

    /// `for i in (start..limit).step_by(step)` where the body runs while `i < limit`.
    /// Returns the counter's value after the loop.
    pub fn for_loop(
        &mut self,
        start: Value,
        limit: Value,
        step: i64,
        body: &mut dyn FnMut(&mut Self, Value) -> R<()>,
    ) -> R<Value> {
        let var: Variable = self.b.declare_var(I64);
        self.b.def_var(var, start);
        let header = self.b.create_block();
        let body_blk = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(var);
        let c = self.b.ins().icmp(IntCC::SignedLessThan, i, limit);
        self.b.ins().brif(c, body_blk, &[], exit, &[]);
        self.b.switch_to_block(body_blk);
        self.b.seal_block(body_blk);
        self.cache.push(HashMap::new());
        let r = body(self, i);
        self.cache.pop();
        r?;
        let i = self.b.use_var(var);
        let next = self.b.ins().iadd_imm_s(i, step);
        self.b.def_var(var, next);
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        Ok(self.b.use_var(var))
    }

    // ---------------------------------------------------------------- emission

    /// The value(s) of instruction `id` of `ctx` at `idx` (several for tuple-valued
    /// reduces and tuples).
    pub fn emit(&mut self, ctx: &Ctx, id: InstrId, idx: &Idx) -> R<Vec<Val>> {
        let key = ctx.cache_id.map(|c| (c, id.0, idx.d.clone(), idx.lanes));
        if let Some(k) = &key {
            for level in self.cache.iter().rev() {
                if let Some(v) = level.get(k) {
                    return Ok(v.clone());
                }
            }
        }
        let ins = ctx.comp.instr(id);
        let vals = self
            .emit_uncached(ctx, id, idx)
            .map_err(|e| e.context(&ins.name))?;
        if let Some(k) = key {
            if let Some(top) = self.cache.last_mut() {
                top.insert(k, vals.clone());
            }
        }
        Ok(vals)
    }

    pub fn emit1(&mut self, ctx: &Ctx, id: InstrId, idx: &Idx) -> R<Val> {
        let v = self.emit(ctx, id, idx)?;
        v.into_iter()
            .next()
            .ok_or_else(|| Error::internal("value expected"))
    }

    fn same_idx(&mut self, ctx: &Ctx, ins: &HloInstruction, idx: &Idx) -> R<Vec<Val>> {
        let mut out = Vec::new();
        for &o in &ins.operands {
            out.push(self.emit1(ctx, o, idx)?);
        }
        Ok(out)
    }

    /// Evaluates `ins` one lane at a time (for index maps that leave vector form).
    fn per_lane(&mut self, ctx: &Ctx, id: InstrId, idx: &Idx) -> R<Vec<Val>> {
        let mut lanes_out: Vec<Vec<Val>> = Vec::new();
        for l in 0..idx.lanes as i64 {
            let d = idx
                .d
                .iter()
                .map(|&(b, s)| {
                    if s == 0 {
                        (b, 0)
                    } else {
                        (self.b.ins().iadd_imm_s(b, l * s), 0)
                    }
                })
                .collect();
            let sidx = Idx { d, lanes: 1 };
            lanes_out.push(self.emit_uncached(ctx, id, &sidx)?);
        }
        let n = lanes_out[0].len();
        let mut res = Vec::new();
        for k in 0..n {
            let xs: Vec<Val> = lanes_out.iter().map(|v| v[k]).collect();
            res.push(self.gather_lanes(&xs)?);
        }
        Ok(res)
    }

    fn scalar_operand(&mut self, ctx: &Ctx, id: InstrId) -> R<Value> {
        // Start indices: any integer type, read as a signed/unsigned i64.
        let v = self.emit1(
            ctx,
            id,
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        Ok(self.widen_i64(v))
    }

    pub fn widen_i64(&mut self, v: Val) -> Value {
        let ty = self.b.func.dfg.value_type(v.v);
        if ty == I64 {
            v.v
        } else if is_unsigned(v.t) {
            self.b.ins().uextend(I64, v.v)
        } else {
            self.b.ins().sextend(I64, v.v)
        }
    }

    fn clamp_i64(&mut self, v: Value, lo: i64, hi: i64) -> Value {
        let lo_v = self.b.ins().iconst(I64, lo);
        let hi_v = self.b.ins().iconst(I64, hi.max(lo));
        let a = self.b.ins().smax(v, lo_v);
        self.b.ins().smin(a, hi_v)
    }

    fn emit_uncached(&mut self, ctx: &Ctx, id: InstrId, idx: &Idx) -> R<Vec<Val>> {
        let ins = ctx.comp.instr(id);
        let id_index = id.index();
        // Leaves: buffers or bound values.
        match &ctx.leaves {
            Leaves::Buffers(ptrs) => {
                if let Some(Some(ptr)) = ptrs.get(id_index) {
                    let a = ins.shape.expect_array("kernel input")?.clone();
                    let (off, ls) = self.linear(idx, &a.dims);
                    return Ok(vec![self.load(a.element_type, *ptr, off, ls, idx.lanes)?]);
                }
            }
            Leaves::Values(vals) => {
                if let Op::Parameter { number } = ins.op {
                    let v = *vals
                        .get(number)
                        .ok_or_else(|| Error::internal("unbound parameter"))?;
                    return Ok(vec![self.splat(v, idx.lanes.max(v.lanes))?]);
                }
            }
        }
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let v = match &ins.op {
            Op::Parameter { .. } => return Err(Error::internal("parameter without a buffer")),
            Op::Constant(lit) => {
                if lit.shape().is_scalar() {
                    let s = lit.get(&[])?;
                    self.constant(t, s, lanes)?
                } else {
                    let ptr = self.const_buffer(lit)?;
                    let a = ins.shape.expect_array("constant")?.clone();
                    let (off, ls) = self.linear(idx, &a.dims);
                    self.load(t, ptr, off, ls, lanes)?
                }
            }
            Op::Iota { dimension } => {
                let (base, s) = idx.d[*dimension as usize];
                let mut xs = Vec::new();
                for l in 0..lanes as i64 {
                    let i = if l == 0 || s == 0 {
                        base
                    } else {
                        self.b.ins().iadd_imm_s(base, l * s)
                    };
                    let iv = Val {
                        v: i,
                        t: PrimitiveType::S64,
                        lanes: 1,
                    };
                    xs.push(self.convert(iv, t)?);
                }
                self.gather_lanes(&xs)?
            }
            Op::Unary(op) => {
                let x = self.emit1(ctx, ins.operands[0], idx)?;
                self.unary(*op, x, t)?
            }
            Op::Binary(op) => {
                let a = self.emit1(ctx, ins.operands[0], idx)?;
                let b = self.emit1(ctx, ins.operands[1], idx)?;
                self.binary(*op, a, b)?
            }
            Op::Compare {
                direction,
                comparison_type,
            } => {
                let a = self.emit1(ctx, ins.operands[0], idx)?;
                let b = self.emit1(ctx, ins.operands[1], idx)?;
                self.compare(*direction, *comparison_type, a, b)?
            }
            Op::Select => {
                let ops = self.same_idx(ctx, ins, idx)?;
                self.select(ops[0], ops[1], ops[2])?
            }
            Op::Clamp => {
                // min and max may be scalars for an array operand.
                let mut ops = Vec::new();
                for &o in &ins.operands {
                    let oi = if ctx.comp.instr(o).shape.rank() == 0 {
                        Idx { d: vec![], lanes }
                    } else {
                        idx.clone()
                    };
                    ops.push(self.emit1(ctx, o, &oi)?);
                }
                let lo = self.splat(ops[0], lanes).or(Ok::<Val, Error>(ops[0]))?;
                let hi = self.splat(ops[2], lanes).or(Ok::<Val, Error>(ops[2]))?;
                let a = self.binary(BinaryOp::Max, ops[1], lo)?;
                self.binary(BinaryOp::Min, a, hi)?
            }
            Op::Convert => {
                let x = self.emit1(ctx, ins.operands[0], idx)?;
                self.convert(x, t)?
            }
            Op::BitcastConvert => {
                let x = self.emit1(ctx, ins.operands[0], idx)?;
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
                Val {
                    v,
                    t,
                    lanes: x.lanes,
                }
            }
            Op::ReducePrecision {
                exponent_bits,
                mantissa_bits,
            } => {
                let x = self.emit1(ctx, ins.operands[0], idx)?;
                let (e, m) = (*exponent_bits as i64, *mantissa_bits as i64);
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
                })?
            }
            Op::Map { .. } => {
                let args = self.same_idx(ctx, ins, idx)?;
                let callee = *ins
                    .called
                    .first()
                    .ok_or_else(|| Error::internal("map without computation"))?;
                self.call_computation(callee, args)?[0]
            }
            Op::Copy | Op::OptimizationBarrier => self.emit1(ctx, ins.operands[0], idx)?,
            // The runtime compiles single-device modules only: replica and partition 0.
            Op::ReplicaId | Op::PartitionId => self.constant(t, Scalar::Int(0), lanes)?,
            // Static shapes: the size is the (bound of the) dimension.
            Op::GetDimensionSize { dimension } => {
                let n = ctx.comp.instr(ins.operands[0]).shape.dims()[*dimension as usize];
                self.constant(t, Scalar::Int(n as i128), lanes)?
            }
            // A fusion or call inside a computation being inlined (e.g. a reducer): inline it.
            Op::Fusion { .. } | Op::Call => {
                let args = self.same_idx(ctx, ins, idx)?;
                let callee = *ins
                    .called
                    .first()
                    .ok_or_else(|| Error::internal("fusion without computation"))?;
                return self.call_computation(callee, args);
            }
            Op::Broadcast { dimensions } => {
                // A size-1 operand dimension is stretched: it always reads index 0.
                let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
                let zero = self.iconst(0);
                let d = dimensions
                    .iter()
                    .zip(&od)
                    .map(|(&k, &n)| if n == 1 { (zero, 0) } else { idx.d[k as usize] })
                    .collect();
                self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
            }
            Op::Transpose { permutation } => {
                let mut d = vec![
                    (
                        idx.d.first().map(|x| x.0).unwrap_or_else(|| self.iconst(0)),
                        0
                    );
                    permutation.len()
                ];
                for (i, &p) in permutation.iter().enumerate() {
                    d[p as usize] = idx.d[i];
                }
                self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
            }
            Op::Reshape => {
                let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
                let rd = ins.shape.dims().to_vec();
                if od == rd {
                    self.emit1(ctx, ins.operands[0], idx)?
                } else {
                    let (lin, ls) = self.linear(idx, &rd);
                    let last_ok = idx
                        .d
                        .iter()
                        .take(idx.d.len().saturating_sub(1))
                        .all(|x| x.1 == 0)
                        && rd.last().is_some_and(|&r| r > 0)
                        && od.last().is_some_and(|&o| o % rd[rd.len() - 1] == 0);
                    if lanes > 1 && ls != 0 && !last_ok {
                        return self.per_lane(ctx, id, idx);
                    }
                    // Delinearize the base; lanes move along the operand's last dimension.
                    let mut d = vec![(lin, 0i64); od.len()];
                    let mut rem = lin;
                    for k in (0..od.len()).rev() {
                        let q = if k == 0 {
                            rem
                        } else {
                            self.b.ins().urem_imm_s(rem, od[k].max(1))
                        };
                        d[k] = (q, 0);
                        if k > 0 {
                            rem = self.b.ins().udiv_imm_s(rem, od[k].max(1));
                        }
                    }
                    if let Some(last) = d.last_mut() {
                        last.1 = ls;
                    }
                    self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
                }
            }
            Op::Reverse { dimensions } => {
                let od = ins.shape.dims().to_vec();
                let mut d = idx.d.clone();
                for &k in dimensions {
                    let k = k as usize;
                    let (b, s) = d[k];
                    let m = self.iconst(od[k] - 1);
                    d[k] = (self.b.ins().isub(m, b), -s);
                }
                self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
            }
            Op::Slice { start, strides, .. } => {
                let mut d = idx.d.clone();
                for k in 0..d.len() {
                    let (b, s) = d[k];
                    let scaled = if strides[k] == 1 {
                        b
                    } else {
                        self.b.ins().imul_imm_s(b, strides[k])
                    };
                    d[k] = (self.b.ins().iadd_imm_s(scaled, start[k]), s * strides[k]);
                }
                self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
            }
            Op::DynamicSlice { slice_sizes } => {
                let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
                let mut d = idx.d.clone();
                for k in 0..d.len() {
                    let s = self.scalar_operand(ctx, ins.operands[1 + k])?;
                    let s = self.clamp_i64(s, 0, od[k] - slice_sizes[k]);
                    d[k].0 = self.b.ins().iadd(d[k].0, s);
                }
                self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?
            }
            Op::DynamicUpdateSlice => {
                let od = ins.shape.dims().to_vec();
                let ud = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
                // Lanes along a dimension the update spans completely are all inside or all
                // outside it together.
                let partial_lanes = idx
                    .d
                    .iter()
                    .enumerate()
                    .any(|(k, &(_, s))| s != 0 && ud[k] != od[k]);
                if lanes > 1 && partial_lanes {
                    return self.per_lane(ctx, id, idx);
                }
                let mut inside: Option<Value> = None;
                let mut ui = Vec::new();
                for k in 0..od.len() {
                    let s = self.scalar_operand(ctx, ins.operands[2 + k])?;
                    let s = self.clamp_i64(s, 0, od[k] - ud[k]);
                    let rel = self.b.ins().isub(idx.d[k].0, s);
                    let lo_ok = self
                        .b
                        .ins()
                        .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, rel, 0);
                    let hi_ok = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, rel, ud[k]);
                    let ok = self.b.ins().band(lo_ok, hi_ok);
                    inside = Some(match inside {
                        None => ok,
                        Some(p) => self.b.ins().band(p, ok),
                    });
                    ui.push((self.clamp_i64(rel, 0, ud[k] - 1), idx.d[k].1));
                }
                let base = self.emit1(ctx, ins.operands[0], idx)?;
                if ud.contains(&0) {
                    base
                } else {
                    let upd = self.emit1(ctx, ins.operands[1], &Idx { d: ui, lanes })?;
                    let c = inside.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
                    Val {
                        v: self.b.ins().select(c, upd.v, base.v),
                        t,
                        lanes,
                    }
                }
            }
            Op::Concatenate { dimension } => {
                let k = *dimension as usize;
                // Lanes along the concatenated dimension stay in one operand when every
                // operand size is a multiple of the lane count and the lanes start aligned
                // (inner loops start at 0 and step by the lane count).
                let aligned = idx.d[k].1 == 1
                    && k > 0
                    && ins
                        .operands
                        .iter()
                        .all(|&o| ctx.comp.instr(o).shape.dims()[k] % lanes as i64 == 0);
                if lanes > 1 && idx.d[k].1 != 0 && !aligned {
                    return self.per_lane(ctx, id, idx);
                }
                // Branch to the one operand that holds this element: evaluating every
                // operand and selecting would cost as many times the work as there are
                // operands.
                let parts: Vec<(InstrId, i64, i64)> = {
                    let mut off = 0i64;
                    let mut v = Vec::new();
                    for &o in &ins.operands {
                        let size = ctx.comp.instr(o).shape.dims()[k];
                        if size > 0 {
                            v.push((o, off, size));
                        }
                        off += size;
                    }
                    v
                };
                if parts.is_empty() {
                    return Err(Error::internal("empty concatenate"));
                }
                let vty = self.ty(t, lanes)?;
                let merge = self.b.create_block();
                let result = self.b.append_block_param(merge, vty);
                let base = idx.d[k].0;
                for (n, &(o, off, size)) in parts.iter().enumerate() {
                    let last = n + 1 == parts.len();
                    let here = self.b.create_block();
                    let next = if last {
                        None
                    } else {
                        Some(self.b.create_block())
                    };
                    match next {
                        Some(nb) => {
                            let c =
                                self.b
                                    .ins()
                                    .icmp_imm_s(IntCC::SignedLessThan, base, off + size);
                            self.b.ins().brif(c, here, &[], nb, &[]);
                        }
                        None => {
                            self.b.ins().jump(here, &[]);
                        }
                    }
                    self.b.switch_to_block(here);
                    self.b.seal_block(here);
                    let mut d = idx.d.clone();
                    let rel = self.b.ins().iadd_imm_s(base, -off);
                    d[k].0 = self.clamp_i64(rel, 0, size - 1);
                    self.cache.push(HashMap::new());
                    let v = self.emit1(ctx, o, &Idx { d, lanes });
                    self.cache.pop();
                    let v = self.splat(v?, lanes)?;
                    self.b
                        .ins()
                        .jump(merge, &[cranelift_codegen::ir::BlockArg::Value(v.v)]);
                    if let Some(nb) = next {
                        self.b.switch_to_block(nb);
                        self.b.seal_block(nb);
                    }
                }
                self.b.switch_to_block(merge);
                self.b.seal_block(merge);
                Val {
                    v: result,
                    t,
                    lanes,
                }
            }
            Op::Pad(cfg) => {
                // Lanes may run along dimensions that are not padded.
                let padded_lanes = cfg.dimensions.iter().zip(&idx.d).any(|(p, &(_, s))| {
                    s != 0
                        && (p.edge_padding_low != 0
                            || p.edge_padding_high != 0
                            || p.interior_padding != 0)
                });
                if lanes > 1 && padded_lanes {
                    return self.per_lane(ctx, id, idx);
                }
                let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
                let mut valid: Option<Value> = None;
                let mut d = Vec::new();
                for (k, p) in cfg.dimensions.iter().enumerate() {
                    let step = p.interior_padding + 1;
                    let rel = self.b.ins().iadd_imm_s(idx.d[k].0, -p.edge_padding_low);
                    let relc = self.clamp_i64(rel, 0, i64::MAX / 2);
                    let q = self.b.ins().udiv_imm_s(relc, step);
                    let r = self.b.ins().urem_imm_s(relc, step);
                    let c1 = self
                        .b
                        .ins()
                        .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, rel, 0);
                    let c2 = self.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
                    let c3 = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, q, od[k]);
                    let c = self.b.ins().band(c1, c2);
                    let c = self.b.ins().band(c, c3);
                    valid = Some(match valid {
                        None => c,
                        Some(v) => self.b.ins().band(v, c),
                    });
                    d.push((self.clamp_i64(q, 0, od[k] - 1), idx.d[k].1));
                }
                let pv = self.emit1(ctx, ins.operands[1], &Idx { d: vec![], lanes })?;
                if od.contains(&0) {
                    pv
                } else {
                    let x = self.emit1(ctx, ins.operands[0], &Idx { d, lanes })?;
                    let c = valid.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
                    Val {
                        v: self.b.ins().select(c, x.v, pv.v),
                        t,
                        lanes,
                    }
                }
            }
            Op::GetTupleElement { index } => {
                let vals = self.emit(ctx, ins.operands[0], idx)?;
                return vals
                    .get(*index)
                    .copied()
                    .map(|v| vec![v])
                    .ok_or_else(|| Error::internal("tuple index"));
            }
            Op::Tuple => {
                let mut out = Vec::new();
                for &o in &ins.operands {
                    out.extend(self.emit(ctx, o, idx)?);
                }
                return Ok(out);
            }
            Op::Gather {
                dnums, slice_sizes, ..
            } => {
                let out_rank = ins.shape.rank();
                let batch_out: Vec<usize> = (0..out_rank)
                    .filter(|d| !dnums.offset_dims.contains(&(*d as i64)))
                    .collect();
                // Lanes may only run along offset dimensions (the start indices are then
                // the same for every lane).
                if lanes > 1 && batch_out.iter().any(|&d| idx.d[d].1 != 0) {
                    return self.per_lane(ctx, id, idx);
                }
                let xd = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
                let id_dims = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
                let ivd = dnums.index_vector_dim as usize;
                let idx_batch_dims: Vec<usize> = (0..id_dims.len()).filter(|&d| d != ivd).collect();
                let zero = self.iconst(0);
                let mut start = vec![zero; xd.len()];
                // The index vector of this output position.
                let mut ipos: Vec<IdxDim> = Vec::new();
                let mut b = batch_out.iter();
                for k in 0..id_dims.len() {
                    if k == ivd {
                        ipos.push((zero, 0));
                    } else {
                        let d = b.next().map(|&d| idx.d[d].0).unwrap_or(zero);
                        ipos.push((d, 0));
                    }
                }
                for (k, &od) in dnums.start_index_map.iter().enumerate() {
                    let mut p = ipos.clone();
                    if ivd < id_dims.len() {
                        p[ivd] = (self.iconst(k as i64), 0);
                    }
                    let v = self.emit1(ctx, ins.operands[1], &Idx { d: p, lanes: 1 })?;
                    start[od as usize] = self.widen_i64(v);
                }
                for (k, &ob) in dnums.operand_batching_dims.iter().enumerate() {
                    let ib = dnums.start_indices_batching_dims[k] as usize;
                    let pos = idx_batch_dims.iter().position(|&d| d == ib).unwrap_or(0);
                    if let Some(&bd) = batch_out.get(pos) {
                        start[ob as usize] = idx.d[bd].0;
                    }
                }
                let offset_operand: Vec<usize> = (0..xd.len())
                    .filter(|d| {
                        !dnums.collapsed_slice_dims.contains(&(*d as i64))
                            && !dnums.operand_batching_dims.contains(&(*d as i64))
                    })
                    .collect();
                let mut src: Vec<IdxDim> = Vec::with_capacity(xd.len());
                for d in 0..xd.len() {
                    let s = self.clamp_i64(start[d], 0, (xd[d] - slice_sizes[d]).max(0));
                    src.push((s, 0));
                }
                for (k, &od) in dnums.offset_dims.iter().enumerate() {
                    let (ob, os) = idx.d[od as usize];
                    let d = offset_operand[k];
                    src[d] = (self.b.ins().iadd(src[d].0, ob), os);
                }
                self.emit1(ctx, ins.operands[0], &Idx { d: src, lanes })?
            }
            Op::UniformQuantize { params, from } => {
                if lanes > 1 {
                    return self.per_lane(ctx, id, idx);
                }
                let x = self.emit1(ctx, ins.operands[0], idx)?;
                let xf = self.convert(x, PrimitiveType::F64)?.v;
                let real = match from {
                    None => xf,
                    Some(f) => {
                        let (sc, zp) = self.quant_params(f, idx)?;
                        let d = self.b.ins().fsub(xf, zp);
                        self.b.ins().fmul(d, sc)
                    }
                };
                let et = params.expressed_type;
                let real = self.round_to_type(real, et)?;
                let (sc, zp) = self.quant_params(params, idx)?;
                let q = self.b.ins().fdiv(real, sc);
                let q = self.round_to_type(q, et)?;
                let q = self.b.ins().nearest(q);
                let q = self.b.ins().fadd(q, zp);
                let lo = self.b.ins().f64const(params.storage_min as f64);
                let hi = self.b.ins().f64const(params.storage_max as f64);
                let q = self.b.ins().fmax(q, lo);
                let q = self.b.ins().fmin(q, hi);
                self.convert(
                    Val {
                        v: q,
                        t: PrimitiveType::F64,
                        lanes: 1,
                    },
                    params.storage_type,
                )?
            }
            Op::UniformDequantize { params } => {
                if lanes > 1 {
                    return self.per_lane(ctx, id, idx);
                }
                let x = self.emit1(ctx, ins.operands[0], idx)?;
                let xf = self.convert(x, PrimitiveType::F64)?.v;
                let (sc, zp) = self.quant_params(params, idx)?;
                let d = self.b.ins().fsub(xf, zp);
                let v = self.b.ins().fmul(d, sc);
                self.convert(
                    Val {
                        v,
                        t: PrimitiveType::F64,
                        lanes: 1,
                    },
                    params.expressed_type,
                )?
            }
            Op::Reduce { dimensions } => return self.emit_reduce(ctx, ins, dimensions, idx),
            Op::ReduceWindow(w) => {
                if lanes > 1 {
                    return self.per_lane(ctx, id, idx);
                }
                return self.emit_reduce_window(ctx, ins, w, idx);
            }
            Op::Dot { dnums, .. } => return self.emit_dot(ctx, ins, dnums, idx),
            Op::Convolution {
                window,
                dnums,
                feature_group_count,
                batch_group_count,
                ..
            } => {
                let of = dnums.output_feature_dimension as usize;
                let grouped = *feature_group_count > 1 || *batch_group_count > 1;
                let lane_ok = idx
                    .d
                    .iter()
                    .enumerate()
                    .all(|(k, &(_, s))| s == 0 || (k == of && !grouped));
                if lanes > 1 && !lane_ok {
                    return self.per_lane(ctx, id, idx);
                }
                return self.emit_conv(
                    ctx,
                    ins,
                    window,
                    dnums,
                    *feature_group_count,
                    *batch_group_count,
                    idx,
                );
            }
            // Scatter is a schedule of its own (lib.rs); the rest are runtime steps or not
            // on the compiled path: none is a value at an index of a loop nest.
            other @ (Op::Scatter { .. }
            | Op::SetDimensionSize { .. }
            | Op::AfterAll
            | Op::SelectAndScatter { .. }
            | Op::Fft { .. }
            | Op::TriangularSolve { .. }
            | Op::Cholesky { .. }
            | Op::BatchNormTraining { .. }
            | Op::BatchNormInference { .. }
            | Op::BatchNormGrad { .. }
            | Op::TopK { .. }
            | Op::Sort { .. }
            | Op::While
            | Op::Conditional
            | Op::CompositeCall { .. }
            | Op::CustomCall { .. }
            | Op::Rng { .. }
            | Op::RngBitGenerator { .. }
            | Op::Infeed { .. }
            | Op::Outfeed { .. }
            | Op::Send { .. }
            | Op::SendDone { .. }
            | Op::Recv { .. }
            | Op::RecvDone { .. }
            | Op::AllGather { .. }
            | Op::AllReduce { .. }
            | Op::ReduceScatter { .. }
            | Op::AllToAll { .. }
            | Op::CollectivePermute { .. }
            | Op::CollectiveBroadcast { .. }
            | Op::CollectiveReduce { .. }) => {
                return Err(unsup(format!(
                    "op {} is not supported in a loop kernel",
                    op_name(other)
                )))
            }
        };
        Ok(vec![v])
    }

    /// (scale, zero point) as f64 for the element at `idx` (per-axis parameters are looked
    /// up by the index along the quantized dimension).
    fn quant_params(&mut self, p: &oxla_hlo::QuantParams, idx: &Idx) -> R<(Value, Value)> {
        let per_axis = p.quantized_dimension.filter(|_| p.scales.len() > 1);
        match per_axis {
            Some(d) => {
                let k = idx
                    .d
                    .get(d as usize)
                    .map(|x| x.0)
                    .ok_or_else(|| Error::internal("quantized dimension"))?;
                let k = self.clamp_i64(k, 0, p.scales.len() as i64 - 1);
                let scales = self.const_buffer(&Literal::vec1(&p.scales))?;
                let zps: Vec<f64> = p.zero_points.iter().map(|&z| z as f64).collect();
                let zps = self.const_buffer(&Literal::vec1(&zps))?;
                let sc = self.load(PrimitiveType::F64, scales, k, 0, 1)?.v;
                let zp = self.load(PrimitiveType::F64, zps, k, 0, 1)?.v;
                Ok((sc, zp))
            }
            None => {
                let sc = p.scales.first().copied().unwrap_or(1.0);
                let zp = p.zero_points.first().copied().unwrap_or(0) as f64;
                Ok((self.b.ins().f64const(sc), self.b.ins().f64const(zp)))
            }
        }
    }

    /// An f64 value rounded to float type `t` and widened back (the precision at which
    /// quantization divides).
    fn round_to_type(&mut self, v: Value, t: PrimitiveType) -> R<Value> {
        let x = Val {
            v,
            t: PrimitiveType::F64,
            lanes: 1,
        };
        let r = self.convert(x, t)?;
        Ok(self.convert(r, PrimitiveType::F64)?.v)
    }

    fn const_buffer(&mut self, lit: &Literal) -> R<Value> {
        let bytes = lit.to_le_bytes().into_boxed_slice();
        let addr = bytes.as_ptr() as i64;
        self.consts.push(bytes);
        Ok(self.iconst(addr))
    }

    /// Inlines computation `c` with its parameters bound to `args`.
    pub fn call_computation(&mut self, c: ComputationId, args: Vec<Val>) -> R<Vec<Val>> {
        let m = self.m;
        let comp = m.computation(c);
        let lanes = args.iter().map(|a| a.lanes).max().unwrap_or(1);
        let ctx = Ctx {
            comp,
            leaves: Leaves::Values(args),
            cache_id: None,
        };
        self.emit(&ctx, comp.root, &Idx { d: vec![], lanes })
    }

    // ---------------------------------------------------------------- reductions

    /// A reducer that is one commutative binary op of its two parameters (vectorizable).
    pub fn simple_reducer(&self, c: ComputationId) -> Option<BinaryOp> {
        let comp = self.m.computation(c);
        if comp.parameters.len() != 2 {
            return None;
        }
        let root = comp.root_instr();
        match root.op {
            Op::Binary(
                op @ (BinaryOp::Add
                | BinaryOp::Mul
                | BinaryOp::Max
                | BinaryOp::Min
                | BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Xor),
            ) => {
                let ps: Vec<_> = root.operands.iter().map(|&o| &comp.instr(o).op).collect();
                let is_p = |o: &Op, n| matches!(o, Op::Parameter { number } if *number == n);
                ((is_p(ps[0], 0) && is_p(ps[1], 1)) || (is_p(ps[0], 1) && is_p(ps[1], 0)))
                    .then_some(op)
            }
            _ => None,
        }
    }

    fn identity(&mut self, op: BinaryOp, t: PrimitiveType, lanes: u32) -> R<Val> {
        use BinaryOp::*;
        let s = match (op, t.is_float()) {
            (Add | Or | Xor, _) => Scalar::Int(0),
            (Mul, _) => Scalar::Int(1),
            (And, _) => Scalar::Int(-1),
            (Max, true) => Scalar::Float(f64::NEG_INFINITY),
            (Min, true) => Scalar::Float(f64::INFINITY),
            (Max, false) => Scalar::Int(oxla_hlo::literal::int_range(t).0),
            (Min, false) => Scalar::Int(oxla_hlo::literal::int_range(t).1),
            _ => return Err(Error::internal("identity")),
        };
        let s = match (s, t.is_float()) {
            (Scalar::Int(i), true) => Scalar::Float(i as f64),
            (s, _) => s,
        };
        let s = if t == PrimitiveType::Pred {
            Scalar::Pred(s.as_i128() != 0)
        } else {
            s
        };
        self.constant(t, s, lanes)
    }

    fn emit_reduce(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        dims: &[i64],
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let n = ins.operands.len() / 2;
        let lanes = idx.lanes;
        let in_dims = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let reducer = *ins
            .called
            .first()
            .ok_or_else(|| Error::internal("reduce without computation"))?;
        let mut inits = Vec::new();
        for k in 0..n {
            let v = self.emit1(
                ctx,
                ins.operands[n + k],
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?;
            inits.push(self.splat(v, lanes)?);
        }
        // Operand index: kept dims from idx, reduced dims from loop counters.
        let mut kept = Vec::new();
        let mut ki = 0;
        for k in 0..in_dims.len() {
            if dims.contains(&(k as i64)) {
                kept.push(None);
            } else {
                kept.push(Some(idx.d[ki]));
                ki += 1;
            }
        }
        let mut red: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
        red.sort_unstable();
        if red.iter().any(|&d| in_dims[d] == 0) {
            return Ok(inits);
        }
        let vars: Vec<Variable> = inits
            .iter()
            .map(|v| {
                let ty = self.b.func.dfg.value_type(v.v);
                let var = self.b.declare_var(ty);
                self.b.def_var(var, v.v);
                var
            })
            .collect();
        let types: Vec<PrimitiveType> = inits.iter().map(|v| v.t).collect();
        let last = in_dims.len().wrapping_sub(1);
        let simple = self.simple_reducer(reducer);
        let vec_inner = lanes == 1
            && self.lanes > 1
            && n == 1
            && simple.is_some()
            && red.last() == Some(&last)
            && in_dims[last] >= self.lanes as i64;
        let ops: Vec<InstrId> = ins.operands[..n].to_vec();
        let outer = if vec_inner {
            &red[..red.len() - 1]
        } else {
            &red[..]
        };
        let mut counters: Vec<Value> = Vec::new();
        self.reduce_loops(
            ctx,
            &ops,
            &kept,
            &in_dims,
            outer,
            &mut counters,
            &vars,
            &types,
            reducer,
            lanes,
            if vec_inner { simple } else { None },
        )?;
        Ok(vars
            .iter()
            .zip(&types)
            .map(|(&var, &t)| Val {
                v: self.b.use_var(var),
                t,
                lanes,
            })
            .collect())
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce_loops(
        &mut self,
        ctx: &Ctx,
        ops: &[InstrId],
        kept: &[Option<IdxDim>],
        in_dims: &[i64],
        loops: &[usize],
        counters: &mut Vec<Value>,
        vars: &[Variable],
        types: &[PrimitiveType],
        reducer: ComputationId,
        lanes: u32,
        vec_inner: Option<BinaryOp>,
    ) -> R<()> {
        let build_idx = |counters: &[Value], inner: Option<IdxDim>, lanes| {
            let mut d = Vec::new();
            let mut c = 0;
            for (k, kd) in kept.iter().enumerate() {
                match kd {
                    Some(x) => d.push(*x),
                    None => {
                        if c < counters.len() {
                            d.push((counters[c], 0));
                            c += 1;
                        } else if let Some(x) = inner {
                            let _ = k;
                            d.push(x);
                        }
                    }
                }
            }
            Idx { d, lanes }
        };
        if let Some((&dim, rest)) = loops.split_first() {
            let simple = self.simple_reducer(reducer);
            if let (true, None, Some(op), 1) = (rest.is_empty(), vec_inner, simple, ops.len()) {
                if in_dims[dim] >= 8 {
                    // Innermost reduced loop of a plain reducer: four independent partial
                    // results (the chain of dependent adds otherwise bounds the speed).
                    return self.reduce_unrolled(
                        ctx, ops[0], kept, in_dims, dim, counters, vars[0], types[0], lanes, op,
                    );
                }
            }
            let zero = self.iconst(0);
            let lim = self.iconst(in_dims[dim]);
            self.for_loop(zero, lim, 1, &mut |em, i| {
                counters.push(i);
                let r = em.reduce_loops(
                    ctx, ops, kept, in_dims, rest, counters, vars, types, reducer, lanes, vec_inner,
                );
                counters.pop();
                r
            })?;
            return Ok(());
        }
        if let Some(op) = vec_inner {
            // Row reduction: vector accumulators along the last dimension, then a
            // horizontal combine and a scalar tail.
            let l = self.lanes;
            let t = types[0];
            let d = in_dims[in_dims.len() - 1];
            let acc_n = if d >= 4 * l as i64 { 4 } else { 1 };
            let id = self.identity(op, t, l)?;
            let vty = self.b.func.dfg.value_type(id.v);
            let accs: Vec<Variable> = (0..acc_n)
                .map(|_| {
                    let v = self.b.declare_var(vty);
                    self.b.def_var(v, id.v);
                    v
                })
                .collect();
            let zero = self.iconst(0);
            let lim = self.iconst(d - (acc_n as i64 * l as i64) + 1);
            let cs = counters.clone();
            let after = self.for_loop(zero, lim, acc_n as i64 * l as i64, &mut |em, j| {
                for (a, &acc) in accs.iter().enumerate() {
                    let jj = em.b.ins().iadd_imm_s(j, (a as i64) * l as i64);
                    let idx = build_idx(&cs, Some((jj, 1)), l);
                    let x = em.emit1(ctx, ops[0], &idx)?;
                    let cur = Val {
                        v: em.b.use_var(acc),
                        t,
                        lanes: l,
                    };
                    let r = em.binary(op, cur, x)?;
                    em.b.def_var(acc, r.v);
                }
                Ok(())
            })?;
            let mut total = Val {
                v: self.b.use_var(accs[0]),
                t,
                lanes: l,
            };
            for &acc in &accs[1..] {
                let x = Val {
                    v: self.b.use_var(acc),
                    t,
                    lanes: l,
                };
                total = self.binary(op, total, x)?;
            }
            // Leftover full vectors when 4 accumulators were used.
            let accv = self.b.declare_var(vty);
            self.b.def_var(accv, total.v);
            let lim2 = self.iconst(d - l as i64 + 1);
            let after2 = self.for_loop(after, lim2, l as i64, &mut |em, j| {
                let idx = build_idx(&cs, Some((j, 1)), l);
                let x = em.emit1(ctx, ops[0], &idx)?;
                let cur = Val {
                    v: em.b.use_var(accv),
                    t,
                    lanes: l,
                };
                let r = em.binary(op, cur, x)?;
                em.b.def_var(accv, r.v);
                Ok(())
            })?;
            let total = Val {
                v: self.b.use_var(accv),
                t,
                lanes: l,
            };
            let mut h = self.lane(total, 0);
            for k in 1..l {
                let x = self.lane(total, k);
                h = self.binary(op, h, x)?;
            }
            let cur = Val {
                v: self.b.use_var(vars[0]),
                t,
                lanes: 1,
            };
            let r = self.binary(op, cur, h)?;
            self.b.def_var(vars[0], r.v);
            let lim3 = self.iconst(d);
            self.for_loop(after2, lim3, 1, &mut |em, j| {
                let idx = build_idx(&cs, Some((j, 0)), 1);
                let x = em.emit1(ctx, ops[0], &idx)?;
                let cur = Val {
                    v: em.b.use_var(vars[0]),
                    t,
                    lanes: 1,
                };
                let r = em.binary(op, cur, x)?;
                em.b.def_var(vars[0], r.v);
                Ok(())
            })?;
            return Ok(());
        }
        let idx = build_idx(counters, None, lanes);
        let mut args: Vec<Val> = vars
            .iter()
            .zip(types)
            .map(|(&v, &t)| Val {
                v: self.b.use_var(v),
                t,
                lanes,
            })
            .collect();
        for &o in ops {
            args.push(self.emit1(ctx, o, &idx)?);
        }
        let res = self.call_computation(reducer, args)?;
        for (k, &var) in vars.iter().enumerate() {
            let r = res.get(k).ok_or_else(|| Error::internal("reducer arity"))?;
            let r = self.splat(*r, lanes)?;
            self.b.def_var(var, r.v);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce_unrolled(
        &mut self,
        ctx: &Ctx,
        operand: InstrId,
        kept: &[Option<IdxDim>],
        in_dims: &[i64],
        dim: usize,
        counters: &mut Vec<Value>,
        var: Variable,
        t: PrimitiveType,
        lanes: u32,
        op: BinaryOp,
    ) -> R<()> {
        let build = |counters: &[Value]| {
            let mut d = Vec::new();
            let mut c = 0;
            for kd in kept {
                match kd {
                    Some(x) => d.push(*x),
                    None => {
                        d.push((counters[c], 0));
                        c += 1;
                    }
                }
            }
            Idx { d, lanes }
        };
        let id = self.identity(op, t, lanes)?;
        let vty = self.b.func.dfg.value_type(id.v);
        let accs: Vec<Variable> = (0..4)
            .map(|_| {
                let v = self.b.declare_var(vty);
                self.b.def_var(v, id.v);
                v
            })
            .collect();
        let n = in_dims[dim];
        let zero = self.iconst(0);
        let lim = self.iconst(n - 3);
        let after = self.for_loop(zero, lim, 4, &mut |em, i| {
            for (u, &acc) in accs.iter().enumerate() {
                let iu = em.b.ins().iadd_imm_s(i, u as i64);
                counters.push(iu);
                let x = em.emit1(ctx, operand, &build(counters));
                counters.pop();
                let cur = Val {
                    v: em.b.use_var(acc),
                    t,
                    lanes,
                };
                let r = em.binary(op, cur, x?)?;
                em.b.def_var(acc, r.v);
            }
            Ok(())
        })?;
        let end = self.iconst(n);
        self.for_loop(after, end, 1, &mut |em, i| {
            counters.push(i);
            let x = em.emit1(ctx, operand, &build(counters));
            counters.pop();
            let cur = Val {
                v: em.b.use_var(accs[0]),
                t,
                lanes,
            };
            let r = em.binary(op, cur, x?)?;
            em.b.def_var(accs[0], r.v);
            Ok(())
        })?;
        let get = |em: &mut Self, v: Variable| Val {
            v: em.b.use_var(v),
            t,
            lanes,
        };
        let (a0, a1, a2, a3) = (
            get(self, accs[0]),
            get(self, accs[1]),
            get(self, accs[2]),
            get(self, accs[3]),
        );
        let s01 = self.binary(op, a0, a1)?;
        let s23 = self.binary(op, a2, a3)?;
        let total = self.binary(op, s01, s23)?;
        let init = get(self, var);
        let r = self.binary(op, init, total)?;
        self.b.def_var(var, r.v);
        Ok(())
    }

    fn emit_reduce_window(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let n = ins.operands.len() / 2;
        let in_dims = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let reducer = *ins
            .called
            .first()
            .ok_or_else(|| Error::internal("reduce-window without computation"))?;
        let mut inits = Vec::new();
        for k in 0..n {
            inits.push(self.emit1(
                ctx,
                ins.operands[n + k],
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?);
        }
        let vars: Vec<Variable> = inits
            .iter()
            .map(|v| {
                let ty = self.b.func.dfg.value_type(v.v);
                let var = self.b.declare_var(ty);
                self.b.def_var(var, v.v);
                var
            })
            .collect();
        let types: Vec<PrimitiveType> = inits.iter().map(|v| v.t).collect();
        if in_dims.contains(&0) {
            return Ok(inits);
        }
        let mut counters = Vec::new();
        self.window_loops(
            ctx,
            ins,
            w,
            idx,
            &in_dims,
            0,
            &mut counters,
            &vars,
            &types,
            &inits,
            reducer,
        )?;
        Ok(vars
            .iter()
            .zip(&types)
            .map(|(&v, &t)| Val {
                v: self.b.use_var(v),
                t,
                lanes: 1,
            })
            .collect())
    }

    #[allow(clippy::too_many_arguments)]
    fn window_loops(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        idx: &Idx,
        in_dims: &[i64],
        k: usize,
        counters: &mut Vec<Value>,
        vars: &[Variable],
        types: &[PrimitiveType],
        inits: &[Val],
        reducer: ComputationId,
    ) -> R<()> {
        let n = ins.operands.len() / 2;
        if k < in_dims.len() {
            let size = w.dimensions[k].size;
            if size == 1 {
                let z = self.iconst(0);
                counters.push(z);
                let r = self.window_loops(
                    ctx,
                    ins,
                    w,
                    idx,
                    in_dims,
                    k + 1,
                    counters,
                    vars,
                    types,
                    inits,
                    reducer,
                );
                counters.pop();
                return r;
            }
            let zero = self.iconst(0);
            let lim = self.iconst(size);
            self.for_loop(zero, lim, 1, &mut |em, i| {
                counters.push(i);
                let r = em.window_loops(
                    ctx,
                    ins,
                    w,
                    idx,
                    in_dims,
                    k + 1,
                    counters,
                    vars,
                    types,
                    inits,
                    reducer,
                );
                counters.pop();
                r
            })?;
            return Ok(());
        }
        let mut valid: Option<Value> = None;
        let mut d = Vec::new();
        for (k, wd) in w.dimensions.iter().enumerate() {
            let wi = if wd.window_reversal {
                let m = self.iconst(wd.size - 1);
                self.b.ins().isub(m, counters[k])
            } else {
                counters[k]
            };
            let a = self.b.ins().imul_imm_s(idx.d[k].0, wd.stride);
            let bb = self.b.ins().imul_imm_s(wi, wd.window_dilation);
            let p = self.b.ins().iadd(a, bb);
            let p = self.b.ins().iadd_imm_s(p, -wd.padding_low);
            let pc = self.clamp_i64(p, 0, i64::MAX / 2);
            let q = self.b.ins().udiv_imm_s(pc, wd.base_dilation.max(1));
            let r = self.b.ins().urem_imm_s(pc, wd.base_dilation.max(1));
            let c1 = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, p, 0);
            let c2 = self.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
            let c3 = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedLessThan, q, in_dims[k]);
            let c = self.b.ins().band(c1, c2);
            let c = self.b.ins().band(c, c3);
            valid = Some(match valid {
                None => c,
                Some(v) => self.b.ins().band(v, c),
            });
            d.push((self.clamp_i64(q, 0, in_dims[k] - 1), 0));
        }
        let oidx = Idx { d, lanes: 1 };
        let mut args: Vec<Val> = vars
            .iter()
            .zip(types)
            .map(|(&v, &t)| Val {
                v: self.b.use_var(v),
                t,
                lanes: 1,
            })
            .collect();
        let c = valid.unwrap_or_else(|| self.b.ins().iconst(I8, 1));
        for (j, init) in inits.iter().enumerate().take(n) {
            let x = self.emit1(ctx, ins.operands[j], &oidx)?;
            // Padding reads as the init value.
            args.push(Val {
                v: self.b.ins().select(c, x.v, init.v),
                t: x.t,
                lanes: 1,
            });
        }
        let res = self.call_computation(reducer, args)?;
        for (j, &var) in vars.iter().enumerate() {
            self.b.def_var(var, res[j].v);
        }
        Ok(())
    }

    /// dot_general as a reduction over the contracting dimensions (all element types; the
    /// runtime sends large f32/f64 dots to the GEMM kernels instead).
    fn emit_dot(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        dn: &oxla_hlo::DotDimensionNumbers,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let lhs = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let rhs = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
        let nb = dn.lhs_batch_dims.len();
        let lfree: Vec<usize> = (0..lhs.len())
            .filter(|&k| {
                !dn.lhs_batch_dims.contains(&(k as i64))
                    && !dn.lhs_contracting_dims.contains(&(k as i64))
            })
            .collect();
        let rfree: Vec<usize> = (0..rhs.len())
            .filter(|&k| {
                !dn.rhs_batch_dims.contains(&(k as i64))
                    && !dn.rhs_contracting_dims.contains(&(k as i64))
            })
            .collect();
        let zero = self.iconst(0);
        let mut li = vec![(zero, 0i64); lhs.len()];
        let mut ri = vec![(zero, 0i64); rhs.len()];
        for b in 0..nb {
            li[dn.lhs_batch_dims[b] as usize] = idx.d[b];
            ri[dn.rhs_batch_dims[b] as usize] = idx.d[b];
        }
        for (j, &k) in lfree.iter().enumerate() {
            li[k] = idx.d[nb + j];
        }
        for (j, &k) in rfree.iter().enumerate() {
            ri[k] = idx.d[nb + lfree.len() + j];
        }
        let zero_s = self.constant(t, Scalar::Int(0), lanes)?;
        let zero_s = if t.is_float() {
            self.constant(t, Scalar::Float(0.0), lanes)?
        } else {
            zero_s
        };
        let var = {
            let ty = self.b.func.dfg.value_type(zero_s.v);
            let v = self.b.declare_var(ty);
            self.b.def_var(v, zero_s.v);
            v
        };
        let contract: Vec<(usize, usize, i64)> = dn
            .lhs_contracting_dims
            .iter()
            .zip(&dn.rhs_contracting_dims)
            .map(|(&a, &b)| (a as usize, b as usize, lhs[a as usize]))
            .collect();
        self.dot_loops(ctx, ins, &contract, 0, &mut li, &mut ri, var, t, lanes)?;
        Ok(vec![Val {
            v: self.b.use_var(var),
            t,
            lanes,
        }])
    }

    #[allow(clippy::too_many_arguments)]
    fn dot_loops(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        contract: &[(usize, usize, i64)],
        k: usize,
        li: &mut Vec<IdxDim>,
        ri: &mut Vec<IdxDim>,
        var: Variable,
        t: PrimitiveType,
        lanes: u32,
    ) -> R<()> {
        if k < contract.len() {
            let (a, b, n) = contract[k];
            if n == 0 {
                return Ok(());
            }
            let zero = self.iconst(0);
            let lim = self.iconst(n);
            self.for_loop(zero, lim, 1, &mut |em, i| {
                li[a] = (i, 0);
                ri[b] = (i, 0);
                em.dot_loops(ctx, ins, contract, k + 1, li, ri, var, t, lanes)
            })?;
            return Ok(());
        }
        let x = self.emit1(
            ctx,
            ins.operands[0],
            &Idx {
                d: li.clone(),
                lanes,
            },
        )?;
        let y = self.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: ri.clone(),
                lanes,
            },
        )?;
        let x = self.convert(x, t)?;
        let y = self.convert(y, t)?;
        let p = if t == PrimitiveType::Pred {
            self.binary(BinaryOp::And, x, y)?
        } else {
            self.binary(BinaryOp::Mul, x, y)?
        };
        let cur = Val {
            v: self.b.use_var(var),
            t,
            lanes,
        };
        let s = if t == PrimitiveType::Pred {
            self.binary(BinaryOp::Or, cur, p)?
        } else {
            self.binary(BinaryOp::Add, cur, p)?
        };
        self.b.def_var(var, s.v);
        Ok(())
    }

    /// Convolution as a reduction over input features and the kernel window (all element
    /// types and group counts; padding, strides and dilations through index arithmetic).
    #[allow(clippy::too_many_arguments)]
    fn emit_conv(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        dn: &oxla_hlo::ConvDimensionNumbers,
        fgc: i64,
        bgc: i64,
        idx: &Idx,
    ) -> R<Vec<Val>> {
        let t = ins.shape.element_type();
        let lanes = idx.lanes;
        let ld = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
        let rd = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
        let in_batch = ld[dn.input_batch_dimension as usize];
        let in_feat = ld[dn.input_feature_dimension as usize];
        let k_in = rd[dn.kernel_input_feature_dimension as usize];
        let k_out = rd[dn.kernel_output_feature_dimension as usize];
        let zero_i = self.iconst(0);
        let mut li = vec![(zero_i, 0i64); ld.len()];
        let mut ri = vec![(zero_i, 0i64); rd.len()];
        let (ob, _) = idx.d[dn.output_batch_dimension as usize];
        let (of, ofs) = idx.d[dn.output_feature_dimension as usize];
        let fg = self.b.ins().udiv_imm_s(of, (k_out / fgc).max(1));
        let bg = self.b.ins().udiv_imm_s(of, (k_out / bgc).max(1));
        let bbase = self.b.ins().imul_imm_s(bg, in_batch / bgc.max(1));
        li[dn.input_batch_dimension as usize] = (self.b.ins().iadd(bbase, ob), 0);
        ri[dn.kernel_output_feature_dimension as usize] = (of, ofs);
        let fbase = self.b.ins().imul_imm_s(fg, in_feat / fgc.max(1));
        let zero = if t.is_float() {
            self.constant(t, Scalar::Float(0.0), lanes)?
        } else {
            self.constant(t, Scalar::Int(0), lanes)?
        };
        let ty = self.b.func.dfg.value_type(zero.v);
        let var = self.b.declare_var(ty);
        self.b.def_var(var, zero.v);
        if k_in == 0 || ld.contains(&0) || rd.contains(&0) {
            return Ok(vec![zero]);
        }
        let lim = self.iconst(k_in);
        let outs: Vec<Value> = dn
            .output_spatial_dimensions
            .iter()
            .map(|&d| idx.d[d as usize].0)
            .collect();
        self.for_loop(zero_i, lim, 1, &mut |em, kf| {
            li[dn.input_feature_dimension as usize] = (em.b.ins().iadd(fbase, kf), 0);
            ri[dn.kernel_input_feature_dimension as usize] = (kf, 0);
            em.conv_window(
                ctx, ins, w, dn, &ld, &outs, 0, &mut li, &mut ri, var, t, lanes, None,
            )
        })?;
        Ok(vec![Val {
            v: self.b.use_var(var),
            t,
            lanes,
        }])
    }

    #[allow(clippy::too_many_arguments)]
    fn conv_window(
        &mut self,
        ctx: &Ctx,
        ins: &HloInstruction,
        w: &oxla_hlo::Window,
        dn: &oxla_hlo::ConvDimensionNumbers,
        ld: &[i64],
        outs: &[Value],
        s: usize,
        li: &mut Vec<IdxDim>,
        ri: &mut Vec<IdxDim>,
        var: Variable,
        t: PrimitiveType,
        lanes: u32,
        valid: Option<Value>,
    ) -> R<()> {
        if s < w.dimensions.len() {
            let wd = &w.dimensions[s];
            let zero = self.iconst(0);
            let lim = self.iconst(wd.size);
            let in_size = ld[dn.input_spatial_dimensions[s] as usize];
            self.for_loop(zero, lim, 1, &mut |em, k| {
                let a = em.b.ins().imul_imm_s(outs[s], wd.stride);
                let b = em.b.ins().imul_imm_s(k, wd.window_dilation);
                let p = em.b.ins().iadd(a, b);
                let p = em.b.ins().iadd_imm_s(p, -wd.padding_low);
                let pc = em.clamp_i64(p, 0, i64::MAX / 2);
                let bd = wd.base_dilation.max(1);
                let q = em.b.ins().udiv_imm_s(pc, bd);
                let r = em.b.ins().urem_imm_s(pc, bd);
                let c1 = em.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, p, 0);
                let c2 = em.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
                let c3 = em.b.ins().icmp_imm_s(IntCC::SignedLessThan, q, in_size);
                let c = em.b.ins().band(c1, c2);
                let c = em.b.ins().band(c, c3);
                let v = match valid {
                    None => c,
                    Some(v) => em.b.ins().band(v, c),
                };
                li[dn.input_spatial_dimensions[s] as usize] = (em.clamp_i64(q, 0, in_size - 1), 0);
                let kk = if wd.window_reversal {
                    let m = em.iconst(wd.size - 1);
                    em.b.ins().isub(m, k)
                } else {
                    k
                };
                ri[dn.kernel_spatial_dimensions[s] as usize] = (kk, 0);
                em.conv_window(
                    ctx,
                    ins,
                    w,
                    dn,
                    ld,
                    outs,
                    s + 1,
                    li,
                    ri,
                    var,
                    t,
                    lanes,
                    Some(v),
                )
            })?;
            return Ok(());
        }
        let x = self.emit1(
            ctx,
            ins.operands[0],
            &Idx {
                d: li.clone(),
                lanes,
            },
        )?;
        let y = self.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: ri.clone(),
                lanes,
            },
        )?;
        let x = self.convert(x, t)?;
        let y = self.convert(y, t)?;
        let cur = Val {
            v: self.b.use_var(var),
            t,
            lanes,
        };
        let (p, sum) = if t == PrimitiveType::Pred {
            let p = self.binary(BinaryOp::And, x, y)?;
            (p, self.binary(BinaryOp::Or, cur, p)?)
        } else {
            let p = self.binary(BinaryOp::Mul, x, y)?;
            (p, self.binary(BinaryOp::Add, cur, p)?)
        };
        let _ = p;
        // Outside the (padded, dilated) input: skip the term exactly.
        let next = match valid {
            Some(c) => self.b.ins().select(c, sum.v, cur.v),
            None => sum.v,
        };
        self.b.def_var(var, next);
        Ok(())
    }

    // ---------------------------------------------------------------- element-wise ops

    /// Rounds an f32-held f16/bf16 value to its type (no-op for other types).
    pub fn round_narrow(&mut self, x: Val) -> R<Val> {
        if x.t.is_minifloat() {
            return self.lanewise(&[x], &mut |em, a| {
                let w = em.b.ins().fpromote(F64, a[0].v);
                em.round_from_f64(w, a[0].t)
            });
        }
        let name = match x.t {
            PrimitiveType::F16 => "oxla_round_f16",
            PrimitiveType::BF16 => "oxla_round_bf16",
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

    pub fn unary(&mut self, op: UnaryOp, x: Val, out_t: PrimitiveType) -> R<Val> {
        use UnaryOp::*;
        let t = x.t;
        if t.is_complex() {
            return self.complex_unary(op, x, out_t);
        }
        let lanes = x.lanes;
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
                    let name = helpers::float_unary(op, t).ok_or_else(unsupported)?;
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
                Max => self.b.ins().fmax(a.v, b.v),
                Min => self.b.ins().fmin(a.v, b.v),
                Rem | Pow | Atan2 => {
                    let unsupported = || unsup(format!("{} on {t}", op.name()));
                    let name = helpers::float_binary(op, t).ok_or_else(unsupported)?;
                    let name64 =
                        helpers::float_binary(op, PrimitiveType::F64).ok_or_else(unsupported)?;
                    return self.lanewise(&[a, b], &mut |em, x| {
                        let v = match x[0].t {
                            PrimitiveType::F64 => em.call_helper(name, &[x[0].v, x[1].v], F64)?,
                            PrimitiveType::F32 => em.call_helper(name, &[x[0].v, x[1].v], F32)?,
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
                    let qd = self.b.ins().imul_imm_s(q, d);
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

    /// The value of `v` when it is an integer constant.
    fn const_of(&self, v: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        match self.b.func.dfg.value_def(v) {
            ValueDef::Result(inst, _) => match self.b.func.dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    imm,
                } => Some(imm.bits()),
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
}

pub(crate) fn op_name(op: &Op) -> String {
    let s = format!("{op:?}");
    s.split([' ', '(', '{']).next().unwrap_or("?").to_string()
}

/// A minifloat type's helper: 0 to f32, 1 from f32, 2 f64 rounded once.
fn minifloat_helper(t: PrimitiveType, which: usize) -> R<&'static str> {
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
