//! `cargo bench -p oxla-kernels --bench gemm`: sgemm and dgemm at 256^3 and 1024^3 on 1
//! and 2 threads, and a small batched sgemm. Throughput is reported in elements/s where
//! one element is one flop (2 * m * n * k per GEMM), i.e. "Gelem/s" reads as GFLOPS.
//! Sample sizes are kept small so the whole run takes well under two minutes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use oxla_kernels::{dgemm, sgemm, sgemm_batched, Batch, GemmArgs};

fn values(n: usize, mul: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * mul) % 1000) as f64 / 1000.0).collect()
}

fn square(c: &mut Criterion) {
    for name in ["sgemm", "dgemm"] {
        let mut group = c.benchmark_group(name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1))
            .sampling_mode(SamplingMode::Flat);
        for n in [256usize, 1024] {
            let a = values(n * n, 7919);
            let b = values(n * n, 104729);
            let (af, bf): (Vec<f32>, Vec<f32>) = (
                a.iter().map(|&x| x as f32).collect(),
                b.iter().map(|&x| x as f32).collect(),
            );
            let mut c = vec![0f64; n * n];
            let mut cf = vec![0f32; n * n];
            group.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
            for threads in [1usize, 2] {
                let id = BenchmarkId::new(format!("{threads}t"), n);
                group.bench_function(id, |bench| {
                    bench.iter(|| {
                        let r = if name == "sgemm" {
                            sgemm(n, n, n, &af, n, &bf, n, &mut cf, n, false, threads)
                        } else {
                            dgemm(n, n, n, &a, n, &b, n, &mut c, n, false, threads)
                        };
                        black_box(r).expect("gemm");
                    })
                });
            }
        }
        group.finish();
    }
}

fn batched(c: &mut Criterion) {
    let (count, m, n, k) = (8usize, 128usize, 128usize, 64usize);
    let a: Vec<f32> = values(count * m * k, 7919)
        .iter()
        .map(|&x| x as f32)
        .collect();
    let b: Vec<f32> = values(count * k * n, 104729)
        .iter()
        .map(|&x| x as f32)
        .collect();
    let mut out = vec![0f32; count * m * n];
    let batch = Batch {
        count,
        stride_a: m * k,
        stride_b: k * n,
        stride_c: m * n,
    };
    let mut group = c.benchmark_group("sgemm_batched_8x128x128x64");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(2 * (count * m * n * k) as u64));
    for threads in [1usize, 2] {
        let args = GemmArgs::new(m, n, k).with_threads(threads);
        group.bench_function(format!("{threads}t"), |bench| {
            bench.iter(|| black_box(sgemm_batched(&args, &batch, &a, &b, &mut out)).expect("gemm"))
        });
    }
    group.finish();
}

criterion_group!(benches, square, batched);
criterion_main!(benches);
