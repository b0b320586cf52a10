//! The plain loop nest over a kernel's output: the split dimension over `[start, end)`, the
//! innermost dimension two vectors at a time, then one vector, then a scalar tail.

use cranelift_codegen::ir::InstBuilder;
use oxla_hlo::Result;

use crate::emit::{Emitter, Idx};
use crate::kernel::split_dim;

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
    let r = dims.len();
    let (lo, hi) = if k == split {
        (start, end)
    } else {
        (em.iconst(0), em.iconst(dims[k]))
    };
    if k == r - 1 {
        // Which loops can run: for an inner dimension the trip counts are known, so loops
        // that would never execute are not emitted (less code, faster compiles).
        let l = lanes as i64;
        let known = (k != split).then_some(dims[k]);
        let unrolled = lanes > 1 && dims[k] >= 4 * l;
        let rest = known.map(|d| if unrolled { d % (2 * l) } else { d });
        let vector = lanes > 1 && rest.is_none_or(|r| r >= l);
        let scalar = rest.is_none_or(|r| r % l.max(1) != 0 || lanes == 1);
        let mut after = lo;
        if unrolled {
            // Two vectors per iteration: independent dependency chains for the CPU to overlap.
            let lim = em.b.ins().iadd_imm_s(hi, -(2 * l - 1));
            after = em.for_loop(lo, lim, 2 * l, &mut |em, j| {
                for u in 0..2 {
                    let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
                    let jj = if u == 0 {
                        j
                    } else {
                        em.b.ins().iadd_imm_s(j, l)
                    };
                    d.push((jj, 1));
                    store_all(em, &Idx { d, lanes })?;
                }
                Ok(())
            })?;
        }
        if vector {
            let lim = em.b.ins().iadd_imm_s(hi, -(l - 1));
            after = em.for_loop(after, lim, l, &mut |em, j| {
                let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
                d.push((j, 1));
                store_all(em, &Idx { d, lanes })
            })?;
        }
        if scalar {
            em.for_loop(after, hi, 1, &mut |em, j| {
                let mut d: Vec<_> = prefix.iter().map(|&p| (p, 0)).collect();
                d.push((j, 0));
                store_all(em, &Idx { d, lanes: 1 })
            })?;
        }
        return Ok(());
    }
    em.for_loop(lo, hi, 1, &mut |em, i| {
        prefix.push(i);
        let r = gen_loops_split(
            em,
            dims,
            split,
            k + 1,
            prefix,
            (start, end),
            lanes,
            store_all,
        );
        prefix.pop();
        r
    })?;
    Ok(())
}
