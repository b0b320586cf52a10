//! Products with one row (m = 1: a decode step's q·Kᵀ and p·V, a batch-1 dense layer):
//! packing B for the blocked driver would read and write all of B to use each element once,
//! so here B is streamed in place. Not transposed, C accumulates rows of B scaled by A's
//! elements (in order of the inner dimension, as the microkernels do); transposed, each C
//! element is a dot product of A with a contiguous row of B, in vector-wide partial sums.
//! Large products split C's columns between threads. The bodies are plain Rust compiled
//! once per instruction set ([`Isa`]'s AVX-512 and AVX2 + FMA, and the portable baseline),
//! so the compiler vectorizes them at each width.

use super::driver::{a_strides, b_strides, max_threads, parallel, Scalar, SyncPtr};
use super::GemmArgs;

/// Multiply-adds below which one thread runs the product.
const PAR_MIN_WORK: usize = 1 << 18;
/// Columns of C per task, at least.
const MIN_COLS_PER_TASK: usize = 256;

/// Partial sums per dot product (a vector's worth at AVX-512 for f32, two for f64).
const LANES: usize = 16;

/// C (1 x n, `args.accumulate` adds to it) = A (1 x k) · op(B), B read in place. The
/// caller has checked the slices' extents for `args`.
pub(crate) fn gemv<T: Scalar>(args: &GemmArgs, a: &[T], b: &[T], c: &mut [T]) {
    let (n, k) = (args.n, args.k);
    // A's row, contiguous (it is k elements; a strided one is copied).
    let (_, a_cs) = a_strides(args);
    let a_row: std::borrow::Cow<[T]> = if a_cs == 1 {
        std::borrow::Cow::Borrowed(&a[..k])
    } else {
        std::borrow::Cow::Owned((0..k).map(|p| a[p * a_cs]).collect())
    };
    let threads = if n * k < PAR_MIN_WORK {
        1
    } else {
        max_threads(args).min(n / MIN_COLS_PER_TASK).max(1)
    };
    let cp = SyncPtr(c.as_mut_ptr());
    let cols = n.div_ceil(threads);
    parallel(threads, &|t| {
        let j0 = (t * cols).min(n);
        let j1 = ((t + 1) * cols).min(n);
        // SAFETY: columns j0..j1 of C's row lie inside `c`; tasks take disjoint columns.
        let ct = unsafe { std::slice::from_raw_parts_mut(cp.get().add(j0), j1 - j0) };
        run(args, &a_row, b, ct, j0);
    });
}

