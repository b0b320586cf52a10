//! GEMM against a naive f64 triple loop, for every microkernel and both element types, on
//! awkward shapes, layouts and thread counts.

use std::fmt::Debug;

use oxla_kernels::{
    dgemm, dgemm_batched_with, dgemm_ex_with, dgemm_with, sgemm, sgemm_batched, sgemm_batched_with,
    sgemm_ex, sgemm_ex_with, sgemm_pack_b_with, sgemm_prepacked, sgemm_then_with, sgemm_with,
    Batch, GemmArgs, Isa, KernelError,
};

/// What the tests need of f32 and f64.
trait Elem: Copy + PartialEq + Debug {
    const NAME: &'static str;
    /// Tolerance per unit of k (inputs are in [-1, 1]).
    const TOL: f64;
    fn of(x: f64) -> Self;
    fn get(self) -> f64;
    #[allow(clippy::too_many_arguments)]
    fn gemm_with(
        isa: Isa,
        m: usize,
        n: usize,
        k: usize,
        a: &[Self],
        lda: usize,
        b: &[Self],
        ldb: usize,
        c: &mut [Self],
        ldc: usize,
        acc: bool,
        threads: usize,
    ) -> Result<(), KernelError>;
    fn gemm_ex_with(
        isa: Isa,
        args: &GemmArgs,
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
    ) -> Result<(), KernelError>;
    fn gemm_batched_with(
        isa: Isa,
        args: &GemmArgs,
        batch: &Batch,
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
    ) -> Result<(), KernelError>;
}

impl Elem for f32 {
    const NAME: &'static str = "f32";
    const TOL: f64 = 1e-5;
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn get(self) -> f64 {
        self as f64
    }
    fn gemm_with(
        isa: Isa,
        m: usize,
        n: usize,
        k: usize,
        a: &[f32],
        lda: usize,
        b: &[f32],
        ldb: usize,
        c: &mut [f32],
        ldc: usize,
        acc: bool,
        threads: usize,
    ) -> Result<(), KernelError> {
        sgemm_with(isa, m, n, k, a, lda, b, ldb, c, ldc, acc, threads)
    }
    fn gemm_ex_with(
        isa: Isa,
        args: &GemmArgs,
        a: &[f32],
        b: &[f32],
        c: &mut [f32],
    ) -> Result<(), KernelError> {
        sgemm_ex_with(isa, args, a, b, c)
    }
    fn gemm_batched_with(
        isa: Isa,
        args: &GemmArgs,
        batch: &Batch,
        a: &[f32],
        b: &[f32],
        c: &mut [f32],
    ) -> Result<(), KernelError> {
        sgemm_batched_with(isa, args, batch, a, b, c)
    }
}

impl Elem for f64 {
    const NAME: &'static str = "f64";
    const TOL: f64 = 1e-13;
    fn of(x: f64) -> f64 {
        x
    }
    fn get(self) -> f64 {
        self
    }
    fn gemm_with(
        isa: Isa,
        m: usize,
        n: usize,
        k: usize,
        a: &[f64],
        lda: usize,
        b: &[f64],
        ldb: usize,
        c: &mut [f64],
        ldc: usize,
        acc: bool,
        threads: usize,
    ) -> Result<(), KernelError> {
        dgemm_with(isa, m, n, k, a, lda, b, ldb, c, ldc, acc, threads)
    }
    fn gemm_ex_with(
        isa: Isa,
        args: &GemmArgs,
        a: &[f64],
        b: &[f64],
        c: &mut [f64],
    ) -> Result<(), KernelError> {
        dgemm_ex_with(isa, args, a, b, c)
    }
    fn gemm_batched_with(
        isa: Isa,
        args: &GemmArgs,
        batch: &Batch,
        a: &[f64],
        b: &[f64],
        c: &mut [f64],
    ) -> Result<(), KernelError> {
        dgemm_batched_with(isa, args, batch, a, b, c)
    }
}

/// Deterministic values in [-1, 1).
fn data<T: Elem>(n: usize, seed: u64) -> Vec<T> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            T::of(((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0)
        })
        .collect()
}

fn isas() -> Vec<Isa> {
    Isa::ALL
        .into_iter()
        .filter(|isa| isa.is_available())
        .collect()
}

