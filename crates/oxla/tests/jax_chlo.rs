//! CHLO decompositions against outputs of JAX 0.10.2 (XLA CPU) on the same inputs: the
//! programs in tests/data/jax were exported with `jax.jit(f).lower(x).as_text()`.

use oxla::hlo::{Literal, PrimitiveType};
use oxla::run::{execute, load_program};

fn data() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/jax")
}

/// (relative tolerance, absolute tolerance) per function and type.
fn tolerance(name: &str, f64_type: bool) -> (f64, f64) {
    let base = if f64_type { 1e-12 } else { 2e-6 };
    match name {
        // Giles' single-precision polynomial, refined by Newton steps for f64.
        "erfinv" => (
            if f64_type { 1e-12 } else { 1e-5 },
            if f64_type { 1e-14 } else { 1e-6 },
        ),
        // 1 - erf(x): absolute accuracy only in the tail.
        "erfc" => (1e-5, if f64_type { 1e-15 } else { 1e-7 }),
        "lgamma" | "digamma" => (if f64_type { 1e-9 } else { 1e-5 }, 1e-5),
        "i1e" => (
            if f64_type { 1e-10 } else { 2e-6 },
            if f64_type { 1e-14 } else { 1e-7 },
        ),
        "sinh" | "cosh" | "asinh" | "acosh" => (if f64_type { 1e-12 } else { 1e-5 }, 1e-6),
        _ => (base * 10.0, base),
    }
}

#[test]
fn chlo_decompositions_match_xla() {
    let mut checked = 0;
    for e in std::fs::read_dir(data()).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let name = stem.rsplit_once('_').unwrap().0.to_string();
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let t = if meta["dtype"] == "float64" {
            PrimitiveType::F64
        } else {
            PrimitiveType::F32
        };
        let input: Vec<f64> = meta["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let arg = Literal::from_f64s(t, &[input.len() as i64], &input).unwrap();
        let prog =
            load_program(&p.with_extension("mlir")).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let outs = execute(&prog, &[arg]).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let got = outs[0].to_f64s();
        let (rtol, atol) = tolerance(&name, t == PrimitiveType::F64);
        for (i, w) in meta["output"].as_array().unwrap().iter().enumerate() {
            let g = got[i];
            match w.as_str() {
                None => assert!(
                    g.is_nan(),
                    "{stem}[{i}] x={}: got {g}, expected NaN",
                    input[i]
                ),
                Some(s) => {
                    let w: f64 = s.parse().unwrap();
                    let ok = g == w || (g - w).abs() <= atol + rtol * w.abs();
                    assert!(ok, "{stem}[{i}] x={}: got {g}, expected {w}", input[i]);
                }
            }
        }
        if let Some(idx) = meta.get("indices") {
            let want: Vec<i64> = idx
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            assert_eq!(outs[1].to_i64s(), want, "{stem}");
        }
        checked += 1;
    }
    assert!(checked >= 29, "{checked}");
}
