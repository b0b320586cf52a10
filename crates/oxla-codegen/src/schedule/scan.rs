//! Prefix scans: a reduce-window that is a running reduction along one dimension, in O(n).

use oxla_hlo::{Error, Result};

use crate::emit::{self, Ctx, Emitter, Idx};

/// out[.., j, ..] = init ⊕ x[.., 0, ..] ⊕ … ⊕ x[.., j, ..] along `d`, one running
/// accumulator per line (the same order of operations as the window evaluation). When `d`
/// is the outermost dimension the kernel is not split (its extent is reported as 1).
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_scan(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &oxla_hlo::HloInstruction,
    dims: &[i64],
    d: usize,
    range: (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
    out: cranelift_codegen::ir::Value,
    k: usize,
    prefix: &mut Vec<cranelift_codegen::ir::Value>,
) -> Result<()> {
    let reducer = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal("reduce-window without computation"))?;
    if k == dims.len() {
        let init = em.emit1(
            ctx,
            ins.operands[1],
            &Idx {
                d: vec![],
                lanes: 1,
            },
        )?;
        let ty = em.b.func.dfg.value_type(init.v);
        let acc = em.b.declare_var(ty);
        em.b.def_var(acc, init.v);
        let zero = em.iconst(0);
        let hi = em.iconst(dims[d]);
        let pre = prefix.clone();
        em.for_loop(zero, hi, 1, &mut |em, j| {
            let mut idx = Vec::new();
            let mut p = 0;
            for kk in 0..dims.len() {
                if kk == d {
                    idx.push((j, 0));
                } else {
                    idx.push((pre[p], 0));
                    p += 1;
                }
            }
            let idx = Idx { d: idx, lanes: 1 };
            let x = em.emit1(ctx, ins.operands[0], &idx)?;
            let cur = emit::Val {
                v: em.b.use_var(acc),
                t: init.t,
                lanes: 1,
            };
            let r = em.call_computation(reducer, vec![cur, x])?;
            em.b.def_var(acc, r[0].v);
            let (off, _) = em.linear(&idx, dims);
            em.store(r[0], out, off)
        })?;
        return Ok(());
    }
    if k == d {
        return gen_scan(em, ctx, ins, dims, d, range, out, k + 1, prefix);
    }
    let (lo, hi) = if k == 0 {
        range
    } else {
        (em.iconst(0), em.iconst(dims[k]))
    };
    em.for_loop(lo, hi, 1, &mut |em, i| {
        prefix.push(i);
        let r = gen_scan(em, ctx, ins, dims, d, range, out, k + 1, prefix);
        prefix.pop();
        r
    })?;
    Ok(())
}