/// C = op(A) * op(B) (+ C) in f64, with `args`' layout; m x n, tight.
fn naive<T: Elem>(args: &GemmArgs, a: &[T], b: &[T], c0: &[T]) -> Vec<f64> {
    let (m, n, k) = (args.m, args.n, args.k);
    let at = |i: usize, p: usize| {
        if args.trans_a {
            a[p * args.lda + i].get()
        } else {
            a[i * args.lda + p].get()
        }
    };
    let bt = |p: usize, j: usize| {
        if args.trans_b {
            b[j * args.ldb + p].get()
        } else {
            b[p * args.ldb + j].get()
        }
    };
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = if args.accumulate {
                c0[i * args.ldc + j].get()
            } else {
                0.0
            };
            for p in 0..k {
                s += at(i, p) * bt(p, j);
            }
            c[i * n + j] = s;
        }
    }
    c
}

/// Runs `args` with `isa` (through the plain API when there is no transpose and `plain`)
/// on seeded data and compares with the naive loop; C's padding must stay untouched.
fn check_one<T: Elem>(isa: Isa, args: &GemmArgs, seed: u64, plain: bool) {
    let (m, n, k) = (args.m, args.n, args.k);
    let a_rows = if args.trans_a { k } else { m };
    let b_rows = if args.trans_b { n } else { k };
    let a = data::<T>(a_rows * args.lda, seed);
    let b = data::<T>(b_rows.max(1) * args.ldb, seed + 1);
    let c0 = data::<T>(m * args.ldc, seed + 2);
    let mut c = c0.clone();
    if plain && !args.trans_a && !args.trans_b {
        T::gemm_with(
            isa,
            m,
            n,
            k,
            &a,
            args.lda,
            &b,
            args.ldb,
            &mut c,
            args.ldc,
            args.accumulate,
            args.threads,
        )
        .unwrap();
    } else {
        T::gemm_ex_with(isa, args, &a, &b, &mut c).unwrap();
    }
    let want = naive(args, &a, &b, &c0);
    let tol = T::TOL * (k as f64 + 1.0);
    for i in 0..m {
        for j in 0..n {
            let (g, w) = (c[i * args.ldc + j].get(), want[i * n + j]);
            assert!(
                (g - w).abs() <= tol,
                "{} {isa:?} {args:?} [{i},{j}]: {g} vs {w}",
                T::NAME
            );
        }
        for j in n..args.ldc {
            assert_eq!(c[i * args.ldc + j], c0[i * args.ldc + j], "padding");
        }
    }
}

/// Every available ISA, 1 and 2 threads, accumulate on and off, padded leading dims.
fn many_shapes<T: Elem>() {
    let shapes = [
        (1, 1, 1),
        (17, 33, 65),
        (12, 32, 256),
        (13, 31, 257),
        (100, 3, 50),
        (3, 100, 50),
        (200, 200, 300),
        (5, 7, 0),
        (64, 2100, 9),
        (7, 65, 600),
        // Deeper than every kernel's KC (AVX2 f32: 1024): several k slices, the first
        // overwriting C.
        (19, 45, 1030),
        // Wider than 512 (A packed: AVX-512 f32 runs its 12 x 32 kernel, AVX2 on Intel its
        // 6 x 16 one at KC 256, one A panel across the B panels) and taller than its MC
        // (960): two row blocks, edge tiles.
        (965, 515, 40),
        // A packed and short next to B's block: on 2 threads, one column unit per thread
        // packs its own B panels (the last one narrower) and all of A, over several k
        // slices.
        (40, 1000, 1030),
        // Wide, and tall next to B's block: on 2 threads, CPUs other than Intel's read A
        // in place (column units of 128 columns or more), the last panel narrower and the
        // last rows packed alone.
        (517, 1030, 40),
    ];
    for isa in isas() {
        for (t, &(m, n, k)) in shapes.iter().enumerate() {
            for threads in [1, 2] {
                for acc in [false, true] {
                    let args = GemmArgs {
                        lda: k + 3,
                        ldb: n + 5,
                        ldc: n + 2,
                        ..GemmArgs::new(m, n, k)
                            .with_threads(threads)
                            .with_accumulate(acc)
                    };
                    check_one::<T>(isa, &args, t as u64 * 3 + 1, true);
                }
            }
        }
    }
}

