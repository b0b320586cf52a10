//! The select-and-scatter step, with the interpreter's semantics: the output starts as the
//! init value everywhere; for each source element in row-major order, its window's operand
//! elements are visited in row-major window order (padding and base-dilation holes skipped)
//! and the select computation (compiled as a comparator kernel) keeps the current pick while
//! `select(pick, next)` is true; the source element is then combined into the output at the
//! pick with the scatter computation (a combiner kernel). Picks are independent and found in
//! parallel; the combining runs in source order, so overlapping windows combine as the
//! interpreter does.

use oxla_hlo::{Error, Op, Result, Window};

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::Programs;
use crate::run::StepCtx;

/// Window positions per task of the parallel pick search.
const WORK_PER_TASK: usize = 1 << 14;

/// Row-major strides of `dims`.
fn strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1].max(0);
    }
    s
}

/// The operand element (linear index) at window position `w` of source index `o`, or `None`
/// in padding or a base-dilation hole.
fn position(window: &Window, xd: &[i64], xs: &[i64], o: &[i64], w: &[i64]) -> Option<usize> {
    let mut l = 0i64;
    for (d, wd) in window.dimensions.iter().enumerate() {
        let p = o[d] * wd.stride + w[d] * wd.window_dilation - wd.padding_low;
        if p < 0 || p % wd.base_dilation != 0 || p / wd.base_dilation >= xd[d] {
            return None;
        }
        l += p / wd.base_dilation * xs[d];
    }
    Some(l as usize)
}

/// The multi-index of linear index `k` in `dims` (row-major).
fn unravel(mut k: i64, dims: &[i64], out: &mut [i64]) {
    for d in (0..dims.len()).rev() {
        let n = dims[d].max(1);
        out[d] = k % n;
        k /= n;
    }
}

impl Programs {
    /// Runs select-and-scatter with select kernel `select` and scatter kernel `scatter`.
    pub(crate) fn run_select_and_scatter(
        &self,
        s: &StepCtx,
        select: usize,
        scatter: usize,
    ) -> Result<V> {
        let Op::SelectAndScatter(window) = &s.ins.op else {
            return Err(Error::internal("select-and-scatter step"));
        };
        let (sel, comb) = (self.kernels[select].func, self.kernels[scatter].func);
        let xd = s.c.instr(s.ins.operands[0]).shape.dims().to_vec();
        let sd = s.c.instr(s.ins.operands[1]).shape.dims().to_vec();
        let t = s.ins.shape.element_type();
        let size = t.byte_size();
        if window.dimensions.len() != xd.len() || sd.len() != xd.len() {
            return Err(Error::internal("select-and-scatter window rank"));
        }
        let (x, src, init) = (s.operand_ptr(0)?, s.operand_ptr(1)?, s.operand_ptr(2)?);
        let (outs, v) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let out = outs[0];
        let n_out = xd.iter().product::<i64>().max(0) as usize;
        for e in 0..n_out {
            // SAFETY: the output holds `n_out` elements; `init` one.
            unsafe { std::ptr::copy_nonoverlapping(init, out.add(e * size), size) };
        }
        let n_src = sd.iter().product::<i64>().max(0) as usize;
        let wsizes: Vec<i64> = window.dimensions.iter().map(|w| w.size).collect();
        let n_win = wsizes.iter().product::<i64>().max(0) as usize;
        if n_src == 0 || n_out == 0 {
            return Ok(v);
        }
        let xs = strides(&xd);
        // The pick of every source element (usize::MAX: its window holds no operand element).
        let mut picks = vec![usize::MAX; n_src];
        let per_task = (WORK_PER_TASK / n_win.max(1)).max(1);
        let tasks = n_src.div_ceil(per_task);
        let picks_p = SendPtr(picks.as_mut_ptr());
        let x_p = SendPtr(x);
        let threads = if n_src * n_win >= 2 * WORK_PER_TASK {
            self.threads
        } else {
            1
        };
        parallel_for(tasks, threads, &|task| {
            let (pp, xp) = (picks_p, x_p);
            let mut o = vec![0i64; sd.len()];
            let mut w = vec![0i64; wsizes.len()];
            let mut flag = 0u8;
            for k in task * per_task..((task + 1) * per_task).min(n_src) {
                unravel(k as i64, &sd, &mut o);
                let mut best: Option<usize> = None;
                for wk in 0..n_win {
                    unravel(wk as i64, &wsizes, &mut w);
                    let Some(l) = position(window, &xd, &xs, &o, &w) else {
                        continue;
                    };
                    best = Some(match best {
                        None => l,
                        Some(b) => {
                            // SAFETY: `b` and `l` are operand elements; the kernel reads the
                            // two and writes one byte to `flag`.
                            let keep = unsafe {
                                let ins = [xp.0.add(b * size), xp.0.add(l * size)];
                                let fo = [&mut flag as *mut u8];
                                sel(ins.as_ptr(), fo.as_ptr(), 0, 1);
                                flag != 0
                            };
                            if keep {
                                b
                            } else {
                                l
                            }
                        }
                    });
                }
                if let Some(b) = best {
                    // SAFETY: tasks write disjoint source elements' picks.
                    unsafe { *pp.0.add(k) = b };
                }
            }
        });
        for (k, &b) in picks.iter().enumerate() {
            if b == usize::MAX {
                continue;
            }
            // SAFETY: the combiner reads out[b] and src[k] and writes out[b] (one element).
            unsafe {
                let dst = out.add(b * size);
                let ins = [dst as *const u8, src.add(k * size)];
                let os = [dst];
                comb(ins.as_ptr(), os.as_ptr(), 0, 1);
            }
        }
        Ok(v)
    }
}
