//! Wide math: element-wise loops whose values contain f32 `exponential`, `tanh`, `logistic`,
//! `log`, `erf`, `log_plus_one`, `sine`, `cosine` or `tan` run the innermost dimension in tiles. Cranelift's x86 vectors are 128-bit, so
//! `math.rs` computes these four lanes at a time; here each transcendental's argument is
//! first computed for a whole tile into a stack buffer (with the kernel's own vectors),
//! then one call to `oxla_kernels::vmath` applies the function to the buffer at the CPU's
//! full width (AVX-512F or AVX2 + FMA), and last the rest of the expression is computed
//! with the transcendental read back from the buffer. A transcendental of a transcendental
//! gets one phase each, in operand order.
//!
//! `vmath` runs the same operation sequence as `math.rs`, so results are bit for bit those
//! of the 128-bit code; the elements of a row's scalar tail, which the plain loop computes
//! through the exact `oxla-elem` helpers, take the vector approximation here too.
//!
//! Row reductions over the last dimension do the same inside their four-accumulator loop
//! ([`gen_wide_row`], called from `emit/reduce.rs`): the loop runs tile by tile over the
//! whole steps of the row, so the partial sums are formed in the same order and the results
//! are the plain loop's bit for bit; the leftover vectors and scalar tail stay as they were.
//!
//! f64 kernels (two lanes in Cranelift's vectors) tile f64 `exponential`, `log` and
//! `log_plus_one` the same way, through `oxla_kernels::vmath64` (4 or 8 lanes, within 1 ulp
//! of the interpreter's libm, which a one-lane call computes): a libm call per element before
//! (exp then log1p of 1 Mi doubles, 2 threads, Zen 3: 16.5 -> 3.7 ms).
//!
//! An f32 `divide` by a value constant along the row (a broadcast that does not vary in the
//! last dimension: a softmax's row sum) is tiled the same way in element-wise loops: the
//! numerator into the buffer, one `vmath::div_by` over it with the divisor read once per
//! tile (IEEE quotients, so the same bits at 16 lanes as at 4). Where the kernel's root is
//! the tiled value itself, its buffer is the output row: no copy back.
//!
//! Where a transcendental's argument is `x * c + y` or `x + y` of two kernel inputs of the
//! output's shape (an RNN cell's `tanh(0.9 h + x)`), the tile is filled by one call at the
//! CPU's width too (`vmath::mul_add_raw`, multiply and add rounded apart as here) instead
//! of the kernel's own 4-lane loop.
//!
//! Only a transcendental evaluated at the kernel's own output index is tiled (one reached
//! from the root through element-wise ops of the output's shape); one seen through a
//! broadcast, slice, transpose … is computed as before. On a CPU without AVX2 + FMA, or
//! with `OXLA_WIDE_MATH=0`, nothing is tiled.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, StackSlotData, StackSlotKind, Value};
use oxla_hlo::{BinaryOp, HloComputation, InstrId, Op, PrimitiveType, Result, UnaryOp};
use oxla_kernels::vmath::{VFunc, VIsa};
use oxla_kernels::vmath64::VFunc64;

use super::loops::{gen_loops_with, inner_loops};
use crate::emit::{Ctx, Emitter, Idx, IdxDim, Leaves, Tile};
use crate::kernel::split_dim;

/// Elements per tile: one buffer of 2 KiB per transcendental, in L1 between the phases.
const TILE: i64 = 512;
/// Rows shorter than this keep the plain loop (a call per row would cost more than it
/// saves); `OXLA_WIDE_MIN_ROW=n` changes it (the fuzzer's arrays are tiny: 4 tiles them).
pub(crate) fn min_extent() -> i64 {
    static MIN: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *MIN.get_or_init(|| {
        std::env::var("OXLA_WIDE_MIN_ROW")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(64)
    })
}

