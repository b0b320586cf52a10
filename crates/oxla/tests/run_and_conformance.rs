//! `oxla run` on bench programs small enough for the interpreter, argument errors, and the
//! conformance runner's check semantics.

use std::path::PathBuf;

use oxla::conformance::{check, run_module};
use oxla::hlo::Literal;
use oxla::run::{check_outputs, execute, folder_args, load_program};
use oxla::stablehlo::CheckKind;

fn bench(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/bench")
        .join(name);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("note: {} is absent; skipped", p.display());
        None
    }
}

#[test]
fn bench_programs_reproduce_jax_outputs() {
    for name in [
        "reduce_sum",
        "matmul_256",
        "gather_embedding",
        "scatter_add",
        "softmax_rows",
    ] {
        let Some(dir) = bench(name) else { return };
        for file in ["program.mlir", "program.generic.mlir"] {
            let p = load_program(&dir.join(file)).unwrap();
            let outs = execute(&p, &folder_args(&dir).unwrap()).unwrap();
            for (k, err, verdict) in check_outputs(&dir, &outs).unwrap() {
                assert!(
                    verdict.is_ok(),
                    "{name}/{file} out{k}: {verdict:?} (max err {err})"
                );
            }
        }
    }
}

#[test]
fn wrong_arguments_are_clear_errors() {
    let Some(dir) = bench("reduce_sum") else {
        return;
    };
    let p = load_program(&dir.join("program.mlir")).unwrap();
    let e = execute(&p, &[]).err().unwrap().to_string();
    assert!(e.contains("takes 1 argument(s), 0 given"), "{e}");
    let e = execute(&p, &[Literal::vec1(&[1.0f32])])
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("argument 0: expected f32[512,1024], got f32[1]"),
        "{e}"
    );
}

#[test]
fn a_wrong_output_is_reported() {
    let Some(dir) = bench("reduce_sum") else {
        return;
    };
    let p = load_program(&dir.join("program.mlir")).unwrap();
    let mut outs = execute(&p, &folder_args(&dir).unwrap()).unwrap();
    outs[1] = Literal::from_vec(&[1024], vec![0.0f32; 1024]).unwrap();
    let r = check_outputs(&dir, &outs).unwrap();
    assert!(r[0].2.is_ok());
    assert!(
        r[1].2.as_ref().unwrap_err().contains("output 1"),
        "{:?}",
        r[1]
    );
}

#[test]
fn conformance_modules_pass_and_fail() {
    let ok = "func.func @t() {\n  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n  %1 = stablehlo.add %0, %0 : tensor<2xi64>\n  check.expect_eq_const %1, dense<[2, 4]> : tensor<2xi64>\n  func.return\n}\n";
    run_module(ok).unwrap();
    let bad = ok.replace("[2, 4]", "[2, 5]");
    let e = run_module(&bad).unwrap_err().to_string();
    assert!(e.contains("check at line 4 failed: element 1"), "{e}");
    let parallel = "func.func @p(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = \"stablehlo.all_reduce\"(%x) ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n    %s = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %s : tensor<f32>\n  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\nfunc.func @main() {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>\n  %r:2 = \"interpreter.run_parallel\"(%a, %b) {programs = [[@p], [@p]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n  check.expect_eq_const %r#1, dense<[4.0, 6.0]> : tensor<2xf32>\n  func.return\n}\n";
    run_module(parallel).unwrap();
}

