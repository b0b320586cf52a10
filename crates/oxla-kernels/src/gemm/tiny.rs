//! Batches of tiny products (every dimension at most [`MAX_DIM`]: attention over 8 x 8
//! blocks, batches of small rotations or per-example linear maps): the blocked driver's
//! packing and blocking cost far more than the few hundred multiply-adds of such a product,
//! and an elemental loop computes one output element at a time, so each product is computed
//! straight from its operands here, one row of C at a time in registers, A's element
//! broadcast against B's row.
//!
//! Each element is summed as the blocked microkernels sum it (the depth in order from zero,
//! fused multiply-adds on the SIMD instruction sets, separate ones on the portable one; C
//! added once at the end where the product accumulates), so a product gives the same bits
//! here as through the driver. The bodies are plain Rust compiled per instruction set, with
//! the row width a constant for the common widths, so the compiler keeps a row in vector
//! registers.

use super::driver::{a_strides, b_strides, parallel, Scalar, SyncPtr};
use super::{Batch, GemmArgs, Isa};

/// Largest m, n and k taken here.
pub(crate) const MAX_DIM: usize = 16;
/// Fewest products per thread when a batch is split between threads.
const MIN_PER_TASK: usize = 64;

/// Whether a product of `args` suits this path. One-row and one-column products stay with
/// `gemv`, whose sums they have always had.
pub(crate) fn suits(args: &GemmArgs) -> bool {
    (2..=MAX_DIM).contains(&args.m)
        && (2..=MAX_DIM).contains(&args.n)
        && (1..=MAX_DIM).contains(&args.k)
}

/// Runs `batch` products of `args` with `isa`'s summation on up to `threads` threads. The
/// caller has checked that every matrix lies inside its slice and that no two products' C
/// matrices overlap.
pub(crate) fn batched<T: Scalar>(
    isa: Isa,
    args: &GemmArgs,
    batch: &Batch,
    threads: usize,
    a: &[T],
    b: &[T],
    c: &mut [T],
) {
    let count = batch.count;
    let tasks = threads.min(count / MIN_PER_TASK).max(1);
    let per = count.div_ceil(tasks);
    let cp = SyncPtr(c.as_mut_ptr());
    parallel(tasks, &|t| {
        let (start, end) = ((t * per).min(count), ((t + 1) * per).min(count));
        // SAFETY: as the caller checked; tasks take disjoint runs of products.
        unsafe { run(isa, args, batch, start..end, a, b, cp.get()) };
    });
}

