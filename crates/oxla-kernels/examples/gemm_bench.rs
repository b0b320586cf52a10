//! `cargo run --release -p oxla-kernels --example gemm_bench -- 1024 [f32|f64|both] [ISAS]
//! [THREADS] [RUNS]` prints GFLOPS of the GEMM (N x N x N; or `MxNxK`, e.g. `3136x64x576`,
//! the GEMM of a 3x3 convolution of 64 channels over 56x56 pixels; a trailing `t`, e.g.
//! `784x512x128t`, stores A transposed, k x m; a `T` stores B transposed, n x k; a `P`
//! packs B once before the timed runs, f32 only, as the runtime does for weights and
//! constants: `128x1024x256P`): the best and the median
//! of RUNS runs (default 5). ISAS is a comma-separated list of `portable`, `avx2`, `avx512`
//! or `best` (the default: the best this CPU has); THREADS a comma-separated list (default
//! `1,2`). The configurations take turns run by run, so that on a shared machine the load
//! falls on all of them alike. The operands lie on huge pages where the runtime's buffers
//! would (`oxla_kernels::huge`; `OXLA_HUGE_PAGES=0` for small pages).
//!
//! `gemm_bench kernel [ISAS] [THREADS] [SECONDS] [ROUND_MS]` instead measures the f32
//! microkernels alone (both the plain and the packed-A one) on packed, cache-resident
//! panels: the ceiling the whole GEMM can reach on this machine (see
//! `sgemm_kernel_ceiling`), best of rounds of at least ROUND_MS (default: one sweep, a few
//! ms; a GEMM's own length, e.g. 40 for 2048^3, reads its share of the peak truer).

use std::time::Instant;

use oxla_kernels::huge::LargeBuf;
use oxla_kernels::{
    dgemm_ex_with, sgemm_ex_with, sgemm_kernel_ceiling_rounds, sgemm_pack_b_with, sgemm_prepacked,
    GemmArgs, Isa,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("kernel") {
        return kernel_ceiling(&args[1..]);
    }
    let shape = args.first().map_or("1024", String::as_str);
    // A trailing `P`: B packed once, before the timed runs.
    let prepacked = shape.ends_with('P');
    let shape = shape.trim_end_matches('P');
    // A trailing `t`: A is stored transposed (k x m); `T`: B is (n x k).
    let trans_a = shape.trim_end_matches('T').ends_with('t');
    let trans_b = shape.trim_end_matches('t').ends_with('T');
    let dims: Vec<usize> = shape
        .trim_end_matches(['t', 'T'])
        .split('x')
        .filter_map(|s| s.parse().ok())
        .collect();
    let (m, n, k) = match dims[..] {
        [m, n, k] => (m, n, k),
        [n] => (n, n, n),
        _ => (1024, 1024, 1024),
    };
    let which = args.get(1).map_or("both", String::as_str);
    let isas = isa_list(args.get(2));
    let thread_counts = thread_list(args.get(3));
    let runs: usize = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let a: Vec<f64> = (0..m * k)
        .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
        .collect();
    let b: Vec<f64> = (0..k * n)
        .map(|i| ((i * 104729) % 1000) as f64 / 1000.0)
        .collect();
    let af: Vec<f32> = a.iter().map(|&x| x as f32).collect();
    let bf: Vec<f32> = b.iter().map(|&x| x as f32).collect();
    // As the runtime allocates them (on huge pages where it would).
    let large = |x: &[f64]| LargeBuf::from_slice(x).expect("memory for the operands");
    let large_f = |x: &[f32]| LargeBuf::from_slice(x).expect("memory for the operands");
    let (a, b, af, bf) = (large(&a), large(&b), large_f(&af), large_f(&bf));
    let mut c = large(&vec![0f64; m * n]);
    let mut cf = large_f(&vec![0f32; m * n]);
    let mut configs = Vec::new();
    for name in ["f32", "f64"] {
        let wanted = if name == "f32" {
            which != "f64"
        } else {
            which != "f32" && !prepacked
        };
        for &isa in isas.iter().filter(|_| wanted) {
            for &threads in &thread_counts {
                configs.push((name, isa, threads, Vec::with_capacity(runs)));
            }
        }
    }
    // B packed per ISA and thread count (the packing's blocking is the kernel's).
    let packs: Vec<_> = configs
        .iter()
        .filter(|_| prepacked)
        .map(|(_, isa, threads, _)| {
            let g = GemmArgs::new(m, n, k)
                .with_trans(trans_a, trans_b)
                .with_threads(*threads);
            sgemm_pack_b_with(*isa, &g, &bf).expect("pack B")
        })
        .collect();
    // One untimed run each (first-touch page faults, the pool's start).
    for round in 0..=runs {
        for (i, (name, isa, threads, times)) in configs.iter_mut().enumerate() {
            let t = Instant::now();
            let g = GemmArgs::new(m, n, k)
                .with_trans(trans_a, trans_b)
                .with_threads(*threads);
            let r = if let Some(pb) = packs.get(i) {
                sgemm_prepacked(&g, &af, pb, &mut cf, None)
            } else if *name == "f32" {
                sgemm_ex_with(*isa, &g, &af, &bf, &mut cf)
            } else {
                dgemm_ex_with(*isa, &g, &a, &b, &mut c)
            };
            r.expect("gemm");
            if round > 0 {
                times.push(t.elapsed().as_secs_f64());
            }
        }
    }
    let gflops = |s: f64| 2.0 * (m * n * k) as f64 / s / 1e9;
    for (name, isa, threads, times) in configs.iter_mut() {
        times.sort_by(f64::total_cmp);
        let (best, median) = (times[0], times[times.len() / 2]);
        println!(
            "{m}x{n}x{k} {name} {isa:?}, {threads} thread(s): best {:.3} ms, {:.1} GFLOPS; median {:.3} ms, {:.1} GFLOPS",
            best * 1e3,
            gflops(best),
            median * 1e3,
            gflops(median),
        );
    }
}