#[test]
fn check_semantics_follow_the_corpus_readme() {
    let a = Literal::vec1(&[1.0f64, f64::NAN, 0.0]);
    let e = Literal::vec1(&[1.00005f64, f64::NAN, -0.0]);
    check(&CheckKind::AlmostEq(1e-4), &a, &e).unwrap();
    assert!(check(&CheckKind::Eq, &a, &e).is_err()); // NaN is never equal
    let z = Literal::vec1(&[0.0f64]);
    check(&CheckKind::Eq, &z, &Literal::vec1(&[-0.0f64])).unwrap();
    let one = Literal::vec1(&[1.0f32]);
    let next = Literal::vec1(&[f32::from_bits(1.0f32.to_bits() + 3)]);
    check(
        &CheckKind::Close {
            min_ulp: 0,
            max_ulp: 3,
        },
        &next,
        &one,
    )
    .unwrap();
    assert!(check(
        &CheckKind::Close {
            min_ulp: 0,
            max_ulp: 2
        },
        &next,
        &one
    )
    .is_err());
    let inf = Literal::vec1(&[f32::INFINITY]);
    assert!(check(&CheckKind::AlmostEq(1.0), &inf, &Literal::vec1(&[1e30f32])).is_err());
}

#[test]
fn custom_call_check_targets() {
    let m = "func.func @main() {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %b = stablehlo.constant dense<[1.0, 2.0005]> : tensor<2xf32>\n  stablehlo.custom_call @check.expect_almost_eq(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> ()\n  func.return\n}\n";
    run_module(m).unwrap();
    let e = run_module(&m.replace("expect_almost_eq", "expect_eq"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("element 1"), "{e}");
    let e = run_module(&m.replace("check.expect_almost_eq", "my.target"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("my.target") && e.contains("not registered"),
        "{e}"
    );
}

#[test]
fn npz_archives_stored_and_deflated() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/npz");
    let s = oxla::npy::read_npz(&dir.join("stored.npz")).unwrap();
    let names: Vec<&str> = s.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(s[0].1.shape().to_string(), "f32[2,3]");
    assert_eq!(s[0].1.to_f64s(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(s[1].1.to_i64s(), vec![1, 0]);
    assert_eq!(s[2].1.to_i64s(), vec![7]);
    let d = oxla::npy::read_npz(&dir.join("deflate.npz")).unwrap();
    assert_eq!(d[0].1.element_count(), 100);
    assert_eq!(d[0].1.to_f64s()[99], 1.0);
    assert_eq!(d[1].1.shape().to_string(), "c64[4]");
    assert!(oxla::npy::read_npz(&dir.join("missing.npz")).is_err());
}

#[test]
fn malformed_ops_are_errors_not_panics() {
    let m = "func.func @main() {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %0 = stablehlo.add %a : tensor<2xf32>\n  func.return\n}\n";
    let e = run_module(m).unwrap_err().to_string();
    assert!(
        e.contains("stablehlo.add needs at least 2 operand(s), got 1"),
        "{e}"
    );
    let m = "func.func @main() {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %0 = stablehlo.add %a, %a : tensor<3xf32>\n  func.return\n}\n";
    let e = run_module(m).unwrap_err().to_string();
    assert!(
        e.contains("declared f32[3] but inference gives f32[2]"),
        "{e}"
    );
    let m = "func.func @main() {\n  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n  %0 = stablehlo.frobnicate %a : tensor<2xf32>\n  func.return\n}\n";
    let e = run_module(m).unwrap_err().to_string();
    assert!(
        e.contains("stablehlo.frobnicate") && e.contains("not supported"),
        "{e}"
    );
}

/// Differential test of the pass pipeline: every conformance module in the baseline still
/// passes when simplification, constant folding, CSE and DCE run before interpretation.
#[test]
fn conformance_baseline_passes_after_optimization() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let suite = root.join("../shared/conformance/stablehlo-interpret");
    if !suite.exists() {
        eprintln!("note: {} is absent; skipped", suite.display());
        return;
    }
    let baseline = std::fs::read_to_string(root.join("conformance/baseline-interp.txt")).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for id in baseline.lines().filter(|l| !l.is_empty()) {
        let (file, k) = id.rsplit_once(':').unwrap();
        let text = std::fs::read_to_string(suite.join(file)).unwrap();
        let chunks = oxla::stablehlo::split_input_file(&text);
        let chunk = &chunks[k.parse::<usize>().unwrap()].1;
        if let Err(e) = oxla::conformance::run_module_with(chunk, true) {
            failures.push(format!("{id}: {e}"));
        }
        n += 1;
    }
    assert!(n >= 500);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Buffer assignment on real programs: every computation of the bench modules gets a
/// conflict-free arena no larger than the sum of its buffers.
#[test]
fn buffer_assignment_on_bench_programs() {
    let mut checked = 0;
    for name in [
        "transformer_block",
        "mlp_train_step",
        "layernorm",
        "softmax_rows",
        "while_tanh_matmul",
    ] {
        let Some(dir) = bench(name) else { return };
        let p = load_program(&dir.join("program.mlir")).unwrap();
        for c in &p.module.computations {
            let a = oxla::passes::assign_buffers(c);
            a.validate(c)
                .unwrap_or_else(|e| panic!("{name}/{}: {e}", c.name));
            let total: usize = a
                .slots
                .iter()
                .map(|s| match s {
                    oxla::passes::Slot::Arena { size, .. } => *size,
                    _ => 0,
                })
                .sum();
            assert!(a.arena_bytes <= total);
            checked += 1;
        }
        eprintln!(
            "{name}: entry arena {} bytes",
            oxla::passes::assign_buffers(p.module.entry_computation()).arena_bytes
        );
    }
    assert!(checked >= 5);
}

/// The optimized and fused form of bench programs still reproduces JAX's outputs.
#[test]
fn fused_bench_programs_reproduce_jax_outputs() {
    for name in [
        "softmax_rows",
        "matmul_256",
        "reduce_sum",
        "gather_embedding",
    ] {
        let Some(dir) = bench(name) else { return };
        let mut p = load_program(&dir.join("program.mlir")).unwrap();
        oxla::passes::Pipeline::with_fusion()
            .run(&mut p.module)
            .unwrap();
        oxla::hlo::verify_module(&p.module).unwrap();
        let outs = execute(&p, &folder_args(&dir).unwrap()).unwrap();
        for (k, err, verdict) in check_outputs(&dir, &outs).unwrap() {
            assert!(
                verdict.is_ok(),
                "{name} out{k}: {verdict:?} (max err {err})"
            );
        }
    }
}

#[test]
fn every_bench_program_compiles_and_matches_jax_on_the_jit() {
    let Some(root) = bench("") else { return };
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("program.mlir").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 20, "bench folders: {}", dirs.len());
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let p = load_program(&dir.join("program.mlir")).unwrap();
        let outs = oxla::run::execute_on(&p, &folder_args(&dir).unwrap(), true)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for (k, err, verdict) in check_outputs(&dir, &outs).unwrap() {
            assert!(
                verdict.is_ok(),
                "{name} out{k}: {verdict:?} (max err {err})"
            );
        }
    }
}

/// Bench folder `dir`'s program compiled on a CPU client, with its arguments as buffers.
fn compiled_bench(
    dir: &std::path::Path,
) -> (oxla::run::Program, oxla::Executable, Vec<oxla::Buffer>) {
    let p = load_program(&dir.join("program.mlir")).unwrap();
    let client = oxla::Client::cpu().unwrap();
    let exe = client
        .compile(&p.module, &oxla::CompileOptions::default())
        .unwrap();
    let bufs = folder_args(dir)
        .unwrap()
        .iter()
        .map(|l| oxla::Buffer::from_literal(l).unwrap())
        .collect();
    (p, exe, bufs)
}

/// Programs whose GEMM weights are arguments, called again and again on the same buffers
/// (the runtime keeps each weight's packing from its second call on): every call's outputs
/// match JAX's.
#[test]
fn bench_programs_called_again_on_the_same_buffers_match_jax() {
    for name in ["matmul_256", "mlp_train_step", "transformer_block"] {
        let Some(dir) = bench(name) else { return };
        let (p, exe, bufs) = compiled_bench(&dir);
        let refs: Vec<&oxla::Buffer> = bufs.iter().collect();
        for call in 0..3 {
            let out = exe.execute(&refs).unwrap();
            let skip = if p.tuple_result { p.skip_outputs } else { 0 };
            let lits: Vec<Literal> = out[skip..]
                .iter()
                .map(|b| b.to_literal().unwrap())
                .collect();
            for (k, err, verdict) in check_outputs(&dir, &lits).unwrap() {
                assert!(
                    verdict.is_ok(),
                    "{name} call {call} out{k}: {verdict:?} (max err {err})"
                );
            }
        }
    }
}

/// The same executable on the same buffers gives the same bits call after call, although
/// from the second call on the GEMMs read their weights' kept packings: a kept packing is
/// the packing the first call made, read by the same kernels in the same order.
#[test]
fn calls_on_the_same_buffers_give_the_same_bits() {
    for name in [
        "matmul_256",
        "mlp_train_step",
        "transformer_block",
        "matmul_1024",
    ] {
        let Some(dir) = bench(name) else { return };
        let (_, exe, bufs) = compiled_bench(&dir);
        let refs: Vec<&oxla::Buffer> = bufs.iter().collect();
        same_bits_every_call(name, &exe, &refs);
    }
    // Dots of every GEMM class whose B is an argument: a vector times a matrix (the fuzzer's
    // seed 1203041: f32[6555] x f32[1,1,6555]), skinny and square products, bf16 and s8.
    let mut s = 0x2545_f491u32;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        (s >> 8) as f32 / 8_388_608.0 - 1.0
    };
    for (m, k, n, t) in [
        (1, 6555, 1, "f32"),
        (1, 999, 17, "f32"),
        (1, 700, 300, "f32"),
        (300, 700, 1, "f32"),
        (1, 512, 80, "bf16"),
        (1, 300, 70, "s8"),
        (3, 300, 40, "f32"),
        (64, 256, 96, "f32"),
        (2, 512, 64, "bf16"),
        (4, 300, 70, "s8"),
    ] {
        let acc = if t == "s8" { "s32" } else { "f32" };
        let text = format!(
            "HloModule d\nENTRY e {{\n  a = {t}[{m},{k}] parameter(0)\n  b = {t}[{k},{n}] parameter(1)\n  ROOT d = {acc}[{m},{n}] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n}}\n"
        );
        let module = oxla::hlo::text::parse_module(&text).unwrap();
        let client = oxla::Client::cpu().unwrap();
        let exe = client
            .compile(&module, &oxla::CompileOptions::default())
            .unwrap();
        let mut arg = |r: usize, c: usize| {
            let v: Vec<f32> = (0..r * c).map(|_| next() * 4.0).collect();
            let lit = Literal::from_slice(&v, &[r as i64, c as i64]).unwrap();
            let ty = match t {
                "bf16" => oxla::hlo::PrimitiveType::BF16,
                "s8" => oxla::hlo::PrimitiveType::S8,
                _ => oxla::hlo::PrimitiveType::F32,
            };
            oxla::Buffer::from_literal(&lit.convert(ty).unwrap()).unwrap()
        };
        let (a, b) = (arg(m, k), arg(k, n));
        same_bits_every_call(&format!("{t} {m}x{k}x{n}"), &exe, &[&a, &b]);
    }
}

/// Runs `exe` three times on `args` and checks every call's outputs have the first's bits.
fn same_bits_every_call(name: &str, exe: &oxla::Executable, args: &[&oxla::Buffer]) {
    let bits = |out: Vec<oxla::Buffer>| -> Vec<Vec<u8>> {
        out.iter().map(|b| b.as_bytes().to_vec()).collect()
    };
    let first = bits(exe.execute(args).unwrap());
    for call in 1..3 {
        let now = bits(exe.execute(args).unwrap());
        for (k, (a, b)) in first.iter().zip(&now).enumerate() {
            assert!(a == b, "{name} call {call} out{k}: bits differ from call 0");
        }
    }
}
