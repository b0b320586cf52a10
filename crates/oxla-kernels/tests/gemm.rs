//! GEMM against a naive f64 triple loop, for every microkernel, on awkward shapes.

use oxla_kernels::{sgemm, sgemm_with, Isa};

fn data(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn naive(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    c0: &[f32],
    ldc: usize,
    acc: bool,
) -> Vec<f64> {
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = if acc { c0[i * ldc + j] as f64 } else { 0.0 };
            for p in 0..k {
                s += a[i * lda + p] as f64 * b[p * ldb + j] as f64;
            }
            c[i * n + j] = s;
        }
    }
    c
}

fn isas() -> Vec<Isa> {
    let mut v = vec![Isa::Portable];
    if Isa::detect() == Isa::Avx512 {
        v.push(Isa::Avx512);
    }
    v
}

#[test]
fn matches_naive_on_many_shapes() {
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
    ];
    for isa in isas() {
        for (t, &(m, n, k)) in shapes.iter().enumerate() {
            for threads in [1, 2] {
                for acc in [false, true] {
                    let (lda, ldb, ldc) = (k + 3, n + 5, n + 2);
                    let a = data(m * lda, t as u64 + 1);
                    let b = data(k.max(1) * ldb, t as u64 + 2);
                    let c0 = data(m * ldc, t as u64 + 3);
                    let mut c = c0.clone();
                    sgemm_with(isa, m, n, k, &a, lda, &b, ldb, &mut c, ldc, acc, threads).unwrap();
                    let want = naive(m, n, k, &a, lda, &b, ldb, &c0, ldc, acc);
                    let tol = 1e-5 * (k as f64 + 1.0);
                    for i in 0..m {
                        for j in 0..n {
                            let (g, w) = (c[i * ldc + j] as f64, want[i * n + j]);
                            assert!(
                                (g - w).abs() <= tol,
                                "{isa:?} {m}x{n}x{k} t{threads} acc={acc} [{i},{j}]: {g} vs {w}"
                            );
                        }
                        // Padding columns of C are untouched.
                        for j in n..ldc {
                            assert_eq!(c[i * ldc + j], c0[i * ldc + j]);
                        }
                    }
                }
            }
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
    sgemm(0, 0, 0, &[], 0, &[], 0, &mut [], 0, false, 2).unwrap();
}

#[test]
fn transposed_operands_are_read_in_place() {
    use oxla_kernels::{sgemm_ex, GemmArgs};
    for isa in [Isa::Portable, Isa::detect()] {
        for &(m, n, k) in &[
            (17usize, 33usize, 65usize),
            (6, 64, 5),
            (1, 1, 1),
            (40, 7, 130),
        ] {
            for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
                // Stored matrices with padded leading dimensions.
                let (ar, ac) = if ta { (k, m) } else { (m, k) };
                let (br, bc) = if tb { (n, k) } else { (k, n) };
                let (lda, ldb) = (ac + 3, bc + 2);
                let a = data(ar * lda, 1);
                let b = data(br * ldb, 2);
                // Logical row-major copies for the reference.
                let la: Vec<f32> = (0..m * k)
                    .map(|x| {
                        let (i, p) = (x / k, x % k);
                        if ta {
                            a[p * lda + i]
                        } else {
                            a[i * lda + p]
                        }
                    })
                    .collect();
                let lb: Vec<f32> = (0..k * n)
                    .map(|x| {
                        let (p, j) = (x / n, x % n);
                        if tb {
                            b[j * ldb + p]
                        } else {
                            b[p * ldb + j]
                        }
                    })
                    .collect();
                let want = naive(m, n, k, &la, k, &lb, n, &[], n, false);
                for threads in [1, 2] {
                    let mut c = vec![0f32; m * n];
                    let g = GemmArgs {
                        m,
                        n,
                        k,
                        a: &a,
                        lda,
                        trans_a: ta,
                        b: &b,
                        ldb,
                        trans_b: tb,
                        accumulate: false,
                        threads,
                    };
                    sgemm_ex(isa, &g, &mut c, n).unwrap();
                    for (x, (&got, &w)) in c.iter().zip(&want).enumerate() {
                        assert!(
                            (got as f64 - w).abs() <= 1e-4 * (1.0 + w.abs()),
                            "{isa:?} {m}x{n}x{k} ta={ta} tb={tb}: element {x}: {got} vs {w}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_isa_and_f64() {
    use oxla_kernels::{dgemm_ex, sgemm_ex, GemmArgs};
    for isa in [Isa::Portable, Isa::Avx2, Isa::Avx512] {
        if !isa.available() {
            // A CPU without the feature reports it instead of running it.
            let mut c = vec![0f32; 1];
            let g = GemmArgs {
                m: 1,
                n: 1,
                k: 1,
                a: &[1.0],
                lda: 1,
                trans_a: false,
                b: &[1.0],
                ldb: 1,
                trans_b: false,
                accumulate: false,
                threads: 1,
            };
            assert!(sgemm_ex(isa, &g, &mut c, 1).is_err());
            continue;
        }
        for &(m, n, k) in &[
            (17usize, 33usize, 65usize),
            (13, 9, 600),
            (1, 1, 1),
            (64, 70, 3),
        ] {
            for (ta, tb) in [(false, false), (true, true)] {
                let (ar, ac) = if ta { (k, m) } else { (m, k) };
                let (br, bc) = if tb { (n, k) } else { (k, n) };
                let (lda, ldb) = (ac + 1, bc + 5);
                let a32 = data(ar * lda, 3);
                let b32 = data(br * ldb, 4);
                let a: Vec<f64> = a32.iter().map(|&x| x as f64).collect();
                let b: Vec<f64> = b32.iter().map(|&x| x as f64).collect();
                let la: Vec<f32> = (0..m * k)
                    .map(|x| {
                        let (i, p) = (x / k, x % k);
                        if ta {
                            a32[p * lda + i]
                        } else {
                            a32[i * lda + p]
                        }
                    })
                    .collect();
                let lb: Vec<f32> = (0..k * n)
                    .map(|x| {
                        let (p, j) = (x / n, x % n);
                        if tb {
                            b32[j * ldb + p]
                        } else {
                            b32[p * ldb + j]
                        }
                    })
                    .collect();
                let c0 = data(m * n, 5);
                let want = naive(m, n, k, &la, k, &lb, n, &c0, n, true);
                for threads in [1, 2] {
                    let mut c: Vec<f64> = c0.iter().map(|&x| x as f64).collect();
                    let g = GemmArgs {
                        m,
                        n,
                        k,
                        a: &a,
                        lda,
                        trans_a: ta,
                        b: &b,
                        ldb,
                        trans_b: tb,
                        accumulate: true,
                        threads,
                    };
                    dgemm_ex(isa, &g, &mut c, n).unwrap();
                    for (x, (&got, &w)) in c.iter().zip(&want).enumerate() {
                        assert!(
                            (got - w).abs() <= 1e-12 * (1.0 + w.abs()),
                            "f64 {isa:?} {m}x{n}x{k}: element {x}: {got} vs {w}"
                        );
                    }
                    let mut c: Vec<f32> = c0.clone();
                    let g = GemmArgs {
                        m,
                        n,
                        k,
                        a: &a32,
                        lda,
                        trans_a: ta,
                        b: &b32,
                        ldb,
                        trans_b: tb,
                        accumulate: true,
                        threads,
                    };
                    sgemm_ex(isa, &g, &mut c, n).unwrap();
                    for (x, (&got, &w)) in c.iter().zip(&want).enumerate() {
                        assert!(
                            (got as f64 - w).abs() <= 1e-4 * (1.0 + w.abs()),
                            "f32 {isa:?} {m}x{n}x{k}: element {x}: {got} vs {w}"
                        );
                    }
                }
            }
        }
    }
}
