//! Mutated conformance modules: parsing and importing never panic, whatever the damage
//! (errors are fine).

use oxla_stablehlo::{import, parse_module, split_input_file};

fn corpus() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance/stablehlo-interpret");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        eprintln!("note: corpus absent; skipped");
        return vec![];
    };
    let mut files: Vec<_> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            split_input_file(&std::fs::read_to_string(f).unwrap())
                .into_iter()
                .map(|(_, c)| c)
        })
        .collect()
}

/// Deterministic mutations: drop an operand, change a dimension, change an element type,
/// swap an op name, drop an attribute line.
fn mutations(text: &str, seed: usize) -> Vec<String> {
    let mut out = Vec::new();
    let swaps = [
        (", %", " %"),
        ("x2x", "x3x"),
        ("tensor<2x", "tensor<3x"),
        ("xi64>", "xf32>"),
        ("f32>", "i1>"),
        ("stablehlo.add", "stablehlo.dot_general"),
        ("stablehlo.multiply", "stablehlo.reduce"),
        ("dimensions = array<i64: 1>", "dimensions = array<i64: 7>"),
        ("dense<[", "dense<[[9], "),
        ("stablehlo.return %", "stablehlo.return"),
    ];
    for (k, (a, b)) in swaps.iter().enumerate() {
        if let Some(pos) = text.match_indices(a).nth(seed % 3).map(|(i, _)| i) {
            let mut t = text.to_string();
            t.replace_range(pos..pos + a.len(), b);
            out.push(t);
        } else if k == 0 {
            out.push(text.to_string());
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() > 3 {
        let drop = 1 + seed % (lines.len() - 2);
        out.push(
            lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != drop)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    out
}

#[test]
fn mutated_modules_never_panic() {
    let chunks = corpus();
    let mut imported = 0;
    for (i, chunk) in chunks.iter().enumerate() {
        for m in mutations(chunk, i) {
            let r = std::panic::catch_unwind(|| {
                let Ok(module) = parse_module(&m) else {
                    return false;
                };
                let Ok(imp) = import(&module, None) else {
                    return true;
                };
                // Imported modules verify; running them must not panic either (loops and
                // multi-process programs are left out: a mutation can make them wait).
                if !m.contains("while") && !m.contains("run_parallel") && !m.contains("infeed") {
                    let _ = oxla_interp::Interpreter::new().run(imp.computation.module(), &[]);
                }
                true
            });
            match r {
                Ok(true) => imported += 1,
                Ok(false) => {}
                Err(_) => panic!("panic on mutated module:\n{m}"),
            }
        }
    }
    eprintln!("{} chunks, {imported} mutated modules parsed", chunks.len());
    assert!(chunks.is_empty() || imported > 1000, "{imported}");
}

/// Found by the `stablehlo_text` fuzz target: a result group with a huge count
/// (`%1:277777…`) named every result and ran out of memory; it is now an error.
#[test]
fn huge_result_group_is_an_error() {
    let text = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %1:2777777777777 = stablehlo.add %a, %a : tensor<f32>\n  return %a : tensor<f32>\n}\n";
    let e = oxla_stablehlo::parse_module(text).unwrap_err().to_string();
    assert!(e.contains("result group"), "{e}");
}