/// Columns `j0..j0 + c.len()` of the product, on the best instruction set available.
fn run<T: Scalar>(args: &GemmArgs, a: &[T], b: &[T], c: &mut [T], j0: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has the features the function is compiled for.
            return unsafe { run_avx512(args, a, b, c, j0) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { run_avx2(args, a, b, c, j0) };
        }
    }
    body(args, a, b, c, j0)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn run_avx512<T: Scalar>(args: &GemmArgs, a: &[T], b: &[T], c: &mut [T], j0: usize) {
    body(args, a, b, c, j0)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2<T: Scalar>(args: &GemmArgs, a: &[T], b: &[T], c: &mut [T], j0: usize) {
    body(args, a, b, c, j0)
}

/// The portable body every instruction set compiles.
#[inline(always)]
fn body<T: Scalar>(args: &GemmArgs, a: &[T], b: &[T], c: &mut [T], j0: usize) {
    let w = c.len();
    let k = args.k;
    let (b_rs, b_cs) = b_strides(args);
    if b_cs == 1 {
        // Row p of B scaled by a[p], added to C, p in order: whole blocks of C's columns
        // held in registers across the inner dimension (a block of 64 f32 or 32 f64: eight
        // AVX2 registers), the rest column by column in memory. The same operations in the
        // same order either way.
        let wide = std::mem::size_of::<T>() <= 4;
        let blk = if wide { 64 } else { 32 };
        let whole = w / blk * blk;
        for jb in (0..whole).step_by(blk) {
            let cb = &mut c[jb..jb + blk];
            if wide {
                block::<T, 64>(args, a, b, b_rs, j0 + jb, cb);
            } else {
                block::<T, 32>(args, a, b, b_rs, j0 + jb, cb);
            }
        }
        let c = &mut c[whole..];
        let (j0, w) = (j0 + whole, w - whole);
        let row = |p: usize| &b[p * b_rs + j0..p * b_rs + j0 + w];
        if !args.accumulate {
            let (r, x) = (row(0), a[0]);
            for (cj, &bj) in c.iter_mut().zip(r) {
                *cj = x * bj;
            }
        }
        let first = usize::from(!args.accumulate);
        for (p, &x) in a.iter().enumerate().skip(first) {
            for (cj, &bj) in c.iter_mut().zip(row(p)) {
                *cj = *cj + x * bj;
            }
        }
    } else {
        // C[j] = A · B[j, :] (B's row j contiguous along the inner dimension).
        for (jj, cj) in c.iter_mut().enumerate() {
            let r = &b[(j0 + jj) * b_cs..(j0 + jj) * b_cs + k];
            let mut acc = [T::ZERO; LANES];
            let mut chunks_a = a.chunks_exact(LANES);
            let mut chunks_b = r.chunks_exact(LANES);
            for (xa, xb) in (&mut chunks_a).zip(&mut chunks_b) {
                for l in 0..LANES {
                    acc[l] = acc[l] + xa[l] * xb[l];
                }
            }
            let mut s = T::ZERO;
            for &x in &acc {
                s = s + x;
            }
            for (&x, &y) in chunks_a.remainder().iter().zip(chunks_b.remainder()) {
                s = s + x * y;
            }
            *cj = if args.accumulate { *cj + s } else { s };
        }
    }
}

/// Columns `j..j + N` of C (`c`, N long) = A's row times B's rows, p in order, the N sums
/// in a local array the compiler keeps in registers.
#[inline(always)]
fn block<T: Scalar, const N: usize>(
    args: &GemmArgs,
    a: &[T],
    b: &[T],
    b_rs: usize,
    j: usize,
    c: &mut [T],
) {
    let row = |p: usize| &b[p * b_rs + j..p * b_rs + j + N];
    let mut acc = [T::ZERO; N];
    let first = if args.accumulate {
        acc.copy_from_slice(c);
        0
    } else {
        let (r, x) = (row(0), a[0]);
        for (s, &bj) in acc.iter_mut().zip(r) {
            *s = x * bj;
        }
        1
    };
    for (p, &x) in a.iter().enumerate().skip(first) {
        let r = row(p);
        for (s, &bj) in acc.iter_mut().zip(r) {
            *s = *s + x * bj;
        }
    }
    c.copy_from_slice(&acc);
}

/// How a one-row product of narrow operands widens and accumulates: bf16 / f16 -> f32
/// (multiply-add in f32), s8 / u8 -> s32 (wrapping).
pub(crate) trait NarrowOps<B>: Copy + Sync {
    type Acc: Copy + Send + Sync;
    const ZERO: Self::Acc;
    fn widen(self, x: B) -> Self::Acc;
    fn mac(acc: Self::Acc, x: Self::Acc, y: Self::Acc) -> Self::Acc;
    fn add(x: Self::Acc, y: Self::Acc) -> Self::Acc;
}

/// C (1 x n, `args.accumulate` adds to it) = A · op(B) for narrow B, with A's row already
/// widened (`a_row`, k elements) and B read in place; columns split between threads when
/// large.
pub(crate) fn gemv_narrow<B: Copy + Sync, O: NarrowOps<B>>(
    ops: O,
    args: &GemmArgs,
    a_row: &[O::Acc],
    b: &[B],
    c: &mut [O::Acc],
) {
    let (n, k) = (args.n, args.k);
    let threads = if n * k < PAR_MIN_WORK {
        1
    } else {
        max_threads(args).min(n / MIN_COLS_PER_TASK).max(1)
    };
    let cp = SyncPtr(c.as_mut_ptr());
    let cols = n.div_ceil(threads);
    parallel(threads, &|t| {
        let j0 = (t * cols).min(n);
        let j1 = ((t + 1) * cols).min(n);
        // SAFETY: columns j0..j1 of C's row lie inside `c`; tasks take disjoint columns.
        let ct = unsafe { std::slice::from_raw_parts_mut(cp.get().add(j0), j1 - j0) };
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the CPU has the features the function is compiled for.
                return unsafe { narrow_avx512(ops, args, a_row, b, ct, j0) };
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: as above.
                return unsafe { narrow_avx2(ops, args, a_row, b, ct, j0) };
            }
        }
        narrow_body(ops, args, a_row, b, ct, j0)
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma,f16c")]
unsafe fn narrow_avx512<B: Copy, O: NarrowOps<B>>(
    ops: O,
    args: &GemmArgs,
    a: &[O::Acc],
    b: &[B],
    c: &mut [O::Acc],
    j0: usize,
) {
    narrow_body(ops, args, a, b, c, j0)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,f16c")]
unsafe fn narrow_avx2<B: Copy, O: NarrowOps<B>>(
    ops: O,
    args: &GemmArgs,
    a: &[O::Acc],
    b: &[B],
    c: &mut [O::Acc],
    j0: usize,
) {
    narrow_body(ops, args, a, b, c, j0)
}

#[inline(always)]
fn narrow_body<B: Copy, O: NarrowOps<B>>(
    ops: O,
    args: &GemmArgs,
    a: &[O::Acc],
    b: &[B],
    c: &mut [O::Acc],
    j0: usize,
) {
    let w = c.len();
    let k = args.k;
    let (b_rs, b_cs) = b_strides(args);
    if !args.accumulate {
        c.fill(O::ZERO);
    }
    if b_cs == 1 {
        for (p, &x) in a.iter().enumerate().take(k) {
            let row = &b[p * b_rs + j0..p * b_rs + j0 + w];
            for (cj, &bj) in c.iter_mut().zip(row) {
                *cj = O::mac(*cj, x, ops.widen(bj));
            }
        }
    } else {
        for (jj, cj) in c.iter_mut().enumerate() {
            let r = &b[(j0 + jj) * b_cs..(j0 + jj) * b_cs + k];
            let mut acc = [O::ZERO; LANES];
            let mut chunks_a = a[..k].chunks_exact(LANES);
            let mut chunks_b = r.chunks_exact(LANES);
            for (xa, xb) in (&mut chunks_a).zip(&mut chunks_b) {
                for l in 0..LANES {
                    acc[l] = O::mac(acc[l], xa[l], ops.widen(xb[l]));
                }
            }
            let mut s = O::ZERO;
            for &x in &acc {
                s = O::add(s, x);
            }
            for (&x, &y) in chunks_a.remainder().iter().zip(chunks_b.remainder()) {
                s = O::mac(s, x, ops.widen(y));
            }
            *cj = O::add(*cj, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{sgemm_ex, GemmArgs};

    /// One-row products against sums in f64: B plain and transposed, accumulating or not,
    /// A strided (transposed with lda > 1), C split between threads.
    #[test]
    fn one_row_products_match_f64_sums() {
        let mut s = 0x9e37_79b9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s % 2001) as f32 / 1000.0 - 1.0
        };
        for &(n, k) in &[(1usize, 1usize), (7, 3), (33, 17), (1000, 64), (4096, 300)] {
            for trans_b in [false, true] {
                for accumulate in [false, true] {
                    for lda in [1usize, 3] {
                        let a: Vec<f32> = (0..k * lda).map(|_| next()).collect();
                        let b: Vec<f32> = (0..n * k).map(|_| next()).collect();
                        let c0: Vec<f32> = (0..n).map(|_| next()).collect();
                        let mut args = GemmArgs::new(1, n, k)
                            .with_trans(lda > 1, trans_b)
                            .with_threads(4)
                            .with_accumulate(accumulate);
                        if lda > 1 {
                            args.lda = lda;
                        }
                        let mut c = c0.clone();
                        sgemm_ex(&args, &a, &b, &mut c).unwrap();
                        for j in 0..n {
                            let mut want = if accumulate { c0[j] as f64 } else { 0.0 };
                            for p in 0..k {
                                let bv = if trans_b { b[j * k + p] } else { b[p * n + j] };
                                want += a[p * lda] as f64 * bv as f64;
                            }
                            let tol = 1e-5 * (k as f64 + 1.0);
                            assert!(
                                (c[j] as f64 - want).abs() <= tol,
                                "n {n} k {k} trans_b {trans_b} acc {accumulate} lda {lda} j {j}: {} vs {want}",
                                c[j]
                            );
                        }
                    }
                }
            }
        }
    }

    /// Not transposed, each element of C is A's row times B's column summed in order of the
    /// inner dimension, multiply and add rounded apart (the blocks held in registers and the
    /// columns after them alike): bit for bit, f32 and f64, widths around the blocks.
    #[test]
    fn plain_one_row_products_sum_in_order() {
        type Gemm<T> = fn(&GemmArgs, &[T], &[T], &mut [T]) -> Result<(), crate::KernelError>;
        fn check<T: super::Scalar + PartialEq + std::fmt::Debug>(gemm: Gemm<T>, of: fn(f32) -> T) {
            let mut s = 0x2545_f491u32;
            let mut next = || {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                of((s % 2001) as f32 / 997.0 - 1.0)
            };
            for &(n, k) in &[(31usize, 5usize), (32, 3), (64, 9), (97, 17), (200, 33)] {
                for accumulate in [false, true] {
                    let a: Vec<T> = (0..k).map(|_| next()).collect();
                    let b: Vec<T> = (0..n * k).map(|_| next()).collect();
                    let c0: Vec<T> = (0..n).map(|_| next()).collect();
                    let args = GemmArgs::new(1, n, k).with_accumulate(accumulate);
                    let mut c = c0.clone();
                    gemm(&args, &a, &b, &mut c).unwrap();
                    for j in 0..n {
                        let mut want = if accumulate {
                            c0[j] + a[0] * b[j]
                        } else {
                            a[0] * b[j]
                        };
                        for p in 1..k {
                            want = want + a[p] * b[p * n + j];
                        }
                        assert_eq!(c[j], want, "n {n} k {k} acc {accumulate} j {j}");
                    }
                }
            }
        }
        check::<f32>(sgemm_ex, |x| x);
        check::<f64>(crate::dgemm_ex, |x| x as f64);
    }

    /// Narrow one-row products (bf16 -> f32, s8 x u8 -> s32), plain and transposed B,
    /// batched, against sums in f64 / exact i64.
    #[test]
    fn narrow_one_row_products_match_references() {
        use crate::{hgemm_batched, igemm_batched, Batch, Half, Int8};
        let mut s = 0x1234_5678u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for &(n, k) in &[(5usize, 3usize), (70, 33), (600, 500)] {
            for trans_b in [false, true] {
                let count = 3;
                let args = GemmArgs::new(1, n, k)
                    .with_trans(false, trans_b)
                    .with_threads(4);
                let batch = Batch {
                    count,
                    stride_a: k,
                    stride_b: k * n,
                    stride_c: n,
                };
                let bf = |x: f32| (x.to_bits() >> 16) as u16;
                let a: Vec<u16> = (0..count * k)
                    .map(|_| bf((next() % 200) as f32 / 50.0 - 2.0))
                    .collect();
                let b: Vec<u16> = (0..count * k * n)
                    .map(|_| bf((next() % 200) as f32 / 50.0 - 2.0))
                    .collect();
                let mut c = vec![0f32; count * n];
                hgemm_batched(Half::Bf16, &args, &batch, &a, &b, &mut c).unwrap();
                let ai: Vec<u8> = (0..count * k).map(|_| next() as u8).collect();
                let bi: Vec<u8> = (0..count * k * n).map(|_| next() as u8).collect();
                let mut ci = vec![0i32; count * n];
                igemm_batched(Int8::S8, Int8::U8, &args, &batch, &ai, &bi, &mut ci).unwrap();
                for i in 0..count {
                    for j in 0..n {
                        let at = |p: usize| if trans_b { j * k + p } else { p * n + j };
                        let (mut want, mut wi) = (0f64, 0i64);
                        for p in 0..k {
                            let x = Half::Bf16.to_f32(a[i * k + p]) as f64;
                            let y = Half::Bf16.to_f32(b[i * k * n + at(p)]) as f64;
                            want += x * y;
                            wi += (ai[i * k + p] as i8 as i64) * (bi[i * k * n + at(p)] as i64);
                        }
                        let got = c[i * n + j] as f64;
                        assert!(
                            (got - want).abs() <= 1e-4 * (k as f64),
                            "bf16 n {n} k {k} t {trans_b}: {got} vs {want}"
                        );
                        assert_eq!(ci[i * n + j] as i64, wi, "int8 n {n} k {k} t {trans_b}");
                    }
                }
            }
        }
    }
}
