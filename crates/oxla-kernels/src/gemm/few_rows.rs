//! Products of few f32 rows by a bf16 matrix (`[8, 4096] x bf16[4096, 4096]`: a decode
//! step's or a small batch's activations in f32 against bf16 weights, which JAX emits as a
//! mixed `dot_general`): B streamed in place, each row of it widened in registers as it is
//! read, where the general path widened all of B to f32 in memory (twice B's bytes written,
//! then read again by the f32 GEMM, which packs it once more) to use each element a few
//! times.
//!
//! Each C element is the sum over the inner dimension in order, one fused multiply-add per
//! term, as the f32 microkernels sum; the bodies are plain Rust compiled once per
//! instruction set (AVX-512, AVX2 + FMA, the portable baseline, whose `mul_add` is fused
//! in software), so every CPU gives the same bits.

use super::driver::SyncPtr;

/// Most rows of A this path takes: beyond, B's columns are reused enough for the blocked
/// GEMM's packing to pay.
pub const FEW_ROWS_MAX: usize = 32;
/// Columns of C one register block holds per row (two AVX-512 vectors).
const NB: usize = 32;
/// Rows of C one register block holds (sixteen AVX-512 accumulators).
const MB: usize = 8;
/// Columns of C per task, at least.
const COLS_PER_TASK: usize = 256;

/// C (`m x n`, rows `ldc` apart, overwritten) = A (`m x k` f32, rows `lda` apart, or
/// stored `k x m` when `trans_a`) times B (`k x n` bf16 bits, rows `ldb` apart), for
/// `m <= FEW_ROWS_MAX`, columns split across the pool when `threads > 1`.
///
/// # Panics
/// If the slices are shorter than the dimensions say.
#[allow(clippy::too_many_arguments)]
pub fn sgemm_bf16_few_rows(
    (m, n, k): (usize, usize, usize),
    a: &[f32],
    (lda, trans_a): (usize, bool),
    b: &[u16],
    ldb: usize,
    c: &mut [f32],
    ldc: usize,
    threads: usize,
) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(m <= FEW_ROWS_MAX, "few-row product of {m} rows");
    assert!(k == 0 || b.len() >= (k - 1) * ldb + n, "B too short");
    assert!(c.len() >= (m - 1) * ldc + n, "C too short");
    // A's rows, contiguous (m * k floats: small).
    let at = |i: usize, p: usize| {
        if trans_a {
            a[p * lda + i]
        } else {
            a[i * lda + p]
        }
    };
    let rows: Vec<f32> = (0..m).flat_map(|i| (0..k).map(move |p| at(i, p))).collect();
    let tasks = if threads <= 1 {
        1
    } else {
        n.div_ceil(COLS_PER_TASK).min(threads * 4)
    };
    let per = n.div_ceil(tasks).next_multiple_of(NB);
    let cp = SyncPtr(c.as_mut_ptr());
    let task = |t: usize| {
        let (j0, j1) = ((t * per).min(n), ((t + 1) * per).min(n));
        if j0 < j1 {
            // SAFETY: tasks write disjoint column ranges of C, inside `c` (checked above).
            unsafe { columns(&rows, (m, k), b, ldb, cp, ldc, (j0, j1)) }
        }
    };
    if tasks <= 1 {
        task(0);
    } else {
        crate::pool::parallel_for(tasks, &task);
    }
}

/// Columns `j0..j1` of C, on the best instruction set available.
///
/// # Safety
/// C's columns `j0..j1` of rows `0..m` lie inside the memory `c` points to, which no other
/// thread writes.
unsafe fn columns(
    a: &[f32],
    mk: (usize, usize),
    b: &[u16],
    ldb: usize,
    c: SyncPtr<f32>,
    ldc: usize,
    cols: (usize, usize),
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has the features; the caller's promise for C.
            return unsafe { columns_avx512(a, mk, b, ldb, c, ldc, cols) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { columns_avx2(a, mk, b, ldb, c, ldc, cols) };
        }
    }
    // SAFETY: the caller's promise.
    unsafe { columns_body(a, mk, b, ldb, c, ldc, cols) }
}

/// [`columns_body`] compiled for an instruction set: `unsafe fn $name` enabling `$features`.
macro_rules! columns_for {
    ($name:ident, $features:literal) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $name(
            a: &[f32],
            mk: (usize, usize),
            b: &[u16],
            ldb: usize,
            c: SyncPtr<f32>,
            ldc: usize,
            cols: (usize, usize),
        ) {
            // SAFETY: the caller's promise (`columns`').
            unsafe { columns_body(a, mk, b, ldb, c, ldc, cols) }
        }
    };
}
columns_for!(columns_avx512, "avx512f,avx2,fma");
columns_for!(columns_avx2, "avx2,fma");

