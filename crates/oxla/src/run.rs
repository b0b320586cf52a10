//! `oxla run`: load a program (StableHLO MLIR or HLO text), read `.npy` arguments, run it,
//! write `.npy` outputs and optionally check them against a bench folder.

use std::path::{Path, PathBuf};
use std::time::Instant;

use oxla_hlo::{Error, HloModule, Literal, Result};
use oxla_interp::Interpreter;

use crate::npy;

/// A loaded program: the module and how many leading outputs are check values.
pub struct Program {
    pub module: HloModule,
    pub skip_outputs: usize,
    /// Whether the entry's result is the tuple of the function's results (MLIR import).
    pub tuple_result: bool,
}

pub fn load_program(path: &Path) -> Result<Program> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    if path.extension().is_some_and(|e| e == "hlo" || e == "txt")
        || text.trim_start().starts_with("HloModule")
    {
        let module = oxla_hlo::text::parse_module(&text)?;
        oxla_hlo::verify_module(&module)?;
        return Ok(Program {
            module,
            skip_outputs: 0,
            tuple_result: false,
        });
    }
    let m = oxla_stablehlo::parse_module(&text)?;
    let imp = oxla_stablehlo::import(&m, None)?;
    Ok(Program {
        skip_outputs: imp.num_check_outputs,
        module: imp.computation.into_module(),
        tuple_result: true,
    })
}

/// Checks argument count, shapes and types against the entry signature.
pub fn check_arguments(module: &HloModule, args: &[Literal]) -> Result<()> {
    let ps = module.entry_program_shape();
    if ps.parameters.len() != args.len() {
        return Err(Error::invalid(format!(
            "the program takes {} argument(s), {} given",
            ps.parameters.len(),
            args.len()
        )));
    }
    for (i, (p, a)) in ps.parameters.iter().zip(args).enumerate() {
        if !p.without_layout().compatible(&a.shape().without_layout()) {
            return Err(Error::invalid(format!(
                "argument {i}: expected {}, got {}",
                p.without_layout(),
                a.shape()
            )));
        }
    }
    Ok(())
}

pub fn execute(p: &Program, args: &[Literal]) -> Result<Vec<Literal>> {
    execute_on(p, args, false)
}

/// Runs `p` on the interpreter or (with `jit`) compiled by the JIT.
pub fn execute_on(p: &Program, args: &[Literal], jit: bool) -> Result<Vec<Literal>> {
    check_arguments(&p.module, args)?;
    let out = if jit {
        let client = oxla_runtime::Client::cpu()?;
        let exe = client.compile(&p.module, &oxla_runtime::CompileOptions::default())?;
        exe.execute_literals(args)?
    } else {
        Interpreter::new().run(&p.module, args)?
    };
    Ok(if p.tuple_result {
        out.tuple_elements()
            .map(|t| t[p.skip_outputs..].to_vec())
            .unwrap_or_default()
    } else {
        vec![out]
    })
}

/// Arguments `arg0.npy, arg1.npy, ...` of a bench folder.
pub fn folder_args(dir: &Path) -> Result<Vec<Literal>> {
    let mut v = Vec::new();
    for i in 0.. {
        let p = dir.join(format!("arg{i}.npy"));
        if !p.exists() {
            break;
        }
        v.push(npy::read(&p)?);
    }
    Ok(v)
}

/// Per output: its index, the largest absolute error, and the verdict.
pub type OutputCheck = (usize, f64, std::result::Result<(), String>);

