//! The per-iteration cost of a compiled `while` loop: a counter loop alone, with a chain of
//! scalar steps, and with a small element-wise kernel, in nanoseconds per iteration (fastest
//! of runs of 10 000 iterations, one thread of the pool).
//!
//! ```text
//! cargo run --release -p oxla --example loop_overhead [-- CASE]
//! ```

use std::time::Instant;

use oxla::hlo::Result;
use oxla::runtime::{Buffer, Client, ClientOptions, CompileOptions};

const N: i64 = 10_000;

/// A loop of `N` iterations whose body also runs `extra` (HLO lines over `%i`, the counter,
/// and `%x`, an f32[16,128] carried along, defining `%x1`; none: `%x` passes through).
fn program(extra: &str) -> String {
    let res = if extra.is_empty() { "%x" } else { "%x1" };
    format!(
        "HloModule loop\n\n\
         %cond (s: (s32[], f32[16,128])) -> pred[] {{\n  %s = (s32[], f32[16,128]) parameter(0)\n  %i = s32[] get-tuple-element(%s), index=0\n  %n = s32[] constant({N})\n  ROOT %c = pred[] compare(%i, %n), direction=LT\n}}\n\n\
         %body (s: (s32[], f32[16,128])) -> (s32[], f32[16,128]) {{\n  %s = (s32[], f32[16,128]) parameter(0)\n  %i = s32[] get-tuple-element(%s), index=0\n  %x = f32[16,128] get-tuple-element(%s), index=1\n{extra}  %one = s32[] constant(1)\n  %i1 = s32[] add(%i, %one)\n  ROOT %r = (s32[], f32[16,128]) tuple(%i1, {res})\n}}\n\n\
         ENTRY %main (x: f32[16,128]) -> f32[16,128] {{\n  %x = f32[16,128] parameter(0)\n  %z = s32[] constant(0)\n  %init = (s32[], f32[16,128]) tuple(%z, %x)\n  %w = (s32[], f32[16,128]) while(%init), condition=%cond, body=%body\n  ROOT %r = f32[16,128] get-tuple-element(%w), index=1\n}}\n"
    )
}

fn main() -> Result<()> {
    let client = Client::cpu_with(ClientOptions {
        threads: 1,
        ..Default::default()
    })?;
    let cases = [
        ("counter only", String::new()),
        ("+ copy of f32[16,128]", "  %x1 = f32[16,128] copy(%x)\n".to_string()),
        (
            "+ 4 dependent scalar steps",
            "  %a = s32[] multiply(%i, %i)\n  %b = s32[] xor(%a, %i)\n  %c = s32[] and(%b, %i)\n  %d = s32[] add(%c, %i)\n  %e = f32[] convert(%d)\n  %eb = f32[16,128] broadcast(%e), dimensions={}\n  %x1 = f32[16,128] add(%x, %eb)\n".to_string(),
        ),
        (
            "+ tanh(0.9x + 1) over f32[16,128]",
            "  %k = f32[] constant(0.9)\n  %kb = f32[16,128] broadcast(%k), dimensions={}\n  %m = f32[16,128] multiply(%x, %kb)\n  %o = f32[] constant(1)\n  %ob = f32[16,128] broadcast(%o), dimensions={}\n  %p = f32[16,128] add(%m, %ob)\n  %x1 = f32[16,128] tanh(%p)\n".to_string(),
        ),
    ];
    // An optional case number runs that case alone (e.g. under `perf stat`).
    let only: Option<usize> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    println!("{:<36} {:>12}", "loop", "ns/iteration");
    for (k, (name, extra)) in cases.into_iter().enumerate() {
        if only.is_some_and(|o| o != k) {
            continue;
        }
        let m = oxla::hlo::text::parse_module(&program(&extra))?;
        let exe = client.compile(&m, &CompileOptions::default())?;
        let x = Buffer::from_slice(&vec![0.5f32; 2048], &[16, 128])?;
        let mut times = Vec::new();
        for _ in 0..15 {
            let t = Instant::now();
            exe.execute(&[&x])?;
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        println!("{:<36} {:>12.0}", name, times[0] / N as f64 * 1e9);
    }
    Ok(())
}
