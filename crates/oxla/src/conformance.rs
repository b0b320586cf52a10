//! The StableHLO conformance runner: splits each `.mlir` file as `-split-input-file` does,
//! imports every test module, runs it on the interpreter and evaluates its `check.*` ops
//! with the semantics of `shared/conformance/README.md`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use oxla_hlo::literal::Scalar;
use oxla_hlo::{Error, Literal, PrimitiveType, Result};
use oxla_interp::{Grid, Interpreter};
use oxla_stablehlo::ast::Module;
use oxla_stablehlo::{CheckKind, Expected, Imported};

#[derive(Debug, Clone, PartialEq)]
/// What happened to one test module.
pub enum Outcome {
    /// Every check passed.
    Pass,
    /// A check failed, or the module did not run.
    Fail(String),
    /// Not run (unsupported feature), with the reason.
    Skip(String),
    /// The JIT does not compile the module yet (a clear compile error, counted apart).
    NotCompiled(String),
}

/// Which engine runs the modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The reference interpreter.
    Interp,
    /// The Cranelift JIT.
    Jit,
}

#[derive(Debug, Clone)]
/// One test module's result.
pub struct ModuleResult {
    /// `file.mlir:N` (N = chunk number from 0) and the first function's name.
    pub id: String,
    /// What happened.
    pub outcome: Outcome,
}

/// All `.mlir` files under `dir`, sorted.
pub fn mlir_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let rd = std::fs::read_dir(&d)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", d.display())))?;
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Runs every test module of one file.
pub fn run_file(
    path: &Path,
    rel: &str,
    filter: Option<&str>,
    backend: Backend,
) -> Vec<ModuleResult> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            return vec![ModuleResult {
                id: rel.to_string(),
                outcome: Outcome::Fail(format!("cannot read: {e}")),
            }]
        }
    };
    let file_check = text
        .lines()
        .any(|l| l.starts_with("// RUN:") && l.contains("FileCheck"));
    let mut out = Vec::new();
    for (k, (line, chunk)) in oxla_stablehlo::split_input_file(&text)
        .into_iter()
        .enumerate()
    {
        let id = format!("{rel}:{k}");
        if filter.is_some_and(|f| !id.contains(f) && !rel.contains(f)) {
            continue;
        }
        let outcome = if file_check {
            Outcome::Skip("checks printed output with FileCheck, not with check ops".into())
        } else if chunk.contains("check.expect_serialized_eq")
            || chunk.contains("interpreter.probe")
        {
            Outcome::Skip("probe/serialized output of the reference tool".into())
        } else {
            // A panic anywhere is a bug, but must not stop the whole run.
            let run = || match backend {
                Backend::Interp => run_module(&chunk),
                Backend::Jit => run_module_jit(&chunk),
            };
            match std::panic::catch_unwind(run) {
                Ok(Ok(())) => Outcome::Pass,
                Ok(Err(Error::Unimplemented(m))) if backend == Backend::Jit => {
                    Outcome::NotCompiled(m)
                }
                Ok(Err(e)) => Outcome::Fail(shift_lines(&e.to_string(), line - 1)),
                Err(_) => Outcome::Fail("internal panic".into()),
            }
        };
        out.push(ModuleResult { id, outcome });
    }
    out
}

/// Makes chunk-relative `line N:` positions file-relative where the message has them.
fn shift_lines(msg: &str, offset: usize) -> String {
    if offset == 0 {
        return msg.to_string();
    }
    format!("{msg} (chunk starts at file line {})", offset + 1)
}

/// Imports and runs one test module and evaluates its checks.
pub fn run_module(text: &str) -> Result<()> {
    run_module_with(text, false)
}

