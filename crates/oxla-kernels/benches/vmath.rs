//! `cargo bench -p oxla-kernels --bench vmath`: the vector math routines JIT kernels call on
//! tiles (exp, tanh, logistic, log in place over 2048 f32, one L1-resident tile row; each
//! call also restores its 8 KB of inputs) for each instruction set this CPU runs, and the f32 row max/min (`rowminmax`) over a
//! 4096-element row (elements/s = elements per second).

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use oxla_kernels::rowminmax::{row_minmax, MinMax};
use oxla_kernels::vmath::{apply_with, VFunc, VIsa};

/// Values in [-4, 4), where the functions are away from their range checks' fast exits.
fn inputs(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            ((i as u32).wrapping_mul(2_654_435_761) >> 8) as f32 / (1u32 << 24) as f32 * 8.0 - 4.0
        })
        .collect()
}

/// Short runs of `n` elements per iteration (the routines take nanoseconds to microseconds).
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
        .sampling_mode(SamplingMode::Flat)
        .throughput(Throughput::Elements(n as u64));
}

fn vmath(c: &mut Criterion) {
    let n = 2048;
    let x = inputs(n);
    let mut group = c.benchmark_group("vmath");
    configure(&mut group, n);
    let isas = [
        (VIsa::Avx512, "avx512"),
        (VIsa::Avx2, "avx2"),
        (VIsa::Scalar { fma: true }, "scalar"),
    ];
    for (isa, name) in isas.into_iter().filter(|(i, _)| i.available()) {
        for f in VFunc::ALL {
            let mut buf = x.clone();
            group.bench_function(BenchmarkId::new(format!("{f:?}_{name}"), n), |b| {
                b.iter(|| {
                    // Restart from the inputs: applying a function to its own output would
                    // drift into its saturated range.
                    buf.copy_from_slice(&x);
                    apply_with(isa, f, black_box(&mut buf));
                })
            });
        }
    }
    group.finish();
}

fn rows(c: &mut Criterion) {
    let n = 4096;
    let x = inputs(n);
    let mut group = c.benchmark_group("rowminmax");
    configure(&mut group, n);
    for (name, op) in [("max", MinMax::Max), ("min", MinMax::Min)] {
        group.bench_function(BenchmarkId::new(name, n), |b| {
            b.iter(|| black_box(row_minmax(op, black_box(&x))))
        });
    }
    group.finish();
}

criterion_group!(benches, vmath, rows);
criterion_main!(benches);
