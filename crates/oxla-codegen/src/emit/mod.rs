//! Elemental emission: the value of an instruction at an index, as Cranelift IR.
//!
//! A kernel is a loop nest over its output; the innermost dimension advances `lanes`
//! elements at a time (F32X4, I32X4, F64X2 …) with a scalar tail. Each dimension of an index
//! is `base + lane * stride`, so broadcast, transpose, slice, reverse and most reshapes map an
//! index to their operand's without leaving vector form; what cannot (concatenate across
//! lanes, pad, integer division …) is evaluated lane by lane. Indices stay in bounds by
//! construction: dynamic offsets are clamped and every select-guarded read uses a clamped
//! index, so no kernel reads outside its buffers.
//!
//! This file holds the value core (`Val`, `Idx`, `Ctx`, the `Emitter`'s types and constants,
//! splat and lanes, helper calls, loads, stores and loops), emission with its cache and the
//! dispatch over ops. By concern: `index_map.rs` the index maps of data-movement ops and
//! gather, `scalar.rs` element-wise arithmetic and conversion, `reduce.rs` reductions and
//! reduce-window, `contract.rs` elemental dot and convolution, `quant.rs` quantization.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32, F64, I16, I32, I64, I8};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_jit::JITModule;
use cranelift_module::Module;
use oxla_hlo::literal::Scalar;
use oxla_hlo::{
    BinaryOp, ComputationId, Error, HloComputation, HloInstruction, HloModule, InstrId, Literal,
    Op, PrimitiveType, Result,
};

mod contract;
mod index_map;
mod quant;
mod reduce;
mod scalar;

use scalar::{is_unsigned, minifloat_helper};

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

/// Integer arithmetic the emitter makes once per block.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Arith {
    Const(Type, i64),
    Add(Value, i64),
    Mul(Value, i64),
}

pub(crate) struct Emitter<'a, 'b> {
    pub b: FunctionBuilder<'b>,
    pub jm: &'a mut JITModule,
    pub helpers: &'a crate::jit::Helpers,
    pub m: &'a HloModule,
    /// The kernel's vector width (1, 2 or 4).
    pub lanes: u32,
    cache: Vec<HashMap<Key, Vec<Val>>>,
    /// Integer constants and index arithmetic already made, per block (see `Emitter::memo`).
    arith: HashMap<(cranelift_codegen::ir::Block, Arith), Value>,
    /// Array constants referenced by address from the code; owned by the compiled kernel.
    pub consts: &'a mut Vec<Box<[u8]>>,
    /// Vector values made by splatting a scalar, with that scalar (vector shifts take a
    /// scalar amount).
    splat_src: HashMap<Value, Value>,
    /// Transcendental values already computed into tile buffers (`schedule/wide_math.rs`).
    pub tile: Option<Tile>,
    /// Positions of the innermost dimension where a concatenate's operand or a pad's
    /// padding starts or ends (`schedule/loops.rs` runs the innermost loop in segments
    /// between them); empty where the kernel's loops are not split so.
    pub inner_breaks: Vec<i64>,
    /// The segment the body being emitted runs in, where it runs in one.
    pub seg: Option<Seg>,
}

/// An innermost-loop segment: the body's innermost index `j` (the first lane's) keeps
/// every lane in `[lo, hi)`, so a concatenate or pad indexed by `j` knows statically which
/// operand (or the padding) every lane reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seg {
    pub j: Value,
    pub lo: i64,
    pub hi: i64,
}

/// A tile of the innermost loop whose transcendental values lie in stack buffers: where
/// instruction `id` of the kernel's computation is evaluated at the loop's own index (the
/// outer loops' `prefix`, then one of the `live` innermost positions with stride 1, or 0 for
/// a scalar), its value is `bufs[id][position]`: each buffer is kept moved back by `j0`
/// elements, so the loop's own index addresses it.
pub(crate) struct Tile {
    pub cache_id: usize,
    pub prefix: Vec<IdxDim>,
    pub j0: Value,
    pub live: Vec<Value>,
    pub bufs: Vec<(InstrId, Value, PrimitiveType)>,
}

pub(crate) fn flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f
}

