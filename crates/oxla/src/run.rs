//! `oxla run`: load a program (StableHLO MLIR or HLO text), read `.npy` arguments, run it,
//! write `.npy` outputs and optionally check them against a bench folder.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use oxla_hlo::{Error, HloModule, Literal, Op, Result, Shape};
use oxla_interp::Interpreter;

use crate::npy;

/// A loaded program: the module and how many leading outputs are check values.
pub struct Program {
    pub module: HloModule,
    pub skip_outputs: usize,
    /// Whether the entry's result is the tuple of the function's results (MLIR import).
    pub tuple_result: bool,
}

/// Loads a program: HLO text, StableHLO MLIR text, a portable artifact (MLIR bytecode, e.g.
/// `.mlirbc`) or a `jax.export` serialization (`.jax_export`).
pub fn load_program(path: &Path) -> Result<Program> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    let binary = path
        .extension()
        .is_some_and(|e| e == "mlirbc" || e == "jax_export" || e == "bc");
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) if !binary && !bytes.starts_with(oxla_stablehlo::bytecode::MAGIC) => t,
        _ => {
            let m = oxla_stablehlo::parse_program(&bytes)?;
            let imp = oxla_stablehlo::import(&m, None)?;
            return Ok(Program {
                skip_outputs: imp.num_check_outputs,
                module: imp.computation.into_module(),
                tuple_result: true,
            });
        }
    };
    if path.extension().is_some_and(|e| e == "hlo" || e == "txt")
        || text.trim_start().starts_with("HloModule")
    {
        let module = oxla_hlo::text::parse_module(text)?;
        oxla_hlo::verify_module(&module)?;
        return Ok(Program {
            module,
            skip_outputs: 0,
            tuple_result: false,
        });
    }
    let m = oxla_stablehlo::parse_module(text)?;
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

/// `args` for the entry's parameters other than tokens, with a token literal inserted for
/// each token parameter (arguments that already include the tokens are taken as they are).
pub fn with_tokens(module: &HloModule, args: &[Literal]) -> Result<Vec<Literal>> {
    let params = module.entry_program_shape().parameters;
    let data = params.iter().filter(|s| !s.is_token()).count();
    if args.len() != data {
        if args.len() == params.len() {
            return Ok(args.to_vec());
        }
        return Err(Error::invalid(format!(
            "the program takes {data} argument(s), {} given",
            args.len()
        )));
    }
    let mut it = args.iter();
    Ok(params
        .iter()
        .map(|s| match s.is_token() {
            true => Literal::token(),
            false => it.next().cloned().unwrap_or_else(Literal::token),
        })
        .collect())
}

/// Runs `p` on the interpreter or (with `jit`) compiled by the JIT, as one process.
pub fn execute_on(p: &Program, args: &[Literal], jit: bool) -> Result<Vec<Literal>> {
    let args = with_tokens(&p.module, args)?;
    check_arguments(&p.module, &args)?;
    let out = if jit {
        let client = oxla_runtime::Client::cpu()?;
        let exe = client.compile(&p.module, &oxla_runtime::CompileOptions::default())?;
        exe.execute_literals(&args)?
    } else {
        Interpreter::new().run(&p.module, &args)?
    };
    Ok(outputs_of(p, out))
}

/// The outputs of one process's result: the function results of an imported MLIR program
/// (its check outputs left out), or the leaves of a tuple result in order; tokens dropped.
pub fn outputs_of(p: &Program, out: Literal) -> Vec<Literal> {
    let mut v = Vec::new();
    match (p.tuple_result, out.tuple_elements()) {
        (true, Some(t)) => t
            .iter()
            .skip(p.skip_outputs)
            .for_each(|e| flatten(e, &mut v)),
        (true, None) => {}
        (false, Some(_)) => flatten(&out, &mut v),
        (false, None) if out.shape().is_token() => {}
        (false, None) => v.push(out),
    }
    v
}

/// The arrays of `l` in order (a tuple's leaves, tokens dropped), appended to `v`.
fn flatten(l: &Literal, v: &mut Vec<Literal>) {
    match l.tuple_elements() {
        Some(t) => t.iter().for_each(|e| flatten(e, v)),
        None if l.shape().is_token() => {}
        None => v.push(l.clone()),
    }
}

