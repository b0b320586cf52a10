//! The JIT on damaged programs: conformance modules with their dimensions, element types
//! and ops changed are imported (when they still import), compiled and run on the JIT.
//! Errors are fine; a panic — or an out-of-bounds access in generated code, which would
//! crash the process — is not. (Modules with loops are left out: a mutated bound can make
//! a loop endless.) Also: index operands far out of range and empty arrays.

use oxla::hlo::{text::parse_module, Literal, PrimitiveType};
use oxla::runtime::{Client, CompileOptions};

fn corpus() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance/stablehlo-interpret");
    let Ok(files) = oxla::conformance::mlir_files(&dir) else {
        eprintln!("note: corpus absent; skipped");
        return vec![];
    };
    files
        .iter()
        .flat_map(|f| {
            oxla::stablehlo::split_input_file(&std::fs::read_to_string(f).unwrap())
                .into_iter()
                .map(|(_, c)| c)
        })
        // Loops could be mutated into ones that never end: leave them out.
        .filter(|c| !c.contains("run_parallel") && !c.contains("while"))
        // Every third module keeps the debug-build run short.
        .step_by(3)
        .collect()
}

fn mutations(text: &str) -> Vec<String> {
    let swaps = [
        ("tensor<2x", "tensor<3x"),
        ("x2x", "x1x"),
        ("xf32>", "xf64>"),
        ("xi32>", "xi64>"),
        ("stablehlo.add", "stablehlo.subtract"),
        ("array<i64: 1", "array<i64: 0"),
        ("xi64>", "xi32>"),
        ("xi32>", "xui8>"),
        ("tensor<i64>", "tensor<i32>"),
        ("stablehlo.maximum", "stablehlo.minimum"),
        ("x3x", "x2x"),
    ];
    let mut out = Vec::new();
    for (a, b) in swaps {
        // The first three occurrences, one at a time.
        for (pos, _) in text.match_indices(a).take(3) {
            let mut t = text.to_string();
            t.replace_range(pos..pos + a.len(), b);
            out.push(t);
        }
    }
    out
}

#[test]
fn mutated_conformance_modules_never_crash_the_jit() {
    let client = Client::cpu().unwrap();
    let options = CompileOptions {
        fold_constants: false,
        ..Default::default()
    };
    let mut ran = 0;
    for text in corpus() {
        for m in mutations(&text) {
            let Ok(module) = oxla::stablehlo::parse_module(&m) else {
                continue;
            };
            let Ok(imported) = oxla::stablehlo::import(&module, None) else {
                continue;
            };
            let r = std::panic::catch_unwind(|| {
                if let Ok(exe) = client.compile(imported.computation.module(), &options) {
                    let _ = exe.execute_literals(&[]);
                }
            });
            assert!(r.is_ok(), "panic on:\n{m}");
            ran += 1;
        }
    }
    eprintln!("{ran} mutated modules compiled or rejected without a crash");
}

#[test]
fn wild_indices_and_empty_arrays_stay_in_bounds() {
    let client = Client::cpu().unwrap();
    let programs = [
        // Start indices far outside the operand (clamped).
        "HloModule a\nENTRY main {\n  p = f32[5,7] parameter(0)\n  i = s64[] parameter(1)\n  ROOT d = f32[2,3] dynamic-slice(p, i, i), dynamic_slice_sizes={2,3}\n}\n",
        "HloModule a\nENTRY main {\n  p = f32[5,7] parameter(0)\n  i = s64[] parameter(1)\n  u = f32[2,3] constant({{1,2,3},{4,5,6}})\n  ROOT d = f32[5,7] dynamic-update-slice(p, u, i, i)\n}\n",
        "HloModule a\nENTRY main {\n  p = f32[5,7] parameter(0)\n  i = s64[] parameter(1)\n  b = s64[4,1] broadcast(i), dimensions={}\n  ROOT g = f32[4,7] gather(p, b), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,7}\n}\n",
        "HloModule a\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT z = f32[] add(x, y)\n}\nENTRY main {\n  p = f32[5,7] parameter(0)\n  i = s64[] parameter(1)\n  b = s64[3,1] broadcast(i), dimensions={}\n  u = f32[3,7] constant({{1,1,1,1,1,1,1},{2,2,2,2,2,2,2},{3,3,3,3,3,3,3}})\n  ROOT s = f32[5,7] scatter(p, b, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n",
    ];
    let p = Literal::from_vec(&[5, 7], (0..35).map(|x| x as f32).collect::<Vec<_>>()).unwrap();
    for text in programs {
        let m = parse_module(text).unwrap();
        let exe = client.compile(&m, &CompileOptions::default()).unwrap();
        let interp = oxla::interp::Interpreter::new();
        for i in [i64::MIN, -1_000_000_007, -1, 0, 3, 6, 1 << 40, i64::MAX] {
            let args = [p.clone(), Literal::scalar(i)];
            let got = exe.execute_literals(&args).unwrap();
            let want = interp.run(&m, &args).unwrap();
            assert_eq!(got, want, "{text} with index {i}");
        }
    }
    // Empty arrays through element-wise, reduce, dot and concatenate.
    let m = parse_module("HloModule e\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT z = f32[] add(x, y)\n}\nENTRY main {\n  p = f32[0,4] parameter(0)\n  q = f32[0,4] add(p, p)\n  z = f32[] constant(0)\n  r = f32[4] reduce(q, z), dimensions={0}, to_apply=add\n  d = f32[4,4] dot(p, p), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n  c = f32[0,8] concatenate(p, p), dimensions={1}\n  ROOT t = (f32[4], f32[4,4], f32[0,8]) tuple(r, d, c)\n}\n").unwrap();
    let exe = client.compile(&m, &CompileOptions::default()).unwrap();
    let arg = Literal::from_vec(&[0, 4], Vec::<f32>::new()).unwrap();
    let got = exe.execute_literals(std::slice::from_ref(&arg)).unwrap();
    let want = oxla::interp::Interpreter::new().run(&m, &[arg]).unwrap();
    assert_eq!(got, want);
    let _ = PrimitiveType::F32;
}