#[inline(always)]
unsafe fn columns_body(
    a: &[f32],
    (m, k): (usize, usize),
    b: &[u16],
    ldb: usize,
    c: SyncPtr<f32>,
    ldc: usize,
    (j0, j1): (usize, usize),
) {
    for i in 0..m {
        // SAFETY: row i's columns j0..j1: the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(c.get().add(i * ldc + j0), j1 - j0) }.fill(0.0);
    }
    // The inner dimension in chunks of KC rows of B: within a chunk, the task's column
    // blocks one after another, so B is read as KC contiguous streams (one row of B per
    // step across a block would jump a whole row of B, which no prefetcher follows), and
    // the sums go back to C (in L1) once per chunk.
    let mut p0 = 0;
    while p0 < k {
        let kc = (k - p0).min(KC);
        let mut j = j0;
        while j < j1 {
            let w = (j1 - j).min(NB);
            let mut i = 0;
            while i < m {
                let r = (m - i).min(MB);
                let a = &a[i * k..];
                let blk = Block {
                    k,
                    p0,
                    kc,
                    ldb,
                    j,
                    w,
                    ldc,
                };
                // SAFETY: rows i..i + r, columns j..j + w of C: the caller's promise.
                let c = unsafe { c.get().add(i * ldc + j) };
                unsafe {
                    match r {
                        8 => block::<8>(a, b, &blk, c),
                        7 => block::<7>(a, b, &blk, c),
                        6 => block::<6>(a, b, &blk, c),
                        5 => block::<5>(a, b, &blk, c),
                        4 => block::<4>(a, b, &blk, c),
                        3 => block::<3>(a, b, &blk, c),
                        2 => block::<2>(a, b, &blk, c),
                        _ => block::<1>(a, b, &blk, c),
                    }
                }
                i += r;
            }
            j += w;
        }
        p0 += kc;
    }
}

/// Rows of B a block sums before its sums go back to C.
const KC: usize = 16;

/// Where a block works: rows `p0..p0 + kc` of B (of `k`), columns `j..j + w`.
struct Block {
    k: usize,
    p0: usize,
    kc: usize,
    ldb: usize,
    j: usize,
    w: usize,
    ldc: usize,
}

/// C's rows `0..R` at `c` (`ldc` apart), columns `j..j + w` (`w <= NB`), plus rows `0..R`
/// of `a` (each `k` long) times rows `p0..p0 + kc` of B: a whole block's sums in
/// registers, a partial block's element by element (the same operations in the same
/// order).
///
/// # Safety
/// `c` points to R rows of `w` writable floats, `ldc` apart.
#[inline(always)]
unsafe fn block<const R: usize>(a: &[f32], b: &[u16], blk: &Block, c: *mut f32) {
    let &Block {
        k,
        p0,
        kc,
        ldb,
        j,
        w,
        ldc,
    } = blk;
    let widen = |h: u16| f32::from_bits((h as u32) << 16);
    if w < NB {
        for r in 0..R {
            for jj in 0..w {
                // SAFETY: the caller's promise.
                let cij = unsafe { &mut *c.add(r * ldc + jj) };
                for p in p0..p0 + kc {
                    *cij = a[r * k + p].mul_add(widen(b[p * ldb + j + jj]), *cij);
                }
            }
        }
        return;
    }
    let mut acc = [[0f32; NB]; R];
    for (r, acc) in acc.iter_mut().enumerate() {
        // SAFETY: the caller's promise.
        acc.copy_from_slice(unsafe { std::slice::from_raw_parts(c.add(r * ldc), NB) });
    }
    for p in p0..p0 + kc {
        let mut bw = [0f32; NB];
        for (x, &h) in bw.iter_mut().zip(&b[p * ldb + j..p * ldb + j + NB]) {
            *x = widen(h);
        }
        for (r, acc) in acc.iter_mut().enumerate() {
            let x = a[r * k + p];
            for (s, &y) in acc.iter_mut().zip(&bw) {
                *s = x.mul_add(y, *s);
            }
        }
    }
    for (r, acc) in acc.iter().enumerate() {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(c.add(r * ldc), NB) }.copy_from_slice(acc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums in order with one fused multiply-add per term: the bits this path promises.
    fn reference(
        (m, n, k): (usize, usize, usize),
        a: &[f32],
        (lda, trans_a): (usize, bool),
        b: &[u16],
        ldb: usize,
    ) -> Vec<f32> {
        let mut c = vec![0f32; m * n];
        for i in 0..m {
            for j in 0..n {
                let mut s = 0f32;
                for p in 0..k {
                    let x = if trans_a {
                        a[p * lda + i]
                    } else {
                        a[i * lda + p]
                    };
                    s = x.mul_add(f32::from_bits((b[p * ldb + j] as u32) << 16), s);
                }
                c[i * n + j] = s;
            }
        }
        c
    }

    #[test]
    fn few_row_products_match_ordered_fused_sums() {
        let mut next = crate::testutil::xorshift32(0x9e37_79b9);
        for &(m, n, k, trans_a, threads) in &[
            (1, 40, 7, false, 1),
            (3, 33, 19, true, 2),
            (8, 64, 50, false, 2),
            (13, 700, 31, false, 2),
            (32, 96, 9, true, 1),
        ] {
            let lda = if trans_a { m + 2 } else { k + 3 };
            let a_len = if trans_a { k * lda } else { m * lda };
            let a: Vec<f32> = (0..a_len)
                .map(|_| (next() % 2001) as f32 / 250.0 - 4.0)
                .collect();
            let ldb = n + 5;
            let b: Vec<u16> = (0..k * ldb)
                .map(|_| half::bf16::from_f32((next() % 1001) as f32 / 125.0 - 4.0).to_bits())
                .collect();
            let want = reference((m, n, k), &a, (lda, trans_a), &b, ldb);
            let mut c = vec![f32::NAN; m * n];
            sgemm_bf16_few_rows((m, n, k), &a, (lda, trans_a), &b, ldb, &mut c, n, threads);
            assert!(
                c.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()),
                "m {m} n {n} k {k}"
            );
        }
    }
}
