//! `cargo run --release -p oxla-kernels --example conv_bench -- [SHAPE] [ISA] [THREADS] [RUNS]`
//! prints the time and GFLOPS of the direct f32 convolution on the bench programs' shapes,
//! best of RUNS (default 50) runs. SHAPE is `56` (conv2d_56x56x64: 1x56x56x64 input, 3x3x64x64
//! weights, padding 1), `b8` (conv2d_b8_32x32x32_64: 8x32x32x32, 3x3x32x64, padding 1),
//! `all` (the default), or `NxSxCxO` (e.g. `2x56x64x64`: the same 3x3 layer on N images of
//! S x S pixels, C in and O out features); ISA is `portable`, `avx2`, `avx512` or `best` (the default); THREADS
//! a comma-separated list (default `1,2`).

use std::time::Instant;

use oxla_kernels::{conv_f32_with, ConvArgs, ConvWindowDim, Isa};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("all", String::as_str);
    let isa = match args.get(1).map(String::as_str) {
        Some("portable") => Isa::Portable,
        Some("avx2") => Isa::Avx2,
        Some("avx512") => Isa::Avx512,
        _ => Isa::detect(),
    };
    let thread_counts: Vec<usize> = args
        .get(2)
        .map_or("1,2", String::as_str)
        .split(',')
        .filter_map(|t| t.parse().ok())
        .collect();
    let runs: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(50);
    println!("isa: {isa:?}");
    // (name, batch, H = W, C, O): 3x3 windows, stride 1, padding 1, NHWC x HWIO -> NHWC.
    let shapes = [
        ("conv2d_56x56x64", 1, 56, 64, 64),
        ("conv2d_b8_32x32x32_64", 8, 32, 32, 64),
    ];
    let custom: Vec<usize> = which.split('x').filter_map(|x| x.parse().ok()).collect();
    let shapes = match custom[..] {
        [n, hw, c, o] => vec![(which, n, hw, c, o)],
        _ => shapes
            .into_iter()
            .filter(|s| which == "all" || s.0.contains(which))
            .collect(),
    };
    for (name, n, hw, c, o) in shapes {
        let mut window = vec![ConvWindowDim::new(3), ConvWindowDim::new(3)];
        for w in &mut window {
            w.pad_low = 1;
        }
        let base = ConvArgs::new(n, &[hw, hw], c, &[hw, hw], o, window);
        let [in_len, w_len, out_len] = base.required_lens().expect("shape");
        let input: Vec<f32> = (0..in_len)
            .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
            .collect();
        let weights: Vec<f32> = (0..w_len)
            .map(|i| ((i * 104729) % 1000) as f32 / 1000.0)
            .collect();
        let mut out = vec![0f32; out_len];
        let flops = 2.0 * (out_len * c * 9) as f64;
        for &threads in &thread_counts {
            let conv = base.clone().with_threads(threads);
            let mut best = f64::MAX;
            for _ in 0..runs {
                let t = Instant::now();
                conv_f32_with(isa, &conv, &input, &weights, &mut out).expect("conv");
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!(
                "{name}, {threads} thread(s): {:.3} ms, {:.1} GFLOPS",
                best * 1e3,
                flops / best / 1e9
            );
        }
    }
}
