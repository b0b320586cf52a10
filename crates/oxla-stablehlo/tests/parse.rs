//! Parser: every conformance chunk and bench program parses; syntax forms; malformed input
//! gives a positioned error and never a panic.

use oxla_stablehlo::ast::{Attr, Type};
use oxla_stablehlo::{parse_module, split_input_file};

fn shared() -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("note: ../shared is absent; corpus tests skipped");
        None
    }
}

fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

#[test]
fn every_conformance_chunk_parses() {
    let Some(s) = shared() else { return };
    let mut fs = Vec::new();
    files(&s.join("conformance/stablehlo-interpret"), &mut fs);
    let mut chunks = 0;
    let mut failures = Vec::new();
    for f in &fs {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, c) in split_input_file(&text) {
            chunks += 1;
            if let Err(e) = parse_module(&c) {
                failures.push(format!("{}:{line}: {e}", f.display()));
            }
        }
    }
    assert_eq!(chunks, 523, "the corpus has 523 test modules");
    // chlo.scan's custom syntax is not supported (4 modules); everything else parses.
    assert!(failures.len() <= 4, "{failures:#?}");
    assert!(
        failures.iter().all(|f| f.contains("scan.mlir")),
        "{failures:#?}"
    );
}

#[test]
fn every_bench_program_parses() {
    let Some(s) = shared() else { return };
    let mut n = 0;
    for e in std::fs::read_dir(s.join("bench")).unwrap().flatten() {
        for name in ["program.mlir", "program.generic.mlir"] {
            let p = e.path().join(name);
            if p.exists() {
                let text = std::fs::read_to_string(&p).unwrap();
                parse_module(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                n += 1;
            }
        }
    }
    assert!(n >= 20, "{n}");
}

#[test]
fn split_follows_mlir_rules() {
    let text = "func.func @a() {\n  func.return\n}\n// -----\n// only a comment\n// -----\nfunc.func @b() {\n  func.return\n} // // -----\nfunc.func @c() {\n  func.return\n}\n";
    let chunks = split_input_file(text);
    assert_eq!(chunks.len(), 3);
    assert!(chunks[1].1.contains("@b") && !chunks[1].1.contains("@c"));
    assert_eq!(chunks[0].0, 1);
}

#[test]
fn pretty_and_generic_forms_agree() {
    let pretty = parse_module(
        "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n  func.return %0 : tensor<2xi1>\n}\n",
    )
    .unwrap();
    let generic = parse_module(
        "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n  %0 = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n  \"func.return\"(%0) : (tensor<2xi1>) -> ()\n}\n",
    )
    .unwrap();
    let (p, g) = (
        &pretty.funcs[0].body.blocks[0].ops[0],
        &generic.funcs[0].body.blocks[0].ops[0],
    );
    assert_eq!(p.name, g.name);
    assert_eq!(p.operands, g.operands);
    assert_eq!(
        p.attr("comparison_direction").and_then(Attr::as_str),
        Some("LT")
    );
    assert_eq!(
        g.attr("comparison_direction").and_then(Attr::as_str),
        Some("LT")
    );
    assert_eq!(p.result_types, g.result_types);
}

#[test]
fn types_and_attributes() {
    let m = parse_module(
        "module @m attributes {mhlo.num_replicas = 2 : i32} {\n  func.func public @main(%x: tensor<?x3xf32, #stablehlo.bounds<4, ?>> {jax.arg_info = \"x\"}, %q: tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-1, 0.2}>>, %t: !stablehlo.token) -> (tuple<tensor<complex<f64>>, tensor<i4>>) {\n    %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f64>>\n    %h = stablehlo.constant dense<\"0x0000803F\"> : tensor<f32>\n    %s = stablehlo.slice %c [0:1:1] : (tensor<1xcomplex<f64>>) -> tensor<1xcomplex<f64>>\n    func.return %h : tensor<f32>\n  }\n}\n",
    )
    .unwrap();
    assert_eq!(m.name.as_deref(), Some("m"));
    let f = &m.funcs[0];
    match &f.args[0].1 {
        Type::Tensor { dims, bounds, .. } => {
            assert_eq!(dims, &vec![-1, 3]);
            assert_eq!(bounds, &vec![Some(4), None]);
        }
        t => panic!("{t:?}"),
    }
    let ops = &f.body.blocks[0].ops;
    assert_eq!(
        ops[2].attr("start_indices").and_then(Attr::as_ints),
        Some(vec![0])
    );
    let h =
        oxla_stablehlo::dense_literal(ops[1].attr("value").unwrap(), ops[1].result_types.first())
            .unwrap();
    assert_eq!(h.to_f64s(), vec![1.0]);
}

#[test]
fn malformed_input_is_a_positioned_error() {
    for (text, want) in [
        (
            "func.func @f() {\n  %0 = stablehlo.add %a : tensor<2xf33>\n}\n",
            "2:",
        ),
        ("func.func @f( {\n}\n", "1:"),
        ("module {\n  func.func @f() {\n", "expected"),
        (
            "func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2> : tensor<2xi32>\n}\n",
            "2:",
        ),
        ("garbage", "expected 'func.func'"),
    ] {
        let e = parse_module(text).unwrap_err().to_string();
        assert!(
            e.contains("parse error") && e.contains(want),
            "{text:?}: {e}"
        );
    }
}

#[test]
fn truncated_corpus_files_never_panic() {
    let Some(s) = shared() else { return };
    let mut fs = Vec::new();
    files(&s.join("conformance/stablehlo-interpret"), &mut fs);
    for f in fs.iter().take(40) {
        let text = std::fs::read_to_string(f).unwrap();
        let step = (text.len() / 25).max(1);
        for cut in (0..text.len()).step_by(step) {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let r = std::panic::catch_unwind(|| parse_module(&text[..cut]).is_ok());
            assert!(r.is_ok(), "{} cut at {cut} panicked", f.display());
        }
    }
}

/// JAX quotes symbol names that are not identifiers (`@"<lambda>"`) in calls and definitions,
/// and attaches Shardy rules to custom calls; both parse and import.
#[test]
fn quoted_symbols_and_shardy_rules() {
    let text = r#"module @"jit_<lambda>" {
  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = call @"<lambda>"(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, l], [i]) {i=2, j=5, l=5} custom>} : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func private @"<lambda>"(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}"#;
    let m = oxla_stablehlo::parse_module(text).unwrap();
    assert_eq!(m.name.as_deref(), Some("jit_<lambda>"));
    assert_eq!(m.funcs[1].name, "<lambda>");
    oxla_stablehlo::import(&m, None).unwrap();
}

