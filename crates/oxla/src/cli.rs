//! The `oxla` command line: its arguments (clap derive) and every subcommand but `run`
//! (whose arguments and implementation live in [`crate::run`]).
//!
//! Exit codes: 0 success, 1 an error or a failed check, 2 a usage error.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use oxla_builder::{scalar_binary_computation, XlaBuilder, XlaComputation};
use oxla_hlo::{text, verify_module, BinaryOp, Error, PrimitiveType, Result, Shape};

use crate::run::RunArgs;

/// What every `--help` ends with.
pub const EXIT_CODES: &str = "Exit codes: 0 success, 1 an error or a failed check (an output \
mismatch, a lost conformance baseline), 2 a usage error (unknown flag, missing or invalid \
argument).";

/// The `oxla` command line.
#[derive(Parser, Debug)]
#[command(
    name = "oxla",
    version,
    about = "Oxla: an XLA-compatible compiler for the CPU",
    arg_required_else_help = true,
    after_help = EXIT_CODES
)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a program (StableHLO MLIR, bytecode, jax.export, or HLO text) on .npy inputs.
    Run(RunArgs),
    /// Compile, check and time every workload folder of a bench directory on the JIT.
    Bench(BenchArgs),
    /// Run the StableHLO interpreter test suite on the interpreter or the JIT.
    Conformance(ConformanceArgs),
    /// Build a softmax with the builder, verify it and print its HLO text.
    #[command(after_help = format!("Example:\n  oxla example\n\n{EXIT_CODES}"))]
    Example,
    /// Parse an HLO text module, verify it and print it canonically.
    Hlo(HloArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Differential fuzzing: random programs on the JIT against the interpreter.
    Fuzz(FuzzArgs),
    /// Long use: compile and run many different programs in one process, watching memory.
    Soak(SoakArgs),
}

/// The backend a program runs on.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendArg {
    /// The reference interpreter.
    Interp,
    /// The Cranelift JIT.
    Jit,
}

/// `oxla bench` arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Examples:\n  oxla bench ../shared/bench --json now.json\n  \
     oxla bench ../shared/bench --filter softmax,matmul --min-time 0.2\n  \
     oxla bench ../shared/bench --compare before.json          # per-workload deltas\n  \
     oxla bench --load now.json --compare before.json           # compare two saved runs\n  \
     oxla bench --load now.json --anchors anchors.json --report report.svg\n\n\
     --anchors takes the results file of ../shared/bench/anchors/run_anchors.py.\n\n{EXIT_CODES}"
))]
pub struct BenchArgs {
    /// A bench folder: workload folders holding program.mlir, arg*.npy, out*.npy, meta.json
    /// (or one such folder). Not needed with --load.
    #[arg(required_unless_present = "load")]
    pub dir: Option<PathBuf>,
    /// Take the rows from an earlier --json output instead of running the workloads.
    #[arg(long, value_name = "FILE", conflicts_with = "dir")]
    pub load: Option<PathBuf>,
    /// Print each workload's compile and run time against an earlier --json output (ratio
    /// now / base; faster or slower beyond --noise).
    #[arg(long, value_name = "BASE.json")]
    pub compare: Option<PathBuf>,
    /// The relative change --compare counts as noise.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.05)]
    pub noise: f64,
    /// Draw run time per workload (against --anchors when given) to FILE (.svg, or .html
    /// with a table).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// The anchors' results (run_anchors.py's JSON) for --report.
    #[arg(long, value_name = "FILE")]
    pub anchors: Option<PathBuf>,
    /// Also write the rows as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Only workloads whose name contains one of these comma-separated strings.
    #[arg(long, value_name = "S")]
    pub filter: Option<String>,
    /// Time each workload for at least this long (after a warm-up run).
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    pub min_time: f64,
    /// Time each workload at most this many runs.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_runs: usize,
}

