//! The JAX corpus (tests/data/jax_corpus, written by its gen.py with JAX 0.10.2): every program
//! runs on the JIT and on the interpreter and is compared with XLA CPU's outputs at the
//! program's tolerance. Programs that do not pass yet are listed, with the reason, in
//! `known_failures.txt`; a failure not listed fails the test, and a listed program that passes
//! is reported so the list only shrinks (`OXLA_BLESS=1` rewrites it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use oxla::hlo::literal::Tolerance;
use oxla::hlo::{Literal, PrimitiveType, Shape};
use oxla::npy;
use oxla::run::{execute_on, load_program};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/jax_corpus")
}

/// bfloat16 arrays are stored as their uint16 bits.
fn typed(l: Literal, dtype: &str) -> Literal {
    if dtype != "bfloat16" {
        return l;
    }
    let shape = Shape::array(PrimitiveType::BF16, l.shape().dims());
    Literal::from_le_bytes(&shape, &l.to_le_bytes()).expect("bf16 bits")
}

/// Runs one program on one backend; the error says what differed.
fn check(dir: &Path, p: &serde_json::Value, jit: bool) -> Result<(), String> {
    let name = p["name"].as_str().unwrap();
    let base = dir.join(p["area"].as_str().unwrap()).join(name);
    check_program(&base, &base.with_extension("mlir"), p, jit)
}