/// All four transpose combinations on odd shapes, every available ISA.
fn transposes<T: Elem>() {
    let shapes = [
        (1, 1, 1),
        (17, 33, 65),
        (13, 70, 9),
        (70, 13, 300),
        (5, 7, 0),
        (130, 129, 520),
        (9, 20, 1100),
        // A transposed (packed) and short: column units on 2 threads.
        (20, 1000, 300),
    ];
    for isa in isas() {
        for (t, &(m, n, k)) in shapes.iter().enumerate() {
            for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
                for threads in [1, 2] {
                    for acc in [false, true] {
                        let mut args = GemmArgs::new(m, n, k)
                            .with_trans(ta, tb)
                            .with_threads(threads)
                            .with_accumulate(acc);
                        args.lda += 3;
                        args.ldb += 1;
                        args.ldc = n + 4;
                        check_one::<T>(isa, &args, t as u64 * 3 + 100, false);
                    }
                }
            }
        }
    }
}

/// Matrix times vector (n = 1, C contiguous: run as a one-row product of the transposes,
/// A read in place), every transpose, padded leading dimensions, 1 and 2 threads.
fn matrix_vector<T: Elem>() {
    for isa in isas() {
        for (t, &(m, k)) in [(2, 1), (17, 9), (300, 1100), (1030, 257)]
            .iter()
            .enumerate()
        {
            for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
                for threads in [1, 2] {
                    for acc in [false, true] {
                        let mut args = GemmArgs::new(m, 1, k)
                            .with_trans(ta, tb)
                            .with_threads(threads)
                            .with_accumulate(acc);
                        args.lda += 3;
                        args.ldb += 2;
                        args.ldc = 1;
                        check_one::<T>(isa, &args, t as u64 * 5 + 300, false);
                    }
                }
            }
        }
    }
}

/// Batches (small matrices split whole between threads, large ones by rows), padded batch
/// strides, a broadcast B, transposes; the gaps between C matrices stay untouched.
fn batches<T: Elem>() {
    // (count, m, n, k, trans_a, trans_b, broadcast B, accumulate, threads)
    let cases = [
        (8, 128, 128, 64, false, false, false, false, 2),
        (3, 150, 140, 230, false, false, false, true, 2),
        (4, 33, 17, 9, true, true, false, false, 2),
        (5, 20, 30, 40, false, true, true, true, 2),
        (3, 1, 1, 1, false, false, false, false, 1),
        (2, 4, 5, 0, false, false, false, false, 2),
        (1, 70, 70, 70, true, false, false, false, 2),
        (0, 3, 3, 3, false, false, false, false, 2),
    ];
    for isa in isas() {
        for (t, &(count, m, n, k, ta, tb, bcast, acc, threads)) in cases.iter().enumerate() {
            let mut args = GemmArgs::new(m, n, k)
                .with_trans(ta, tb)
                .with_threads(threads)
                .with_accumulate(acc);
            args.lda += 1;
            args.ldc = n + 3;
            let a_rows = if ta { k } else { m };
            let b_rows = if tb { n } else { k };
            let batch = Batch {
                count,
                stride_a: a_rows * args.lda + 5,
                stride_b: if bcast { 0 } else { b_rows * args.ldb + 2 },
                stride_c: m * args.ldc + 7,
            };
            let seed = t as u64 * 5 + 1000;
            let a = data::<T>(count * batch.stride_a, seed);
            let b = data::<T>(count.max(1) * batch.stride_b + b_rows * args.ldb, seed + 1);
            let c0 = data::<T>(count * batch.stride_c, seed + 2);
            let mut c = c0.clone();
            T::gemm_batched_with(isa, &args, &batch, &a, &b, &mut c).unwrap();
            let tol = T::TOL * (k as f64 + 1.0);
            for i in 0..count {
                let (ao, bo, co) = (i * batch.stride_a, i * batch.stride_b, i * batch.stride_c);
                let want = naive(&args, &a[ao..], &b[bo..], &c0[co..]);
                for r in 0..m {
                    for j in 0..n {
                        let (g, w) = (c[co + r * args.ldc + j].get(), want[r * n + j]);
                        assert!(
                            (g - w).abs() <= tol,
                            "{} {isa:?} case {t} matrix {i} [{r},{j}]: {g} vs {w}",
                            T::NAME
                        );
                    }
                    for j in n..args.ldc {
                        assert_eq!(c[co + r * args.ldc + j], c0[co + r * args.ldc + j]);
                    }
                }
                for x in co + m * args.ldc..co + batch.stride_c {
                    assert_eq!(c[x], c0[x], "gap after matrix {i}");
                }
            }
        }
    }
}