/// `oxla conformance` arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Examples:\n  oxla conformance ../shared/conformance/stablehlo-interpret \
     --baseline conformance/baseline-interp.txt\n  \
     oxla conformance ../shared/conformance/stablehlo-interpret --backend jit --filter \
     add --verbose\n\n{EXIT_CODES}"
))]
pub struct ConformanceArgs {
    /// The suite folder (its .mlir files, searched recursively).
    pub dir: PathBuf,
    /// Only test modules whose id contains S.
    #[arg(long, value_name = "S")]
    pub filter: Option<String>,
    /// Fail if a module listed in FILE no longer passes.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write the modules that pass to FILE.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// The backend.
    #[arg(long, value_enum, default_value = "interp")]
    pub backend: BackendArg,
    /// List the modules the JIT cannot compile yet, with the reason.
    #[arg(long)]
    pub verbose: bool,
}

/// `oxla hlo` arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Examples:\n  oxla hlo module.hlo\n  oxla hlo module.hlo --optimize --dump\n\n{EXIT_CODES}"
))]
pub struct HloArgs {
    /// The HLO text module.
    pub file: PathBuf,
    /// Run the pass pipeline before printing.
    #[arg(long)]
    pub optimize: bool,
    /// With --optimize, print the module after every pass that changed it.
    #[arg(long)]
    pub dump: bool,
}

/// `oxla fuzz` arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Program i of a run is generated from seed SEED + i, so a finding reproduces alone:\n  \
     oxla fuzz --seed 1580 --programs 1\n\n\
     Examples:\n  oxla fuzz --programs 100000 --findings findings/\n  \
     oxla fuzz --time 3600 --seed 7000000\n\n\
     Exit code 1 when a difference is not explained by documented precision \
     (docs/semantics.md); its minimized filetest is printed and, with --findings, written.\n\n\
     {EXIT_CODES}"
))]
pub struct FuzzArgs {
    /// How many programs.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub programs: u64,
    /// The first program's seed.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Write each unexplained finding as a filetest into DIR.
    #[arg(long, value_name = "DIR")]
    pub findings: Option<PathBuf>,
    /// The most ops per program.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_ops: usize,
    /// The largest dimension of a generated array (above 16, dots reach the GEMM kernels
    /// and their epilogues; the interpreter slows down with the cube of it).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_dim: i64,
}

/// `oxla soak` arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Examples:\n  oxla soak --cycles 100000\n  \
     OXLA_BUFFER_CACHE_MB=64 oxla soak --cycles 20000 --max-growth-mib 8\n\n\
     Prints resident memory every --sample-every cycles. Exit code 1 when it grew by more \
     than --max-growth-mib after the first tenth of the cycles (warm-up).\n\n\
     {EXIT_CODES}"
))]
pub struct SoakArgs {
    /// Compile-and-execute cycles, each a different program.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub cycles: usize,
    /// The first program's seed.
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    pub seed: u64,
    /// Sample resident memory after every N cycles.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub sample_every: usize,
    /// Replace the client with a fresh one after every N cycles (0: never).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub new_client_every: usize,
    /// The most resident growth allowed after warm-up, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16.0)]
    pub max_growth_mib: f64,
}

