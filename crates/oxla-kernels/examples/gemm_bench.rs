//! `cargo run --release -p oxla-kernels --example gemm_bench -- 1024` prints GFLOPS of the
//! f32 and f64 GEMM for 1 and 2 threads (best of several runs).

use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    let a: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|i| ((i * 104729) % 1000) as f32 / 1000.0)
        .collect();
    let mut c = vec![0f32; n * n];
    println!("isa: {:?}", oxla_kernels::Isa::detect());
    for threads in [1, 2] {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            oxla_kernels::sgemm(n, n, n, &a, n, &b, n, &mut c, n, false, threads).expect("gemm");
            best = best.min(t.elapsed().as_secs_f64());
        }
        let gflops = 2.0 * (n as f64).powi(3) / best / 1e9;
        println!(
            "{n}x{n}x{n} f32, {threads} thread(s): {:.2} ms, {gflops:.1} GFLOPS",
            best * 1e3
        );
    }
    let a: Vec<f64> = a.iter().map(|&x| x as f64).collect();
    let b: Vec<f64> = b.iter().map(|&x| x as f64).collect();
    let mut c = vec![0f64; n * n];
    for threads in [1, 2] {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            oxla_kernels::dgemm(n, n, n, &a, n, &b, n, &mut c, n, false, threads).expect("gemm");
            best = best.min(t.elapsed().as_secs_f64());
        }
        let gflops = 2.0 * (n as f64).powi(3) / best / 1e9;
        println!(
            "{n}x{n}x{n} f64, {threads} thread(s): {:.2} ms, {gflops:.1} GFLOPS",
            best * 1e3
        );
    }
}