#[test]
fn sgemm_batched_matches_naive() {
    batches::<f32>();
}

#[test]
fn dgemm_batched_matches_naive() {
    batches::<f64>();
}

#[test]
fn bad_batches_are_errors() {
    let args = GemmArgs::new(2, 2, 2);
    let ok = Batch {
        count: 3,
        stride_a: 4,
        stride_b: 0,
        stride_c: 4,
    };
    let mut c = [0f32; 12];
    sgemm_batched(&args, &ok, &[1.0; 12], &[1.0; 4], &mut c).unwrap();
    assert_eq!(c, [2.0; 12]);
    // Overlapping outputs.
    let overlap = Batch { stride_c: 3, ..ok };
    let e = sgemm_batched(&args, &overlap, &[1.0; 12], &[1.0; 4], &mut c).unwrap_err();
    assert!(e.to_string().contains("would overlap"), "{e}");
    // A too short for the last matrix.
    let e = sgemm_batched(&args, &ok, &[1.0; 11], &[1.0; 4], &mut c).unwrap_err();
    assert!(
        e.to_string()
            .contains("A: batch of 3 with stride 4 needs 12 elements, got 11"),
        "{e}"
    );
    // C too short.
    let e = sgemm_batched(&args, &ok, &[1.0; 12], &[1.0; 4], &mut c[..10]).unwrap_err();
    assert!(e.to_string().contains("C: batch of 3"), "{e}");
    // Overflowing strides.
    let huge = Batch {
        stride_a: usize::MAX / 2,
        ..ok
    };
    let e = sgemm_batched(&args, &huge, &[1.0; 12], &[1.0; 4], &mut c).unwrap_err();
    assert!(e.to_string().contains("overflows"), "{e}");
    // An empty batch touches nothing.
    let none = Batch { count: 0, ..ok };
    sgemm_batched(&args, &none, &[], &[], &mut []).unwrap();
}

#[test]
fn sgemm_matches_naive_on_many_shapes() {
    many_shapes::<f32>();
}

#[test]
fn dgemm_matches_naive_on_many_shapes() {
    many_shapes::<f64>();
}

#[test]
fn sgemm_matrix_vector_matches_naive() {
    matrix_vector::<f32>();
}

#[test]
fn dgemm_matrix_vector_matches_naive() {
    matrix_vector::<f64>();
}

#[test]
fn sgemm_transposes_match_naive() {
    transposes::<f32>();
}

#[test]
fn dgemm_transposes_match_naive() {
    transposes::<f64>();
}

#[test]
fn detect_prefers_the_widest_available_isa() {
    let best = Isa::detect();
    assert!(best.is_available());
    assert!(Isa::Portable.is_available());
    let rank = |isa: Isa| Isa::ALL.iter().position(|&x| x == isa).unwrap();
    for isa in Isa::ALL {
        if isa.is_available() {
            assert!(
                rank(isa) <= rank(best),
                "{isa:?} available but {best:?} chosen"
            );
        }
    }
}

#[test]
fn unavailable_isas_are_errors() {
    for isa in Isa::ALL {
        let mut c = [0f32; 1];
        let r = sgemm_with(isa, 1, 1, 1, &[1.0], 1, &[1.0], 1, &mut c, 1, false, 1);
        let mut d = [0f64; 1];
        let s = dgemm_with(isa, 1, 1, 1, &[1.0], 1, &[1.0], 1, &mut d, 1, false, 1);
        if isa.is_available() {
            r.unwrap();
            s.unwrap();
            assert_eq!((c[0], d[0]), (1.0, 1.0));
        } else {
            assert!(r.unwrap_err().to_string().contains("not supported"));
            assert!(s.is_err());
        }
    }
}

