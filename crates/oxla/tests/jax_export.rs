//! `jax.export` artifacts of JAX 0.10.2 (tests/data/jax_export, written by its gen.py): each
//! portable artifact (`.mlirbc`) and each `Exported.serialize()` (`.jax_export`) loads through
//! `load_program`, runs on the JIT, and matches JAX's outputs (XLA CPU) on the same inputs.

use std::path::{Path, PathBuf};

use oxla::hlo::{Literal, PrimitiveType};
use oxla::npy;
use oxla::run::{execute_on, load_program};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/jax_export")
}

/// `NAME.<kind><i>.npy` for i = 0, 1, ... while present.
fn numbered(dir: &Path, name: &str, kind: &str) -> Vec<Literal> {
    (0..)
        .map(|i| dir.join(format!("{name}.{kind}{i}.npy")))
        .take_while(|p| p.exists())
        .map(|p| npy::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

/// The tolerance of the other JAX tests (tests/jax_chlo.rs) for f32, a little looser for the
/// few transcendental chains (gradients through tanh, cumulative products).
fn close(got: f64, want: f64, t: PrimitiveType) -> bool {
    let (rtol, atol) = match t {
        PrimitiveType::F64 => (1e-11, 1e-12),
        _ => (2e-5, 2e-6),
    };
    got == want || (got - want).abs() <= atol + rtol * want.abs() || (got.is_nan() && want.is_nan())
}

fn check(name: &str, file: &Path, mut args: Vec<Literal>, want: &[Literal]) {
    let prog = load_program(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // A multi-platform portable artifact takes the platform index first (cpu is 0 here);
    // the `.jax_export` form binds it itself.
    let params = prog.module.entry_program_shape().parameters.len();
    if params == args.len() + 1 {
        args.insert(0, Literal::scalar(0i32));
    }
    let outs = execute_on(&prog, &args, true).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(outs.len(), want.len(), "{}: output count", file.display());
    for (i, (g, w)) in outs.iter().zip(want).enumerate() {
        assert_eq!(
            g.shape().without_layout(),
            w.shape().without_layout(),
            "{}: output {i} shape",
            file.display()
        );
        let t = w.element_type();
        for (k, (a, b)) in g.to_f64s().iter().zip(w.to_f64s()).enumerate() {
            assert!(
                close(*a, b, t),
                "{}: output {i}[{k}]: got {a}, JAX gives {b}",
                file.display()
            );
        }
    }
}

#[test]
fn jax_export_artifacts_run_and_match_jax() {
    let dir = data();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".mlirbc").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(
        names.len() >= 10,
        "expected the committed artifacts, found {names:?}"
    );
    for name in &names {
        let args = numbered(&dir, name, "in");
        let want = numbered(&dir, name, "out");
        for ext in ["mlirbc", "jax_export"] {
            check(
                name,
                &dir.join(format!("{name}.{ext}")),
                args.clone(),
                &want,
            );
        }
    }
}

#[test]
fn jax_export_flatbuffer_fields() {
    let bytes = std::fs::read(data().join("elementwise_multiplatform.jax_export")).unwrap();
    let e = oxla::stablehlo::export::read(&bytes).unwrap();
    assert_eq!(e.platforms, ["cpu", "cuda"]);
    assert!(oxla::stablehlo::export::CALLING_CONVENTIONS.contains(&e.calling_convention_version));
    assert_eq!(e.in_avals.len(), 2);
    assert_eq!(e.in_avals[0].shape, ["8"]);
    assert_eq!(e.in_avals[0].element_type(), Some(PrimitiveType::F32));
    assert_eq!(e.out_avals.len(), 2);
    assert_eq!(e.out_avals[1].element_type(), Some(PrimitiveType::Pred));
    assert!(e.module.starts_with(b"ML\xefR"));
    // A damaged flatbuffer is an error, never a panic.
    for cut in [0, 3, 16, bytes.len() / 2, bytes.len() - 1] {
        assert!(oxla::stablehlo::export::read(&bytes[..cut]).is_err() || cut > 16);
    }
}

/// A shard_map over 4 devices as `jax.export` writes it (spmd/), in Shardy's form
/// (sdy.manual_computation, JAX's default) and in GSPMD's (SPMDFullToShardShape ...): each
/// partition takes its shard of the global argument and returns the psum, on the JIT and on
/// the interpreter (the manual SPMD pass makes it the per-device program for both).
#[test]
fn shard_map_export_runs_per_partition() {
    use oxla::run::{run_grid, GridRun};
    let dir = data().join("spmd");
    let shards: Vec<Vec<Literal>> = (0..4)
        .map(|k| numbered(&dir, &format!("shard_map_psum.p{k}"), "in"))
        .collect();
    for (file, jit) in [
        ("shard_map_psum_shardy.jax_export", true),
        ("shard_map_psum_shardy.jax_export", false),
        ("shard_map_psum.jax_export", true),
        ("shard_map_psum.jax_export", false),
    ] {
        let prog = load_program(&dir.join(file)).expect("loads");
        let grid = GridRun {
            replicas: 1,
            partitions: 4,
            args: shards.clone(),
            infeed: Vec::new(),
            timeout: std::time::Duration::from_secs(30),
        };
        let out = run_grid(&prog, &grid, jit).expect("runs");
        for (k, outs) in out.outputs.iter().enumerate() {
            let want = numbered(&dir, &format!("shard_map_psum.p{k}"), "out");
            assert_eq!(outs, &want, "{file}: partition {k} (jit: {jit})");
        }
    }
}

/// A JAX export with bfloat16 arguments and a bfloat16 output, in a bench-style folder whose
/// `.npy` files numpy wrote with ml_dtypes' raw descr `<V2`: `oxla run --check` reads them
/// (typed by the program's parameters and outputs), runs and agrees; `--out` writes the
/// bf16 output back as `<V2`, which reads back bit for bit.
#[test]
fn bf16_export_runs_with_check() {
    let dir = data().join("bf16_check");
    let prog = dir.join("program.jax_export").display().to_string();
    let ok = oxla::run::command(&[prog.clone(), "--check".into(), dir.display().to_string()])
        .expect("runs");
    assert!(ok, "outputs agree with JAX's");
    let out = std::env::temp_dir().join(format!("oxla-bf16-out-{}", std::process::id()));
    let args = [prog, "--check".into(), dir.display().to_string()];
    let mut with_out = args.to_vec();
    with_out.extend(["--out".into(), out.display().to_string()]);
    assert!(oxla::run::command(&with_out).expect("runs"));
    let written = std::fs::read(out.join("out1.npy")).unwrap();
    assert!(String::from_utf8_lossy(&written[..64]).contains("'<V2'"));
    let back = npy::read(&out.join("out1.npy")).unwrap();
    let want = npy::read(&dir.join("out1.npy")).unwrap();
    assert_eq!(back.element_type(), PrimitiveType::BF16);
    assert!(back.bitwise_eq(&want), "x * 2 + 1 in bf16 is exact");
    std::fs::remove_dir_all(&out).ok();
    // An explicit --dtype that contradicts the file's width is refused with a clear error.
    let bad = oxla::run::command(&[
        dir.join("program.jax_export").display().to_string(),
        "--input".into(),
        dir.join("arg0.npy").display().to_string(),
        "--input".into(),
        dir.join("arg1.npy").display().to_string(),
        "--dtype".into(),
        "f8e4m3fn,bf16".into(),
    ])
    .unwrap_err()
    .to_string();
    assert!(bad.contains("<V2"), "{bad}");
}
