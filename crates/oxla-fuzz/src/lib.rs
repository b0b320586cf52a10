//! Random program generation and differential fuzzing of Oxla's JIT against its
//! interpreter (issue 13).
//!
//! [`gen::generate`] draws a well-typed HLO program over the op families the JIT compiles,
//! on every element type, with inputs that include NaN, ±inf, ±0, subnormals and integer
//! extremes ([`inputs`]). [`diff::check`] runs it on the interpreter and compiled under
//! several option sets and compares the results bit for bit. A difference is shrunk
//! ([`minimize`]) to the op that causes it and either explained by that op's documented
//! precision ([`diff::explain`], docs/semantics.md) or kept as a finding, written as a
//! `jit-vs-interp` filetest ([`finding_filetest`]). [`run`] is the campaign loop behind
//! `oxla fuzz`, the `cargo test` smoke run and the libFuzzer target `fuzz/fuzz_targets/jit_diff.rs`.

pub mod choice;
pub mod compare;
pub mod diff;
pub mod gen;
pub mod inputs;
pub mod minimize;
pub mod program;
pub mod replicas;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use oxla_runtime::Client;

pub use choice::Choices;
pub use diff::{check, explain, option_sets, Mismatch, OptionSet, Outcome};
pub use gen::{generate, GenConfig};
pub use program::Program;
pub use replicas::client;

/// A campaign's settings.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Program `i` is generated from seed `seed + i` (so any program is reproducible alone).
    pub seed: u64,
    pub programs: u64,
    /// Stop early after this long.
    pub time_limit: Option<Duration>,
    pub gen: GenConfig,
    /// Where unexplained findings are written as filetests (none: not written).
    pub findings_dir: Option<PathBuf>,
}

impl Default for FuzzConfig {
    fn default() -> Self {
        FuzzConfig {
            seed: 0,
            programs: 1000,
            time_limit: None,
            gen: GenConfig::default(),
            findings_dir: None,
        }
    }
}

/// A difference the documented semantics do not explain.
#[derive(Clone, Debug)]
pub struct Finding {
    pub seed: u64,
    /// The minimized program and what differs.
    pub program: Program,
    pub mismatch: Mismatch,
    /// The filetest text reproducing it.
    pub filetest: String,
}

/// A campaign's counts.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub programs: u64,
    pub agreed: u64,
    /// Programs the generator could not build (generator bugs), with the error.
    pub invalid: Vec<(u64, String)>,
    /// Interpreter run-time refusals, by message prefix.
    pub interp_errors: BTreeMap<String, u64>,
    /// JIT `Unimplemented` refusals, by message prefix.
    pub not_compiled: BTreeMap<String, u64>,
    /// Differences explained by documented precision, by reason.
    pub explained: BTreeMap<String, u64>,
    pub findings: Vec<Finding>,
    pub elapsed: Duration,
}

impl Report {
    /// A multi-line summary.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} programs in {:.1} s: {} agree bit for bit, {} explained, {} unexplained, {} not compiled, {} interpreter refusals, {} generator errors\n",
            self.programs,
            self.elapsed.as_secs_f64(),
            self.agreed,
            self.explained.values().sum::<u64>(),
            self.findings.len(),
            self.not_compiled.values().sum::<u64>(),
            self.interp_errors.values().sum::<u64>(),
            self.invalid.len()
        );
        for (k, v) in &self.explained {
            s += &format!("  explained {v:>6}: {k}\n");
        }
        for (k, v) in &self.not_compiled {
            s += &format!("  not compiled {v:>6}: {k}\n");
        }
        for (k, v) in &self.interp_errors {
            s += &format!("  interpreter {v:>6}: {k}\n");
        }
        for (seed, e) in &self.invalid {
            s += &format!("  generator error (seed {seed}): {e}\n");
        }
        for f in &self.findings {
            s += &format!("  finding (seed {}): {}\n", f.seed, f.mismatch.describe());
        }
        s
    }
}

fn key(msg: &str) -> String {
    msg.chars().take(90).collect()
}

/// The filetest reproducing a mismatch of `p` (HLO text with its arguments).
pub fn finding_filetest(seed: u64, p: &Program, m: &Mismatch) -> Option<String> {
    let (module, args) = p.build().ok()?;
    let text = oxla_hlo::text::print_module(&module);
    let args: Vec<String> = args.iter().map(|a| a.to_hlo_text_value()).collect();
    let mut s = format!(
        "// Differential fuzzer finding (program seed {seed}): the JIT differs from the interpreter.\n"
    );
    for line in m.describe().lines() {
        s += &format!("// {line}\n");
    }
    if p.replicas > 1 {
        // The filetest runner has one process: a multi-replica finding is reproduced
        // through oxla_fuzz::replicas (or a case in crates/oxla/tests/collectives.rs).
        s += &format!(
            "// It runs on {} replicas; each argument below stacks their values along a new first dimension.\n",
            p.replicas
        );
    }
    if m.options.remote {
        s += "// It differs over a cross-process transport (oxla_fuzz::replicas::remote_client).\n";
    }
    let o = &m.options.options;
    s += "// test: jit-vs-interp\n";
    s += &format!(
        "// options: opt_level={} fold_constants={} threads={}\n",
        o.opt_level, o.fold_constants, o.threads
    );
    if !args.is_empty() {
        s += &format!("// args: {}\n", args.join("; "));
    }
    s += &text;
    Some(s)
}