/// # Safety
/// Row `i` (i < m) of each product `q` of `range`, `n` elements at
/// `q * stride_c + i * ldc`, lies inside C's allocation and is written by no one else
/// meanwhile.
unsafe fn run<T: Scalar>(
    isa: Isa,
    args: &GemmArgs,
    batch: &Batch,
    range: std::ops::Range<usize>,
    a: &[T],
    b: &[T],
    c: *mut T,
) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => {
            // SAFETY: the caller checked the ISA is available; C as the caller promises.
            unsafe { run_avx512(args, batch, range, a, b, c) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            // SAFETY: as above.
            unsafe { run_avx2(args, batch, range, a, b, c) }
        }
        // SAFETY: as the caller promises.
        _ => unsafe { widths::<T, false>(args, batch, range, a, b, c) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn run_avx512<T: Scalar>(
    args: &GemmArgs,
    batch: &Batch,
    range: std::ops::Range<usize>,
    a: &[T],
    b: &[T],
    c: *mut T,
) {
    // SAFETY: as the caller promises.
    unsafe { widths::<T, true>(args, batch, range, a, b, c) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2<T: Scalar>(
    args: &GemmArgs,
    batch: &Batch,
    range: std::ops::Range<usize>,
    a: &[T],
    b: &[T],
    c: *mut T,
) {
    // SAFETY: as the caller promises.
    unsafe { widths::<T, true>(args, batch, range, a, b, c) }
}

/// [`body`] with the row width a constant where it is a common one.
///
/// # Safety
/// As for [`run`].
#[inline(always)]
unsafe fn widths<T: Scalar, const FUSED: bool>(
    args: &GemmArgs,
    batch: &Batch,
    range: std::ops::Range<usize>,
    a: &[T],
    b: &[T],
    c: *mut T,
) {
    // SAFETY (each): as the caller promises.
    unsafe {
        match args.n {
            4 => body::<T, FUSED, 4>(args, batch, range, a, b, c),
            8 => body::<T, FUSED, 8>(args, batch, range, a, b, c),
            16 => body::<T, FUSED, 16>(args, batch, range, a, b, c),
            _ => body::<T, FUSED, MAX_DIM>(args, batch, range, a, b, c),
        }
    }
}

/// Products `range` of the batch, rows `N` wide (or `args.n` < `N` of them); `FUSED`:
/// fused multiply-adds.
///
/// # Safety
/// As for [`run`].
#[inline(always)]
unsafe fn body<T: Scalar, const FUSED: bool, const N: usize>(
    args: &GemmArgs,
    batch: &Batch,
    range: std::ops::Range<usize>,
    a: &[T],
    b: &[T],
    c: *mut T,
) {
    let (m, n, k) = (args.m, args.n, args.k);
    let (a_rs, a_cs) = a_strides(args);
    let (b_rs, b_cs) = b_strides(args);
    // op(B) of one product as k rows of N (zero-padded past n).
    let mut rows = [[T::ZERO; N]; MAX_DIM];
    for q in range {
        let (ao, bo, co) = (q * batch.stride_a, q * batch.stride_b, q * batch.stride_c);
        for (p, row) in rows.iter_mut().enumerate().take(k) {
            if b_cs == 1 {
                row[..n].copy_from_slice(&b[bo + p * b_rs..bo + p * b_rs + n]);
            } else {
                for (j, x) in row.iter_mut().enumerate().take(n) {
                    *x = b[bo + p * b_rs + j * b_cs];
                }
            }
        }
        for i in 0..m {
            let mut acc = [T::ZERO; N];
            for (p, row) in rows.iter().enumerate().take(k) {
                let ai = a[ao + i * a_rs + p * a_cs];
                for (x, &bj) in acc.iter_mut().zip(row) {
                    *x = if FUSED {
                        ai.mul_add(bj, *x)
                    } else {
                        *x + ai * bj
                    };
                }
            }
            // SAFETY: row i of product q, as the caller promises.
            let dst = unsafe { std::slice::from_raw_parts_mut(c.add(co + i * args.ldc), n) };
            if args.accumulate {
                for (d, &x) in dst.iter_mut().zip(&acc) {
                    *d = *d + x;
                }
            } else {
                dst.copy_from_slice(&acc[..n]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{dgemm_batched_with, dgemm_ex_with, sgemm_batched_with, sgemm_ex_with};
    use crate::{Batch, GemmArgs, Isa};

    /// A batch of tiny products gives, bit for bit, what each product gives alone through
    /// the blocked driver, on every instruction set the CPU runs: transposes, accumulation,
    /// every size from 2 to 16 (the constant widths and the others), f32 and f64.
    #[test]
    fn tiny_products_give_the_drivers_bits() {
        let mut s = 0x9e37_79b9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s % 4001) as f32 / 1999.0 - 1.0
        };
        for round in 0..90 {
            let (m, n, k) = (2 + round % 15, 2 + (round * 7) % 15, 1 + (round * 5) % 16);
            let (ta, tb, acc) = (round % 2 == 1, round % 3 == 1, round % 4 == 3);
            let count = 3 + round % 5 + if round % 10 == 0 { 300 } else { 0 };
            let args = GemmArgs::new(m, n, k)
                .with_trans(ta, tb)
                .with_accumulate(acc)
                .with_threads(2);
            assert!(super::suits(&args));
            let batch = Batch {
                count,
                stride_a: m * k,
                stride_b: k * n,
                stride_c: m * n,
            };
            let a: Vec<f32> = (0..count * m * k).map(|_| next()).collect();
            let b: Vec<f32> = (0..count * k * n).map(|_| next()).collect();
            let c0: Vec<f32> = (0..count * m * n).map(|_| next()).collect();
            let one = GemmArgs { threads: 1, ..args };
            for isa in [Isa::Portable, Isa::Avx2, Isa::Avx512] {
                if !isa.is_available() {
                    continue;
                }
                let mut got = c0.clone();
                sgemm_batched_with(isa, &args, &batch, &a, &b, &mut got).unwrap();
                let mut want = c0.clone();
                for q in 0..count {
                    let (sa, sb, sc) = (q * m * k, q * k * n, q * m * n);
                    let (a, b) = (&a[sa..sa + m * k], &b[sb..sb + k * n]);
                    sgemm_ex_with(isa, &one, a, b, &mut want[sc..sc + m * n]).unwrap();
                }
                assert_eq!(got, want, "{isa:?} {m}x{n}x{k} ta {ta} tb {tb} acc {acc}");
                let wide = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
                let (a64, b64) = (wide(&a), wide(&b));
                let mut got = wide(&c0);
                dgemm_batched_with(isa, &args, &batch, &a64, &b64, &mut got).unwrap();
                let mut want = wide(&c0);
                for q in 0..count {
                    let (sa, sb, sc) = (q * m * k, q * k * n, q * m * n);
                    let (a, b) = (&a64[sa..sa + m * k], &b64[sb..sb + k * n]);
                    dgemm_ex_with(isa, &one, a, b, &mut want[sc..sc + m * n]).unwrap();
                }
                assert_eq!(
                    got, want,
                    "f64 {isa:?} {m}x{n}x{k} ta {ta} tb {tb} acc {acc}"
                );
            }
        }
    }
}
