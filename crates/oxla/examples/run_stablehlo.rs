//! Load programs exported from JAX, compile them with the JIT, run them and compare with the
//! outputs JAX (XLA CPU) computed on the same inputs:
//!
//! * `tests/data/jax_corpus/train/mlp_sgd_step.mlir`: StableHLO MLIR text
//!   (`jax.jit(f).lower(...).as_text()`), inputs and expected outputs in the `.npz` beside it;
//! * `tests/data/jax_export/mlp_grad.jax_export`: a `jax.export` serialization
//!   (`Exported.serialize()`), with `mlp_grad.in{K}.npy` / `mlp_grad.out{K}.npy`.
//!
//! ```text
//! cargo run --release -p oxla --example run_stablehlo
//! cargo run --release -p oxla --example run_stablehlo -- path/to/program.mlir in.npz
//! ```
//!
//! With arguments: a program and a `.npz` of `in0, in1, …` (and optionally `out0, …` to
//! compare with).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oxla::prelude::*;

/// Parses and imports a program (text, bytecode or jax.export: `parse_program` tells them
/// apart), compiles it and runs it on `args`; returns the function's results.
fn run(client: &Client, path: &Path, args: &[Literal]) -> Result<Vec<Literal>> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    let module = oxla::stablehlo::parse_program(&bytes)?;
    let imported = oxla::stablehlo::import(&module, None)?;
    let exe = client.compile(imported.computation.module(), &CompileOptions::default())?;
    let bufs = args
        .iter()
        .map(Buffer::from_literal)
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Buffer> = bufs.iter().collect();
    // The entry returns the function's results as a tuple; execute gives its elements (after
    // any check outputs of a StableHLO test module).
    exe.execute(&refs)?
        .iter()
        .skip(imported.num_check_outputs)
        .map(Buffer::to_literal)
        .collect()
}

/// The largest error of `got` against `want`, failing beyond rtol 1e-4 / atol 1e-5.
fn compare(name: &str, got: &[Literal], want: &[Literal]) -> Result<f64> {
    if got.len() != want.len() {
        return Err(Error::runtime(format!(
            "{name}: {} outputs, JAX gives {}",
            got.len(),
            want.len()
        )));
    }
    let mut worst = 0f64;
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        if g.shape().without_layout() != w.shape().without_layout() {
            return Err(Error::runtime(format!(
                "{name}: output {k} is {}, JAX gives {}",
                g.shape(),
                w.shape()
            )));
        }
        for (i, (a, b)) in g.to_f64s().iter().zip(w.to_f64s()).enumerate() {
            let d = (a - b).abs();
            if d > 1e-5 + 1e-4 * b.abs() {
                return Err(Error::runtime(format!(
                    "{name}: output {k}[{i}] is {a}, JAX gives {b}"
                )));
            }
            worst = worst.max(d);
        }
    }
    Ok(worst)
}

/// `in0, in1, …` and `out0, out1, …` of an `.npz`.
fn npz_io(path: &Path) -> Result<(Vec<Literal>, Vec<Literal>)> {
    let arrays: BTreeMap<String, Literal> = oxla::npy::read_npz(path)?.into_iter().collect();
    let numbered = |prefix: &str| -> Vec<Literal> {
        (0..)
            .map_while(|i| arrays.get(&format!("{prefix}{i}")).cloned())
            .collect()
    };
    Ok((numbered("in"), numbered("out")))
}

fn main() -> Result<()> {
    let client = Client::cpu()?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [program, npz] = args.as_slice() {
        let (inputs, expected) = npz_io(Path::new(npz))?;
        let outs = run(&client, Path::new(program), &inputs)?;
        for (k, o) in outs.iter().enumerate() {
            println!("out{k}: {}", oxla::run::summary(o, 6));
        }
        if !expected.is_empty() {
            let err = compare(program, &outs, &expected)?;
            println!("matches the expected outputs (max abs error {err:.2e})");
        }
        return Ok(());
    }

    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");

    // StableHLO MLIR text: one SGD step of an MLP, exported by jax.jit(...).lower().
    let mlir = data.join("jax_corpus/train/mlp_sgd_step.mlir");
    let (inputs, expected) = npz_io(&mlir.with_extension("npz"))?;
    let outs = run(&client, &mlir, &inputs)?;
    let err = compare("mlp_sgd_step", &outs, &expected)?;
    println!(
        "{}: {} inputs, {} outputs, max abs error vs JAX {err:.2e}",
        mlir.display(),
        inputs.len(),
        outs.len()
    );

    // A jax.export serialization: the gradient of an MLP's loss.
    let dir = data.join("jax_export");
    let npy = |kind: &str| -> Result<Vec<Literal>> {
        (0..)
            .map(|i| dir.join(format!("mlp_grad.{kind}{i}.npy")))
            .take_while(|p| p.exists())
            .map(|p| oxla::npy::read(&p))
            .collect()
    };
    let (inputs, expected) = (npy("in")?, npy("out")?);
    let file = dir.join("mlp_grad.jax_export");
    let outs = run(&client, &file, &inputs)?;
    let err = compare("mlp_grad", &outs, &expected)?;
    println!(
        "{}: {} inputs, {} outputs, max abs error vs JAX {err:.2e}",
        file.display(),
        inputs.len(),
        outs.len()
    );
    for (k, o) in outs.iter().enumerate() {
        println!("  out{k}: {}", oxla::run::summary(o, 4));
    }
    println!("ok: both programs match JAX");
    Ok(())
}