/// `run_module`, optionally running the pass pipeline (with loop fusion) on the imported
/// module first (a differential test of the passes: results must not change).
pub fn run_module_with(text: &str, optimize: bool) -> Result<()> {
    let module = Arc::new(oxla_stablehlo::parse_module(text)?);
    let mut imported = oxla_stablehlo::import(&module, None)?;
    if optimize {
        let mut m = imported.computation.module().clone();
        oxla_passes::Pipeline::with_fusion().run(&mut m)?;
        imported.computation = oxla_builder::XlaComputation::from_module(m)?;
    }
    let mut interp = Interpreter::new();
    interp.timeout = std::time::Duration::from_secs(5);
    let parallel = imported.parallel.clone();
    let m2 = module.clone();
    let base = interp.clone();
    // run_parallel ops execute in program order; the n-th call uses the n-th table.
    let next = std::sync::atomic::AtomicUsize::new(0);
    interp.register_custom_call("interpreter.run_parallel", move |args| {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let run = parallel
            .get(i)
            .ok_or_else(|| Error::runtime("interpreter.run_parallel: no program table"))?;
        run_parallel_keyed(&m2, &base, run, args)
    });
    let out = interp.run(imported.computation.module(), &[])?;
    evaluate_checks(&imported, &out)
}

/// Imports one test module, compiles it with the JIT and runs it, then evaluates its checks.
/// A module the JIT cannot compile fails with `Error::Unimplemented`.
pub fn run_module_jit(text: &str) -> Result<()> {
    let module = Arc::new(oxla_stablehlo::parse_module(text)?);
    let imported = oxla_stablehlo::import(&module, None)?;
    let devices = imported
        .parallel
        .iter()
        .map(|r| r.programs.len() * r.programs.first().map_or(1, Vec::len))
        .max()
        .unwrap_or(1);
    let client = oxla_runtime::Client::cpu_with(oxla_runtime::ClientOptions {
        devices,
        timeout: std::time::Duration::from_secs(5),
        ..Default::default()
    })?;
    if !imported.parallel.is_empty() {
        // run_parallel ops execute in program order; the n-th call uses the n-th table.
        let parallel = imported.parallel.clone();
        let m2 = module.clone();
        let next = std::sync::atomic::AtomicUsize::new(0);
        client.register_custom_call("interpreter.run_parallel", move |call| {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let run = parallel
                .get(i)
                .ok_or_else(|| Error::runtime("interpreter.run_parallel: no program table"))?;
            run_parallel_jit(&m2, run, call)
        })?;
    }
    // No constant folding: the test inputs are constants, and folding them would run the
    // interpreter instead of the generated code.
    let options = oxla_runtime::CompileOptions {
        fold_constants: false,
        ..Default::default()
    };
    let exe = client.compile(imported.computation.module(), &options)?;
    let out = exe.execute_literals(&[]).map_err(|e| match e {
        // A run-time failure of compiled code is a failure, not an unsupported op.
        Error::Unimplemented(m) => Error::runtime(m),
        e => e,
    })?;
    evaluate_checks(&imported, &out)
}