type Part = (&'static str, fn(&oxla_hlo::literal::Scalar) -> f64);

/// The largest error of each output against the expected files of `dir`, following its
/// meta.json (strided samples, tolerances, checksums) when present.
pub fn check_outputs(dir: &Path, outs: &[Literal]) -> Result<Vec<OutputCheck>> {
    let meta: Option<serde_json::Value> = std::fs::read_to_string(dir.join("meta.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let exact = meta
        .as_ref()
        .and_then(|m| m["exact"].as_bool())
        .unwrap_or(false);
    let mut res = Vec::new();
    for (k, actual) in outs.iter().enumerate() {
        let p = dir.join(format!("out{k}.npy"));
        if !p.exists() {
            res.push((k, 0.0, Err(format!("{} is missing", p.display()))));
            continue;
        }
        let expected = npy::read(&p)?;
        let om = meta.as_ref().map(|m| m["outputs"][k].clone());
        let num = |key: &str, d: f64| om.as_ref().and_then(|o| o[key].as_f64()).unwrap_or(d);
        let stride = num("stride", 1.0).max(1.0) as usize;
        let (rtol, atol) = (num("rtol", 1e-5), num("atol", 1e-5));
        let a = actual.scalars();
        let e = expected.scalars();
        let sample: Vec<_> = a.iter().step_by(stride).copied().collect();
        if sample.len() != e.len() {
            res.push((
                k,
                0.0,
                Err(format!(
                    "expected {} sampled values, got {}",
                    e.len(),
                    sample.len()
                )),
            ));
            continue;
        }
        let mut max_err = 0f64;
        let mut verdict = Ok(());
        let integer = actual.element_type().is_integer() || actual.element_type().is_pred();
        for (i, (x, y)) in sample.iter().zip(&e).enumerate() {
            let (d, mag) = match (x, y) {
                (oxla_hlo::literal::Scalar::Complex(p), oxla_hlo::literal::Scalar::Complex(q)) => {
                    ((p - q).norm(), q.norm())
                }
                _ => ((x.as_f64() - y.as_f64()).abs(), y.as_f64().abs()),
            };
            let d = if d.is_nan() && x.as_f64().is_nan() && y.as_f64().is_nan() {
                0.0
            } else {
                d
            };
            max_err = max_err.max(d);
            let ok = if integer {
                d == 0.0
            } else {
                d <= atol + rtol * mag
            };
            if !ok && verdict.is_ok() {
                verdict = Err(format!(
                    "output {k} sample {i} (flat index {}): got {x:?}, expected {y:?}",
                    i * stride
                ));
            }
        }
        // Full-output checksums catch errors between the samples.
        if verdict.is_ok() {
            if let Some(o) = &om {
                let ctol = if exact { 1e-9 } else { 1e-5 };
                let parts: Vec<Part> = if actual.element_type().is_complex() {
                    vec![
                        ("real_", |s| s.as_complex().re),
                        ("imag_", |s| s.as_complex().im),
                    ]
                } else {
                    vec![("", |s| s.as_f64())]
                };
                for (prefix, f) in parts {
                    let vals: Vec<f64> = a.iter().map(f).collect();
                    let sums = [
                        ("sum", vals.iter().sum::<f64>()),
                        ("abs_sum", vals.iter().map(|v| v.abs()).sum()),
                        ("sq_sum", vals.iter().map(|v| v * v).sum()),
                    ];
                    for (key, got) in sums {
                        if let Some(want) = o[format!("{prefix}{key}")].as_f64() {
                            let scale = o[format!("{prefix}abs_sum")]
                                .as_f64()
                                .unwrap_or(want.abs())
                                .max(1e-30);
                            if (got - want).abs() > ctol * scale.max(want.abs()) && verdict.is_ok()
                            {
                                verdict = Err(format!(
                                    "output {k}: checksum {prefix}{key} is {got}, expected {want}"
                                ));
                            }
                        }
                    }
                }
            }
        }
        res.push((k, max_err, verdict));
    }
    Ok(res)
}

/// The `oxla run` command.
pub fn command(args: &[String]) -> Result<bool> {
    let program = PathBuf::from(&args[0]);
    let mut inputs = Vec::new();
    let (mut out_dir, mut check_dir, mut npz) = (None, None, None);
    // None: the JIT, falling back to the interpreter for programs it cannot compile yet.
    let mut jit: Option<bool> = None;
    let mut i = 1;
    while i < args.len() {
        let val = args.get(i + 1).cloned();
        let need = || {
            val.clone()
                .ok_or_else(|| Error::invalid(format!("{} needs a value", args[i])))
        };
        match args[i].as_str() {
            "--input" => inputs.push(PathBuf::from(need()?)),
            "--inputs" => npz = Some(PathBuf::from(need()?)),
            "--out" => out_dir = Some(PathBuf::from(need()?)),
            "--check" => check_dir = Some(PathBuf::from(need()?)),
            "--backend" => match need()?.as_str() {
                "interp" => jit = Some(false),
                "jit" => jit = Some(true),
                b => {
                    return Err(Error::invalid(format!(
                        "backend '{b}': expected 'interp' or 'jit'"
                    )))
                }
            },
            a => return Err(Error::invalid(format!("unknown option {a}"))),
        }
        i += 2;
    }
    let t0 = Instant::now();
    let p = load_program(&program)?;
    let load_ms = t0.elapsed().as_secs_f64() * 1e3;
    let args_l: Vec<Literal> = if let Some(z) = &npz {
        // Arrays in archive order (np.savez names positional arrays arr_0, arr_1, ...).
        let mut v = npy::read_npz(z)?;
        v.extend(
            inputs
                .iter()
                .map(|p| npy::read(p).map(|l| (String::new(), l)))
                .collect::<Result<Vec<_>>>()?,
        );
        v.into_iter().map(|(_, l)| l).collect()
    } else if inputs.is_empty() {
        match &check_dir {
            Some(d) => folder_args(d)?,
            None => vec![],
        }
    } else {
        inputs.iter().map(|p| npy::read(p)).collect::<Result<_>>()?
    };
    let t1 = Instant::now();
    let (outs, jit) = match jit {
        Some(j) => (execute_on(&p, &args_l, j)?, j),
        None => match execute_on(&p, &args_l, true) {
            Ok(o) => (o, true),
            Err(Error::Unimplemented(m)) => {
                eprintln!("note: {m}; running on the interpreter instead");
                (execute_on(&p, &args_l, false)?, false)
            }
            Err(e) => return Err(e),
        },
    };
    let run_ms = t1.elapsed().as_secs_f64() * 1e3;
    println!(
        "{}: loaded in {load_ms:.1} ms, ran on the {} in {run_ms:.1} ms",
        program.display(),
        if jit {
            "JIT (compile included)"
        } else {
            "interpreter"
        }
    );
    for (k, o) in outs.iter().enumerate() {
        println!("  out{k}: {}", o.shape());
    }
    if let Some(d) = out_dir {
        std::fs::create_dir_all(&d)
            .map_err(|e| Error::invalid(format!("cannot create {}: {e}", d.display())))?;
        for (k, o) in outs.iter().enumerate() {
            let f = d.join(format!("out{k}.npy"));
            std::fs::write(&f, npy::to_bytes(o)?)
                .map_err(|e| Error::invalid(format!("cannot write {}: {e}", f.display())))?;
        }
    }
    let mut ok = true;
    if let Some(d) = check_dir {
        for (k, err, verdict) in check_outputs(&d, &outs)? {
            match verdict {
                Ok(()) => println!("  out{k}: ok (max abs error {err:e})"),
                Err(m) => {
                    ok = false;
                    println!("  out{k}: MISMATCH: {m} (max abs error {err:e})");
                }
            }
        }
    }
    Ok(ok)
}