/// The `extern "C" fn(ptr, n)` helper applying `f` to `n` floats in place.
pub(crate) fn helper(f: VFunc) -> &'static str {
    match f {
        VFunc::Exp => "oxla_vexp_f32",
        VFunc::Tanh => "oxla_vtanh_f32",
        VFunc::Logistic => "oxla_vlogistic_f32",
        VFunc::Log => "oxla_vlog_f32",
        VFunc::Erf => "oxla_verf_f32",
        VFunc::Log1p => "oxla_vlog1p_f32",
        VFunc::Sin => "oxla_vsin_f32",
        VFunc::Cos => "oxla_vcos_f32",
        VFunc::Tan => "oxla_vtan_f32",
    }
}

/// Whether kernels are tiled at all: a SIMD `vmath` on this CPU and no `OXLA_WIDE_MATH=0`.
pub(crate) fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        VIsa::detect().is_wide() && std::env::var("OXLA_WIDE_MATH").map_or(true, |v| v != "0")
    })
}

/// The `extern "C" fn(ptr, n)` helper applying f64 `f` to `n` doubles in place.
fn helper64(f: VFunc64) -> &'static str {
    match f {
        VFunc64::Exp => "oxla_vexp_f64",
        VFunc64::Log => "oxla_vlog_f64",
        VFunc64::Log1p => "oxla_vlog1p_f64",
    }
}

/// What a tile's phase applies to its buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TileFn {
    /// An f32 transcendental (`vmath::apply`).
    Math(VFunc),
    /// An f64 transcendental (`vmath64::apply`).
    Math64(VFunc64),
    /// Division by operand 1, constant along the row (`vmath::div_by`).
    DivRow,
}

impl TileFn {
    /// The element type of the tile's buffer.
    fn ty(self) -> PrimitiveType {
        match self {
            TileFn::Math64(_) => PrimitiveType::F64,
            TileFn::Math(_) | TileFn::DivRow => PrimitiveType::F32,
        }
    }

    /// Bytes per element of the tile's buffer.
    fn size(self) -> i64 {
        self.ty().byte_size() as i64
    }
}

/// Whether `id` (of shape `dims`) has one value along the last dimension: a broadcast
/// that maps no operand dimension, or one of size 1, there.
fn row_uniform(comp: &HloComputation, id: InstrId, dims: &[i64]) -> bool {
    let ins = comp.instr(id);
    let Op::Broadcast { dimensions } = &ins.op else {
        return false;
    };
    let last = dims.len() as i64 - 1;
    match dimensions.iter().position(|&d| d == last) {
        None => true,
        Some(i) => comp
            .instr(ins.operands[0])
            .shape
            .as_array()
            .is_some_and(|a| a.dims.get(i) == Some(&1)),
    }
}

fn vfunc(op: UnaryOp) -> Option<VFunc> {
    Some(match op {
        UnaryOp::Exp => VFunc::Exp,
        UnaryOp::Tanh => VFunc::Tanh,
        UnaryOp::Logistic => VFunc::Logistic,
        UnaryOp::Log => VFunc::Log,
        UnaryOp::Erf => VFunc::Erf,
        UnaryOp::Log1p => VFunc::Log1p,
        UnaryOp::Sin => VFunc::Sin,
        UnaryOp::Cos => VFunc::Cos,
        UnaryOp::Tan => VFunc::Tan,
        _ => return None,
    })
}

fn vfunc64(op: UnaryOp) -> Option<VFunc64> {
    Some(match op {
        UnaryOp::Exp => VFunc64::Exp,
        UnaryOp::Log => VFunc64::Log,
        UnaryOp::Log1p => VFunc64::Log1p,
        _ => return None,
    })
}