/// Runs `program` (the exported StableHLO, or an XLA dump of it) on the inputs of `base`.npz
/// and compares with the outputs there.
fn check_program(
    base: &Path,
    program: &Path,
    p: &serde_json::Value,
    jit: bool,
) -> Result<(), String> {
    let arrays: BTreeMap<String, Literal> = npy::read_npz(&base.with_extension("npz"))
        .map_err(|e| e.to_string())?
        .into_iter()
        .collect();
    let dtypes = |key: &str| -> Vec<String> {
        p[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect()
    };
    let (ins, outs) = (dtypes("inputs"), dtypes("outputs"));
    let args: Vec<Literal> = ins
        .iter()
        .enumerate()
        .map(|(i, d)| typed(arrays[&format!("in{i}")].clone(), d))
        .collect();
    let prog = load_program(program).map_err(|e| format!("load: {e}"))?;
    let got = execute_on(&prog, &args, jit).map_err(|e| format!("run: {e}"))?;
    if got.len() != outs.len() {
        return Err(format!("{} outputs, expected {}", got.len(), outs.len()));
    }
    let tol = Tolerance {
        abs: p["atol"].as_f64().unwrap(),
        rel: p["rtol"].as_f64().unwrap(),
        ulps: 0,
    };
    for (k, (g, d)) in got.iter().zip(&outs).enumerate() {
        let want = typed(arrays[&format!("out{k}")].clone(), d);
        g.approx_eq(&want, &tol)
            .map_err(|e| format!("output {k}: {e}"))?;
    }
    Ok(())
}

fn known_failures(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(dir.join("known_failures.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// The corpus manifest's programs.
fn manifest_programs(dir: &Path) -> Vec<serde_json::Value> {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    manifest["programs"].as_array().unwrap().clone()
}

/// Runs `f` on every program, spread over the machine's threads; a panic in `f` counts as
/// its failure. Returns the failures `f` reported, each with its key.
fn for_each_program(
    programs: &[serde_json::Value],
    f: impl Fn(&serde_json::Value, &mut dyn FnMut(String, String)) + Sync,
) -> BTreeMap<String, String> {
    let failures = Mutex::new(BTreeMap::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = programs.get(i) else { break };
                let mut fail = |key: String, e: String| {
                    let e: String = e.replace('\n', " ").chars().take(200).collect();
                    failures.lock().unwrap().insert(key, e);
                };
                let key = format!(
                    "{}/{}",
                    p["area"].as_str().unwrap(),
                    p["name"].as_str().unwrap()
                );
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(p, &mut fail)))
                    .is_err()
                {
                    fail(key, "panicked".into());
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
fn jax_corpus_matches_xla() {
    let dir = corpus();
    let programs = manifest_programs(&dir);
    assert!(
        programs.len() >= 300,
        "corpus has {} programs",
        programs.len()
    );
    let known = known_failures(&dir);
    // (area/name backend) -> reason, for every failing run.
    let failures = for_each_program(&programs, |p, fail| {
        for jit in [true, false] {
            let key = format!(
                "{}/{} {}",
                p["area"].as_str().unwrap(),
                p["name"].as_str().unwrap(),
                if jit { "jit" } else { "interp" }
            );
            if let Err(e) = check(&dir, p, jit) {
                fail(key, e);
            }
        }
    });
    let runs = programs.len() * 2;
    println!(
        "JAX corpus: {} programs, {} of {} runs pass",
        programs.len(),
        runs - failures.len(),
        runs
    );
    if std::env::var("OXLA_BLESS").is_ok() {
        let mut text = String::from(
            "# JAX corpus runs that do not match XLA yet: `area/name backend: first difference`.\n\
             # Written by `OXLA_BLESS=1 cargo test -p oxla --test jax_corpus`; may only shrink.\n",
        );
        for (k, v) in &failures {
            text += &format!("{k}: {v}\n");
        }
        std::fs::write(dir.join("known_failures.txt"), text).unwrap();
        return;
    }
    let fixed: Vec<_> = known
        .keys()
        .filter(|k| !failures.contains_key(*k))
        .collect();
    if !fixed.is_empty() {
        println!("now passing (remove from known_failures.txt): {fixed:?}");
    }
    let new: Vec<_> = failures
        .iter()
        .filter(|(k, _)| !known.contains_key(*k))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    assert!(new.is_empty(), "new failures:\n{}", new.join("\n"));
}

/// Every corpus program as `jax.export` serializes it (`AREA/NAME.jax_export`, written by
/// export_all.py: the portable artifact in a flatbuffer, with Shardy's mesh and attributes)
/// loads through `load_program` and matches XLA's outputs on the JIT like the text does (the
/// JIT's known failures excepted).
#[test]
fn jax_export_of_every_corpus_program_matches_xla() {
    let dir = corpus();
    let programs = manifest_programs(&dir);
    let known = known_failures(&dir);
    let failures = for_each_program(&programs, |p, fail| {
        let (area, name) = (p["area"].as_str().unwrap(), p["name"].as_str().unwrap());
        if known.contains_key(&format!("{area}/{name} jit")) {
            return;
        }
        let base = dir.join(area).join(name);
        if let Err(e) = check_program(&base, &base.with_extension("jax_export"), p, true) {
            fail(format!("{area}/{name}"), e);
        }
    });
    let failures: Vec<String> = failures.iter().map(|(k, e)| format!("{k}: {e}")).collect();
    println!(
        "JAX corpus as jax.export: {} programs, {} failing",
        programs.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// XLA's HLO of corpus programs (`xla/NAME.before.hlo` as XLA receives it, `.after.hlo` after
/// its CPU pipeline) runs on the JIT and matches XLA's outputs like the StableHLO does.
#[test]
fn xla_dumps_of_corpus_programs_match_xla() {
    let dir = corpus();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let by_name: BTreeMap<&str, &serde_json::Value> = manifest["programs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p))
        .collect();
    let mut n = 0;
    let mut failures = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir.join("xla"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files {
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = file
            .strip_suffix(".before.hlo")
            .or_else(|| file.strip_suffix(".after.hlo"))
        else {
            continue;
        };
        let p = by_name[stem];
        let base = dir.join(p["area"].as_str().unwrap()).join(stem);
        if let Err(e) = check_program(&base, &f, p, true) {
            failures.push(format!("{file}: {e}"));
        }
        n += 1;
    }
    assert!(n >= 40, "only {n} dumps");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
