//! Prefix scans: a reduce-window that is a running reduction along one dimension, in O(n).
//! Along the last dimension each line keeps a running accumulator ([`gen_scan`]); along any
//! other dimension the loop over the scanned dimension sits outside the dimensions after it,
//! so a step combines the previous output row with the next input row a vector at a time
//! ([`gen_scan_outer`]) instead of walking columns element by element.

use cranelift_codegen::ir::Value;
use oxla_hlo::{Error, HloInstruction, Result};

use crate::emit::{self, Ctx, Emitter, Idx};
use crate::schedule::loops::inner_loops;

/// The dimension a scan kernel along `d` of an array of `dims` splits its calls' range over:
/// the outermost dimension, or the next one when the scan runs along the outermost (its
/// rows depend on each other). `None`: the kernel runs as one call.
pub(crate) fn scan_split(dims: &[i64], d: usize) -> Option<usize> {
    match (d, dims.len()) {
        (_, 0 | 1) => None,
        (0, _) => Some(1),
        _ => Some(0),
    }
}

/// The least bytes of each scanned row a task of an outer scan takes. Split across the
/// dimension after the scanned one, a task walks every row of the scan through its segment;
/// narrow segments of rows kilobytes apart waste the lines and pages they touch: a [4096,
/// 512] f32 cumsum along axis 0 ran in 0.30 ms on 8 threads of a 16-core Xeon in 16-column
/// (64-byte) tasks but took 0.53-0.62 ms on 16 in 8-column ones (1.05 ms on one thread).
const SEGMENT_MIN_BYTES: usize = 256;

/// The granule (in indices of dimension `split`) of an outer scan's tasks: whole segments of
/// at least [`SEGMENT_MIN_BYTES`] of each row. The outermost split (a scan along a middle
/// dimension) has contiguous tasks and needs none.
pub(crate) fn scan_granule(dims: &[i64], split: usize, elem_bytes: usize) -> i64 {
    if split == 0 {
        return 1;
    }
    let inner: i64 = dims[split + 1..].iter().product::<i64>().max(1);
    let seg = inner as usize * elem_bytes.max(1);
    SEGMENT_MIN_BYTES.div_ceil(seg).max(1) as i64
}

/// out[.., j, ..] = out[.., j - 1, ..] ⊕ x[.., j, ..] for a scan along `d` < rank - 1
/// (out[.., 0, ..] = init ⊕ x[.., 0, ..]): the same operations, in the same order per
/// element, as [`gen_scan`]'s running accumulator, with the last dimension `lanes` at a
/// time. Dimension `split` runs over `range`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_scan_outer(
    em: &mut Emitter,
    ctx: &Ctx,
    ins: &HloInstruction,
    dims: &[i64],
    d: usize,
    split: usize,
    range: (Value, Value),
    out: Value,
    lanes: u32,
) -> Result<()> {
    let reducer = *ins
        .called
        .first()
        .ok_or_else(|| Error::internal("reduce-window without computation"))?;
    let t = ins.shape.element_type();
    let rank = dims.len();
    if d + 1 >= rank {
        return Err(Error::internal("outer scan along the last dimension"));
    }
    // One step of the innermost dimension at `idx` (`first`: the scanned index is 0).
    let mut step = |em: &mut Emitter, idx: &Idx, first: bool| -> Result<()> {
        let x = em.emit1(ctx, ins.operands[0], idx)?;
        let prev = if first {
            let init = em.emit1(
                ctx,
                ins.operands[1],
                &Idx {
                    d: vec![],
                    lanes: 1,
                },
            )?;
            em.splat(init, idx.lanes)?
        } else {
            let mut before = idx.d.clone();
            before[d].0 = em.add_imm(before[d].0, -1);
            let (off, ls) = em.linear(
                &Idx {
                    d: before,
                    lanes: idx.lanes,
                },
                dims,
            );
            em.load(t, out, off, ls, idx.lanes)?
        };
        let r = em.call_computation(reducer, vec![prev, x])?;
        let (off, _) = em.linear(idx, dims);
        em.store(r[0], out, off)
    };
    outer_level(
        em,
        dims,
        d,
        split,
        range,
        lanes,
        0,
        &mut Vec::new(),
        None,
        &mut step,
    )
}

/// The loop over dimension `k` (the scanned one peeled: its index 0 first) and, below the
/// last, the innermost dimension's vector loops.
#[allow(clippy::too_many_arguments)]
fn outer_level(
    em: &mut Emitter,
    dims: &[i64],
    d: usize,
    split: usize,
    range: (Value, Value),
    lanes: u32,
    k: usize,
    prefix: &mut Vec<Value>,
    first: Option<bool>,
    step: &mut dyn FnMut(&mut Emitter, &Idx, bool) -> Result<()>,
) -> Result<()> {
    let rank = dims.len();
    let (lo, hi) = if k == split {
        range
    } else {
        (em.iconst(0), em.iconst(dims[k]))
    };
    if k + 1 == rank {
        let known = (k != split).then_some(dims[k]);
        let first = first.unwrap_or(false);
        return inner_loops(
            em,
            prefix,
            (lo, hi),
            dims[k],
            known,
            lanes,
            &mut |em, idx| step(em, idx, first),
        );
    }
    if k == d {
        let zero = em.iconst(0);
        prefix.push(zero);
        let r = outer_level(
            em,
            dims,
            d,
            split,
            range,
            lanes,
            k + 1,
            prefix,
            Some(true),
            step,
        );
        prefix.pop();
        r?;
        let one = em.iconst(1);
        em.for_loop(one, hi, 1, &mut |em, j| {
            prefix.push(j);
            let r = outer_level(
                em,
                dims,
                d,
                split,
                range,
                lanes,
                k + 1,
                prefix,
                Some(false),
                step,
            );
            prefix.pop();
            r
        })?;
        return Ok(());
    }
    em.for_loop(lo, hi, 1, &mut |em, i| {
        prefix.push(i);
        let r = outer_level(em, dims, d, split, range, lanes, k + 1, prefix, first, step);
        prefix.pop();
        r
    })?;
    Ok(())
}

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
