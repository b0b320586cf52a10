//! CHLO special functions decomposed by the importer, checked on the interpreter against
//! hand-computed values (closed forms where they exist).

use oxla_hlo::Literal;
use oxla_stablehlo::{import, parse_module};

/// Imports `body` (one CHLO op `%0 = ...` over `%arg0`, `%arg1` of type `ty`) and runs it.
fn run(op: &str, ty: &str, args: &[Literal]) -> Literal {
    let text = format!(
        "func.func @main(%arg0: {ty}, %arg1: {ty}) -> {ty} {{\n  \
         %0 = {op} %arg0, %arg1 : {ty}, {ty} -> {ty}\n  \
         return %0 : {ty}\n}}\n"
    );
    let module = parse_module(&text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let out = oxla_interp::Interpreter::new()
        .run(imp.computation.module(), args)
        .expect("runs");
    // The function's results come back as a tuple.
    match out.tuple_elements() {
        Some(t) => t[0].clone(),
        None => out,
    }
}

const ZETA_3: f64 = 1.202_056_903_159_594_2;
const PI2_6: f64 = std::f64::consts::PI * std::f64::consts::PI / 6.0;

/// (x, q, zeta(x, q)): Riemann values, a shifted one (zeta(2, 2) = pi^2/6 - 1), zeta(2, 1/2) =
/// 3 zeta(2) (= pi^2/2), the harmonic pole and the domain errors.
fn zeta_cases() -> Vec<(f64, f64, f64)> {
    vec![
        (2.0, 1.0, PI2_6),
        (3.0, 1.0, ZETA_3),
        (4.0, 1.0, std::f64::consts::PI.powi(4) / 90.0),
        (2.0, 2.0, PI2_6 - 1.0),
        (2.0, 0.5, 3.0 * PI2_6),
        (1.0, 3.0, f64::INFINITY),
        (0.5, 3.0, f64::NAN),
        (2.5, -1.5, f64::NAN),
        (2.0, -2.0, f64::INFINITY),
        (3.0, 0.0, f64::NAN),
    ]
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want.is_infinite() {
        return got == want;
    }
    (got - want).abs() <= rel * want.abs()
}

#[test]
fn zeta_matches_closed_forms() {
    let cases = zeta_cases();
    let xs: Vec<f64> = cases.iter().map(|c| c.0).collect();
    let qs: Vec<f64> = cases.iter().map(|c| c.1).collect();
    let n = cases.len() as i64;
    let ty = format!("tensor<{n}xf64>");
    let out = run(
        "chlo.zeta",
        &ty,
        &[
            Literal::from_vec(&[n], xs.clone()).unwrap(),
            Literal::from_vec(&[n], qs.clone()).unwrap(),
        ],
    );
    for (g, c) in out.data_as::<f64>().unwrap().iter().zip(&cases) {
        assert!(
            close(*g, c.2, 1e-14),
            "zeta({}, {}) = {g}, want {}",
            c.0,
            c.1,
            c.2
        );
    }
    // f32 computes in f32.
    let ty = format!("tensor<{n}xf32>");
    let out = run(
        "chlo.zeta",
        &ty,
        &[
            Literal::from_vec(&[n], xs.iter().map(|&v| v as f32).collect()).unwrap(),
            Literal::from_vec(&[n], qs.iter().map(|&v| v as f32).collect()).unwrap(),
        ],
    );
    for (g, c) in out.data_as::<f32>().unwrap().iter().zip(&cases) {
        assert!(
            close(*g as f64, c.2, 1e-6),
            "f32 zeta({}, {}) = {g}",
            c.0,
            c.1
        );
    }
}

#[test]
fn polygamma_matches_closed_forms() {
    // (n, x, polygamma(n, x)): digamma(1) = -gamma, trigamma(1) = pi^2/6,
    // polygamma(2, 1) = -2 zeta(3), trigamma(1/2) = pi^2/2, polygamma(3, 1) = pi^4/15,
    // and NaN for n that is not a natural number.
    let cases = [
        (0.0, 1.0, -0.577_215_664_901_532_9),
        (1.0, 1.0, PI2_6),
        (2.0, 1.0, -2.0 * ZETA_3),
        (1.0, 0.5, 3.0 * PI2_6),
        (3.0, 1.0, std::f64::consts::PI.powi(4) / 15.0),
        (1.5, 1.0, f64::NAN),
        (-1.0, 1.0, f64::NAN),
    ];
    let n = cases.len() as i64;
    let ns: Vec<f64> = cases.iter().map(|c| c.0).collect();
    let xs: Vec<f64> = cases.iter().map(|c| c.1).collect();
    let out = run(
        "chlo.polygamma",
        &format!("tensor<{n}xf64>"),
        &[
            Literal::from_vec(&[n], ns.clone()).unwrap(),
            Literal::from_vec(&[n], xs.clone()).unwrap(),
        ],
    );
    for (g, c) in out.data_as::<f64>().unwrap().iter().zip(&cases) {
        assert!(
            close(*g, c.2, 1e-13),
            "polygamma({}, {}) = {g}, want {}",
            c.0,
            c.1,
            c.2
        );
    }
    let p2 = out.data_as::<f64>().unwrap()[2];
    assert!((p2 - -2.404_113_806_319_188_5).abs() < 1e-14, "{p2}");
    // bf16 computes in f32 and rounds once.
    let bf = |v: &[f64]| {
        let h: Vec<half::bf16> = v.iter().map(|&x| half::bf16::from_f64(x)).collect();
        Literal::from_vec(&[v.len() as i64], h).unwrap()
    };
    let out = run(
        "chlo.polygamma",
        &format!("tensor<{n}xbf16>"),
        &[bf(&ns), bf(&xs)],
    );
    for (g, c) in out.data_as::<half::bf16>().unwrap().iter().zip(&cases) {
        assert!(
            close(g.to_f64(), c.2, 1e-2),
            "bf16 polygamma({}, {}) = {g}",
            c.0,
            c.1
        );
    }
}

#[test]
fn mismatched_operands_are_an_error() {
    let text = "func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf64>) -> tensor<2xf32> {\n  \
                %0 = chlo.zeta %arg0, %arg1 : tensor<2xf32>, tensor<2xf64> -> tensor<2xf32>\n  \
                return %0 : tensor<2xf32>\n}\n";
    let module = parse_module(text).expect("parses");
    let e = import(&module, None).err().expect("an error");
    assert!(e.to_string().contains("chlo.zeta"), "{e}");
}

#[test]
fn atanh_near_minus_one_and_at_the_edges() {
    let text = "func.func @main(%arg0: tensor<5xf32>) -> tensor<5xf32> {\n  \
                %0 = chlo.atanh %arg0 : tensor<5xf32> -> tensor<5xf32>\n  \
                return %0 : tensor<5xf32>\n}\n";
    let module = parse_module(text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let x = [-0.977_542_2_f32, 0.5, 1.0, -1.0, 1.5];
    let out = oxla_interp::Interpreter::new()
        .run(
            imp.computation.module(),
            &[Literal::from_vec(&[5], x.to_vec()).unwrap()],
        )
        .expect("runs");
    let out = out.tuple_elements().map_or(out.clone(), |t| t[0].clone());
    let got = out.data_as::<f32>().unwrap();
    // Within two f32 ULP of the exact values (the corpus's x = -0.9775 was 10 ULP off with
    // log1p(2x / (1 - x))).
    for (g, want) in got[..2].iter().zip([(x[0] as f64).atanh(), 0.5f64.atanh()]) {
        assert!(
            (*g as f64 - want).abs() <= 2.4e-7 * want.abs(),
            "{g} vs {want}"
        );
    }
    assert_eq!(got[2], f32::INFINITY);
    assert_eq!(got[3], f32::NEG_INFINITY);
    assert!(got[4].is_nan());
}

/// What JAX's plugin path sends for `jax.jit(lax.erf)` on f32[4] (a portable artifact, MLIR
/// bytecode): VHLO has no CHLO, so `chlo.erf` is a composite whose decomposition is
/// StableHLO's rational expansion (erf(3.96) = 0.9999996 from it). The importer lowers the
/// composite as the CHLO op itself: the correctly rounded values.
#[test]
fn chlo_composites_in_portable_artifacts_take_oxlas_lowering() {
    let bytes = include_bytes!("data/erf_composite_f32.mlirbc");
    let module = oxla_stablehlo::parse_program(bytes).expect("decodes");
    let imp = import(&module, None).expect("imports");
    let x = [3.960_530_5f32, 3.924_554_8, -3.519_968, 2.805_308_6];
    let out = oxla_interp::Interpreter::new()
        .run(imp.computation.module(), &[Literal::vec1(&x)])
        .expect("runs");
    let out = match out.tuple_elements() {
        Some(t) => t[0].clone(),
        None => out,
    };
    let got = out.data_as::<f32>().unwrap();
    // erf in f64, rounded once: 1, 1, -0.99999934, 0.9999273.
    let want: Vec<f32> = x.iter().map(|&v| libm_erf(v as f64) as f32).collect();
    assert_eq!(got, &want[..]);
    assert_eq!(got[0], 1.0);
}

/// erf by its Maclaurin series near 0 and its asymptotic continued fraction beyond: enough
/// for the test's four points (|x| > 2.8) to far below an f32 ulp.
fn libm_erf(x: f64) -> f64 {
    // erfc(x) = exp(-x^2)/(x sqrt(pi)) * 1/(1 + 1/(2x^2)/(1 + 2/(2x^2)/(1 + ...))) (Lentz).
    let a = x.abs();
    let mut f = 0.0f64;
    for k in (1..200).rev() {
        f = (k as f64 / 2.0) / (a + f);
    }
    let erfc = (-a * a).exp() / std::f64::consts::PI.sqrt() / (a + f);
    (1.0 - erfc).copysign(x)
}

/// chlo.conj: (1+2i, -3-0i) → (1-2i, -3+0i); the identity on real values.
#[test]
fn conj_negates_the_imaginary_part() {
    use num_complex::Complex32;
    let text = "func.func @main(%arg0: tensor<2xcomplex<f32>>, %arg1: tensor<2xf32>) -> \
                (tensor<2xcomplex<f32>>, tensor<2xf32>) {\n  \
                %0 = chlo.conj %arg0 : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>\n  \
                %1 = chlo.conj %arg1 : tensor<2xf32> -> tensor<2xf32>\n  \
                return %0, %1 : tensor<2xcomplex<f32>>, tensor<2xf32>\n}\n";
    let module = parse_module(text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let z = [Complex32::new(1.0, 2.0), Complex32::new(-3.0, -0.0)];
    let r = [1.5f32, -0.0];
    let out = oxla_interp::Interpreter::new()
        .run(
            imp.computation.module(),
            &[Literal::vec1(&z), Literal::vec1(&r)],
        )
        .expect("runs");
    let t = out.tuple_elements().expect("two results");
    let c = t[0].data_as::<Complex32>().unwrap();
    assert_eq!(c[0], Complex32::new(1.0, -2.0));
    assert_eq!((c[1].re, c[1].im.to_bits()), (-3.0, 0.0f32.to_bits()));
    assert_eq!(t[1].data_as::<f32>().unwrap(), &r);
}

/// sinh and cosh in f32 against f64's, rounded: within 1 ULP up to the exp overflow edge
/// (88), within 3 ULP past it ((exp(|x|/2) / 2) · exp(|x|/2); exp(|x| - ln 2) was 24 ULP
/// off there), finite while the result is.
#[test]
fn sinh_and_cosh_are_accurate_up_to_overflow() {
    let text = "func.func @main(%arg0: tensor<9xf32>) -> (tensor<9xf32>, tensor<9xf32>) {\n  \
                %0 = chlo.cosh %arg0 : tensor<9xf32> -> tensor<9xf32>\n  \
                %1 = chlo.sinh %arg0 : tensor<9xf32> -> tensor<9xf32>\n  \
                return %0, %1 : tensor<9xf32>, tensor<9xf32>\n}\n";
    let module = parse_module(text).expect("parses");
    let imp = import(&module, None).expect("imports");
    let x = [0.0f32, -1e-5, 1.0, -20.0, 50.5, 87.9, 88.0081, 89.2, -89.4];
    let out = oxla_interp::Interpreter::new()
        .run(imp.computation.module(), &[Literal::vec1(&x)])
        .expect("runs");
    let t = out.tuple_elements().expect("two results");
    for (k, f) in [(0, f64::cosh as fn(f64) -> f64), (1, f64::sinh)] {
        for (&v, &g) in x.iter().zip(t[k].data_as::<f32>().unwrap()) {
            let want = f(v as f64) as f32;
            assert!(g.is_finite(), "{k}: {v} -> {g}");
            let ulps = (g.to_bits() as i64 - want.to_bits() as i64).abs();
            let bound = if v.abs() <= 88.0 { 1 } else { 3 };
            assert!(ulps <= bound, "{k}: f({v}) = {g}, want {want} ({ulps} ULP)");
        }
    }
}

/// What JAX sends through the plugin with Shardy on (its default) for `jit(cholesky)` on
/// f32[3,3]: an empty `sdy.mesh`, `#sdy.sharding` on the argument and `#sdy.op_sharding_rule`
/// on the LAPACK custom call, all in Shardy's own bytecode encodings. They say how to
/// partition; the reader decodes them (`tests/sdy.rs`) and the program runs: L L^T = A.
#[test]
fn shardy_mesh_and_attributes_in_bytecode_decode() {
    let bytes = include_bytes!("data/cholesky_shardy_f32.mlirbc");
    let module = oxla_stablehlo::parse_program(bytes).expect("decodes");
    let imp = import(&module, None).expect("imports");
    let a = [2.1f32, 0.1, 0.1, 0.1, 2.1, 0.1, 0.1, 0.1, 2.1];
    let arg = Literal::from_vec(&[3, 3], a.to_vec()).unwrap();
    let out = oxla_interp::Interpreter::new()
        .run(imp.computation.module(), &[arg])
        .expect("runs");
    let out = match out.tuple_elements() {
        Some(t) => t[0].clone(),
        None => out,
    };
    let l = out.data_as::<f32>().unwrap();
    for i in 0..3 {
        for j in 0..3 {
            let llt: f32 = (0..3).map(|k| l[i * 3 + k] * l[j * 3 + k]).sum();
            assert!((llt - a[i * 3 + j]).abs() < 1e-5, "({i},{j}): {llt}");
        }
        for j in i + 1..3 {
            assert_eq!(l[i * 3 + j], 0.0);
        }
    }
}

/// lgamma is +inf at the poles (the non-positive integers) in every float type, although
/// sin(pi x) is not exactly zero there in f32, f16 or bf16; elsewhere it keeps its values
/// (lgamma(0.5) = log(sqrt(pi)), lgamma(3) = log 2, lgamma(-0.5) = log(2 sqrt(pi))).
#[test]
fn lgamma_is_infinite_at_the_poles_in_every_float_type() {
    use oxla_hlo::PrimitiveType::{BF16, F16, F32, F64};
    let xs = [-100.0, -3.0, -2.0, -1.0, 0.0, 0.5, 3.0, -0.5];
    let half_log_pi = 0.5 * std::f64::consts::PI.ln();
    let want = [
        f64::INFINITY,
        f64::INFINITY,
        f64::INFINITY,
        f64::INFINITY,
        f64::INFINITY,
        half_log_pi,
        std::f64::consts::LN_2,
        std::f64::consts::LN_2 + half_log_pi,
    ];
    for (t, ty, rel) in [
        (F64, "f64", 1e-13),
        (F32, "f32", 1e-5),
        (F16, "f16", 1e-2),
        (BF16, "bf16", 2e-2),
    ] {
        let text = format!(
            "func.func @main(%arg0: tensor<8x{ty}>) -> tensor<8x{ty}> {{\n  \
             %0 = chlo.lgamma %arg0 : tensor<8x{ty}> -> tensor<8x{ty}>\n  \
             return %0 : tensor<8x{ty}>\n}}\n"
        );
        let module = parse_module(&text).expect("parses");
        let imp = import(&module, None).expect("imports");
        let x = Literal::from_f64s(t, &[8], &xs).unwrap();
        let out = oxla_interp::Interpreter::new()
            .run(imp.computation.module(), &[x])
            .expect("runs");
        let out = match out.tuple_elements() {
            Some(t) => t[0].clone(),
            None => out,
        };
        for ((x, w), g) in xs.iter().zip(want).zip(out.to_f64s()) {
            assert!(close(g, w, rel), "{ty} lgamma({x}) = {g}, want {w}");
        }
    }
}
