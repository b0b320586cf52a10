//! The subnormal policy: executables compute with IEEE subnormals by default (as the
//! interpreter does); `CompileOptions::flush_denormals` (or `OXLA_FLUSH_DENORMALS=1`) flushes
//! subnormal inputs and results to zero as XLA's CPU backend does, on every thread that works
//! on the run, and leaves the caller's floating-point mode as it found it.

use oxla::hlo::{text::parse_module, Literal};
use oxla::runtime::{Client, CompileOptions};

/// 70001 elements: split across the pool's threads.
const N: usize = 70_001;

fn run(flush: bool, text: &str, args: &[Literal]) -> Vec<f32> {
    let m = parse_module(text).unwrap();
    let options = CompileOptions {
        flush_denormals: flush,
        ..CompileOptions::default()
    };
    let exe = Client::cpu().unwrap().compile(&m, &options).unwrap();
    exe.execute_literals(args)
        .unwrap()
        .data_as::<f32>()
        .unwrap()
        .to_vec()
}

fn product(a: f32, b: f32) -> f32 {
    std::hint::black_box(a) * std::hint::black_box(b)
}

#[test]
fn ieee_by_default_flushed_on_request() {
    let mul = format!(
        "HloModule m\nENTRY main {{\n  a = f32[{N}] parameter(0)\n  b = f32[{N}] parameter(1)\n  \
         ROOT r = f32[{N}] multiply(a, b)\n}}\n"
    );
    let a = Literal::vec1(&vec![1e-30f32; N]);
    let b = Literal::vec1(&vec![1e-10f32; N]);
    let ieee = run(false, &mul, &[a.clone(), b.clone()]);
    assert!(ieee.iter().all(|&x| x == product(1e-30, 1e-10) && x > 0.0));
    let flushed = run(true, &mul, &[a, b]);
    assert!(flushed.iter().all(|&x| x == 0.0), "FTZ on every thread");
    // Subnormal inputs read as zero: 1e-40 * 1e10 is 1e-30 in IEEE, 0 when flushed.
    let a = Literal::vec1(&vec![1e-40f32; N]);
    let b = Literal::vec1(&vec![1e10f32; N]);
    assert!(run(false, &mul, &[a.clone(), b.clone()])
        .iter()
        .all(|&x| x > 0.0));
    assert!(run(true, &mul, &[a, b]).iter().all(|&x| x == 0.0), "DAZ");
    // The caller's mode is back to IEEE.
    assert!(product(1e-30, 1e-10) > 0.0);
}
