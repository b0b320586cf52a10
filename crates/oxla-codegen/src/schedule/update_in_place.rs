//! In-place dynamic-update-slice: only the update is written into the operand's memory.

use cranelift_codegen::ir::InstBuilder;
use oxla_hlo::Result;

use super::gen_loops;
use crate::emit::{Ctx, Emitter, Idx};
use crate::kernel::split_dim;

/// out[start + u] = update[u] for every update index u, the start clamped as
/// dynamic-update-slice clamps it; the rest of `out` is left as it is.
pub(crate) fn gen_update_in_place(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    out: cranelift_codegen::ir::Value,
    lanes: u32,
) -> Result<()> {
    let od = ctx.comp.instr(ins.operands[0]).shape.dims().to_vec();
    let ud = ctx.comp.instr(ins.operands[1]).shape.dims().to_vec();
    if ud.contains(&0) {
        return Ok(());
    }
    let mut starts = Vec::new();
    for k in 0..od.len() {
        let v = em.emit1(
            ctx,
            ins.operands[2 + k],
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        let s = em.widen_i64(v);
        let lo = em.iconst(0);
        let hi = em.iconst((od[k] - ud[k]).max(0));
        let a = em.b.ins().smax(s, lo);
        starts.push(em.b.ins().smin(a, hi));
    }
    let store = |em: &mut Emitter, idx: &Idx| -> Result<()> {
        let v = em.emit1(ctx, ins.operands[1], idx)?;
        let d = idx
            .d
            .iter()
            .zip(&starts)
            .map(|(&(b, st), &s)| (em.b.ins().iadd(b, s), st))
            .collect();
        let (off, _) = em.linear(
            &Idx {
                d,
                lanes: idx.lanes,
            },
            &od,
        );
        em.store(v, out, off)
    };
    if ud.is_empty() {
        return store(
            em,
            &Idx {
                d: vec![],
                lanes: 1,
            },
        );
    }
    let zero = em.iconst(0);
    let end = em.iconst(ud[split_dim(&ud)]);
    let l = if *ud.last().unwrap_or(&0) >= lanes as i64 {
        lanes
    } else {
        1
    };
    gen_loops(em, &ud, 0, &mut Vec::new(), zero, end, l, &store)
}