/// The f32 (and f64 exp, log and log1p) transcendentals of `comp` reached from `root` through element-wise ops of shape
/// `dims` (so evaluated at the output's index), operands before their users; with
/// `divides`, f32 divisions by a row-uniform value too. `leaves` are read from the kernel's
/// input buffers (an unfused kernel's operands): not walked into.
pub(crate) fn wide_candidates(
    comp: &HloComputation,
    root: InstrId,
    dims: &[i64],
    leaves: &[InstrId],
    divides: bool,
) -> Vec<(InstrId, TileFn)> {
    let mut seen = vec![false; comp.instructions.len()];
    let mut stack = vec![root];
    let mut found = Vec::new();
    let same = |id: InstrId| {
        comp.instr(id)
            .shape
            .as_array()
            .is_some_and(|a| a.dims == dims)
    };
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut seen[id.index()], true) || leaves.contains(&id) {
            continue;
        }
        let ins = comp.instr(id);
        let walk = match &ins.op {
            Op::Tuple => id == root,
            Op::Unary(op) => {
                let f = match ins.shape.element_type() {
                    PrimitiveType::F32 => vfunc(*op).map(TileFn::Math),
                    PrimitiveType::F64 => vfunc64(*op).map(TileFn::Math64),
                    _ => None,
                };
                if let Some(f) = f.filter(|_| same(id)) {
                    found.push((id, f));
                }
                same(id)
            }
            Op::Binary(op) => {
                if divides
                    && *op == BinaryOp::Div
                    && ins.shape.element_type() == PrimitiveType::F32
                    && same(id)
                    && row_uniform(comp, ins.operands[1], dims)
                {
                    found.push((id, TileFn::DivRow));
                }
                same(id)
            }
            Op::Compare { .. } | Op::Select | Op::Clamp | Op::Convert => same(id),
            _ => false,
        };
        if walk {
            stack.extend(ins.operands.iter().copied().filter(|&o| same(o)));
        }
    }
    found.sort_by_key(|&(id, _)| id.index());
    found
}

/// A stack buffer of one tile for each of `cands` (64-byte aligned).
fn tile_buffers(em: &mut Emitter, cands: &[(InstrId, TileFn)]) -> Vec<Value> {
    cands
        .iter()
        .map(|&(_, f)| {
            let slot = em.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                (TILE * f.size()) as u32,
                6,
            ));
            em.b.ins().stack_addr(I64, slot, 0)
        })
        .collect()
}

/// Starts the tile at `jt` of a row ending at `hi`: its length `n` (a whole tile or the
/// rest) and end `jt + n`, with `Emitter::tile` set for it.
fn begin_tile(
    em: &mut Emitter,
    cache_id: usize,
    prefix: Vec<IdxDim>,
    jt: Value,
    hi: Value,
) -> (Value, Value) {
    let rest = em.b.ins().isub(hi, jt);
    let tile = em.iconst(TILE);
    let short = em.b.ins().icmp(IntCC::SignedLessThan, rest, tile);
    let n = em.b.ins().select(short, rest, tile);
    let te = em.b.ins().iadd(jt, n);
    em.tile = Some(Tile {
        cache_id,
        prefix,
        j0: jt,
        live: Vec::new(),
        bufs: Vec::new(),
    });
    (n, te)
}

/// Runs `f` over the `n` arguments in `buf` (in place) and makes the tile read instruction
/// `id` from there. A division's divisor is read at the tile's first position `at`.
fn apply(
    em: &mut Emitter,
    ctx: &Ctx,
    (id, f): (InstrId, TileFn),
    buf: Value,
    n: Value,
    at: &[IdxDim],
) -> Result<()> {
    match f {
        TileFn::Math(f) => em.call_helper_void(helper(f), &[buf, n])?,
        TileFn::Math64(f) => em.call_helper_void(helper64(f), &[buf, n])?,
        TileFn::DivRow => {
            let v = row_value(em, ctx, ctx.comp.instr(id).operands[1], at)?;
            em.call_helper_void("oxla_vdiv_f32", &[buf, n, v])?;
        }
    }
    read_from(em, id, buf, f.ty());
    Ok(())
}

/// The value of row-uniform `id` for the tile's row (read at its first position `at`).
fn row_value(em: &mut Emitter, ctx: &Ctx, id: InstrId, at: &[IdxDim]) -> Result<Value> {
    let d = at.iter().map(|&(b, _)| (b, 0)).collect();
    Ok(em.emit1(ctx, id, &Idx { d, lanes: 1 })?.v)
}