/// `oxla completions` arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = format!(
    "Examples:\n  oxla completions bash > ~/.local/share/bash-completion/completions/oxla\n  \
     oxla completions zsh > ~/.zfunc/_oxla\n\n{EXIT_CODES}"
))]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Runs the command line `args` (the program name first), returning the process's exit
/// code; usage errors print clap's message and give 2.
pub fn main_with<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            // --help and --version are "errors" that print to stdout and exit 0.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let result = match cli.command {
        Command::Example => example(),
        Command::Hlo(a) => hlo(&a),
        Command::Conformance(a) => conformance(&a),
        Command::Bench(a) => bench(&a),
        Command::Completions(a) => {
            let mut cmd = Cli::command();
            clap_complete::generate(a.shell, &mut cmd, "oxla", &mut std::io::stdout());
            Ok(())
        }
        Command::Fuzz(a) => match fuzz(&a) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        Command::Soak(a) => match soak(&a) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        Command::Run(a) => match crate::run::command_with(&a) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Softmax over the rows of an f32[rows, cols] input, built with the XlaBuilder API (the
/// `oxla example` program, and a whole-program benchmark).
pub fn build_softmax(rows: i64, cols: i64) -> Result<XlaComputation> {
    let mut b = XlaBuilder::new("softmax");
    let x = b.parameter(0, &Shape::array(PrimitiveType::F32, &[rows, cols]), "x");
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
    let c = build_softmax(4, 8)?;
    let printed = c.to_hlo_text();
    print!("{printed}");
    let reparsed = text::parse_module(&printed)?;
    verify_module(&reparsed)?;
    let again = text::print_module(&reparsed);
    if again != printed {
        return Err(Error::internal(
            "printed HLO text did not round-trip exactly",
        ));
    }
    eprintln!("verified; HLO text round-trips exactly");
    Ok(())
}

fn hlo(a: &HloArgs) -> Result<()> {
    let src = std::fs::read_to_string(&a.file)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", a.file.display())))?;
    let mut m = text::parse_module(&src)?;
    verify_module(&m)?;
    if a.optimize {
        let mut p = oxla_passes::Pipeline::with_fusion();
        p.verify = true;
        if a.dump {
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

/// Runs a fuzz campaign; false when a difference is unexplained.
fn fuzz(a: &FuzzArgs) -> Result<bool> {
    let time_limit = match a.time {
        Some(t) if t.is_finite() && t >= 0.0 => Some(std::time::Duration::from_secs_f64(t)),
        Some(t) => return Err(Error::invalid(format!("--time: expected seconds, got {t}"))),
        None => None,
    };
    let cfg = oxla_fuzz::FuzzConfig {
        seed: a.seed,
        programs: a.programs,
        time_limit,
        gen: oxla_fuzz::GenConfig {
            max_ops: a.max_ops.max(1),
            max_dim: a.max_dim.max(1),
            ..Default::default()
        },
        findings_dir: a.findings.clone(),
    };
    // Devices for the programs that run on several replicas.
    let client = oxla_fuzz::client()?;
    let mut last = std::time::Instant::now();
    let report = oxla_fuzz::run(&client, &cfg, &mut |r| {
        if last.elapsed().as_secs() >= 10 {
            last = std::time::Instant::now();
            eprintln!(
                "fuzz: {} programs, {} unexplained ({:.0} s)",
                r.programs,
                r.findings.len(),
                r.elapsed.as_secs_f64()
            );
        }
    });
    print!("{}", report.summary());
    for f in &report.findings {
        println!("\n{}", f.filetest);
    }
    Ok(report.findings.is_empty() && report.invalid.is_empty())
}

/// Runs a soak; false when resident memory grew past the limit after warm-up.
fn soak(a: &SoakArgs) -> Result<bool> {
    let cfg = crate::soak::SoakConfig {
        cycles: a.cycles,
        seed: a.seed,
        sample_every: a.sample_every,
        new_client_every: a.new_client_every,
    };
    let mib = |b: f64| b / (1024.0 * 1024.0);
    println!("cycles\trss_mib\tcached_mib\tseconds");
    let r = crate::soak::soak(&cfg, |s| {
        println!(
            "{}\t{:.1}\t{:.1}\t{:.1}",
            s.cycles,
            mib(s.rss as f64),
            mib(s.cached as f64),
            s.seconds
        )
    })?;
    let warmup = a.cycles / 10;
    let growth = r.growth_after(warmup).unwrap_or(0);
    println!(
        "{} executed, {} unimplemented, {} not built; growth after cycle {warmup}: {:.1} MiB \
         (peak {:.1} MiB)",
        r.executed,
        r.unimplemented,
        r.invalid,
        mib(growth as f64),
        mib(r.peak_after(warmup).unwrap_or(0) as f64)
    );
    Ok(mib(growth as f64) <= a.max_growth_mib)
}

fn write_file(path: &std::path::Path, text: String) -> Result<()> {
    std::fs::write(path, text)
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
}

fn bench(a: &BenchArgs) -> Result<()> {
    use crate::bench::{bench_one, print_table, workloads};
    if !(a.min_time.is_finite() && a.min_time >= 0.0) {
        return Err(Error::invalid(format!(
            "--min-time: expected seconds, got {}",
            a.min_time
        )));
    }
    if !(a.noise.is_finite() && a.noise >= 0.0) {
        return Err(Error::invalid(format!(
            "--noise: expected a fraction, got {}",
            a.noise
        )));
    }
    let rows = match (&a.load, &a.dir) {
        (Some(f), _) => crate::bench_report::load_rows(f)?,
        (None, Some(dir)) => {
            let selected: Vec<(PathBuf, String)> = workloads(dir)?
                .into_iter()
                .map(|w| {
                    let name = w
                        .file_name()
                        .map(|n| n.to_string_lossy().to_string())
                        .unwrap_or_default();
                    (w, name)
                })
                .filter(|(_, name)| {
                    a.filter
                        .as_ref()
                        .is_none_or(|f| f.split(',').any(|f| name.contains(f)))
                })
                .collect();
            // A progress bar on a terminal; one line per workload otherwise (logs).
            use std::io::IsTerminal;
            let bar = std::io::stderr().is_terminal().then(|| {
                let b = indicatif::ProgressBar::new(selected.len() as u64);
                if let Ok(style) =
                    indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
                {
                    b.set_style(style);
                }
                b
            });
            let mut rows = Vec::new();
            for (w, name) in &selected {
                match &bar {
                    Some(b) => b.set_message(name.clone()),
                    None => eprintln!("bench: {name}"),
                }
                rows.push(bench_one(w, a.min_time, a.max_runs));
                if let Some(b) = &bar {
                    b.inc(1);
                }
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            rows
        }
        (None, None) => return Err(Error::invalid("oxla bench: give DIR or --load FILE")),
    };
    print_table(&rows);
    if let Some(path) = &a.json {
        let j = serde_json::Value::Array(rows.iter().map(|r| r.to_json()).collect());
        let text = serde_json::to_string_pretty(&j).map_err(|e| Error::internal(e.to_string()))?;
        write_file(path, text + "\n")?;
    }
    if let Some(base) = &a.compare {
        let base_rows = crate::bench_report::load_rows(base)?;
        println!("\ncompared with {}:", base.display());
        let deltas = crate::bench_report::compare(&base_rows, &rows, a.noise);
        print!("{}", crate::bench_report::format_compare(&deltas, a.noise));
    }
    if let Some(path) = &a.report {
        let anchors = match &a.anchors {
            Some(f) => crate::bench_report::load_anchors(f)?,
            None => Default::default(),
        };
        crate::bench_report::write_report(path, &rows, &anchors)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

fn conformance(a: &ConformanceArgs) -> Result<()> {
    use crate::conformance::{mlir_files, run_file, Backend, Outcome};
    let dir = a.dir.as_path();
    let filter = a.filter.as_deref();
    let backend = match a.backend {
        BackendArg::Interp => Backend::Interp,
        BackendArg::Jit => Backend::Jit,
    };
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
                    if a.verbose {
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
    if let Some(path) = &a.write_baseline {
        write_file(path, passed.join("\n") + "\n")?;
    }
    if let Some(path) = &a.baseline {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
        let lost: Vec<&str> = text
            .lines()
            .filter(|l| !l.is_empty() && !passed.iter().any(|p| p == l))
            .collect();
        if !lost.is_empty() {
            return Err(Error::runtime(format!(
                "{} baseline module(s) no longer pass: {}",
                lost.len(),
                lost.join(", ")
            )));
        }
    }
    Ok(())
}
