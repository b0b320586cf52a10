//! Scatter-add of whole rows: `out[idx[i], :] += upd[i, :]` for every update `i` in order
//! (an embedding's gradient, a `segment_sum`), for the target rows `[lo, hi)` only.
//!
//! Threads each take a range of target rows and walk every index, so each row's updates are
//! applied by one thread in the updates' order: the same sums, bit for bit, as one thread
//! adding them all. A row's sum is f32 lane by lane (`current + update`, or the other
//! order as the update computation says, which picks a NaN operand alike at any width), and
//! the rows of the next updates are prefetched: the targets are scattered over an output
//! that is usually far larger than the caches, so a row's add waits on memory.

/// How many updates ahead a target row is prefetched.
const AHEAD: usize = 8;

/// An index array: 32- or 64-bit signed integers.
#[derive(Clone, Copy, Debug)]
pub enum Indices<'a> {
    S32(&'a [i32]),
    S64(&'a [i64]),
}

impl Indices<'_> {
    fn len(&self) -> usize {
        match self {
            Indices::S32(v) => v.len(),
            Indices::S64(v) => v.len(),
        }
    }

    /// Index `i` as a row of `[lo, hi)`, or None (another thread's, or out of bounds: a
    /// negative index too).
    #[inline(always)]
    fn row(&self, i: usize, (lo, hi): (usize, usize)) -> Option<usize> {
        let r = match self {
            Indices::S32(v) => usize::try_from(v[i]).ok()?,
            Indices::S64(v) => usize::try_from(v[i]).ok()?,
        };
        (lo <= r && r < hi).then_some(r)
    }
}

/// Adds update row `i` (of `row` floats at `upd`) into `out`'s row `idx[i]` for every `i`
/// whose target lies in rows `[lo, hi)`; `current_first` says the sum is
/// `current + update` (else `update + current`).
///
/// # Safety
/// `out` holds `hi` rows of `row` floats; `upd` holds `idx.len()` rows.
pub unsafe fn scatter_add_rows_f32(
    out: *mut f32,
    row: usize,
    idx: Indices,
    upd: *const f32,
    (lo, hi): (usize, usize),
    current_first: bool,
) {
    let n = idx.len();
    for i in 0..n {
        if let Some(r) = (i + AHEAD < n)
            .then(|| idx.row(i + AHEAD, (lo, hi)))
            .flatten()
        {
            // SAFETY: row r is in out.
            unsafe { prefetch(out.add(r * row), row) };
        }
        let Some(r) = idx.row(i, (lo, hi)) else {
            continue;
        };
        // SAFETY: row r of out and row i of upd, as the caller promises.
        unsafe {
            let (dst, src) = (out.add(r * row), upd.add(i * row));
            if current_first {
                crate::vmath::mul_add_raw(dst, dst, None, src, row);
            } else {
                crate::vmath::mul_add_raw(dst, src, None, dst, row);
            }
        }
    }
}

/// Asks for the cache lines of `len` floats at `p`.
///
/// # Safety
/// `p` points into an allocation (a prefetch never faults, but the address must be formed
/// within it).
#[inline(always)]
unsafe fn prefetch(p: *const f32, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let mut k = 0;
        while k < len {
            // SAFETY: k < len, within the row.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(k).cast()) };
            k += 16;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_every_range_add_as_one_thread_would() {
        let (rows, row, n) = (37usize, 45usize, 300usize);
        let mut s = 0x1234_5678u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        // Repeated rows, out-of-range and negative indices.
        let idx: Vec<i64> = (0..n).map(|_| (next() % 45) as i64 - 4).collect();
        let idx32: Vec<i32> = idx.iter().map(|&v| v as i32).collect();
        let upd: Vec<f32> = (0..n * row)
            .map(|_| (next() >> 8) as f32 / 1e5 - 80.0)
            .collect();
        let base: Vec<f32> = (0..rows * row).map(|k| k as f32 * 0.25).collect();
        for current_first in [true, false] {
            // The definition, one update element at a time.
            let mut want = base.clone();
            for (i, &r) in idx.iter().enumerate() {
                if r < 0 || r as usize >= rows {
                    continue;
                }
                for j in 0..row {
                    let (c, u) = (want[r as usize * row + j], upd[i * row + j]);
                    // (Finite values: the operands' order matters only for NaNs.)
                    want[r as usize * row + j] = c + u;
                }
            }
            for split in [rows, 10, 1] {
                for ix in [Indices::S64(&idx), Indices::S32(&idx32)] {
                    let mut got = base.clone();
                    let mut lo = 0;
                    while lo < rows {
                        let hi = rows.min(lo + split);
                        // SAFETY: got holds `rows` rows, upd `n`.
                        unsafe {
                            scatter_add_rows_f32(
                                got.as_mut_ptr(),
                                row,
                                ix,
                                upd.as_ptr(),
                                (lo, hi),
                                current_first,
                            )
                        };
                        lo = hi;
                    }
                    let same = got
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(same, "split {split} current_first {current_first}");
                }
            }
        }
    }
}