/// Makes the tile read instruction `id` from `buf` (of `ty` elements).
fn read_from(em: &mut Emitter, id: InstrId, buf: Value, ty: PrimitiveType) {
    // Reads address the buffer moved back by the tile's start, so position j is at `j`
    // (no subtraction per vector read).
    if let Some(j0) = em.tile.as_ref().map(|t| t.j0) {
        let back = em.mul_imm(j0, ty.byte_size() as i64);
        let rebased = em.b.ins().isub(buf, back);
        if let Some(t) = em.tile.as_mut() {
            t.bufs.push((id, rebased, ty));
        }
    }
}

/// The loop nest of `gen_loops` with the innermost dimension in tiles (see the module
/// docs); `cands` from [`wide_candidates`], non-empty, and `lanes` the kernel's vector width.
/// `direct`: the output's base pointer where the kernel's one result is the last candidate,
/// whose tile buffer is then the output row itself.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_wide_loops(
    em: &mut Emitter,
    ctx: &Ctx,
    cands: &[(InstrId, TileFn)],
    dims: &[i64],
    (start, end): (Value, Value),
    lanes: u32,
    direct: Option<Value>,
    store_all: &dyn Fn(&mut Emitter, &Idx) -> Result<()>,
) -> Result<()> {
    let cache_id = ctx
        .cache_id
        .ok_or_else(|| oxla_hlo::Error::internal("wide math without a cache"))?;
    // One buffer per transcendental, addressed once here (the entry dominates every loop).
    let bufs = tile_buffers(em, cands);
    let live = |em: &mut Emitter, idx: &Idx| {
        if let (Some(t), Some(&(j, _))) = (em.tile.as_mut(), idx.d.last()) {
            t.live = vec![j];
        }
    };
    gen_loops_with(
        em,
        dims,
        split_dim(dims),
        0,
        &mut Vec::new(),
        (start, end),
        &mut |em, prefix, (lo, hi), extent, _known| {
            let width = TILE.min(extent);
            em.for_loop(lo, hi, TILE, &mut |em, jt| {
                let prefix_idx: Vec<IdxDim> = prefix.iter().map(|&p| (p, 0)).collect();
                let mut at = prefix_idx.clone();
                at.push((jt, 1));
                let (n, te) = begin_tile(em, cache_id, prefix_idx, jt, hi);
                // The tile's first position in a dense row-major array of `dims`, in bytes
                // (where the output row and the fill's inputs start).
                let (off, _) = em.linear(
                    &Idx {
                        d: at.clone(),
                        lanes: 1,
                    },
                    dims,
                );
                let boff = em.mul_imm(off, 4);
                for (k, (&cand, &buf)) in cands.iter().zip(&bufs).enumerate() {
                    let last = k + 1 == cands.len();
                    // The output row [jt, te) of a dense row-major result.
                    let buf = match direct.filter(|_| last) {
                        Some(out) => {
                            let o = em.mul_imm(off, cand.1.size());
                            em.b.ins().iadd(out, o)
                        }
                        None => buf,
                    };
                    let arg = ctx.comp.instr(cand.0).operands[0];
                    if let (TileFn::Math(_), Some(fill)) = (cand.1, mul_add_fill(ctx, arg, dims)) {
                        // `x * a + y` of two inputs: filled at the CPU's width.
                        let xp = em.add(fill.x, boff);
                        let yp = em.add(fill.y, boff);
                        match fill.a {
                            Some(a) => {
                                let a = em.b.ins().f32const(a);
                                em.call_helper_void("oxla_vmuladd_f32", &[buf, xp, a, yp, n])?
                            }
                            None => em.call_helper_void("oxla_vadd_f32", &[buf, xp, yp, n])?,
                        }
                        apply(em, ctx, cand, buf, n, &at)?;
                        continue;
                    }
                    // An input row and a value constant along it: `x - s` as a
                    // transcendental's argument (filled), `x / s` as the tile's value
                    // (computed), in one call at the CPU's width.
                    let op = match cand.1 {
                        TileFn::Math(_) | TileFn::Math64(_) => arg,
                        TileFn::DivRow => cand.0,
                    };
                    if let Some(fill) = row_op_fill(ctx, op, dims) {
                        let xp = em.add(fill.x, boff);
                        let s = row_value(em, ctx, fill.s, &at)?;
                        em.call_helper_void(fill.helper, &[buf, xp, s, n])?;
                        match cand.1 {
                            TileFn::Math(_) | TileFn::Math64(_) => {
                                apply(em, ctx, cand, buf, n, &at)?
                            }
                            TileFn::DivRow => read_from(em, cand.0, buf, PrimitiveType::F32),
                        }
                        continue;
                    }
                    // The buffer moved back by `jt` elements, so position j is stored at
                    // `j` (the address shares j's scaling with the loads).
                    let back = em.mul_imm(jt, cand.1.size());
                    let rebased = em.b.ins().isub(buf, back);
                    inner_loops(em, prefix, (jt, te), width, None, lanes, &mut |em, idx| {
                        live(em, idx);
                        let v = em.emit1(ctx, arg, idx)?;
                        let v = em.splat(v, idx.lanes)?;
                        let (j, _) = idx.d[idx.d.len() - 1];
                        em.store(v, rebased, j)
                    })?;
                    apply(em, ctx, cand, buf, n, &at)?;
                }
                let r = if direct.is_some() {
                    Ok(())
                } else {
                    inner_loops(em, prefix, (jt, te), width, None, lanes, &mut |em, idx| {
                        live(em, idx);
                        store_all(em, idx)
                    })
                };
                em.tile = None;
                r
            })?;
            Ok(())
        },
    )
}

