//! The plain loop nest over a kernel's output: the split dimension over `[start, end)`, the
//! innermost dimension two vectors at a time, then one vector, then a scalar tail.

use cranelift_codegen::ir::Value;
use oxla_hlo::Result;

use crate::emit::{Emitter, Idx, Seg};
use crate::kernel::split_dim;

/// What runs the innermost dimension over `[lo, hi)` below the outer loops' indices
/// `prefix`; `extent` is the dimension's size and `known` the trip count where it is a
/// constant (not the split dimension).
pub(crate) type Inner<'f> =
    dyn FnMut(&mut Emitter, &[Value], (Value, Value), i64, Option<i64>) -> Result<()> + 'f;

#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_loops(
    em: &mut Emitter,
    dims: &[i64],
    k: usize,
    prefix: &mut Vec<cranelift_codegen::ir::Value>,
    start: cranelift_codegen::ir::Value,
    end: cranelift_codegen::ir::Value,
    lanes: u32,
    store_all: &dyn Fn(&mut Emitter, &Idx) -> Result<()>,
) -> Result<()> {
    gen_loops_split(
        em,
        dims,
        split_dim(dims),
        k,
        prefix,
        (start, end),
        lanes,
        store_all,
    )
}

/// [`gen_loops`] with dimension `split` (rather than the outermost non-unit one) over
/// `[start, end)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gen_loops_split(
    em: &mut Emitter,
    dims: &[i64],
    split: usize,
    k: usize,
    prefix: &mut Vec<cranelift_codegen::ir::Value>,
    (start, end): (cranelift_codegen::ir::Value, cranelift_codegen::ir::Value),
    lanes: u32,
    store_all: &dyn Fn(&mut Emitter, &Idx) -> Result<()>,
) -> Result<()> {
    gen_loops_with(
        em,
        dims,
        split,
        k,
        prefix,
        (start, end),
        &mut |em, prefix, range, extent, known| {
            inner_loops(em, prefix, range, extent, known, lanes, &mut |em, idx| {
                store_all(em, idx)
            })
        },
    )
}

/// The outer loops of [`gen_loops_split`], with `inner` running the innermost dimension.
pub(crate) fn gen_loops_with(
    em: &mut Emitter,
    dims: &[i64],
    split: usize,
    k: usize,
    prefix: &mut Vec<Value>,
    (start, end): (Value, Value),
    inner: &mut Inner,
) -> Result<()> {
    let r = dims.len();
    let (lo, hi) = if k == split {
        (start, end)
    } else {
        (em.iconst(0), em.iconst(dims[k]))
    };
    if k == r - 1 {
        let known = (k != split).then_some(dims[k]);
        return inner(em, prefix, (lo, hi), dims[k], known);
    }
    em.for_loop(lo, hi, 1, &mut |em, i| {
        prefix.push(i);
        let r = gen_loops_with(em, dims, split, k + 1, prefix, (start, end), inner);
        prefix.pop();
        r
    })?;
    Ok(())
}

/// The innermost dimension over `[lo, hi)`: two vectors per iteration, then one, then a
/// scalar tail; `body` stores the values at one index. Where the emitter has break
/// positions (`Emitter::inner_breaks`) and the dimension is whole, it runs in segments
/// between them, each body knowing its segment (`Emitter::seg`): a concatenate or pad
/// along it then reads one operand with no branch per vector, and vectors never straddle
/// an operand's edge.
pub(crate) fn inner_loops(
    em: &mut Emitter,
    prefix: &[Value],
    (lo, hi): (Value, Value),
    extent: i64,
    known: Option<i64>,
    lanes: u32,
    body: &mut dyn FnMut(&mut Emitter, &Idx) -> Result<()>,
) -> Result<()> {
    let cuts: Vec<i64> = match known {
        Some(d) if d == extent && !em.inner_breaks.is_empty() => {
            let mut c = vec![0];
            c.extend(em.inner_breaks.iter().copied().filter(|&b| b > 0 && b < d));
            c.push(d);
            c.dedup();
            c
        }
        _ => Vec::new(),
    };
    if cuts.len() < 3 {
        return inner_range(em, prefix, (lo, hi), extent, known, lanes, body);
    }
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (va, vb) = (em.iconst(a), em.iconst(b));
        let mut in_seg = |em: &mut Emitter, idx: &Idx| -> Result<()> {
            let j = idx.d.last().map(|x| x.0);
            let saved = em.seg.take();
            em.seg = j.map(|j| Seg { j, lo: a, hi: b });
            let r = body(em, idx);
            em.seg = saved;
            r
        };
        inner_range(em, prefix, (va, vb), b - a, Some(b - a), lanes, &mut in_seg)?;
    }
    Ok(())
}

/// [`inner_loops`] over one range.
fn inner_range(
    em: &mut Emitter,
    prefix: &[Value],
    (lo, hi): (Value, Value),
    extent: i64,
    known: Option<i64>,
    lanes: u32,
    body: &mut dyn FnMut(&mut Emitter, &Idx) -> Result<()>,
) -> Result<()> {
    // Which loops can run: for an inner dimension the trip counts are known, so loops
    // that would never execute are not emitted (less code, faster compiles).
    let l = lanes as i64;
    let unrolled = lanes > 1 && extent >= 4 * l;
    let rest = known.map(|d| if unrolled { d % (2 * l) } else { d });
    let vector = lanes > 1 && rest.is_none_or(|r| r >= l);
    let scalar = rest.is_none_or(|r| r % l.max(1) != 0 || lanes == 1);
    let at = |j: Value, stride: i64| {
        let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
        d.push((j, stride));
        d
    };
    let mut after = lo;
    if unrolled {
        // Two vectors per iteration: independent dependency chains for the CPU to overlap.
        let lim = em.add_imm(hi, -(2 * l - 1));
        after = em.for_loop(lo, lim, 2 * l, &mut |em, j| {
            for u in 0..2 {
                let jj = if u == 0 { j } else { em.add_imm(j, l) };
                body(
                    em,
                    &Idx {
                        d: at(jj, 1),
                        lanes,
                    },
                )?;
            }
            Ok(())
        })?;
    }
    if vector {
        let lim = em.add_imm(hi, -(l - 1));
        after = em.for_loop(after, lim, l, &mut |em, j| {
            body(em, &Idx { d: at(j, 1), lanes })
        })?;
    }
    if scalar {
        em.for_loop(after, hi, 1, &mut |em, j| {
            body(
                em,
                &Idx {
                    d: at(j, 0),
                    lanes: 1,
                },
            )
        })?;
    }
    Ok(())
}
