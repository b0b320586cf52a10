//! The `oxla` command line.

use std::process::ExitCode;

use oxla::builder::{scalar_binary_computation, XlaBuilder, XlaComputation};
use oxla::hlo::{text, verify_module, BinaryOp, PrimitiveType, Result, Shape};

const USAGE: &str = "usage:
  oxla example        build a small computation with the builder, verify it, print its HLO text
                      and check that the text parses back to the same module
  oxla hlo FILE.hlo [--optimize] [--dump]
                      parse an HLO text module, verify it, print it in canonical form; with
                      --optimize run the pass pipeline first (--dump prints the module after
                      every pass that changed it)
  oxla run PROGRAM.mlir|PROGRAM.hlo [--input a.npy ...] [--inputs x.npz] [--out DIR]
                      [--check DIR] [--backend interp|jit]
                      [--replicas N] [--partitions M] [--input-dir DIR]
                      [--infeed a.npy|a.npy,b.npy ...] [--timeout SECONDS]
                      run a program on .npy inputs (or DIR's arg*.npy with --check), write outputs
                      DIR/out{K}.npy (a tuple result's elements in order), compare with DIR's
                      expected out*.npy / meta.json; compiled with the JIT (a program it cannot
                      compile yet runs on the interpreter, with a note).
                      Grids: --replicas/--partitions (default: the module's own counts) run one
                      process per device (device = partition * N + replica); --input files go to
                      every process, or --input-dir DIR gives each its own DIR/r{R}p{P}/arg{K}.npy;
                      outputs go to DIR/r{R}p{P}/out{K}.npy (--check DIR compares the same layout).
                      Queues: each --infeed is pushed in order on every device's infeed (a,b: one
                      tuple item); after the run each device's outfeed is drained (shapes from the
                      program's outfeed ops) to DIR/outfeed/d{D}_{I}.npy (tuple items:
                      d{D}_{I}_{J}.npy). --timeout bounds every collective / infeed wait (10 s).
  oxla conformance DIR [--filter S] [--baseline FILE] [--write-baseline FILE]
                      [--backend interp|jit] [--verbose]
                      run the StableHLO interpreter test suite in DIR on the interpreter or the
                      JIT (modules the JIT cannot compile yet are counted apart; --verbose lists
                      them with the reason)
  oxla bench DIR [--json FILE] [--filter S] [--min-time SECONDS] [--max-runs N]
                      compile every workload folder of DIR (or DIR itself) with the JIT, check
                      its outputs, time it (median of repeated runs after a warm-up run) and
                      print compile ms, run ms, GFLOPS or GB/s, peak arena bytes and the check";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("example") => example(),
        Some("help") | Some("--help") | Some("-h") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some("hlo") if args.len() >= 2 => hlo(&args[1], &args[2..]),
        Some("conformance") if args.len() >= 2 => conformance(&args[1..]),
        Some("bench") if args.len() >= 2 => bench(&args[1..]),
        Some("run") if args.len() >= 2 => match oxla::run::command(&args[1..]) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// softmax over the rows of an f32[4,8] input, built with the XlaBuilder API.
fn build_softmax() -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("softmax");
    let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[4, 8]), "x");
    let max = scalar_binary_computation(&mut b, "max", BinaryOp::Max, PrimitiveType::F32)?;
    let add = scalar_binary_computation(&mut b, "add", BinaryOp::Add, PrimitiveType::F32)?;
    let neg_inf = b.constant(f32::NEG_INFINITY);
    let zero = b.constant(0.0f32);
    let row_max = b.reduce(x, neg_inf, &max, &[1]);
    let shifted = b.sub_with_broadcast(x, row_max, &[0]);
    let e = b.exp(shifted);
    let sum = b.reduce(e, zero, &add, &[1]);
    b.div_with_broadcast(e, sum, &[0]);
    b.build()
}

fn example() -> Result<()> {
    let c = build_softmax()?;
    let printed = c.to_hlo_text();
    print!("{printed}");
    let reparsed = text::parse_module(&printed)?;
    verify_module(&reparsed)?;
    let again = text::print_module(&reparsed);
    if again != printed {
        return Err(oxla::hlo::Error::internal(
            "printed HLO text did not round-trip exactly",
        ));
    }
    eprintln!("verified; HLO text round-trips exactly");
    Ok(())
}

