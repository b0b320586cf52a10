//! Scatter: a copy of the operands, then every update combined into its target in order.
//! Where an update window dimension covers a whole operand dimension that no index
//! offsets, the kernel computes one range of that dimension (copy and updates), so ranges
//! split across threads write disjoint elements and apply each element's updates in the
//! same order as one thread would: the same result, bit for bit.

use cranelift_codegen::ir::InstBuilder;
use oxla_hlo::{Error, Op, PrimitiveType, Result};

use super::loops::gen_loops_with;
use super::{gen_loops, gen_loops_split};
use crate::emit::{self, Ctx, Emitter, Idx};
use crate::kernel::split_dim;

/// The operand dimension and update window dimension a scatter may be split along: a
/// window dimension as long as its operand dimension, which no scatter index offsets.
pub(crate) fn parallel_dims(
    ins: &oxla_hlo::HloInstruction,
    xd: &[i64],
    ud: &[i64],
) -> Option<(usize, usize)> {
    let Op::Scatter { dnums, .. } = &ins.op else {
        return None;
    };
    let window_operand: Vec<usize> = (0..xd.len())
        .filter(|d| {
            !dnums.inserted_window_dims.contains(&(*d as i64))
                && !dnums.input_batching_dims.contains(&(*d as i64))
        })
        .collect();
    dnums
        .update_window_dims
        .iter()
        .enumerate()
        .map(|(k, &wd)| (window_operand.get(k).copied(), wd as usize))
        .find_map(|(d, wd)| {
            let d = d?;
            let offset = dnums.scatter_dims_to_operand_dims.contains(&(d as i64));
            (!offset && ud.get(wd) == xd.get(d) && xd[d] > 1).then_some((d, wd))
        })
}

/// Bytes of each operand row a split range covers at least, where the split dimension is
/// the operand's innermost: ranges of whole 256-byte groups keep threads off each other's
/// cache lines and their adjacent-line prefetches. Split at 16 columns (64 bytes) of a
/// 128-column f32 scatter, two threads ran it at 0.30 ms against one thread's 0.19 (Intel
/// Xeon, 2 cores, scatter_add bench program); at 64 columns, 0.
const SPLIT_ROW_BYTES: i64 = 4096;

/// The granule of a scatter split along operand dimension `d` (see [`SPLIT_ROW_BYTES`]).
fn split_granule(ctx: &Ctx, ins: &oxla_hlo::HloInstruction, xd: &[i64], d: usize) -> i64 {
    if d + 1 != xd.len() {
        return 1;
    }
    let n = (ins.operands.len() - 1) / 2;
    let widest = (0..n)
        .map(|j| {
            ctx.comp
                .instr(ins.operands[j])
                .shape
                .element_type()
                .byte_size() as i64
        })
        .max()
        .unwrap_or(1)
        .max(1);
    (SPLIT_ROW_BYTES / widest).clamp(1, xd[d])
}

