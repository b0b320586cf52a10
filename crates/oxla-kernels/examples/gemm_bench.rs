//! `cargo run --release -p oxla-kernels --example gemm_bench -- 1024 [f32|f64|both] [ISA] [THREADS]`
//! prints GFLOPS of the GEMM (N x N x N; or `MxNxK`, e.g. `3136x64x576`, the GEMM of a 3x3
//! convolution of 64 channels over 56x56 pixels), best of 5 runs. ISA is `portable`, `avx2`,
//! `avx512` or `best` (the default: the best this CPU has); THREADS is a comma-separated
//! list (default `1,2`).

use std::time::Instant;

use oxla_kernels::{dgemm_with, sgemm_with, Isa};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dims: Vec<usize> = args
        .first()
        .map_or("1024", String::as_str)
        .split('x')
        .filter_map(|s| s.parse().ok())
        .collect();
    let (m, n, k) = match dims[..] {
        [m, n, k] => (m, n, k),
        [n] => (n, n, n),
        _ => (1024, 1024, 1024),
    };
    let which = args.get(1).map_or("both", String::as_str);
    let isa = match args.get(2).map(String::as_str) {
        Some("portable") => Isa::Portable,
        Some("avx2") => Isa::Avx2,
        Some("avx512") => Isa::Avx512,
        _ => Isa::detect(),
    };
    let thread_counts: Vec<usize> = args
        .get(3)
        .map_or("1,2", String::as_str)
        .split(',')
        .filter_map(|t| t.parse().ok())
        .collect();
    println!("isa: {isa:?}");
    let a: Vec<f64> = (0..m * k)
        .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
        .collect();
    let b: Vec<f64> = (0..k * n)
        .map(|i| ((i * 104729) % 1000) as f64 / 1000.0)
        .collect();
    let (af, bf): (Vec<f32>, Vec<f32>) = (
        a.iter().map(|&x| x as f32).collect(),
        b.iter().map(|&x| x as f32).collect(),
    );
    let mut c = vec![0f64; m * n];
    let mut cf = vec![0f32; m * n];
    for (name, wanted) in [("f32", which != "f64"), ("f64", which != "f32")] {
        if !wanted {
            continue;
        }
        for &threads in &thread_counts {
            let mut best = f64::MAX;
            for _ in 0..5 {
                let t = Instant::now();
                let r = if name == "f32" {
                    sgemm_with(isa, m, n, k, &af, k, &bf, n, &mut cf, n, false, threads)
                } else {
                    dgemm_with(isa, m, n, k, &a, k, &b, n, &mut c, n, false, threads)
                };
                r.expect("gemm");
                best = best.min(t.elapsed().as_secs_f64());
            }
            let gflops = 2.0 * (m * n * k) as f64 / best / 1e9;
            println!(
                "{m}x{n}x{k} {name}, {threads} thread(s): {:.3} ms, {gflops:.1} GFLOPS",
                best * 1e3
            );
        }
    }
}