fn hlo(path: &str, opts: &[String]) -> Result<()> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| oxla::hlo::Error::invalid(format!("cannot read {path}: {e}")))?;
    let mut m = text::parse_module(&src)?;
    verify_module(&m)?;
    if opts.iter().any(|o| o == "--optimize") {
        let mut p = oxla::passes::Pipeline::with_fusion();
        p.verify = true;
        if opts.iter().any(|o| o == "--dump") {
            p.dump = Some(Box::new(|name, text| {
                println!("// ---- after {name}\n{text}");
            }));
        }
        p.run(&mut m)?;
        println!("// ---- optimized");
    }
    print!("{}", text::print_module(&m));
    Ok(())
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn bench(args: &[String]) -> Result<()> {
    use oxla::bench::{bench_one, print_table, workloads};
    let dir = std::path::Path::new(&args[0]);
    let filter = flag(args, "--filter");
    let parse = |name: &str, default: f64| -> Result<f64> {
        match flag(args, name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| oxla::hlo::Error::invalid(format!("{name}: not a number: {v}"))),
        }
    };
    let min_time = parse("--min-time", 1.0)?;
    let max_runs = parse("--max-runs", 100.0)? as usize;
    let mut rows = Vec::new();
    for w in workloads(dir)? {
        let name = w
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if filter.is_some_and(|f| !f.split(',').any(|f| name.contains(f))) {
            continue;
        }
        eprintln!("bench: {name}");
        rows.push(bench_one(&w, min_time, max_runs));
    }
    print_table(&rows);
    if let Some(path) = flag(args, "--json") {
        let j = serde_json::Value::Array(rows.iter().map(|r| r.to_json()).collect());
        let text = serde_json::to_string_pretty(&j)
            .map_err(|e| oxla::hlo::Error::internal(e.to_string()))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| oxla::hlo::Error::invalid(format!("cannot write {path}: {e}")))?;
    }
    Ok(())
}

fn conformance(args: &[String]) -> Result<()> {
    use oxla::conformance::{mlir_files, run_file, Backend, Outcome};
    let dir = std::path::Path::new(&args[0]);
    let filter = flag(args, "--filter");
    let backend = match flag(args, "--backend") {
        None | Some("interp") => Backend::Interp,
        Some("jit") => Backend::Jit,
        Some(b) => {
            return Err(oxla::hlo::Error::invalid(format!(
                "conformance backend '{b}': expected 'interp' or 'jit'"
            )))
        }
    };
    let verbose = args.iter().any(|a| a == "--verbose");
    let (mut pass, mut fail, mut skip, mut not_compiled) = (0, 0, 0, 0);
    let mut passed = Vec::new();
    for f in mlir_files(dir)? {
        let rel = f
            .strip_prefix(dir)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        for r in run_file(&f, &rel, filter, backend) {
            match &r.outcome {
                Outcome::Pass => {
                    pass += 1;
                    passed.push(r.id.clone());
                }
                Outcome::Fail(m) => {
                    fail += 1;
                    println!("FAIL {}: {}", r.id, m.replace('\n', " "));
                }
                Outcome::Skip(m) => {
                    skip += 1;
                    println!("SKIP {}: {m}", r.id);
                }
                Outcome::NotCompiled(m) => {
                    not_compiled += 1;
                    if verbose {
                        println!("NOT COMPILED {}: {}", r.id, m.replace('\n', " "));
                    }
                }
            }
        }
    }
    if backend == Backend::Jit {
        println!(
            "conformance (jit): {pass} passed, {fail} failed, {skip} skipped, \
             {not_compiled} not compiled by the JIT yet"
        );
    } else {
        println!("conformance: {pass} passed, {fail} failed, {skip} skipped");
    }
    if let Some(path) = flag(args, "--write-baseline") {
        std::fs::write(path, passed.join("\n") + "\n")
            .map_err(|e| oxla::hlo::Error::invalid(format!("cannot write {path}: {e}")))?;
    }
    if let Some(path) = flag(args, "--baseline") {
        let text = std::fs::read_to_string(path)
            .map_err(|e| oxla::hlo::Error::invalid(format!("cannot read {path}: {e}")))?;
        let lost: Vec<&str> = text
            .lines()
            .filter(|l| !l.is_empty() && !passed.iter().any(|p| p == l))
            .collect();
        if !lost.is_empty() {
            return Err(oxla::hlo::Error::runtime(format!(
                "{} baseline module(s) no longer pass: {}",
                lost.len(),
                lost.join(", ")
            )));
        }
    }
    Ok(())
}
