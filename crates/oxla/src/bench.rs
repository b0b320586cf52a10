//! `oxla bench DIR`: compile and time every workload folder of a bench directory on the JIT,
//! check its outputs against the expected files, and report compile time, median run time,
//! GFLOPS or GB/s (from meta.json), peak arena bytes and the check verdict.
//!
//! Compile time is parse, import and compile of the text already read, on a client warmed by
//! a trivial program: what the anchor scripts time as XLA's `compile_and_load`. The outputs
//! of the program's warm-up run and of its last timed run are both checked, since later runs
//! may take other paths (argument weights' kept GEMM packings).

use std::path::{Path, PathBuf};
use std::time::Instant;

use oxla_hlo::{Error, Literal, Result};
use oxla_runtime::{Buffer, Client, CompileOptions, Executable};

use crate::run::{check_outputs, folder_args, program_from_bytes, read_program, Program};

#[derive(Debug, Clone)]
/// One workload's bench result.
pub struct Row {
    /// The workload (folder name).
    pub name: String,
    /// Compile time (None: it did not compile).
    pub compile_ms: Option<f64>,
    /// Median run time.
    pub run_ms: Option<f64>,
    /// How many timed runs.
    pub runs: usize,
    /// `GFLOPS` or `GB/s` (from meta.json).
    pub metric: Option<String>,
    /// The rate in that metric.
    pub rate: Option<f64>,
    /// Peak arena bytes of one run.
    pub peak_bytes: Option<usize>,
    /// `ok`, or what failed.
    pub check: String,
}

impl Row {
    fn failed(name: &str, why: String) -> Row {
        Row {
            name: name.to_string(),
            compile_ms: None,
            run_ms: None,
            runs: 0,
            metric: None,
            rate: None,
            peak_bytes: None,
            check: why,
        }
    }

    /// The row as `--json` writes it.
    pub fn to_json(&self) -> serde_json::Value {
        let mut o = serde_json::json!({
            "name": self.name,
            "compile_ms": self.compile_ms,
            "run_ms": self.run_ms,
            "runs": self.runs,
            "peak_bytes": self.peak_bytes,
            "check": self.check,
        });
        match self.metric.as_deref() {
            Some("GFLOPS") => o["gflops"] = serde_json::json!(self.rate),
            Some("GB/s") => o["gbs"] = serde_json::json!(self.rate),
            _ => {}
        }
        o
    }
}

/// The workload folders under `dir` (or `dir` itself when it holds a program).
pub fn workloads(dir: &Path) -> Result<Vec<PathBuf>> {
    if dir.join("program.mlir").exists() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("program.mlir").exists())
        .collect();
    v.sort();
    Ok(v)
}

fn outputs(p: &Program, exe: &Executable, args: &[&Buffer]) -> Result<Vec<Buffer>> {
    Ok(entry_outputs(p, exe.execute(args)?))
}

/// The workload's outputs among an execution's results `out`.
fn entry_outputs(p: &Program, out: Vec<Buffer>) -> Vec<Buffer> {
    if p.tuple_result {
        out.into_iter().skip(p.skip_outputs).collect()
    } else {
        out
    }
}

/// A trivial program, `x * 2 + 1`, as the anchor scripts jit one before timing XLA's compile,
/// with a second result of another shape (`x` broadcast to 64 elements, times 3): two
/// kernels, so that compiling them also runs on a worker thread of the pool, as every later
/// compile does. With one kernel the worker's first compile fell in the timed one
/// (reduce_sum, two kernels: 0.9-1.2 ms, Cranelift's wall 0.65 ms against 0.29 for its
/// slowest kernel; warm, 0.27 ms).
const WARM_UP: &str = "func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<64xf32>) {
  %0 = stablehlo.constant dense<2.0> : tensor<f32>
  %1 = stablehlo.multiply %arg0, %0 : tensor<f32>
  %2 = stablehlo.constant dense<1.0> : tensor<f32>
  %3 = stablehlo.add %1, %2 : tensor<f32>
  %4 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %5 = stablehlo.constant dense<3.0> : tensor<64xf32>
  %6 = stablehlo.multiply %4, %5 : tensor<64xf32>
  return %3, %6 : tensor<f32>, tensor<64xf32>
}";

/// Imports, compiles and runs [`WARM_UP`] so that the timed compile measures the workload,
/// not the first touch of the compiler's code and worker threads: the same footing the
/// anchors give XLA.
fn warm_up(client: &Client) -> Result<()> {
    let p = program_from_bytes(Path::new("warm_up.mlir"), WARM_UP.as_bytes())?;
    let exe = client.compile(&p.module, &CompileOptions::default())?;
    let x = Buffer::from_literal(&Literal::scalar(1.0f32))?;
    let out = exe.execute(&[&x])?;
    let v = out
        .first()
        .map(|b| b.to_literal())
        .transpose()?
        .and_then(|l| l.to_f64s().first().copied());
    if v != Some(3.0) {
        return Err(Error::internal(format!(
            "warm-up program returned {v:?}, not 3"
        )));
    }
    Ok(())
}