#[test]
fn bad_arguments_are_errors() {
    let mut c = vec![0f32; 4];
    let e = sgemm(2, 2, 2, &[0.0; 3], 2, &[0.0; 4], 2, &mut c, 2, false, 1).unwrap_err();
    assert!(
        e.to_string()
            .contains("A: 2x2 with leading dimension 2 needs 4 elements, got 3"),
        "{e}"
    );
    let e = sgemm(2, 2, 2, &[0.0; 4], 1, &[0.0; 4], 2, &mut c, 2, false, 1).unwrap_err();
    assert!(
        e.to_string().contains("leading dimension 1 is smaller"),
        "{e}"
    );
    let mut d = [0f64; 4];
    let e = dgemm(
        2,
        2,
        2,
        &[0.0; 4],
        2,
        &[0.0; 4],
        2,
        &mut d[..3],
        2,
        false,
        1,
    )
    .unwrap_err();
    assert!(e.to_string().contains("C: 2x2"), "{e}");
    sgemm(0, 0, 0, &[], 0, &[], 0, &mut [], 0, false, 2).unwrap();
    dgemm(0, 3, 0, &[], 0, &[], 0, &mut [], 0, true, 2).unwrap();
}

#[test]
fn transposed_bounds_are_checked() {
    // A stored k x m = 3 x 2 with lda 2 needs 6 elements.
    let args = GemmArgs::new(2, 2, 3).with_trans(true, false);
    let mut c = vec![0f32; 4];
    let e = sgemm_ex(&args, &[0.0; 5], &[0.0; 6], &mut c).unwrap_err();
    assert!(
        e.to_string()
            .contains("A: 3x2 with leading dimension 2 needs 6 elements, got 5"),
        "{e}"
    );
    // B stored n x k = 2 x 3 with ldb 3 needs 6 elements.
    let args = GemmArgs::new(2, 2, 3).with_trans(false, true);
    let e = sgemm_ex(&args, &[0.0; 6], &[0.0; 5], &mut c).unwrap_err();
    assert!(
        e.to_string()
            .contains("B: 2x3 with leading dimension 3 needs 6 elements, got 5"),
        "{e}"
    );
    // Leading dimensions that overflow are errors, not panics.
    let mut args = GemmArgs::new(3, 2, 2);
    args.lda = usize::MAX;
    let e = sgemm_ex(&args, &[0.0; 6], &[0.0; 4], &mut [0.0; 6]).unwrap_err();
    assert!(e.to_string().contains("overflows"), "{e}");
    // The transposed product is right on a tiny case: A^T with A = [[1, 2], [3, 4]].
    let args = GemmArgs::new(2, 2, 2).with_trans(true, true);
    let a = [1.0, 2.0, 3.0, 4.0];
    let b = [1.0, 0.0, 0.0, 1.0];
    let mut c = [9.0f32; 4];
    sgemm_ex(&args, &a, &b, &mut c).unwrap();
    assert_eq!(c, [1.0, 3.0, 2.0, 4.0]);
}

#[test]
fn gemm_inside_pool_tasks_runs_serially_and_correctly() {
    // Each task runs its own multi-threaded GEMM: the nested calls run on the task's thread
    // (no deadlock) and use that thread's packing buffers.
    let (m, n, k) = (70, 90, 130);
    let a = data::<f32>(m * k, 1);
    let b = data::<f32>(k * n, 2);
    let want = naive(&GemmArgs::new(m, n, k), &a, &b, &[]);
    let outs: Vec<std::sync::Mutex<Vec<f32>>> = (0..6)
        .map(|_| std::sync::Mutex::new(vec![0f32; m * n]))
        .collect();
    oxla_kernels::pool::parallel_for(outs.len(), &|t| {
        let mut c = outs[t].lock().unwrap();
        sgemm(m, n, k, &a, k, &b, n, &mut c, n, false, 2).unwrap();
    });
    for out in outs {
        let c = out.into_inner().unwrap();
        for (g, w) in c.iter().zip(&want) {
            assert!((*g as f64 - w).abs() <= 1e-5 * (k as f64 + 1.0));
        }
    }
}