/// A run of a program on a replica × partition grid: the process layout `oxla run` uses,
/// on either backend.
pub struct GridRun {
    pub replicas: usize,
    pub partitions: usize,
    /// Per process, replica-major (`replica * partitions + partition`), its arguments
    /// (token parameters left out).
    pub args: Vec<Vec<Literal>>,
    /// Items pushed in order on every device's infeed before the run (a tuple literal is
    /// one tuple item).
    pub infeed: Vec<Literal>,
    /// How long a collective, infeed or outfeed waits before failing.
    pub timeout: Duration,
}

/// What a [`GridRun`] gave.
pub struct GridOutcome {
    /// Per process (replica-major), its outputs (as [`outputs_of`]).
    pub outputs: Vec<Vec<Literal>>,
    /// Per device (`partition * replicas + replica`), what its program wrote to the outfeed,
    /// in order.
    pub outfeed: Vec<Vec<Literal>>,
    /// Per device, infeed items the program did not read (known on the JIT only).
    pub infeed_left: Option<Vec<usize>>,
}

impl GridRun {
    pub fn processes(&self) -> usize {
        self.replicas * self.partitions
    }

    /// The device of process `i` (replica-major), as `DeviceAssignment::default_for`.
    pub fn device_of(&self, i: usize) -> usize {
        let (r, q) = (i / self.partitions, i % self.partitions);
        q * self.replicas + r
    }

    /// `r{R}p{P}`: the folder name of process `i` (replica-major).
    pub fn process_name(&self, i: usize) -> String {
        format!("r{}p{}", i / self.partitions, i % self.partitions)
    }
}

/// The distinct shapes the program writes to the outfeed (the operands of its `outfeed`
/// instructions, in program order), layouts dropped.
pub fn outfeed_shapes(m: &HloModule) -> Vec<Shape> {
    let mut v: Vec<Shape> = Vec::new();
    for c in &m.computations {
        for ins in &c.instructions {
            if let Op::Outfeed { .. } = ins.op {
                if let Some(x) = ins.operands.first() {
                    let s = c.instr(*x).shape.without_layout();
                    if !v.contains(&s) {
                        v.push(s);
                    }
                }
            }
        }
    }
    v
}