/// Every op (nested ones too) and function records the line and column it starts at:
/// checked against the text itself on each bench program, and on an error far into a
/// long text (positions are counted incrementally, so the parse stays linear in its size).
#[test]
fn ops_and_errors_carry_their_source_positions() {
    use oxla_stablehlo::ast::{Operation, Region};
    fn check(text: &str, ops: &[Operation], seen: &mut usize) {
        let lines: Vec<&str> = text.lines().collect();
        for op in ops {
            let line = lines[op.line - 1];
            let at = &line[op.column - 1..];
            assert!(
                at.starts_with('%') || at.starts_with(&op.name) || at.starts_with('"'),
                "op {} recorded at {}:{}, where the text is {at:?}",
                op.name,
                op.line,
                op.column
            );
            *seen += 1;
            for r in &op.regions {
                let r: &Region = r;
                for b in &r.blocks {
                    check(text, &b.ops, seen);
                }
            }
        }
    }
    let Some(s) = shared() else { return };
    for name in ["mlp_train_step", "transformer_block", "while_tanh_matmul"] {
        let text =
            std::fs::read_to_string(s.join("bench").join(name).join("program.mlir")).unwrap();
        let m = parse_module(&text).unwrap();
        let mut seen = 0;
        for f in &m.funcs {
            assert!(
                text.lines().nth(f.line - 1).unwrap().contains("func.func"),
                "{name}: @{} at line {}",
                f.name,
                f.line
            );
            for b in &f.body.blocks {
                check(&text, &b.ops, &mut seen);
            }
        }
        assert!(seen > 20, "{name}: {seen} ops");
    }
    // 20,000 ops, then a bad type on line 20,002.
    let mut text = String::from("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n");
    for i in 0..20_000 {
        let prev = if i == 0 {
            "%a".to_string()
        } else {
            format!("%v{}", i - 1)
        };
        text += &format!("  %v{i} = stablehlo.add {prev}, %a : tensor<2xf32>\n");
    }
    text += "  %bad = stablehlo.add %a, %a : tensor<2xf33>\n  return %a : tensor<2xf32>\n}\n";
    let t = std::time::Instant::now();
    let e = parse_module(&text).unwrap_err().to_string();
    eprintln!("20,000 ops parsed in {:?}", t.elapsed());
    assert!(e.contains("20002:"), "{e}");
}