/// scatter: the outputs start as copies of the operands (unless `copy` is false: the
/// outputs are the operands' own memory); then, in order, every update element whose
/// target lies inside the operand is combined into it with the (inlined) update
/// computation. Returns the extent of the dimension the kernel's `[start, end)` covers
/// (see [`parallel_dims`]) and the granule callers split it at, or None when it runs whole
/// on one thread.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_scatter(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    out_ptrs: &[cranelift_codegen::ir::Value],
    lanes: u32,
    range: (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
    copy: bool,
) -> Result<Option<(i64, i64)>> {
    let Op::Scatter { dnums, .. } = &ins.op else {
        return Err(Error::internal("scatter expected"));
    };
    let n = (ins.operands.len() - 1) / 2;
    let xd = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
    let ud = ctx.comp.instr(ins.operands[n + 1]).shape.dims().to_vec();
    let id_dims = ctx.comp.instr(ins.operands[n]).shape.dims().to_vec();
    let comp = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal("scatter without computation"))?;
    let split = if xd.contains(&0) || ud.contains(&0) {
        None
    } else {
        parallel_dims(ins, &xd, &ud)
    };
    // 1. Copy the operands.
    let copy_at = |em: &mut Emitter, idx: &Idx| -> Result<()> {
        let (off, _) = em.linear(idx, &xd);
        for (j, &out) in out_ptrs.iter().enumerate().take(n) {
            let v = em.emit1(ctx, ins.operands[j], idx)?;
            em.store(v, out, off)?;
        }
        Ok(())
    };
    if let Some(rows) = row_add(em.m, ctx, ins, comp, &xd, &ud, &id_dims) {
        // Whole rows added at targets a first index picks (an embedding's gradient): the
        // kernel's range is of target rows, each thread walks every index and adds the
        // updates of its own rows, in order (`oxla_kernels::scatter_rows`).
        let l = if *xd.last().unwrap_or(&0) >= lanes as i64 {
            lanes
        } else {
            1
        };
        if copy {
            gen_loops_split(em, &xd, 0, 0, &mut Vec::new(), range, l, &copy_at)?;
        }
        let row: i64 = xd[1..].iter().product();
        let args = [
            out_ptrs[0],
            em.iconst(row),
            rows.indices,
            em.iconst(rows.wide_indices as i64),
            em.iconst(ud[0]),
            rows.updates,
            range.0,
            range.1,
            em.iconst(rows.current_first as i64),
        ];
        em.call_helper_void("oxla_scatter_add_rows_f32", &args)?;
        let granule = (SPLIT_ROW_BYTES / (4 * row).max(1)).clamp(1, xd[0]);
        return Ok(Some((xd[0], granule)));
    }
    if let (Some((d, _)), true) = (split, copy) {
        let l = if *xd.last().unwrap_or(&0) >= lanes as i64 {
            lanes
        } else {
            1
        };
        gen_loops_split(em, &xd, d, 0, &mut Vec::new(), range, l, &copy_at)?;
    } else if copy && !xd.contains(&0) {
        let zero = em.iconst(0);
        let end = em.iconst(if xd.is_empty() { 1 } else { xd[split_dim(&xd)] });
        if xd.is_empty() {
            copy_at(
                em,
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?;
        } else {
            let l = if *xd.last().unwrap_or(&0) >= lanes as i64 {
                lanes
            } else {
                1
            };
            gen_loops(em, &xd, 0, &mut Vec::new(), zero, end, l, &copy_at)?;
        }
    }
    if ud.contains(&0) {
        return Ok(None);
    }
    // 2. Apply the updates in order.
    let scatter_dims: Vec<usize> = (0..ud.len())
        .filter(|d| !dnums.update_window_dims.contains(&(*d as i64)))
        .collect();
    let window_operand: Vec<usize> = (0..xd.len())
        .filter(|d| {
            !dnums.inserted_window_dims.contains(&(*d as i64))
                && !dnums.input_batching_dims.contains(&(*d as i64))
        })
        .collect();
    let ivd = dnums.index_vector_dim as usize;
    let idx_batch_dims: Vec<usize> = (0..id_dims.len()).filter(|&d| d != ivd).collect();
    let types: Vec<PrimitiveType> = (0..n)
        .map(|j| ctx.comp.instr(ins.operands[j]).shape.element_type())
        .collect();
    // The operand offset update element `idx` combines into, in a block entered only
    // when that target lies inside the operand; returns the offset and the block to jump
    // to when done.
    let guarded_target =
        |em: &mut Emitter,
         idx: &Idx|
         -> Result<(cranelift_codegen::ir::Value, cranelift_codegen::ir::Block)> {
            let u: Vec<cranelift_codegen::ir::Value> = idx.d.iter().map(|x| x.0).collect();
            let zero = em.iconst(0);
            let mut ipos: Vec<emit::IdxDim> = Vec::new();
            let mut b = scatter_dims.iter();
            for k in 0..id_dims.len() {
                if k == ivd {
                    ipos.push((zero, 0));
                } else {
                    ipos.push((b.next().map(|&d| u[d]).unwrap_or(zero), 0));
                }
            }
            let mut target = vec![zero; xd.len()];
            for (k, &od) in dnums.scatter_dims_to_operand_dims.iter().enumerate() {
                let mut p = ipos.clone();
                if ivd < id_dims.len() {
                    p[ivd] = (em.iconst(k as i64), 0);
                }
                let v = em.emit1(ctx, ins.operands[n], &Idx { d: p, lanes: 1 })?;
                target[od as usize] = em.widen_i64(v);
            }
            for (k, &ob) in dnums.input_batching_dims.iter().enumerate() {
                let ib = dnums.scatter_indices_batching_dims[k] as usize;
                let pos = idx_batch_dims.iter().position(|&d| d == ib).unwrap_or(0);
                if let Some(&sd) = scatter_dims.get(pos) {
                    target[ob as usize] = u[sd];
                }
            }
            for (k, &wd) in dnums.update_window_dims.iter().enumerate() {
                let d = window_operand[k];
                target[d] = em.b.ins().iadd(target[d], u[wd as usize]);
            }
            // In bounds? (unsigned compare also rejects negatives)
            let mut ok: Option<cranelift_codegen::ir::Value> = None;
            for (d, &t) in target.iter().enumerate() {
                let c = em.b.ins().icmp_imm_s(
                    cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThan,
                    t,
                    xd[d],
                );
                ok = Some(match ok {
                    None => c,
                    Some(o) => em.b.ins().band(o, c),
                });
            }
            let ok = ok.unwrap_or_else(|| em.b.ins().iconst(cranelift_codegen::ir::types::I8, 1));
            let apply = em.b.create_block();
            let next = em.b.create_block();
            em.b.ins().brif(ok, apply, &[], next, &[]);
            em.b.switch_to_block(apply);
            em.b.seal_block(apply);
            let tidx = Idx {
                d: target.iter().map(|&t| (t, 0)).collect(),
                lanes: 1,
            };
            let (off, _) = em.linear(&tidx, &xd);
            Ok((off, next))
        };
    let body = |em: &mut Emitter, idx: &Idx| -> Result<()> {
        let (off, next) = guarded_target(em, idx)?;
        let mut args = Vec::new();
        // A vector of lanes runs along the innermost window dimension, contiguous in the
        // operand and inside it whenever its first lane is (see `vector_updates`).
        let l = idx.lanes;
        for j in 0..n {
            args.push(em.load(types[j], out_ptrs[j], off, (l > 1) as i64, l)?);
        }
        for j in 0..n {
            args.push(em.emit1(ctx, ins.operands[n + 1 + j], idx)?);
        }
        let r = em.call_computation(comp, args)?;
        for j in 0..n {
            let v = em.convert(r[j], types[j])?;
            em.store(v, out_ptrs[j], off)?;
        }
        em.b.ins().jump(next, &[]);
        em.b.switch_to_block(next);
        em.b.seal_block(next);
        Ok(())
    };
    if let Some((d, wd)) = split {
        if let Some(wide) = wide_add(em.m, ctx, ins, comp, &xd, &ud, (d, wd)) {
            // Each update's row in one call at the CPU's full width: the bounds check of
            // the row's first element holds for all of it (as for `vector_updates`).
            gen_loops_with(
                em,
                &ud,
                wd,
                0,
                &mut Vec::new(),
                range,
                &mut |em, prefix, (lo, hi), _extent, _known| {
                    let mut d: Vec<emit::IdxDim> = prefix.iter().map(|&p| (p, 0)).collect();
                    d.push((lo, 1));
                    let idx = Idx { d, lanes: 1 };
                    let (uoff, _) = em.linear(&idx, &ud);
                    let ubytes = em.mul_imm(uoff, 4);
                    let upd = em.add(wide.updates, ubytes);
                    let len = em.b.ins().isub(hi, lo);
                    let (off, next) = guarded_target(em, &idx)?;
                    let tbytes = em.mul_imm(off, 4);
                    let dst = em.add(out_ptrs[0], tbytes);
                    let (x, y) = if wide.current_first {
                        (dst, upd)
                    } else {
                        (upd, dst)
                    };
                    em.call_helper_void("oxla_vadd_f32", &[dst, x, y, len])?;
                    em.b.ins().jump(next, &[]);
                    em.b.switch_to_block(next);
                    em.b.seal_block(next);
                    Ok(())
                },
            )?;
            return Ok(Some((xd[d], split_granule(ctx, ins, &xd, d))));
        }
        // Vectors along the split dimension where it is innermost in both the updates and
        // the operand: the window's lanes then cover operand elements [j, j + lanes) of a
        // dimension as long as the window's, so the first lane's bounds check holds for all.
        let vector_updates = d + 1 == xd.len() && wd + 1 == ud.len() && ud[wd] >= lanes as i64;
        let l = if vector_updates { lanes } else { 1 };
        gen_loops_split(em, &ud, wd, 0, &mut Vec::new(), range, l, &body)?;
        return Ok(Some((xd[d], split_granule(ctx, ins, &xd, d))));
    }
    let zero = em.iconst(0);
    let end = em.iconst(if ud.is_empty() { 1 } else { ud[split_dim(&ud)] });
    if ud.is_empty() {
        body(
            em,
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
    } else {
        gen_loops(em, &ud, 0, &mut Vec::new(), zero, end, 1, &body)?;
    }
    Ok(None)
}

/// A scatter whose rows [`gen_scatter`] adds with one `vmath` call each (`oxla_vadd_f32`,
/// 16 or 8 lanes instead of the kernel's 4): one f32 operand, updates read from an input
/// buffer, an update computation that is exactly `add` of the current value and the
/// update (either order; f32 sums round and pick NaN operands alike at any width), and the
/// split dimension innermost in both operand and updates (so each update row lands whole
/// inside the operand whenever its first element does).
struct WideAdd {
    /// The updates' buffer.
    updates: cranelift_codegen::ir::Value,
    /// The sum is `current + update` (else `update + current`).
    current_first: bool,
}

/// Rows shorter than this keep the kernel's own vector loop (a call costs more).
const WIDE_ADD_MIN_ROW: i64 = 32;

/// [`WideAdd`] for scatter `ins` with update computation `comp`, split along operand
/// dimension `d` and update dimension `wd`, where it applies.
fn wide_add(
    m: &oxla_hlo::HloModule,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    comp: oxla_hlo::ComputationId,
    xd: &[i64],
    ud: &[i64],
    (d, wd): (usize, usize),
) -> Option<WideAdd> {
    if ins.operands.len() != 3
        || d + 1 != xd.len()
        || wd + 1 != ud.len()
        || ud[wd] < WIDE_ADD_MIN_ROW
        || !super::wide_enabled()
    {
        return None;
    }
    let f32_of =
        |id: oxla_hlo::InstrId| ctx.comp.instr(id).shape.element_type() == PrimitiveType::F32;
    if !f32_of(ins.operands[0]) || !f32_of(ins.operands[2]) {
        return None;
    }
    let emit::Leaves::Buffers(ptrs) = &ctx.leaves else {
        return None;
    };
    let updates = ptrs.get(ins.operands[2].index()).copied().flatten()?;
    let current_first = add_order(m, comp)?;
    Some(WideAdd {
        updates,
        current_first,
    })
}

/// A scatter [`gen_scatter`] runs as `oxla_kernels::scatter_rows`: its inputs' buffers.
struct RowAdd {
    updates: cranelift_codegen::ir::Value,
    indices: cranelift_codegen::ir::Value,
    /// 64-bit indices (else 32-bit).
    wide_indices: bool,
    current_first: bool,
}

/// [`RowAdd`] for scatter `ins` (update computation `comp`) where it applies: one f32
/// operand whose first dimension one index per update picks (s32 or s64 indices, `[N]` or
/// `[N, 1]`), each update a whole row of the operand (`[N, rest of the operand]`), the
/// computation `add` of the current value and the update (either order), and the indices
/// and updates read from input buffers.
fn row_add(
    m: &oxla_hlo::HloModule,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    comp: oxla_hlo::ComputationId,
    xd: &[i64],
    ud: &[i64],
    id_dims: &[i64],
) -> Option<RowAdd> {
    let Op::Scatter { dnums, .. } = &ins.op else {
        return None;
    };
    let r = xd.len();
    let window: Vec<i64> = (1..r as i64).collect();
    let ivd = dnums.index_vector_dim as usize;
    let shapes = r >= 2
        && ud.len() == r
        && ud[1..] == xd[1..]
        && ud[0] > 0
        && !xd.contains(&0)
        && dnums.inserted_window_dims == [0]
        && dnums.update_window_dims == window
        && dnums.scatter_dims_to_operand_dims == [0]
        && dnums.input_batching_dims.is_empty()
        && ivd == 1
        && (id_dims == [ud[0]] || id_dims == [ud[0], 1]);
    if !shapes || ins.operands.len() != 3 || !super::wide_enabled() {
        return None;
    }
    let t = |k: usize| ctx.comp.instr(ins.operands[k]).shape.element_type();
    let wide_indices = match t(1) {
        PrimitiveType::S32 => false,
        PrimitiveType::S64 => true,
        _ => return None,
    };
    if t(0) != PrimitiveType::F32 || t(2) != PrimitiveType::F32 {
        return None;
    }
    let emit::Leaves::Buffers(ptrs) = &ctx.leaves else {
        return None;
    };
    let updates = ptrs.get(ins.operands[2].index()).copied().flatten()?;
    let indices = ptrs.get(ins.operands[1].index()).copied().flatten()?;
    let current_first = add_order(m, comp)?;
    Some(RowAdd {
        updates,
        indices,
        wide_indices,
        current_first,
    })
}

/// For an update computation that is exactly `add` of the current value and the update:
/// whether the sum is `current + update` (else `update + current`); None for any other.
fn add_order(m: &oxla_hlo::HloModule, comp: oxla_hlo::ComputationId) -> Option<bool> {
    let c = m.computation(comp);
    let root = c.instr(c.root);
    let (Op::Binary(oxla_hlo::BinaryOp::Add), [l, r]) = (&root.op, root.operands.as_slice()) else {
        return None;
    };
    let param = |id: oxla_hlo::InstrId| match c.instr(id).op {
        Op::Parameter { number } => Some(number),
        _ => None,
    };
    match (param(*l)?, param(*r)?) {
        (0, 1) => Some(true),
        (1, 0) => Some(false),
        _ => None,
    }
}