/// Benchmarks one workload folder.
pub fn bench_one(dir: &Path, min_time_s: f64, max_runs: usize) -> Row {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    match bench_inner(dir, &name, min_time_s, max_runs) {
        Ok(r) => r,
        Err(e) => Row::failed(&name, e.to_string()),
    }
}

fn bench_inner(dir: &Path, name: &str, min_time_s: f64, max_runs: usize) -> Result<Row> {
    let path = dir.join("program.mlir");
    let bytes = read_program(&path)?;
    let args = folder_args(dir)?;
    let meta: Option<serde_json::Value> = std::fs::read_to_string(dir.join("meta.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let client = Client::cpu()?;
    warm_up(&client)?;
    // Timed as the anchors time XLA's `compile_and_load` of the same text: parse, import and
    // compile, with the file already read and the client warmed.
    let t0 = Instant::now();
    let p = program_from_bytes(&path, &bytes)?;
    let exe = match client.compile(&p.module, &CompileOptions::default()) {
        Ok(e) => e,
        Err(e) => return Ok(Row::failed(name, format!("compile: {e}"))),
    };
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let bufs = args
        .iter()
        .map(Buffer::from_literal)
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Buffer> = bufs.iter().collect();
    // The warm-up run's outputs and the last timed run's are checked: later runs may take
    // other paths (argument weights' kept GEMM packings).
    let failures = |outs: &[Buffer], run: &str| -> Result<Vec<String>> {
        let lits = outs
            .iter()
            .map(|b| b.to_literal())
            .collect::<Result<Vec<Literal>>>()?;
        Ok(check_outputs(dir, &lits)?
            .iter()
            .filter_map(|(k, _, v)| v.as_ref().err().map(|m| format!("{run} out{k}: {m}")))
            .collect())
    };
    let mut bad = failures(&outputs(&p, &exe, &refs)?, "first run")?;
    let mut times = Vec::new();
    let mut last = Vec::new();
    let start = Instant::now();
    while times.len() < max_runs && (times.len() < 3 || start.elapsed().as_secs_f64() < min_time_s)
    {
        // The previous run's outputs are freed first, as a caller that drops them would.
        drop(std::mem::take(&mut last));
        let t = Instant::now();
        last = exe.execute(&refs)?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    bad.extend(failures(&entry_outputs(&p, last), "last run")?);
    let check = if bad.is_empty() {
        "ok".to_string()
    } else {
        format!("mismatch ({})", bad.join("; "))
    };
    times.sort_by(|a, b| a.total_cmp(b));
    let run_ms = times[times.len() / 2];
    let metric = meta
        .as_ref()
        .and_then(|m| m["metric"].as_str())
        .map(str::to_string);
    let rate = match metric.as_deref() {
        Some("GFLOPS") => meta
            .as_ref()
            .and_then(|m| m["flops"].as_f64())
            .map(|f| f / 1e9 / (run_ms / 1e3)),
        Some("GB/s") => meta
            .as_ref()
            .and_then(|m| m["bytes_moved_min"].as_f64())
            .map(|b| b / 1e9 / (run_ms / 1e3)),
        _ => None,
    };
    Ok(Row {
        name: name.to_string(),
        compile_ms: Some(compile_ms),
        run_ms: Some(run_ms),
        runs: times.len(),
        metric,
        rate,
        peak_bytes: Some(exe.peak_bytes()),
        check,
    })
}

/// Prints the rows as a table.
pub fn print_table(rows: &[Row]) {
    println!(
        "{:<24} {:>10} {:>10} {:>6} {:>14} {:>12}  check",
        "workload", "compile_ms", "run_ms", "runs", "rate", "peak_bytes"
    );
    for r in rows {
        let f = |x: Option<f64>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into());
        let rate = match (r.rate, r.metric.as_deref()) {
            (Some(v), Some(m)) => format!("{v:.1} {m}"),
            _ => "-".into(),
        };
        let mut check = r.check.replace('\n', " ");
        if check.len() > 140 {
            check.truncate(140);
            check.push('…');
        }
        println!(
            "{:<24} {:>10} {:>10} {:>6} {:>14} {:>12}  {}",
            r.name,
            f(r.compile_ms),
            f(r.run_ms),
            r.runs,
            rate,
            r.peak_bytes
                .map(|b| b.to_string())
                .unwrap_or_else(|| "-".into()),
            check
        );
    }
}
