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

/// Mutated HLO text: whatever parses and verifies must run without panicking (inference
/// is what stands between odd shapes and out-of-bounds indexing in the evaluator).
#[test]
fn mutated_hlo_never_panics() {
    let dirs = [
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/xla_hlo"),
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../oxla-hlo/tests/data/hlo"),
    ];
    let mut verified = 0;
    for dir in dirs {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "hlo") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let digits: Vec<usize> = text
                .match_indices(|c: char| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            for (k, &pos) in digits.iter().enumerate().step_by(3) {
                let mut t = text.clone();
                let d = (t.as_bytes()[pos] - b'0' + 1 + (k % 3) as u8) % 10;
                t.replace_range(pos..pos + 1, &d.to_string());
                let r = std::panic::catch_unwind(|| {
                    let Ok(m) = parse_module(&t) else {
                        return false;
                    };
                    if oxla::hlo::verify_module(&m).is_err()
                        || t.contains("while")
                        || t.contains("infeed")
                        || t.contains("recv")
                    {
                        return false;
                    }
                    // Keep the run cheap: a mutated dimension can make arrays huge.
                    let big = m
                        .computations
                        .iter()
                        .flat_map(|c| &c.instructions)
                        .any(|i| {
                            i.shape.element_count() > 4096
                                || i.shape
                                    .tuple_elements()
                                    .is_some_and(|t| t.iter().any(|s| s.element_count() > 4096))
                        });
                    if big {
                        return false;
                    }
                    // Arguments of the declared shapes, all zeros.
                    let args: Vec<_> = m
                        .entry_program_shape()
                        .parameters
                        .iter()
                        .map(|s| oxla::hlo::Literal::zeros(s).unwrap())
                        .collect();
                    let _ = oxla::interp::Interpreter::new().run(&m, &args);
                    true
                });
                match r {
                    Ok(v) => verified += v as usize,
                    Err(_) => panic!("{}: panic on mutation at byte {pos}:\n{t}", p.display()),
                }
            }
        }
    }
    assert!(verified > 20, "{verified}");
}

/// XLA's own HLO for the 20 bench programs, before and after XLA CPU's pipeline
/// (`tests/data/bench_xla/gen.py`: layouts, layout-changing bitcasts, kCustom fusions,
/// `is_scheduled`): each runs on the JIT and matches the bench folder's outputs from JAX.
#[test]
fn xla_dumps_of_the_bench_programs_run_and_match() {
    use oxla::run::{check_outputs, execute_on, folder_args, load_program};
    let here = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bench = here.join("../../../shared/bench");
    if !bench.exists() {
        eprintln!("note: {} is absent; skipped", bench.display());
        return;
    }
    let dir = here.join("tests/data/bench_xla");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 40, "20 programs, before and after");
    for f in files {
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        let workload = bench.join(file.split('.').next().unwrap());
        let p = load_program(&f).unwrap_or_else(|e| panic!("{file}: {e}"));
        let outs = execute_on(&p, &folder_args(&workload).unwrap(), true)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let checks = check_outputs(&workload, &outs).unwrap();
        assert!(!checks.is_empty(), "{file}: nothing checked");
        for (k, err, verdict) in checks {
            assert!(
                verdict.is_ok(),
                "{file} out{k}: {verdict:?} (max err {err})"
            );
        }
    }
}
