//! Times `vmath::apply_with` per function, ISA and slice length: nanoseconds per element,
//! best of several repetitions (one thread).
//!
//! `cargo run --release -p oxla-kernels --example vmath_bench`

use oxla_kernels::vmath::{apply_with, VFunc, VIsa};
use std::time::Instant;

fn main() {
    let isas: Vec<VIsa> = [VIsa::Avx512, VIsa::Avx2, VIsa::Scalar { fma: true }]
        .into_iter()
        .filter(|i| i.available())
        .collect();
    let funcs = [
        ("exp", VFunc::Exp),
        ("tanh", VFunc::Tanh),
        ("logistic", VFunc::Logistic),
        ("log", VFunc::Log),
        ("erf", VFunc::Erf),
        ("sin", VFunc::Sin),
        ("cos", VFunc::Cos),
        ("tan", VFunc::Tan),
    ];
    println!(
        "{:<9} {:<8} {:>7} {:>10} {:>12}",
        "func", "isa", "n", "ns/elem", "elem/ns"
    );
    for (name, f) in funcs {
        for &isa in &isas {
            for n in [128usize, 2048, 65536] {
                let src: Vec<f32> = (0..n).map(|i| ((i % 97) as f32 - 48.0) * 0.11).collect();
                let mut xs = src.clone();
                let reps = (4_000_000 / n).max(4);
                let mut best = f64::INFINITY;
                for _ in 0..5 {
                    let t = Instant::now();
                    for _ in 0..reps {
                        xs.copy_from_slice(&src);
                        apply_with(isa, f, std::hint::black_box(&mut xs));
                    }
                    best = best.min(t.elapsed().as_secs_f64() / (reps * n) as f64);
                }
                println!(
                    "{:<9} {:<8} {:>7} {:>10.3} {:>12.2}",
                    name,
                    format!("{isa:?}").split(' ').next().unwrap_or(""),
                    n,
                    best * 1e9,
                    1e-9 / best
                );
            }
        }
    }
}
