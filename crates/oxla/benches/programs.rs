//! Whole programs end to end with criterion: each program compiled and run (`compile+run`),
//! and run alone on an executable compiled once (`run`). The programs are JAX exports
//! committed under tests/data (an MLP's SGD step, causal attention) and a softmax built with
//! the builder.
//!
//! ```text
//! cargo bench -p oxla --bench programs
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use oxla::prelude::*;

/// A program and its arguments.
type Case = (oxla::HloModule, Vec<Buffer>);

/// A JAX export from tests/data/jax_corpus and its inputs (`in0`, `in1`, … of its `.npz`).
fn jax_program(rel: &str) -> Result<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/jax_corpus")
        .join(rel);
    let p = oxla::run::load_program(&path)?;
    let arrays: BTreeMap<String, Literal> = oxla::npy::read_npz(&path.with_extension("npz"))?
        .into_iter()
        .collect();
    let args = (0..)
        .map_while(|i| arrays.get(&format!("in{i}")))
        .map(Buffer::from_literal)
        .collect::<Result<Vec<_>>>()?;
    Ok((p.module, args))
}

/// Row softmax of f32[512,512], built with the builder, and a deterministic input.
fn softmax() -> Result<Case> {
    const N: i64 = 512;
    let data: Vec<f32> = (0..N * N)
        .map(|i| ((i * 7919) % 1000) as f32 / 100.0)
        .collect();
    Ok((
        oxla::cli::build_softmax(N, N)?.into_module(),
        vec![Buffer::from_slice(&data, &[N, N])?],
    ))
}

fn programs(c: &mut Criterion) {
    let client = match Client::cpu() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("no client: {e}");
            return;
        }
    };
    let cases: Vec<(&str, Result<Case>)> = vec![
        ("mlp_sgd_step", jax_program("train/mlp_sgd_step.mlir")),
        (
            "causal_attention",
            jax_program("train/causal_attention.mlir"),
        ),
        ("softmax_512", softmax()),
    ];
    let options = CompileOptions::default();
    for (name, case) in cases {
        let (module, args) = match case {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{name}: skipped: {e}");
                continue;
            }
        };
        let refs: Vec<&Buffer> = args.iter().collect();
        let mut g = c.benchmark_group(name);
        g.sample_size(10).measurement_time(Duration::from_secs(3));
        g.bench_function("compile+run", |b| {
            b.iter(|| {
                let exe = client.compile(&module, &options).ok()?;
                exe.execute(&refs).ok()
            })
        });
        if let Ok(exe) = client.compile(&module, &options) {
            g.bench_function("run", |b| b.iter(|| exe.execute(&refs).ok()));
        }
        g.finish();
    }
}

criterion_group!(benches, programs);
criterion_main!(benches);