/// `x - s` or `x / s` of an f32 kernel input `x` of the output's shape and a value `s`
/// constant along the row: `x`'s pointer, the row value's instruction, and the helper that
/// computes it over a tile.
struct RowOpFill {
    x: Value,
    s: InstrId,
    helper: &'static str,
}

/// [`RowOpFill`] for instruction `id` of `ctx` (an f32 array of `dims`), where it has that
/// form: `subtract(X, S)` or `divide(X, S)`, `S` row-uniform (operands in that order, so
/// NaN operands are as the plain loop's).
fn row_op_fill(ctx: &Ctx, id: InstrId, dims: &[i64]) -> Option<RowOpFill> {
    let ins = ctx.comp.instr(id);
    let (Op::Binary(op), [x, s]) = (&ins.op, ins.operands.as_slice()) else {
        return None;
    };
    let helper = match op {
        BinaryOp::Sub => "oxla_vsubs_f32",
        BinaryOp::Div => "oxla_vdivs_f32",
        _ => return None,
    };
    if ins.shape.element_type() != PrimitiveType::F32 || !row_uniform(ctx.comp, *s, dims) {
        return None;
    }
    Some(RowOpFill {
        x: input_ptr(ctx, *x, dims)?,
        s: *s,
        helper,
    })
}

/// The buffer pointer of `id` where it is an f32 kernel input of shape `dims`.
fn input_ptr(ctx: &Ctx, id: InstrId, dims: &[i64]) -> Option<Value> {
    let Leaves::Buffers(ptrs) = &ctx.leaves else {
        return None;
    };
    let a = ctx.comp.instr(id).shape.as_array()?;
    if a.dims != dims || a.element_type != PrimitiveType::F32 {
        return None;
    }
    ptrs.get(id.index()).copied().flatten()
}

/// A transcendental's argument `x * a + y` (or `x + y`) of two f32 kernel inputs of the
/// output's shape, `a` a constant: the pointers of `x` and `y` and the constant.
struct MulAddFill {
    x: Value,
    a: Option<f32>,
    y: Value,
}

