//! Column reductions: reductions that keep the last dimension sweep rows into the output,
//! vectorized along it (contiguous reads).

use oxla_hlo::{Error, Op, PrimitiveType, Result};

use crate::emit::{Ctx, Emitter, Idx};
use crate::kernel::split_dim;

/// The column-reduction kernel: for each outer kept index, out[.., j] = init for j in the
/// task's range, then for every reduced index, out[.., j] op= x[.., r, .., j] (vectorized
/// along j). Returns the kernel's granule: where blocks of columns tile the last dimension
/// exactly, a range over it must start at a multiple of the block width, and the kernel
/// has no code for leftover columns (about a third of a column sum's instructions).
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_column_reduce(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    op: oxla_hlo::BinaryOp,
    out_dims: &[i64],
    out: cranelift_codegen::ir::Value,
    start: cranelift_codegen::ir::Value,
    end: cranelift_codegen::ir::Value,
    lanes: u32,
) -> Result<i64> {
    let Op::Reduce { dimensions } = &ins.op else {
        return Err(Error::internal("reduce expected"));
    };
    let in_dims = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
    let t = ins.shape.element_type();
    let split = split_dim(out_dims);
    let last = out_dims.len() - 1;
    let reduced: Vec<usize> = (0..in_dims.len())
        .filter(|d| dimensions.contains(&(*d as i64)))
        .collect();
    // Blocks of `block` vectors of columns: the accumulators stay in registers over every
    // reduced index and are stored once (a sweep per row would load and store the
    // output once per row, each waiting on the previous row's store). Each column still
    // combines its rows in order, so the results are the same bit for bit. Each block is
    // `block` dependency chains of adds, one per row: eight hide the adds' latency (a
    // 16-row column sum in a loop body: 140 -> 90 ns), four take half the code. Short
    // sweeps (at most 64 rows, in cache, latency-bound) get eight; long ones stream
    // memory, where four keep up and compile faster.
    let rows_reduced: i64 = reduced.iter().map(|&d| in_dims[d]).product();
    let block: i64 = if rows_reduced <= 64 { 8 } else { 4 };
    let width = block * lanes as i64;
    let exact = lanes > 1 && out_dims[last] % width == 0;
    // Recursion over the output's outer dimensions, then the sweep.
    #[allow(clippy::too_many_arguments)]
    fn outer(
        em: &mut Emitter,
        ctx: &Ctx,
        ins: &oxla_hlo::HloInstruction,
        op: oxla_hlo::BinaryOp,
        out_dims: &[i64],
        in_dims: &[i64],
        reduced: &[usize],
        out: cranelift_codegen::ir::Value,
        range: (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
        split: usize,
        k: usize,
        prefix: &mut Vec<cranelift_codegen::ir::Value>,
        lanes: u32,
        t: PrimitiveType,
        (block, exact): (i64, bool),
    ) -> Result<()> {
        let last = out_dims.len() - 1;
        if k < last {
            let (lo, hi) = if k == split {
                range
            } else {
                (em.iconst(0), em.iconst(out_dims[k]))
            };
            em.for_loop(lo, hi, 1, &mut |em, i| {
                prefix.push(i);
                let r = outer(
                    em,
                    ctx,
                    ins,
                    op,
                    out_dims,
                    in_dims,
                    reduced,
                    out,
                    range,
                    split,
                    k + 1,
                    prefix,
                    lanes,
                    t,
                    (block, exact),
                );
                prefix.pop();
                r
            })?;
            return Ok(());
        }
        // The j range of this task.
        let (jlo, jhi) = if split == last {
            range
        } else {
            (em.iconst(0), em.iconst(out_dims[last]))
        };
        let pre = prefix.clone();
        let out_idx = |j: cranelift_codegen::ir::Value, l: u32| {
            let mut d: Vec<_> = pre.iter().map(|&p| (p, 0)).collect();
            d.push((j, (l > 1) as i64));
            Idx { d, lanes: l }
        };
        // out = init over the range.
        let init = em.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        // Every reduced index, in order (nested loops over the reduced dimensions).
        fn rows(
            em: &mut Emitter,
            reduced: &[usize],
            in_dims: &[i64],
            counters: &mut Vec<cranelift_codegen::ir::Value>,
            body: &mut dyn FnMut(&mut Emitter, &[cranelift_codegen::ir::Value]) -> Result<()>,
        ) -> Result<()> {
            if counters.len() == reduced.len() {
                let c = counters.clone();
                return body(em, &c);
            }
            let zero = em.iconst(0);
            let hi = em.iconst(in_dims[reduced[counters.len()]]);
            em.for_loop(zero, hi, 1, &mut |em, r| {
                counters.push(r);
                let res = rows(em, reduced, in_dims, counters, body);
                counters.pop();
                res
            })?;
            Ok(())
        }
        // The operand at reduced indices `rs` and output column `j` (`l` lanes along it).
        let operand_idx = |rs: &[cranelift_codegen::ir::Value], oi: &Idx| -> Idx {
            let mut d = Vec::new();
            let (mut ki, mut ri) = (0, 0);
            for kd in 0..in_dims.len() {
                if reduced.contains(&kd) {
                    d.push((rs[ri], 0));
                    ri += 1;
                } else {
                    d.push(oi.d[ki]);
                    ki += 1;
                }
            }
            Idx { d, lanes: oi.lanes }
        };
        let mut after_blocks = jlo;
        if lanes > 1 {
            let l = lanes as i64;
            let width = block * l;
            let lim = em.add_imm(jhi, -(width - 1));
            after_blocks = em.for_loop(jlo, lim, width, &mut |em, j0| {
                let first = em.splat(init, lanes)?;
                let vty = em.b.func.dfg.value_type(first.v);
                let accs: Vec<cranelift_frontend::Variable> = (0..block)
                    .map(|_| {
                        let v = em.b.declare_var(vty);
                        em.b.def_var(v, first.v);
                        v
                    })
                    .collect();
                rows(em, reduced, in_dims, &mut Vec::new(), &mut |em, rs| {
                    for (b, &acc) in accs.iter().enumerate() {
                        let j = em.add_imm(j0, b as i64 * l);
                        let x =
                            em.emit1(ctx, ins.operands[0], &operand_idx(rs, &out_idx(j, lanes)))?;
                        let cur = crate::emit::Val {
                            v: em.b.use_var(acc),
                            ..first
                        };
                        let v = em.binary(op, cur, x)?;
                        em.b.def_var(acc, v.v);
                    }
                    Ok(())
                })?;
                for (b, &acc) in accs.iter().enumerate() {
                    let j = em.add_imm(j0, b as i64 * l);
                    let (off, _) = em.linear(&out_idx(j, lanes), out_dims);
                    let v = crate::emit::Val {
                        v: em.b.use_var(acc),
                        ..first
                    };
                    em.store(v, out, off)?;
                }
                Ok(())
            })?;
        }
        if exact {
            // The blocks covered the range (see `granule` below).
            return Ok(());
        }
        // The columns left: out = init, then each row swept into it.
        let sweep = |em: &mut Emitter,
                     body: &mut dyn FnMut(
            &mut Emitter,
            cranelift_codegen::ir::Value,
            u32,
        ) -> Result<()>|
         -> Result<()> {
            let l = lanes as i64;
            let lim = em.add_imm(jhi, -(l - 1));
            let after = em.for_loop(after_blocks, lim, l, &mut |em, j| body(em, j, lanes))?;
            em.for_loop(after, jhi, 1, &mut |em, j| body(em, j, 1))?;
            Ok(())
        };
        sweep(em, &mut |em, j, l| {
            let v = em.splat(init, l)?;
            let (off, _) = em.linear(&out_idx(j, l), out_dims);
            em.store(v, out, off)
        })?;
        rows(em, reduced, in_dims, &mut Vec::new(), &mut |em, rs| {
            let rs = rs.to_vec();
            sweep(em, &mut |em, j, l| {
                // Operand index: kept dims from the output index, reduced from the rows.
                let oi = out_idx(j, l);
                let x = em.emit1(ctx, ins.operands[0], &operand_idx(&rs, &oi))?;
                let (off, _) = em.linear(&oi, out_dims);
                let cur = em.load(t, out, off, 1, l)?;
                let v = em.binary(op, cur, x)?;
                em.store(v, out, off)
            })
        })
    }
    outer(
        em,
        ctx,
        ins,
        op,
        out_dims,
        &in_dims,
        &reduced,
        out,
        (start, end),
        split,
        0,
        &mut Vec::new(),
        lanes,
        t,
        (block, exact),
    )?;
    // A range over the columns themselves must cover whole blocks.
    Ok(if exact && split == last { width } else { 1 })
}