/// `interpreter.run_parallel` on the JIT: each (replica, partition) program compiled for the
/// grid, infeed values queued on every device, all launched together on the calling client.
fn run_parallel_jit(
    module: &Module,
    run: &oxla_stablehlo::ParallelRun,
    call: &mut oxla_runtime::CustomCallArgs,
) -> Result<()> {
    let client = call.client;
    let replicas = run.programs.len();
    let partitions = run.programs.first().map_or(1, |r| r.len());
    let options = oxla_runtime::CompileOptions {
        fold_constants: false,
        replicas,
        partitions,
        ..Default::default()
    };
    for f in &run.infeed {
        let imp = oxla_stablehlo::import(module, Some(f))?;
        let exe = client.compile(
            imp.computation.module(),
            &oxla_runtime::CompileOptions {
                fold_constants: false,
                ..Default::default()
            },
        )?;
        let vals = exe.execute(&[])?;
        for v in vals {
            for d in 0..replicas * partitions {
                client.infeed(d, v.clone())?;
            }
        }
    }
    let mut exes = Vec::new();
    let mut counts = Vec::new();
    for row in &run.programs {
        for name in row {
            let imp = oxla_stablehlo::import(module, Some(name))?;
            exes.push(client.compile(imp.computation.module(), &options)?);
            counts.push(imp.num_check_outputs);
        }
    }
    let args: Vec<oxla_runtime::Buffer> = call
        .operands
        .iter()
        .map(|v| oxla_runtime::Buffer::from_bytes(v.shape.clone(), v.bytes))
        .collect::<Result<_>>()?;
    let mut launches = Vec::new();
    let mut next = 0usize;
    for (k, exe) in exes.iter().enumerate() {
        let n = exe.argument_count();
        let a: Vec<&oxla_runtime::Buffer> = args
            .get(next..next + n)
            .ok_or_else(|| Error::runtime("run_parallel: not enough inputs"))?
            .iter()
            .collect();
        next += n;
        launches.push(oxla_runtime::Launch {
            executable: exe,
            replica: k / partitions,
            partition: k % partitions,
            args: a,
        });
    }
    let results = client.execute_mpmd(&launches)?;
    let mut flat = Vec::new();
    for (r, skip) in results.into_iter().zip(counts) {
        // Entry outputs are (check outputs..., returns...): programs have no checks.
        flat.extend(r.into_iter().skip(skip));
    }
    if flat.len() != call.results.len() {
        return Err(Error::runtime(format!(
            "run_parallel: {} results for {} outputs",
            flat.len(),
            call.results.len()
        )));
    }
    for (out, b) in call.results.iter_mut().zip(flat) {
        let bytes = b.as_bytes();
        if bytes.len() != out.bytes.len() {
            return Err(Error::runtime("run_parallel: a result's size differs"));
        }
        out.bytes.copy_from_slice(bytes);
    }
    Ok(())
}

/// Runs the programs of an `interpreter.run_parallel` op on a grid.
fn run_parallel_keyed(
    module: &Module,
    interp: &Interpreter,
    run: &oxla_stablehlo::ParallelRun,
    args: &[&Literal],
) -> Result<Literal> {
    let replicas = run.programs.len() as i64;
    let partitions = run.programs.first().map_or(1, |r| r.len()) as i64;
    let grid = Grid::new(replicas, partitions, interp.timeout);
    for f in &run.infeed {
        let imp = oxla_stablehlo::import(module, Some(f))?;
        let v = interp.run(imp.computation.module(), &[])?;
        let vals = match v.tuple_elements() {
            Some(t) => t.to_vec(),
            None => vec![v],
        };
        for val in vals {
            for r in 0..replicas {
                for p in 0..partitions {
                    grid.push_infeed(r, p, val.clone())?;
                }
            }
        }
    }
    let mut modules = Vec::new();
    let mut per_process = Vec::new();
    let mut next = 0usize;
    for row in &run.programs {
        for name in row {
            let imp = oxla_stablehlo::import(module, Some(name))?;
            let n = imp.computation.program_shape().parameters.len();
            let a: Vec<Literal> = args
                .get(next..next + n)
                .ok_or_else(|| Error::runtime("run_parallel: not enough inputs"))?
                .iter()
                .map(|l| (*l).clone())
                .collect();
            next += n;
            per_process.push(a);
            modules.push(imp);
        }
    }
    let results: Vec<Result<Literal>> = std::thread::scope(|s| {
        let handles: Vec<_> = modules
            .iter()
            .zip(&per_process)
            .enumerate()
            .map(|(i, (imp, a))| {
                let grid = &grid;
                let (r, p) = (i as i64 / partitions, i as i64 % partitions);
                s.spawn(move || interp.run_process(grid, imp.computation.module(), r, p, a))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::internal("thread panicked")))
            })
            .collect()
    });
    let mut flat = Vec::new();
    for (r, imp) in results.into_iter().zip(&modules) {
        let r = r?;
        let t = r.tuple_elements().map(|t| t.to_vec()).unwrap_or_default();
        // Entry outputs are (check outputs..., returns...): programs have no checks.
        flat.extend(t.into_iter().skip(imp.num_check_outputs));
    }
    Ok(Literal::tuple(flat))
}