/// `kernel [ISAS] [THREADS] [SECONDS] [ROUND_MS]`: the microkernels' own GFLOPS (see the
/// module doc).
fn kernel_ceiling(args: &[String]) {
    let isas = isa_list(args.first());
    let thread_counts = thread_list(args.get(1));
    let seconds: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let round_ms: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let round = std::time::Duration::from_secs_f64(round_ms.max(0.0) / 1e3);
    for &isa in &isas {
        for packed_a in [false, true] {
            for &threads in &thread_counts {
                let time = std::time::Duration::from_secs_f64(seconds);
                match sgemm_kernel_ceiling_rounds(isa, packed_a, threads, time, round) {
                    Ok(r) => println!(
                        "kernel f32 {isa:?} {} {}x{} kc {}{}, {threads} thread(s): {:.1} GFLOPS",
                        if packed_a { "packed-A" } else { "plain" },
                        r.mr,
                        r.nr,
                        r.kc,
                        if r.a_outer { " (A outer)" } else { "" },
                        r.gflops
                    ),
                    Err(e) => println!("kernel f32 {isa:?}: {e}"),
                }
            }
        }
    }
}

/// A comma-separated list of ISAs (`portable`, `avx2`, `avx512`; anything else: the best
/// this CPU has), `best` when absent.
fn isa_list(arg: Option<&String>) -> Vec<Isa> {
    arg.map_or("best", String::as_str)
        .split(',')
        .map(|s| match s {
            "portable" => Isa::Portable,
            "avx2" => Isa::Avx2,
            "avx512" => Isa::Avx512,
            _ => Isa::detect(),
        })
        .collect()
}

/// A comma-separated list of thread counts, `1,2` when absent.
fn thread_list(arg: Option<&String>) -> Vec<usize> {
    arg.map_or("1,2", String::as_str)
        .split(',')
        .filter_map(|t| t.parse().ok())
        .collect()
}
