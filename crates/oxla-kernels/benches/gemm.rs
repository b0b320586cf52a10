//! Criterion benchmarks of the GEMM kernels: `cargo bench -p oxla-kernels`.
//! Throughput is reported in elements (multiply-adds) per second: GFLOPS = 2 x that / 1e9.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use oxla_kernels::{dgemm, sgemm};

fn data<T: From<f32>>(n: usize, seed: usize) -> Vec<T> {
    (0..n)
        .map(|i| T::from(((i * 7919 + seed) % 1000) as f32 / 1000.0))
        .collect()
}

fn gemm(c: &mut Criterion) {
    let mut g = c.benchmark_group("gemm");
    g.sample_size(10);
    for &n in &[256usize, 1024] {
        g.throughput(Throughput::Elements((n * n * n) as u64));
        for threads in [1, 2] {
            let (a, b) = (data::<f32>(n * n, 1), data::<f32>(n * n, 2));
            let mut out = vec![0f32; n * n];
            g.bench_with_input(
                BenchmarkId::new(format!("sgemm_{threads}t"), n),
                &n,
                |bench, &n| {
                    bench.iter(|| {
                        sgemm(n, n, n, &a, n, &b, n, &mut out, n, false, threads).expect("gemm")
                    })
                },
            );
            let (a, b) = (data::<f64>(n * n, 1), data::<f64>(n * n, 2));
            let mut out = vec![0f64; n * n];
            g.bench_with_input(
                BenchmarkId::new(format!("dgemm_{threads}t"), n),
                &n,
                |bench, &n| {
                    bench.iter(|| {
                        dgemm(n, n, n, &a, n, &b, n, &mut out, n, false, threads).expect("gemm")
                    })
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, gemm);
criterion_main!(benches);