fn evaluate_checks(imp: &Imported, out: &Literal) -> Result<()> {
    let outs = out
        .tuple_elements()
        .ok_or_else(|| Error::internal("entry result is not a tuple"))?;
    for c in &imp.checks {
        let actual = &outs[c.actual];
        let expected = match &c.expected {
            Expected::Literal(l) => l.clone(),
            Expected::Output(i) => outs[*i].clone(),
        };
        check(&c.kind, actual, &expected)
            .map_err(|m| Error::runtime(format!("check at line {} failed: {m}", c.line)))?;
    }
    Ok(())
}

fn bits_of(l: &Literal, i: usize) -> u64 {
    let w = l.element_type().byte_size();
    let b = l.to_le_bytes();
    let mut v = 0u64;
    for k in 0..w.min(8) {
        v |= (b[i * w + k] as u64) << (8 * k);
    }
    v
}

fn ulp_distance(t: PrimitiveType, a: u64, e: u64, av: f64, ev: f64) -> u64 {
    if a == e || (av.is_nan() && ev.is_nan()) {
        return 0;
    }
    if !(av.is_finite() && ev.is_finite()) {
        return u64::MAX;
    }
    oxla_hlo::literal::ulp_distance_bits(a, e, t.bit_width())
}

/// One check op's comparison, element by element.
pub fn check(
    kind: &CheckKind,
    actual: &Literal,
    expected: &Literal,
) -> std::result::Result<(), String> {
    if actual.shape().dims() != expected.shape().dims()
        || actual.element_type() != expected.element_type()
    {
        return Err(format!(
            "shape mismatch: got {}, expected {}",
            actual.shape(),
            expected.shape()
        ));
    }
    let (a, e) = (actual.scalars(), expected.scalars());
    let t = actual.element_type();
    for (i, (x, y)) in a.iter().zip(&e).enumerate() {
        let ok = match kind {
            CheckKind::Eq => match (x, y) {
                (Scalar::Float(p), Scalar::Float(q)) => p == q,
                (Scalar::Complex(p), Scalar::Complex(q)) => p.re == q.re && p.im == q.im,
                _ => x == y,
            },
            CheckKind::AlmostEq(tol) => {
                let close = |p: f64, q: f64| {
                    p == q
                        || (p.is_nan() && q.is_nan())
                        || (p.is_finite() && q.is_finite() && (p - q).abs() <= *tol)
                };
                match (x, y) {
                    (Scalar::Complex(p), Scalar::Complex(q)) => {
                        close(p.re, q.re) && close(p.im, q.im)
                    }
                    _ => close(x.as_f64(), y.as_f64()),
                }
            }
            CheckKind::Close { min_ulp, max_ulp } => {
                let d = if t.is_complex() {
                    // Compare parts as floats of the component type.
                    let (p, q) = (x.as_complex(), y.as_complex());
                    let c = t.component_type();
                    let bits = |v: f64| {
                        if c == PrimitiveType::F32 {
                            (v as f32).to_bits() as u64
                        } else {
                            v.to_bits()
                        }
                    };
                    ulp_distance(c, bits(p.re), bits(q.re), p.re, q.re).max(ulp_distance(
                        c,
                        bits(p.im),
                        bits(q.im),
                        p.im,
                        q.im,
                    ))
                } else {
                    ulp_distance(
                        t,
                        bits_of(actual, i),
                        bits_of(expected, i),
                        x.as_f64(),
                        y.as_f64(),
                    )
                };
                d >= *min_ulp && d <= *max_ulp
            }
        };
        if !ok {
            return Err(format!("element {i}: got {x:?}, expected {y:?}"));
        }
    }
    Ok(())
}