/// The program of `seed` as a `jit-vs-interp` filetest with default options.
pub fn program_filetest(seed: u64, cfg: &GenConfig) -> oxla_hlo::Result<String> {
    let p = generate(&mut Choices::from_seed(seed), cfg)?;
    let (module, args) = p.build()?;
    let args: Vec<String> = args.iter().map(|a| a.to_hlo_text_value()).collect();
    let mut s = format!("// Random program (seed {seed}).\n// test: jit-vs-interp\n");
    if !args.is_empty() {
        s += &format!("// args: {}\n", args.join("; "));
    }
    Ok(s + &oxla_hlo::text::print_module(&module))
}

/// Checks one program from `seed`; updates `report`.
pub fn fuzz_one(
    client: &Client,
    seed: u64,
    cfg: &FuzzConfig,
    sets: &[OptionSet],
    report: &mut Report,
) {
    fuzz_choices(client, seed, Choices::from_seed(seed), cfg, sets, report);
}

/// Checks the program that `data` steers the generator to (for coverage-guided fuzzing);
/// findings are tagged with seed 0.
pub fn fuzz_bytes(
    client: &Client,
    data: &[u8],
    cfg: &FuzzConfig,
    sets: &[OptionSet],
    report: &mut Report,
) {
    fuzz_choices(client, 0, Choices::from_bytes(data), cfg, sets, report);
}

fn fuzz_choices(
    client: &Client,
    seed: u64,
    mut c: Choices,
    cfg: &FuzzConfig,
    sets: &[OptionSet],
    report: &mut Report,
) {
    report.programs += 1;
    let built = generate(&mut c, &cfg.gen).and_then(|p| p.build().map(|b| (p, b)));
    let (p, (module, args)) = match built {
        Ok(x) => x,
        Err(e) => {
            report.invalid.push((seed, e.to_string()));
            return;
        }
    };
    match check(client, &module, &args, sets) {
        Outcome::Agree => report.agreed += 1,
        Outcome::InterpError(e) => *report.interp_errors.entry(key(&e)).or_default() += 1,
        Outcome::NotCompiled(e) => *report.not_compiled.entry(key(&e)).or_default() += 1,
        Outcome::Mismatch(m) => {
            let set = [m.options.clone()];
            let mut last = m.clone();
            let mut fails = |q: &Program| match q.build() {
                Ok((qm, qa)) => match check(client, &qm, &qa, &set) {
                    Outcome::Mismatch(mm) => {
                        last = mm;
                        true
                    }
                    _ => false,
                },
                Err(_) => false,
            };
            let small = minimize::minimize(&p, &mut fails);
            // The mismatch of the minimized program itself.
            fails(&small);
            let operands: Vec<_> = small
                .nodes
                .get(small.root)
                .map(|n| n.operands.clone())
                .unwrap_or_default()
                .iter()
                .filter_map(|&o| minimize::value(&small.with_root(o)))
                .collect();
            let why = explain(&small, &operands, &last)
                .or_else(|| diff::explain_propagated(&small, &last))
                .or_else(|| diff::explain_nan_bits(client, &small, &last));
            match why {
                Some(why) => {
                    // OXLA_FUZZ_EXPLAINED shows what each explanation accepted (to audit a rule).
                    if std::env::var_os("OXLA_FUZZ_EXPLAINED").is_some() {
                        let text = finding_filetest(seed, &small, &last).unwrap_or_default();
                        eprintln!("explained (seed {seed}): {why}\n{text}");
                    }
                    *report.explained.entry(why).or_default() += 1
                }
                None => {
                    let filetest = finding_filetest(seed, &small, &last).unwrap_or_default();
                    if let Some(dir) = &cfg.findings_dir {
                        let _ = std::fs::create_dir_all(dir);
                        let _ = std::fs::write(dir.join(format!("fuzz-{seed}.hlo")), &filetest);
                    }
                    report.findings.push(Finding {
                        seed,
                        program: small,
                        mismatch: last,
                        filetest,
                    });
                }
            }
        }
    }
}

/// Runs a campaign; `progress` is called after every program.
pub fn run(client: &Client, cfg: &FuzzConfig, progress: &mut dyn FnMut(&Report)) -> Report {
    let t0 = Instant::now();
    let sets = option_sets();
    let mut report = Report::default();
    // A crash (abort) loses the report: OXLA_FUZZ_TRACE names each program before it runs.
    let trace = std::env::var_os("OXLA_FUZZ_TRACE").is_some();
    for i in 0..cfg.programs {
        if trace {
            eprintln!("oxla-fuzz: program seed {}", cfg.seed.wrapping_add(i));
        }
        if cfg.time_limit.is_some_and(|l| t0.elapsed() > l) {
            break;
        }
        fuzz_one(client, cfg.seed.wrapping_add(i), cfg, &sets, &mut report);
        report.elapsed = t0.elapsed();
        progress(&report);
    }
    report.elapsed = t0.elapsed();
    report
}