/// Flags for a load of a kernel input or a constant. The kernel never writes that memory
/// and every address it computes is in bounds (indices are clamped, never guarded by a
/// branch), so the load may move: Cranelift then hoists a row's broadcast value and what
/// is computed from it (a layer norm's rsqrt, a softmax's 1/sum) out of the inner loop.
pub(crate) fn input_flags() -> MemFlagsData {
    flags().with_readonly().with_can_move()
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

impl<'a, 'b> Emitter<'a, 'b> {
    pub fn new(
        b: FunctionBuilder<'b>,
        jm: &'a mut JITModule,
        helpers: &'a crate::jit::Helpers,
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
            tile: None,
            inner_breaks: Vec::new(),
            seg: None,
            arith: HashMap::new(),
        }
    }

    /// [`Emitter::load`] of a kernel input or a constant (see [`input_flags`]).
    pub fn load_input(
        &mut self,
        t: PrimitiveType,
        ptr: Value,
        off: Value,
        ls: i64,
        lanes: u32,
    ) -> R<Val> {
        self.load_with(input_flags(), t, ptr, off, ls, lanes)
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
        self.int_const(I64, v)
    }

    /// An integer constant of type `ty`, made once per block: index arithmetic asks for the
    /// same few constants over and over, and every instruction Cranelift need not
    /// deduplicate itself is compile time saved.
    fn int_const(&mut self, ty: Type, v: i64) -> Value {
        self.memo(Arith::Const(ty, v), |b| b.ins().iconst(ty, v))
    }

    /// The constant `v` is, where an `iconst` made it.
    fn known(&self, v: Value) -> Option<i64> {
        let inst = self.b.func.dfg.value_def(v).inst()?;
        match self.b.func.dfg.insts[inst] {
            cranelift_codegen::ir::InstructionData::UnaryImm {
                opcode: cranelift_codegen::ir::Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// `x + k` for an integer `x`: `x` itself for 0, folded for a constant, made once per
    /// block.
    pub fn add_imm(&mut self, x: Value, k: i64) -> Value {
        let ty = self.b.func.dfg.value_type(x);
        if k == 0 {
            return x;
        }
        if let (Some(c), I64) = (self.known(x), ty) {
            return self.int_const(ty, c.wrapping_add(k));
        }
        let kc = self.int_const(ty, k);
        self.memo(Arith::Add(x, k), |b| b.ins().iadd(x, kc))
    }

    /// `x * k` for an integer `x`, simplified and made once per block as [`Self::add_imm`].
    pub fn mul_imm(&mut self, x: Value, k: i64) -> Value {
        let ty = self.b.func.dfg.value_type(x);
        if k == 1 {
            return x;
        }
        if let (Some(c), I64) = (self.known(x), ty) {
            return self.int_const(ty, c.wrapping_mul(k));
        }
        let kc = self.int_const(ty, k);
        self.memo(Arith::Mul(x, k), |b| b.ins().imul(x, kc))
    }

    /// `x + y` for integers, without adding a known zero.
    pub fn add(&mut self, x: Value, y: Value) -> Value {
        match (self.known(x), self.known(y)) {
            (Some(0), _) => y,
            (_, Some(0)) => x,
            _ => self.b.ins().iadd(x, y),
        }
    }

    /// The value `make` builds in the current block for `key`, made once per block (a
    /// value of the same block dominates every later instruction of it).
    fn memo(&mut self, key: Arith, make: impl FnOnce(&mut FunctionBuilder<'b>) -> Value) -> Value {
        let Some(block) = self.b.current_block() else {
            return make(&mut self.b);
        };
        if let Some(&v) = self.arith.get(&(block, key)) {
            return v;
        }
        let v = make(&mut self.b);
        self.arith.insert((block, key), v);
        v
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
        let id = self.helpers.id(self.jm, name)?;
        let fref = self.jm.declare_func_in_func(id, self.b.func);
        self.b.ins().call(fref, args);
        Ok(())
    }

    pub fn call_helper(&mut self, name: &str, args: &[Value], ret: Type) -> R<Value> {
        let id = self.helpers.id(self.jm, name)?;
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
        self.load_with(flags(), t, ptr, off, ls, lanes)
    }

    /// [`Emitter::load`] with memory flags `fl`.
    fn load_with(
        &mut self,
        fl: MemFlagsData,
        t: PrimitiveType,
        ptr: Value,
        off: Value,
        ls: i64,
        lanes: u32,
    ) -> R<Val> {
        let size = t.byte_size() as i64;
        let boff = self.mul_imm(off, size);
        let addr = self.add(ptr, boff);
        if lanes == 1 {
            return self.load_scalar(fl, t, addr);
        }
        if ls == 0 {
            let s = self.load_scalar(fl, t, addr)?;
            return self.splat(s, lanes);
        }
        if ls == 1 && lanes == 4 && t == PrimitiveType::BF16 {
            // Four bf16 values widened: each one's bits are the top half of its f32's.
            let h = self.b.ins().uload16x4(fl, addr, 0);
            let w = self.b.ins().ishl_imm_s(h, 16);
            let v = self.b.ins().bitcast(types::F32X4, MemFlagsData::new(), w);
            return Ok(Val { v, t, lanes });
        }
        if ls == 1
            && t != PrimitiveType::Pred
            && !matches!(t, PrimitiveType::BF16 | PrimitiveType::F16)
        {
            let vt = self.ty(t, lanes)?;
            let v = self.b.ins().load(vt, fl, addr, 0);
            return Ok(Val { v, t, lanes });
        }
        let mut xs = Vec::new();
        for l in 0..lanes as i64 {
            let a = self.add_imm(addr, l * ls * size);
            xs.push(self.load_scalar(fl, t, a)?);
        }
        self.gather_lanes(&xs)
    }

    fn load_scalar(&mut self, fl: MemFlagsData, t: PrimitiveType, addr: Value) -> R<Val> {
        use PrimitiveType::{Pred, BF16, F16};
        if t.is_complex() {
            return Ok(self.complex_load(fl, t, addr));
        }
        let v = match t {
            F16 => {
                let h = self.b.ins().uload16(I32, fl, addr, 0);
                self.f16_bits_to_f32(h)
            }
            BF16 => {
                let h = self.b.ins().uload16(I32, fl, addr, 0);
                let w = self.b.ins().ishl_imm_s(h, 16);
                self.b.ins().bitcast(F32, MemFlagsData::new(), w)
            }
            Pred => {
                let x = self.b.ins().load(I8, fl, addr, 0);
                // Any nonzero byte is true.
                self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0)
            }
            t if t.is_minifloat() => {
                let h = self.b.ins().uload8(I32, fl, addr, 0);
                self.call_helper(minifloat_helper(t, 0)?, &[h], F32)?
            }
            _ => {
                let ty = scalar_ty(t)?;
                self.b.ins().load(ty, fl, addr, 0)
            }
        };
        Ok(Val { v, t, lanes: 1 })
    }

    /// The f32 value of the f16 bits `h` (an I32 holding them), without a call: normal
    /// numbers rebias their exponent, subnormals are their integer significand times
    /// 2^-24 (computed from integers, so a flush-to-zero mode cannot touch them), and
    /// infinities and NaNs keep their payload (a signaling NaN stays signaling): the
    /// interpreter's bits (`oxla_elem::f16_bits_to_f32`).
    fn f16_bits_to_f32(&mut self, h: Value) -> Value {
        let b = &mut self.b;
        let sign = b.ins().band_imm_s(h, 0x8000);
        let sign = b.ins().ishl_imm_s(sign, 16);
        let em = b.ins().band_imm_s(h, 0x7fff);
        let shifted = b.ins().ishl_imm_s(em, 13);
        let normal = b.ins().iadd_imm_s(shifted, 112 << 23);
        let special = b.ins().bor_imm_s(shifted, 0x7f80_0000);
        let m = b.ins().fcvt_from_sint(F32, em);
        let scale = b.ins().f32const(1.0 / 16_777_216.0);
        let sub = b.ins().fmul(m, scale);
        let sub = b.ins().bitcast(I32, MemFlagsData::new(), sub);
        let is_special = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, em, 0x7c00);
        let is_normal = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, em, 0x400);
        let finite = b.ins().select(is_normal, normal, sub);
        let bits = b.ins().select(is_special, special, finite);
        let bits = b.ins().bor(bits, sign);
        b.ins().bitcast(F32, MemFlagsData::new(), bits)
    }

    /// Stores `x` at element offset `off` (lanes contiguous).
    pub fn store(&mut self, x: Val, ptr: Value, off: Value) -> R<()> {
        let size = x.t.byte_size() as i64;
        let boff = self.mul_imm(off, size);
        let addr = self.add(ptr, boff);
        if x.lanes == 4 && x.t == PrimitiveType::BF16 {
            // Four bf16 values (rounded already): the top halves of their bits, packed.
            let w = self.b.ins().bitcast(types::I32X4, MemFlagsData::new(), x.v);
            let h = self.b.ins().ushr_imm_s(w, 16);
            let p = self.b.ins().unarrow(h, h);
            let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
            let q = self.b.ins().bitcast(types::I64X2, le, p);
            let lo = self.b.ins().extractlane(q, 0);
            self.b.ins().store(flags(), lo, addr, 0);
            return Ok(());
        }
        if x.lanes > 1
            && x.t != PrimitiveType::Pred
            && !matches!(x.t, PrimitiveType::BF16 | PrimitiveType::F16)
        {
            self.b.ins().store(flags(), x.v, addr, 0);
            return Ok(());
        }
        for l in 0..x.lanes {
            let s = self.lane(x, l);
            let a = self.add_imm(addr, l as i64 * size);
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
            let term = self.mul_imm(base, stride);
            off = Some(match off {
                None => term,
                Some(o) => self.add(o, term),
            });
            ls += s * stride;
            stride *= dims[k];
        }
        let off = match off {
            Some(o) => o,
            None => self.iconst(0),
        };
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
        // The exit is the branch's first target: Cranelift's elaboration visits a block's
        // dominator-tree children in that order and forgets the enclosing loops once it has
        // visited a block outside them, so with the body second nothing loop-invariant in
        // it would be hoisted (measured on 0.135: a layer norm's per-row rsqrt stayed in the
        // inner loop).
        let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, i, limit);
        self.b.ins().brif(done, exit, &[], body_blk, &[]);
        self.b.switch_to_block(body_blk);
        self.b.seal_block(body_blk);
        self.cache.push(HashMap::new());
        let r = body(self, i);
        self.cache.pop();
        r?;
        let i = self.b.use_var(var);
        let next = self.add_imm(i, step);
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
        if let Some(v) = self.tile_value(ctx, id, idx)? {
            return Ok(vec![v]);
        }
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

    /// The value of `id` at `idx` from the current tile's buffers, where it lies there.
    fn tile_value(&mut self, ctx: &Ctx, id: InstrId, idx: &Idx) -> R<Option<Val>> {
        let Some(t) = &self.tile else {
            return Ok(None);
        };
        let Some(&(_, buf, ty)) = t.bufs.iter().find(|(i, _, _)| *i == id) else {
            return Ok(None);
        };
        let n = idx.d.len();
        if ctx.cache_id != Some(t.cache_id) || n != t.prefix.len() + 1 {
            return Ok(None);
        }
        let (base, stride) = idx.d[n - 1];
        if idx.d[..n - 1] != t.prefix[..]
            || !t.live.contains(&base)
            || stride != (idx.lanes > 1) as i64
        {
            return Ok(None);
        }
        // `buf` is the tile's buffer moved back by its start (`wide_math::apply`).
        Ok(Some(self.load(ty, buf, base, stride, idx.lanes)?))
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
                        (self.add_imm(b, l * s), 0)
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
                    return Ok(vec![self.load_input(
                        a.element_type,
                        *ptr,
                        off,
                        ls,
                        idx.lanes,
                    )?]);
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
                    self.load_input(t, ptr, off, ls, lanes)?
                }
            }
            Op::Iota { dimension } => self.emit_iota(t, *dimension, idx)?,
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
                self.bitcast_convert(x, t)?
            }
            Op::ReducePrecision {
                exponent_bits,
                mantissa_bits,
            } => {
                let x = self.emit1(ctx, ins.operands[0], idx)?;
                self.reduce_precision(x, *exponent_bits, *mantissa_bits)?
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
            // The runtime writes these ids (a collective step); they never fuse.
            Op::ReplicaId | Op::PartitionId => {
                return Err(Error::unimplemented(format!(
                    "JIT: {} inside a fused or called computation",
                    ins.op.opcode_name()
                )))
            }
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
            Op::Broadcast { dimensions } => self.emit_broadcast(ctx, ins, dimensions, idx)?,
            Op::Transpose { permutation } => self.emit_transpose(ctx, ins, permutation, idx)?,
            Op::Reshape => return self.emit_reshape(ctx, id, idx),
            Op::Reverse { dimensions } => self.emit_reverse(ctx, ins, dimensions, idx)?,
            Op::Slice { start, strides, .. } => self.emit_slice(ctx, ins, start, strides, idx)?,
            Op::DynamicSlice { slice_sizes } => {
                self.emit_dynamic_slice(ctx, ins, slice_sizes, idx)?
            }
            Op::DynamicUpdateSlice => return self.emit_dynamic_update_slice(ctx, id, idx),
            Op::Concatenate { dimension } => {
                return self.emit_concatenate(ctx, id, *dimension, idx)
            }
            Op::Pad(cfg) => return self.emit_pad(ctx, id, cfg, idx),
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
            } => return self.emit_gather(ctx, id, dnums, slice_sizes, idx),
            Op::UniformQuantize { params, from } => {
                return self.emit_quantize(ctx, id, params, from.as_ref(), idx)
            }
            Op::UniformDequantize { params } => return self.emit_dequantize(ctx, id, params, idx),
            Op::Reduce { dimensions } => return self.emit_reduce(ctx, ins, dimensions, idx),
            Op::ReduceWindow(w) => {
                // Vectors only along a last dimension the window leaves alone.
                let along_last = idx
                    .d
                    .iter()
                    .enumerate()
                    .all(|(k, &(_, s))| s == if k + 1 == idx.d.len() { 1 } else { 0 });
                if lanes > 1 && !(along_last && oxla_passes::plan::window_keeps_last_dim(w)) {
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
            // Scatter is a schedule of its own (schedule/scatter.rs); the rest are runtime steps or not
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
}

pub(crate) fn op_name(op: &Op) -> String {
    let s = format!("{op:?}");
    s.split([' ', '(', '{']).next().unwrap_or("?").to_string()
}