/// [`MulAddFill`] for argument `arg` of `ctx` (an f32 array of `dims`), where it has that
/// form exactly: `add(multiply(X, broadcast(c)), Y)` (either order of the multiply's
/// operands) or `add(X, Y)`. The add keeps its operand order, so the sums' NaN operands
/// are as the plain loop's.
fn mul_add_fill(ctx: &Ctx, arg: InstrId, dims: &[i64]) -> Option<MulAddFill> {
    let c = ctx.comp;
    let input = |id: InstrId| input_ptr(ctx, id, dims);
    let scalar_const = |id: InstrId| -> Option<f32> {
        let ins = c.instr(id);
        let Op::Broadcast { .. } = ins.op else {
            return None;
        };
        let k = c.instr(*ins.operands.first()?);
        match &k.op {
            Op::Constant(l) if l.shape().dims().is_empty() => {
                l.get_linear(0).ok().map(|v| v.as_f64() as f32)
            }
            _ => None,
        }
    };
    let ins = c.instr(arg);
    let (Op::Binary(BinaryOp::Add), [l, r]) = (&ins.op, ins.operands.as_slice()) else {
        return None;
    };
    let y = input(*r)?;
    if let Some(x) = input(*l) {
        return Some(MulAddFill { x, a: None, y });
    }
    let m = c.instr(*l);
    let (Op::Binary(BinaryOp::Mul), [p, q]) = (&m.op, m.operands.as_slice()) else {
        return None;
    };
    let (x, a) = match (input(*p), scalar_const(*q), input(*q), scalar_const(*p)) {
        (Some(x), Some(a), _, _) | (_, _, Some(x), Some(a)) => (x, a),
        _ => return None,
    };
    // A NaN constant would make the multiply's NaN operand order matter.
    (!a.is_nan()).then_some(MulAddFill { x, a: Some(a), y })
}

/// The instructions of `ctx` read from input buffers (see [`wide_candidates`]).
pub(crate) fn buffer_leaves(ctx: &Ctx) -> Vec<InstrId> {
    match &ctx.leaves {
        Leaves::Buffers(ptrs) => ctx
            .comp
            .instructions
            .iter()
            .enumerate()
            .filter(|&(i, _)| ptrs.get(i).is_some_and(|p| p.is_some()))
            .map(|(i, _)| InstrId(i as u32))
            .collect(),
        Leaves::Values(_) => Vec::new(),
    }
}

/// A row reduction's accumulation loop over `[0, total)` in steps of `step` (which divides
/// the tile) with its operand's transcendentals `cands` in tiles: `body(j)` accumulates the
/// vectors at `j`, `j + lanes`, … and must mark each position it reads as live in
/// `Emitter::tile`. The steps run in the same order as the plain loop's, so the sums are
/// the same. `prefix` is the operand's index without its last (reduced) dimension.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_wide_row<'a, 'b>(
    em: &mut Emitter<'a, 'b>,
    ctx: &Ctx,
    cands: &[(InstrId, TileFn)],
    prefix: &[IdxDim],
    total: i64,
    step: i64,
    lanes: u32,
    body: &mut dyn FnMut(&mut Emitter<'a, 'b>, Value) -> Result<()>,
) -> Result<Value> {
    let cache_id = ctx
        .cache_id
        .ok_or_else(|| oxla_hlo::Error::internal("wide math without a cache"))?;
    if TILE % step != 0 || total % step != 0 {
        return Err(oxla_hlo::Error::internal("wide row tile"));
    }
    let bufs = tile_buffers(em, cands);
    let zero = em.iconst(0);
    let lim = em.iconst(total);
    em.for_loop(zero, lim, TILE, &mut |em, jt| {
        let (n, te) = begin_tile(em, cache_id, prefix.to_vec(), jt, lim);
        for (&cand, &buf) in cands.iter().zip(&bufs) {
            let arg = ctx.comp.instr(cand.0).operands[0];
            // Whole vectors only: the tile is a multiple of `step`, itself of `lanes`.
            em.for_loop(jt, te, lanes as i64, &mut |em, j| {
                if let Some(t) = em.tile.as_mut() {
                    t.live = vec![j];
                }
                let mut d = prefix.to_vec();
                d.push((j, 1));
                let v = em.emit1(ctx, arg, &Idx { d, lanes })?;
                let v = em.splat(v, lanes)?;
                let off = em.b.ins().isub(j, jt);
                em.store(v, buf, off)
            })?;
            let mut at = prefix.to_vec();
            at.push((jt, 1));
            apply(em, ctx, cand, buf, n, &at)?;
        }
        let r = em.for_loop(jt, te, step, body);
        em.tile = None;
        r.map(|_| ())
    })?;
    Ok(lim)
}