/// Runs `p` on every process of `g`'s grid, on the JIT or the interpreter.
pub fn run_grid(p: &Program, g: &GridRun, jit: bool) -> Result<GridOutcome> {
    let n = g.processes();
    if g.args.len() != n {
        return Err(Error::invalid(format!(
            "{} argument list(s) for {} replica(s) × {} partition(s)",
            g.args.len(),
            g.replicas,
            g.partitions
        )));
    }
    let args: Vec<Vec<Literal>> = g
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let full = with_tokens(&p.module, a).and_then(|full| {
                check_arguments(&p.module, &full)?;
                Ok(full)
            });
            match n {
                1 => full,
                _ => full.map_err(|e| e.context(format!("process {}", g.process_name(i)))),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    if jit {
        run_grid_jit(p, g, &args)
    } else {
        run_grid_interp(p, g, &args)
    }
}

fn run_grid_jit(p: &Program, g: &GridRun, args: &[Vec<Literal>]) -> Result<GridOutcome> {
    use oxla_runtime::{Buffer, Client, ClientOptions, CompileOptions};
    let n = g.processes();
    let client = Client::cpu_with(ClientOptions {
        devices: n,
        timeout: g.timeout,
        ..Default::default()
    })?;
    let exe = client.compile(
        &p.module,
        &CompileOptions {
            replicas: g.replicas,
            partitions: g.partitions,
            ..Default::default()
        },
    )?;
    let bufs: Vec<Vec<Buffer>> = args
        .iter()
        .map(|a| {
            a.iter()
                .filter(|l| !l.shape().is_token())
                .map(Buffer::from_literal)
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<_>>()?;
    for d in 0..n {
        for item in &g.infeed {
            match item.tuple_elements() {
                Some(t) => client.infeed_tuple(
                    d,
                    t.iter().map(Buffer::from_literal).collect::<Result<_>>()?,
                )?,
                None => client.infeed(d, Buffer::from_literal(item)?)?,
            }
        }
    }
    let refs: Vec<Vec<&Buffer>> = bufs.iter().map(|a| a.iter().collect()).collect();
    let results = exe.execute_sharded(&refs)?;
    let outputs = results
        .into_iter()
        .map(|o| Ok(outputs_of(p, exe.to_literal(o)?)))
        .collect::<Result<Vec<_>>>()?;
    let shapes = outfeed_shapes(&p.module);
    let mut outfeed = Vec::new();
    let mut left = Vec::new();
    for d in 0..n {
        let mut items = Vec::new();
        while client.outfeed_len(d)? > 0 {
            // The queue holds items, so these do not wait; an item of another shape stays
            // queued and is an error, so each of the program's shapes is tried in turn.
            let item = shapes.iter().find_map(|s| match s.is_tuple() {
                true => client.outfeed_tuple(d, s).ok().map(|b| {
                    b.iter()
                        .map(Buffer::to_literal)
                        .collect::<Result<Vec<_>>>()
                        .map(Literal::tuple)
                }),
                false => client.outfeed(d, s).ok().map(|b| b.to_literal()),
            });
            let Some(l) = item else {
                let shapes: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
                return Err(Error::internal(format!(
                    "outfeed of device {d}: an item matches none of the program's outfeed \
                     shapes ({})",
                    shapes.join(", ")
                )));
            };
            items.push(l?);
        }
        outfeed.push(items);
        left.push(client.infeed_len(d)?);
    }
    Ok(GridOutcome {
        outputs,
        outfeed,
        infeed_left: Some(left),
    })
}

fn run_grid_interp(p: &Program, g: &GridRun, args: &[Vec<Literal>]) -> Result<GridOutcome> {
    let (r, q) = (g.replicas as i64, g.partitions as i64);
    let mut m = p.module.clone();
    m.config.num_replicas = r;
    m.config.num_partitions = q;
    let grid = oxla_interp::Grid::new(r, q, g.timeout);
    for i in 0..g.processes() as i64 {
        for item in &g.infeed {
            grid.push_infeed(i / q, i % q, item.clone())?;
        }
    }
    let mut interp = Interpreter::new();
    interp.timeout = g.timeout;
    let results = interp.run_grid(&grid, &m, args)?;
    let outputs = results.into_iter().map(|o| outputs_of(p, o)).collect();
    // Outfeeds by device (partition * replicas + replica), as on the JIT.
    let mut outfeed = Vec::new();
    for d in 0..g.processes() as i64 {
        outfeed.push(grid.drain_outfeed(d % r, d / r)?);
    }
    Ok(GridOutcome {
        outputs,
        outfeed,
        infeed_left: None,
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

/// The `oxla run` command's options.
#[derive(Default)]
struct Options {
    inputs: Vec<PathBuf>,
    npz: Option<PathBuf>,
    input_dir: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    check_dir: Option<PathBuf>,
    /// None: the JIT, falling back to the interpreter for programs it cannot compile yet.
    jit: Option<bool>,
    replicas: Option<usize>,
    partitions: Option<usize>,
    infeed: Vec<String>,
    timeout: Option<Duration>,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut o = Options::default();
    let mut i = 1;
    while i < args.len() {
        let flag = args[i].as_str();
        let val = args
            .get(i + 1)
            .cloned()
            .ok_or_else(|| Error::invalid(format!("{flag} needs a value")));
        let count = |v: String| -> Result<usize> {
            v.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                Error::invalid(format!("{flag}: expected a positive count, got '{v}'"))
            })
        };
        match flag {
            "--input" => o.inputs.push(PathBuf::from(val?)),
            "--inputs" => o.npz = Some(PathBuf::from(val?)),
            "--input-dir" => o.input_dir = Some(PathBuf::from(val?)),
            "--out" => o.out_dir = Some(PathBuf::from(val?)),
            "--check" => o.check_dir = Some(PathBuf::from(val?)),
            "--replicas" => o.replicas = Some(count(val?)?),
            "--partitions" => o.partitions = Some(count(val?)?),
            "--infeed" => o.infeed.push(val?),
            "--timeout" => {
                let v = val?;
                let secs = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| {
                        Error::invalid(format!("--timeout: expected seconds, got '{v}'"))
                    })?;
                o.timeout = Some(Duration::from_secs_f64(secs));
            }
            "--backend" => match val?.as_str() {
                "interp" => o.jit = Some(false),
                "jit" => o.jit = Some(true),
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
    if o.input_dir.is_some() && (!o.inputs.is_empty() || o.npz.is_some()) {
        return Err(Error::invalid(
            "--input-dir gives every process its own arguments: it cannot be combined with \
             --input or --inputs",
        ));
    }
    Ok(o)
}

/// The grid size: the flags, else the module's own replica and partition counts. A module
/// that declares more than one replica (or partition) runs on exactly that many.
fn grid_size(m: &HloModule, o: &Options) -> Result<(usize, usize)> {
    let pick = |flag: Option<usize>, declared: i64, what: &str| -> Result<usize> {
        let declared = declared.max(1) as usize;
        match flag {
            Some(n) if declared > 1 && n != declared => Err(Error::invalid(format!(
                "the program is written for {declared} {what}s (its module config) but \
                 --{what}s {n} was given"
            ))),
            Some(n) => Ok(n),
            None => Ok(declared),
        }
    };
    Ok((
        pick(o.replicas, m.config.num_replicas, "replica")?,
        pick(o.partitions, m.config.num_partitions, "partition")?,
    ))
}

/// `DIR/r{R}p{P}` for every process of a `replicas` × `partitions` grid (replica-major),
/// each checked to exist; a `r{R}p{P}` folder for a process outside the grid is an error too.
fn process_dirs(dir: &Path, replicas: usize, partitions: usize) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", dir.display())))?;
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().to_string();
        let Some((r, p)) = name
            .strip_prefix('r')
            .and_then(|t| t.split_once('p'))
            .and_then(|(r, p)| Some((r.parse::<usize>().ok()?, p.parse::<usize>().ok()?)))
        else {
            continue;
        };
        if r >= replicas || p >= partitions {
            return Err(Error::invalid(format!(
                "{} is for replica {r} partition {p}, outside the {replicas} replica(s) × \
                 {partitions} partition(s) being run",
                e.path().display()
            )));
        }
    }
    (0..replicas * partitions)
        .map(|i| {
            let d = dir.join(format!("r{}p{}", i / partitions, i % partitions));
            if d.is_dir() {
                Ok(d)
            } else {
                Err(Error::invalid(format!(
                    "{} is missing: {replicas} replica(s) × {partitions} partition(s) need a \
                     folder r{{R}}p{{P}} per process",
                    d.display()
                )))
            }
        })
        .collect()
}

/// An `--infeed` value: `a.npy` is an array item, `a.npy,b.npy` a tuple item.
fn infeed_item(spec: &str) -> Result<Literal> {
    if !spec.contains(',') {
        return npy::read(Path::new(spec));
    }
    let leaves = spec
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|f| npy::read(Path::new(f)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Literal::tuple(leaves))
}

fn write_npy(path: &Path, l: &Literal) -> Result<()> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::invalid(format!("cannot create {}: {e}", d.display())))?;
    }
    std::fs::write(path, npy::to_bytes(l)?)
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
}

/// The `oxla run` command.
pub fn command(args: &[String]) -> Result<bool> {
    let program = PathBuf::from(
        args.first()
            .ok_or_else(|| Error::invalid("oxla run: no program given"))?,
    );
    let o = parse_options(args)?;
    let t0 = Instant::now();
    let p = load_program(&program)?;
    let load_ms = t0.elapsed().as_secs_f64() * 1e3;
    let (replicas, partitions) = grid_size(&p.module, &o)?;
    let n = replicas * partitions;
    let single = n == 1;
    // One folder per process for a grid; the folder itself for one process.
    let check_dirs: Option<Vec<PathBuf>> = match &o.check_dir {
        Some(d) if single => Some(vec![d.clone()]),
        Some(d) => Some(process_dirs(d, replicas, partitions)?),
        None => None,
    };
    let shared_args: Vec<Literal> = if let Some(z) = &o.npz {
        // Arrays in archive order (np.savez names positional arrays arr_0, arr_1, ...).
        let mut v = npy::read_npz(z)?;
        v.extend(
            o.inputs
                .iter()
                .map(|p| npy::read(p).map(|l| (String::new(), l)))
                .collect::<Result<Vec<_>>>()?,
        );
        v.into_iter().map(|(_, l)| l).collect()
    } else {
        o.inputs
            .iter()
            .map(|p| npy::read(p))
            .collect::<Result<_>>()?
    };
    let process_args: Vec<Vec<Literal>> = if let Some(d) = &o.input_dir {
        process_dirs(d, replicas, partitions)?
            .iter()
            .map(|d| folder_args(d))
            .collect::<Result<_>>()?
    } else if o.inputs.is_empty() && o.npz.is_none() {
        match &check_dirs {
            Some(ds) => ds.iter().map(|d| folder_args(d)).collect::<Result<_>>()?,
            None => vec![vec![]; n],
        }
    } else {
        vec![shared_args; n]
    };
    let g = GridRun {
        replicas,
        partitions,
        args: process_args,
        infeed: o
            .infeed
            .iter()
            .map(|s| infeed_item(s))
            .collect::<Result<_>>()?,
        timeout: o.timeout.unwrap_or(Duration::from_secs(10)),
    };
    let t1 = Instant::now();
    let (res, jit) = match o.jit {
        Some(j) => (run_grid(&p, &g, j)?, j),
        None => match run_grid(&p, &g, true) {
            Ok(r) => (r, true),
            Err(Error::Unimplemented(m)) => {
                eprintln!("note: {m}; running on the interpreter instead");
                (run_grid(&p, &g, false)?, false)
            }
            Err(e) => return Err(e),
        },
    };
    let run_ms = t1.elapsed().as_secs_f64() * 1e3;
    println!(
        "{}: loaded in {load_ms:.1} ms, ran{} on the {} in {run_ms:.1} ms",
        program.display(),
        if single {
            String::new()
        } else {
            format!(" {replicas} replica(s) × {partitions} partition(s)")
        },
        if jit {
            "JIT (compile included)"
        } else {
            "interpreter"
        }
    );
    // Outputs: DIR/out{K}.npy for one process, DIR/r{R}p{P}/out{K}.npy for a grid.
    let sub = |i: usize| match single {
        true => PathBuf::new(),
        false => PathBuf::from(g.process_name(i)),
    };
    for (i, outs) in res.outputs.iter().enumerate() {
        let who = match single {
            true => String::new(),
            false => format!("{} ", g.process_name(i)),
        };
        for (k, l) in outs.iter().enumerate() {
            println!("  {who}out{k}: {}", l.shape());
        }
    }
    for (d, items) in res.outfeed.iter().enumerate() {
        if !items.is_empty() {
            println!("  outfeed of device {d}: {} item(s)", items.len());
        }
    }
    if let Some(left) = &res.infeed_left {
        for (d, &k) in left.iter().enumerate().filter(|(_, &k)| k > 0) {
            eprintln!("note: {k} infeed item(s) left unread on device {d}");
        }
    }
    if let Some(dir) = &o.out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::invalid(format!("cannot create {}: {e}", dir.display())))?;
        for (i, outs) in res.outputs.iter().enumerate() {
            for (k, l) in outs.iter().enumerate() {
                write_npy(&dir.join(sub(i)).join(format!("out{k}.npy")), l)?;
            }
        }
        // Outfeed items: outfeed/d{D}_{I}.npy, a tuple item's leaves d{D}_{I}_{J}.npy.
        for (d, items) in res.outfeed.iter().enumerate() {
            for (k, item) in items.iter().enumerate() {
                let base = dir.join("outfeed");
                if item.tuple_elements().is_some() {
                    let mut leaves = Vec::new();
                    flatten(item, &mut leaves);
                    for (j, l) in leaves.iter().enumerate() {
                        write_npy(&base.join(format!("d{d}_{k}_{j}.npy")), l)?;
                    }
                } else {
                    write_npy(&base.join(format!("d{d}_{k}.npy")), item)?;
                }
            }
        }
    }
    let mut ok = true;
    if let Some(ds) = check_dirs {
        for (i, d) in ds.iter().enumerate() {
            let who = match single {
                true => String::new(),
                false => format!("{} ", g.process_name(i)),
            };
            for (k, err, verdict) in check_outputs(d, &res.outputs[i])? {
                match verdict {
                    Ok(()) => println!("  {who}out{k}: ok (max abs error {err:e})"),
                    Err(m) => {
                        ok = false;
                        println!("  {who}out{k}: MISMATCH: {m} (max abs error {err:e})");
                    }
                }
            }
        }
    }
    Ok(ok)
}
