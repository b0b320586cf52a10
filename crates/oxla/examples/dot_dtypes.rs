//! Run time of one `dot` per operand / result element type (issue 40: bf16, f16 and int8
//! dots against f32), compiled and run as a program: fastest and median of runs over at
//! least a second, all threads of the pool. Inputs are small integers (exact in every
//! type).
//!
//! ```text
//! cargo run --release -p oxla --example dot_dtypes [-- FILTER]
//! ```
//!
//! B is an argument, so the f32 dot packs it once and keeps the packing with the buffer
//! (weight packs) for every later run, while the narrow dots pack it every run: run the
//! f32 case with `OXLA_WEIGHT_PACKS=0` to compare like with like. `OXLA_GEMM_NARROW=0`
//! gives the narrow dots' loop kernels (before issue 40), `OXLA_GEMM_AMX=0` the AVX-512
//! paths.

use std::time::Instant;

use oxla::hlo::{ArrayShape, PrimitiveType, Result};
use oxla::runtime::{Buffer, Client, CompileOptions};

/// `[m, k] x [k, n]` with operand types `l`, `r` and result type `o`.
fn program(l: &str, r: &str, o: &str, m: usize, n: usize, k: usize) -> String {
    format!(
        "HloModule dot\nENTRY e {{\n  a = {l}[{m},{k}] parameter(0)\n  b = {r}[{k},{n}] parameter(1)\n  ROOT d = {o}[{m},{n}] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n}}\n"
    )
}

/// `len` elements of type `t`, small integers from a hash of the index, as bytes.
fn data(t: PrimitiveType, len: usize, seed: usize) -> Vec<u8> {
    let v = |i: usize| {
        let h = ((i + seed) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        (h % 17) as i32 - 8
    };
    let mut out = Vec::new();
    for i in 0..len {
        let x = v(i);
        match t {
            PrimitiveType::F32 => out.extend((x as f32).to_le_bytes()),
            PrimitiveType::BF16 => out.extend((((x as f32).to_bits() >> 16) as u16).to_le_bytes()),
            PrimitiveType::F16 => out.extend(f16_of_int(x).to_le_bytes()),
            PrimitiveType::S8 => out.push(x as i8 as u8),
            PrimitiveType::U8 => out.push((x + 8) as u8),
            _ => unreachable!("no such case"),
        }
    }
    out
}

/// The f16 bits of a small integer (exact).
fn f16_of_int(x: i32) -> u16 {
    if x == 0 {
        return 0;
    }
    let (s, a) = ((x < 0) as u16, x.unsigned_abs());
    let e = 31 - a.leading_zeros();
    let mant = ((a << (10 - e)) & 0x3ff) as u16;
    s << 15 | ((e + 15) as u16) << 10 | mant
}

fn main() -> Result<()> {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let client = Client::cpu()?;
    let cases = [
        ("f32", "f32", "f32", 1024, 1024, 1024),
        ("bf16", "bf16", "f32", 1024, 1024, 1024),
        ("bf16", "bf16", "bf16", 1024, 1024, 1024),
        ("f16", "f16", "f32", 1024, 1024, 1024),
        ("s8", "s8", "s32", 1024, 1024, 1024),
        ("s8", "s8", "s32", 512, 512, 2048),
        ("u8", "s8", "s32", 512, 512, 2048),
    ];
    println!(
        "{:<28} {:>10} {:>10}",
        "dot (m x n x k)", "min ms", "median ms"
    );
    for (l, r, o, m, n, k) in cases {
        let name = format!("{l} x {r} -> {o} {m}x{n}x{k}");
        if !name.contains(&filter) {
            continue;
        }
        let module = oxla::hlo::text::parse_module(&program(l, r, o, m, n, k))?;
        let exe = client.compile(&module, &CompileOptions::default())?;
        let ty = |s: &str| match s {
            "f32" => PrimitiveType::F32,
            "bf16" => PrimitiveType::BF16,
            "f16" => PrimitiveType::F16,
            "s8" => PrimitiveType::S8,
            _ => PrimitiveType::U8,
        };
        let a = Buffer::from_bytes(
            ArrayShape::new(ty(l), &[m as i64, k as i64]),
            &data(ty(l), m * k, 0),
        )?;
        let b = Buffer::from_bytes(
            ArrayShape::new(ty(r), &[k as i64, n as i64]),
            &data(ty(r), k * n, 12345),
        )?;
        exe.execute(&[&a, &b])?;
        let mut times = Vec::new();
        let start = Instant::now();
        while times.len() < 5 || start.elapsed().as_secs_f64() < 1.0 {
            let t = Instant::now();
            exe.execute(&[&a, &b])?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
            if times.len() >= 200 {
                break;
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name:<28} {:>10.2} {:>10.2}",
            times[0],
            times[times.len() / 2]
        );
    }
    Ok(())
}