/// A wide product of several column blocks and depth slices, split by columns on 2
/// threads (A read in place where the CPU's kernel does so): every block's and slice's
/// units run in one parallel region, each unit after the same columns' previous slice.
/// Same kernel and slices as on one thread, so equal bit for bit to that product, and on
/// a sample of elements to the naive one; C's padding stays untouched.
#[test]
fn sgemm_column_units_over_blocks_and_slices() {
    let (m, n, k) = (530, 2100, 1030);
    for isa in isas() {
        for acc in [false, true] {
            let args = GemmArgs {
                lda: k + 3,
                ldb: n + 5,
                ldc: n + 2,
                ..GemmArgs::new(m, n, k).with_accumulate(acc)
            };
            let a = data::<f32>(m * args.lda, 11);
            let b = data::<f32>(k * args.ldb, 12);
            let c0 = data::<f32>(m * args.ldc, 13);
            let run = |threads: usize| {
                let mut c = c0.clone();
                sgemm_ex_with(isa, &args.with_threads(threads), &a, &b, &mut c).unwrap();
                c
            };
            let (one, two) = (run(1), run(2));
            let what = format!("{isa:?} accumulate {acc}");
            for (x, (&g, &w)) in two.iter().zip(&one).enumerate() {
                assert_eq!(g.to_bits(), w.to_bits(), "{what}: element {x}");
            }
            let tol = f32::TOL * (k as f64 + 1.0);
            for i in (0..m).step_by(37) {
                for j in (0..n).step_by(41).chain([n - 1]) {
                    let mut s = if acc {
                        f64::from(c0[i * args.ldc + j])
                    } else {
                        0.0
                    };
                    for p in 0..k {
                        s += f64::from(a[i * args.lda + p]) * f64::from(b[p * args.ldb + j]);
                    }
                    let g = f64::from(two[i * args.ldc + j]);
                    assert!((g - s).abs() <= tol, "{what}: [{i},{j}] {g} vs {s}");
                }
                assert_eq!(
                    two[i * args.ldc + n],
                    c0[i * args.ldc + n],
                    "{what}: padding"
                );
            }
        }
    }
}

/// The epilogue sees every row of C exactly once, only once the row is final (equal to the
/// naive product), and what it writes stays: on every path the driver splits work by
/// (one thread, rows only, column units, a grid with column splits, several column blocks
/// and k slices), every available ISA.
#[test]
fn sgemm_then_runs_the_epilogue_once_per_final_row() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let shapes = [
        (1, 1, 1),
        (5, 7, 0),
        (0, 9, 4),
        (128, 256, 256),
        (200, 200, 300),
        (40, 1000, 1030),
        (965, 515, 40),
        (300, 2100, 20),
        (19, 45, 1030),
        // Several column blocks and row groups on the AMX tiles (where the CPU has them).
        (130, 600, 100),
    ];
    for isa in isas() {
        for (t, &(m, n, k)) in shapes.iter().enumerate() {
            for threads in [1, 2] {
                let args = GemmArgs {
                    ldc: n + 2,
                    ..GemmArgs::new(m, n, k).with_threads(threads)
                };
                let a = data::<f32>(m * k, t as u64 * 5 + 1);
                let b = data::<f32>(k * n, t as u64 * 5 + 2);
                let want = naive(&args, &a, &b, &[]);
                let mut c = vec![f32::NAN; m * args.ldc];
                let seen: Vec<AtomicUsize> = (0..m).map(|_| AtomicUsize::new(0)).collect();
                let bad = Mutex::new(Vec::new());
                let cp = c.as_mut_ptr() as usize;
                let ldc = args.ldc;
                let tol = f32::TOL * (k as f64 + 1.0);
                let then = |r0: usize, r1: usize| {
                    for (i, s) in seen.iter().enumerate().take(r1).skip(r0) {
                        s.fetch_add(1, Ordering::Relaxed);
                        // SAFETY: row i is this call's alone (disjoint ranges), inside c.
                        let row = unsafe {
                            std::slice::from_raw_parts_mut((cp as *mut f32).add(i * ldc), n)
                        };
                        for (j, x) in row.iter_mut().enumerate() {
                            if (f64::from(*x) - want[i * n + j]).abs() > tol {
                                bad.lock().unwrap().push((i, j));
                            }
                            *x = x.tanh();
                        }
                    }
                };
                sgemm_then_with(isa, &args, &a, &b, &mut c, &then).unwrap();
                let what = format!("{isa:?} {m}x{n}x{k} threads {threads}");
                assert!(bad.lock().unwrap().is_empty(), "{what}: rows not final");
                for (i, s) in seen.iter().enumerate() {
                    assert_eq!(s.load(Ordering::Relaxed), 1, "{what}: row {i}");
                    for j in 0..n {
                        let w = (want[i * n + j] as f32).tanh();
                        assert!((c[i * ldc + j] - w).abs() <= 1e-4, "{what}: [{i},{j}]");
                    }
                    assert!(c[i * ldc + n].is_nan(), "{what}: padding");
                }
            }
        }
    }
}

