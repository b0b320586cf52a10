//! HLO text printed by XLA itself (JAX 0.10.2, `.as_text(dialect="hlo")`): parsed, verified,
//! printed and re-parsed, and evaluated against XLA's outputs.

use oxla::hlo::literal::Tolerance;
use oxla::hlo::text::{parse_module, print_module};
use oxla::npy;

#[test]
fn xla_printed_modules_parse_verify_and_run() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/xla_hlo");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "hlo") {
            continue;
        }
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let m = parse_module(&std::fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        oxla::hlo::verify_module(&m).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let printed = print_module(&m);
        let again = parse_module(&printed).unwrap();
        assert_eq!(print_module(&again), printed, "{stem}: round trip");
        let args: Vec<_> = (0..)
            .map(|i| dir.join(format!("{stem}.arg{i}.npy")))
            .take_while(|f| f.exists())
            .map(|f| npy::read(&f).unwrap())
            .collect();
        let out = oxla::interp::Interpreter::new()
            .run(&m, &args)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let outs = match out.tuple_elements() {
            Some(t) => t.to_vec(),
            None => vec![out],
        };
        for (k, o) in outs.iter().enumerate() {
            let want = npy::read(&dir.join(format!("{stem}.out{k}.npy"))).unwrap();
            let tol = Tolerance {
                abs: 1e-5,
                rel: 1e-5,
                ulps: 0,
            };
            o.approx_eq(&want, &tol)
                .unwrap_or_else(|e| panic!("{stem} out{k}: {e}"));
        }
        n += 1;
    }
    assert_eq!(n, 6);
}
