//! `cargo bench -p oxla-kernels --bench radix`: the stable radix argsort of 2^20 random
//! 32-bit and 64-bit keys on 1 and 2 threads (elements/s = keys sorted per second).

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use oxla_kernels::radix::{argsort_u32, argsort_u64};

fn keys(n: usize) -> Vec<u64> {
    let mut s = 0x1234_5678_9abc_def0u64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
        .collect()
}

fn argsort(c: &mut Criterion) {
    let n = 1 << 20;
    let k64 = keys(n);
    let k32: Vec<u32> = k64.iter().map(|&k| (k >> 32) as u32).collect();
    let mut group = c.benchmark_group("radix_argsort");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sampling_mode(SamplingMode::Flat)
        .throughput(Throughput::Elements(n as u64));
    for threads in [1usize, 2] {
        group.bench_function(BenchmarkId::new(format!("u32_{threads}t"), n), |b| {
            b.iter(|| black_box(argsort_u32(black_box(&k32), threads)))
        });
        group.bench_function(BenchmarkId::new(format!("u64_{threads}t"), n), |b| {
            b.iter(|| black_box(argsort_u64(black_box(&k64), threads)))
        });
    }
    group.finish();
}

criterion_group!(benches, argsort);
criterion_main!(benches);