/// B packed once runs products of several heights (and As) like the unpacked GEMM: every
/// available ISA, 1 and 2 threads, B transposed or not, A read in place or packed, several
/// column blocks and k slices; the same packed B serves every product.
#[test]
fn sgemm_prepacked_matches_naive() {
    let shapes = [(256, 256), (96, 40), (1000, 1030), (2100, 20), (7, 1)];
    for isa in isas() {
        for (t, &(n, k)) in shapes.iter().enumerate() {
            for trans_b in [false, true] {
                let base = GemmArgs::new(1, n, k).with_trans(false, trans_b);
                let b = data::<f32>(n * k, t as u64 * 7 + 1);
                let packed = sgemm_pack_b_with(isa, &base, &b).unwrap();
                for (r, m) in [1, 13, 128, 301].into_iter().enumerate() {
                    for threads in [1, 2] {
                        let args = GemmArgs {
                            m,
                            lda: k,
                            ..base.with_threads(threads)
                        };
                        let a = data::<f32>(m * k, (t * 10 + r) as u64);
                        let mut c = vec![f32::NAN; m * n];
                        sgemm_prepacked(&args, &a, &packed, &mut c, None).unwrap();
                        let want = naive(&args, &a, &b, &[]);
                        let tol = f32::TOL * (k as f64 + 1.0);
                        for (i, (&g, &w)) in c.iter().zip(&want).enumerate() {
                            assert!(
                                (f64::from(g) - w).abs() <= tol,
                                "{isa:?} {m}x{n}x{k} trans_b {trans_b} threads {threads} [{i}]: {g} vs {w}"
                            );
                        }
                    }
                }
                // A product of another shape is refused.
                let other = GemmArgs::new(4, n + 1, k);
                let (a, mut c) = (vec![0f32; 4 * k], vec![0f32; 4 * (n + 1)]);
                assert!(sgemm_prepacked(&other, &a, &packed, &mut c, None).is_err());
            }
        }
    }
}

/// Values the AMX tiles do not take (an infinity, a NaN, a tiny or huge value) in A or B,
/// for a product large enough for them, and for a B packed before (on AMX CPUs, as bf16
/// parts): every entry point computes what the naive product does (the FMA kernels run it),
/// NaN where it is NaN, and C's padding stays. On CPUs without tiles this checks the FMA
/// kernels alone.
#[test]
fn values_the_tiles_do_not_take_give_the_fma_kernels_results() {
    let (m, n, k) = (96, 80, 128);
    let args = GemmArgs {
        ldc: n + 1,
        ..GemmArgs::new(m, n, k).with_threads(2)
    };
    for isa in isas() {
        for (what, bad) in [
            ("inf", f32::INFINITY),
            ("nan", f32::NAN),
            ("tiny", 1e-30),
            ("huge", 1e30),
        ] {
            for in_b in [false, true] {
                let mut a = data::<f32>(m * k, 3);
                let mut b = data::<f32>(k * n, 4);
                if in_b {
                    b[7 * n + 5] = bad;
                } else {
                    a[9 * k + 7] = bad;
                }
                let want = naive(&args, &a, &b, &[]);
                let check = |c: &[f32], how: &str| {
                    for i in 0..m {
                        for j in 0..n {
                            let (got, w) = (f64::from(c[i * args.ldc + j]), want[i * n + j]);
                            let ok = if w.is_nan() {
                                got.is_nan()
                            } else if w.is_infinite() {
                                got == w
                            } else {
                                (got - w).abs() <= f32::TOL * (k as f64 + 1.0) * w.abs().max(1.0)
                            };
                            assert!(
                                ok,
                                "{isa:?} {what} in B {in_b} {how} ({i},{j}): {got} vs {w}"
                            );
                        }
                        assert_eq!(c[i * args.ldc + n], -1.0, "padding");
                    }
                };
                let mut c = vec![-1f32; m * args.ldc];
                sgemm_ex_with(isa, &args, &a, &b, &mut c).unwrap();
                check(&c, "plain");
                if !in_b {
                    // B is in range, so on AMX CPUs it is packed as parts; A sends the
                    // product back to the FMA kernels.
                    let packed = sgemm_pack_b_with(isa, &args, &b).unwrap();
                    let mut c = vec![-1f32; m * args.ldc];
                    sgemm_prepacked(&args, &a, &packed, &mut c, None).unwrap();
                    check(&c, "prepacked");
                }
            }
        }
    }
}
