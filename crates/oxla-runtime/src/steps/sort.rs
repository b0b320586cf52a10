//! The sort step: a stable merge sort of each line along the sort dimension, comparing
//! elements with the JIT-compiled comparator; lines in parallel, and one long line as two
//! halves sorted in parallel and merged.

use oxla_hlo::Result;

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::Programs;
use crate::run::StepCtx;

impl Programs {
    /// Runs a sort step with comparator kernel `cmp` along `dim`.
    pub(crate) fn run_sort(&self, s: &StepCtx, cmp: &usize, dim: &usize) -> Result<V> {
        let prog = s.prog;
        let c = s.c;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let operand_ptr = |k: usize| s.operand_ptr(k);
        let f = self.kernels[*cmp].func;
        let n = ins.operands.len();
        let inputs = (0..n).map(operand_ptr).collect::<Result<Vec<_>>>()?;
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        let shape = c.instr(ins.operands[0]).shape.dims().to_vec();
        let sizes: Vec<usize> = ins
            .operands
            .iter()
            .map(|o| c.instr(*o).shape.element_type().byte_size())
            .collect();
        let len = shape.get(*dim).copied().unwrap_or(1).max(0) as usize;
        let inner: usize = shape[dim + 1..].iter().product::<i64>().max(0) as usize;
        let total: usize = shape.iter().product::<i64>().max(0) as usize;
        let lines = total.checked_div(len).unwrap_or(0);
        let ins_p = SendPtr(inputs.as_ptr());
        let outs_p = SendPtr(outs.as_ptr());
        // A comparator over element indices of one line (its own pointer scratch).
        let sizes_c = sizes.clone();
        let make_less = move |base_e: usize| {
            let (ip, sizes) = (ins_p, sizes_c.clone());
            let mut ptrs = vec![std::ptr::null::<u8>(); 2 * n];
            let mut flag = Box::new(0u8);
            move |a: usize, b: usize| -> bool {
                let fp = [&mut *flag as *mut u8];
                for k in 0..n {
                    // SAFETY: element indices lie inside the operands.
                    unsafe {
                        let p = *ip.0.add(k);
                        ptrs[2 * k] = p.add((base_e + a * inner) * sizes[k]);
                        ptrs[2 * k + 1] = p.add((base_e + b * inner) * sizes[k]);
                    }
                }
                // SAFETY: the comparator reads 2n elements and writes one byte.
                unsafe {
                    f(ptrs.as_ptr(), fp.as_ptr(), 0, 1);
                    *fp[0] != 0
                }
            }
        };
        // One long line: sort its halves on two threads, then merge.
        let split = lines < self.threads && len >= 1 << 15;
        let sort_line = |line: usize| {
            let op = outs_p;
            let ip = ins_p;
            let outer = line / inner.max(1);
            let within = line % inner.max(1);
            let base_e = outer * len * inner + within;
            let perm = if split {
                let mid = len / 2;
                let halves = std::sync::Mutex::new((Vec::new(), Vec::new()));
                parallel_for(2, self.threads, &|h| {
                    let mut less = make_less(base_e);
                    let (lo, hi) = if h == 0 { (0, mid) } else { (mid, len) };
                    let v = merge_sort_range(lo, hi, &mut less);
                    if let Ok(mut g) = halves.lock() {
                        if h == 0 {
                            g.0 = v;
                        } else {
                            g.1 = v;
                        }
                    }
                });
                let (a, b) = halves.into_inner().unwrap_or_default();
                let mut less = make_less(base_e);
                merge_runs(&a, &b, &mut less)
            } else {
                let mut less = make_less(base_e);
                merge_sort_range(0, len, &mut less)
            };
            for (k, &sz) in sizes.iter().enumerate() {
                for (j, &src) in perm.iter().enumerate() {
                    // SAFETY: source and destination elements lie inside their arrays.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            (*ip.0.add(k)).add((base_e + src * inner) * sz),
                            (*op.0.add(k)).add((base_e + j * inner) * sz),
                            sz,
                        );
                    }
                }
            }
        };
        let threads = if lines >= 2 && total >= 1 << 14 {
            self.threads
        } else {
            1
        };
        parallel_for(lines, threads, &sort_line);
        Ok(v)
    }
}

/// A stable merge sort of `lo..hi` by a strict weak order `less`. Written out (rather than
/// `slice::sort_by`) so that an inconsistent user comparator can only give some order, never
/// a panic.
fn merge_sort_range(
    lo: usize,
    hi: usize,
    less: &mut dyn FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let n = hi - lo;
    let mut a: Vec<usize> = (lo..hi).collect();
    let mut b = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            merge_into(&a[start..mid], &a[mid..end], &mut b[start..end], less);
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Stable merge of two sorted runs into `out` (the right run wins only when strictly less).
fn merge_into(
    l: &[usize],
    r: &[usize],
    out: &mut [usize],
    less: &mut dyn FnMut(usize, usize) -> bool,
) {
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < l.len() && j < r.len() {
        if less(r[j], l[i]) {
            out[k] = r[j];
            j += 1;
        } else {
            out[k] = l[i];
            i += 1;
        }
        k += 1;
    }
    out[k..k + l.len() - i].copy_from_slice(&l[i..]);
    k += l.len() - i;
    out[k..].copy_from_slice(&r[j..]);
}

fn merge_runs(l: &[usize], r: &[usize], less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut out = vec![0usize; l.len() + r.len()];
    merge_into(l, r, &mut out, less);
    out
}
