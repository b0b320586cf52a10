//! `oxla run`: load a program (StableHLO MLIR or HLO text), read `.npy` arguments, run it,
//! write `.npy` outputs and optionally check them against a bench folder.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use oxla_hlo::{Error, HloModule, Literal, Op, PrimitiveType, Result, Shape};
use oxla_interp::Interpreter;

use crate::npy;

/// A loaded program: the module and how many leading outputs are check values.
pub struct Program {
    /// The HLO module.
    pub module: HloModule,
    /// Leading outputs that are check values (StableHLO test modules).
    pub skip_outputs: usize,
    /// Whether the entry's result is the tuple of the function's results (MLIR import).
    pub tuple_result: bool,
}

/// Loads a program: HLO text, StableHLO MLIR text, a portable artifact (MLIR bytecode, e.g.
/// `.mlirbc`) or a `jax.export` serialization (`.jax_export`).
pub fn load_program(path: &Path) -> Result<Program> {
    program_from_bytes(path, &read_program(path)?)
}

/// The bytes of the program file at `path`.
pub fn read_program(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))
}

/// Parses and imports a program already read from `path` (whose extension picks the format
/// where the bytes alone do not).
pub fn program_from_bytes(path: &Path, bytes: &[u8]) -> Result<Program> {
    let binary = path
        .extension()
        .is_some_and(|e| e == "mlirbc" || e == "jax_export" || e == "bc");
    let text = match std::str::from_utf8(bytes) {
        Ok(t) if !binary && !bytes.starts_with(oxla_stablehlo::bytecode::MAGIC) => t,
        _ => {
            let m = oxla_stablehlo::parse_program(bytes)?;
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

/// Runs `p` on the interpreter as one process.
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
    /// Replicas.
    pub replicas: usize,
    /// Partitions.
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
    /// Under `mpirun` (feature `mpi`): the processes of the grid this MPI process ran, the
    /// only ones with outputs, and (MPI rank, ranks). `None`: every process ran here.
    pub local: Option<(std::ops::Range<usize>, usize, usize)>,
}

impl GridOutcome {
    /// Whether grid process `i` ran in this MPI process (always, outside `mpirun`).
    pub fn is_local(&self, i: usize) -> bool {
        self.local.as_ref().is_none_or(|(r, _, _)| r.contains(&i))
    }
}

/// The number of processes of the `mpirun` job this process belongs to, from the launcher's
/// environment (Open MPI's, or PMI's), where more than one.
pub fn mpi_job_size() -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.parse::<usize>().ok())
        .filter(|&n| n > 1)
}

impl GridRun {
    /// Processes in the grid (replicas × partitions).
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
    run_grid_profiled(p, g, jit, None)
}

/// [`run_grid`], recording the JIT's compile and run into `profile`.
pub fn run_grid_profiled(
    p: &Program,
    g: &GridRun,
    jit: bool,
    profile: Option<std::sync::Arc<oxla_runtime::Profiler>>,
) -> Result<GridOutcome> {
    let n = g.processes();
    // A shard_map / pmap program (JAX exports them so): every process takes and returns its
    // own shards, on both backends.
    let mut partitioned = Program {
        module: p.module.clone(),
        skip_outputs: p.skip_outputs,
        tuple_result: p.tuple_result,
    };
    partitioned.module.config.num_replicas = g.replicas as i64;
    partitioned.module.config.num_partitions = g.partitions as i64;
    let p = if oxla_passes::partition_spmd(&mut partitioned.module)? {
        &partitioned
    } else {
        p
    };
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
        run_grid_jit(p, g, &args, profile)
    } else {
        run_grid_interp(p, g, &args)
    }
}

/// The grid's program compiled for its replicas and partitions on `client`.
fn compile_grid(
    client: &oxla_runtime::Client,
    p: &Program,
    g: &GridRun,
    profile: Option<std::sync::Arc<oxla_runtime::Profiler>>,
) -> Result<oxla_runtime::Executable> {
    client.compile(
        &p.module,
        &oxla_runtime::CompileOptions {
            replicas: g.replicas,
            partitions: g.partitions,
            profile,
            ..Default::default()
        },
    )
}

/// Each grid process's arguments as buffers (tokens left out).
fn grid_buffers(args: &[Vec<Literal>]) -> Result<Vec<Vec<oxla_runtime::Buffer>>> {
    args.iter()
        .map(|a| {
            a.iter()
                .filter(|l| !l.shape().is_token())
                .map(oxla_runtime::Buffer::from_literal)
                .collect::<Result<Vec<_>>>()
        })
        .collect()
}

fn run_grid_jit(
    p: &Program,
    g: &GridRun,
    args: &[Vec<Literal>],
    profile: Option<std::sync::Arc<oxla_runtime::Profiler>>,
) -> Result<GridOutcome> {
    use oxla_runtime::{Buffer, Client, ClientOptions};
    let n = g.processes();
    if let Some(procs) = mpi_job_size() {
        return run_grid_mpi(p, g, args, profile, procs);
    }
    let client = Client::cpu_with(ClientOptions {
        devices: n,
        timeout: g.timeout,
        ..Default::default()
    })?;
    let exe = compile_grid(&client, p, g, profile)?;
    let bufs = grid_buffers(args)?;
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
        local: None,
    })
}

/// The grid over the processes of an `mpirun` job of `procs` processes: each holds
/// `processes / procs` devices (`Client::cpu_distributed`) and runs its share of the grid
/// (`Executable::execute_local`); collectives cross processes over MPI.
#[cfg(feature = "mpi")]
fn run_grid_mpi(
    p: &Program,
    g: &GridRun,
    args: &[Vec<Literal>],
    profile: Option<std::sync::Arc<oxla_runtime::Profiler>>,
    procs: usize,
) -> Result<GridOutcome> {
    use oxla_runtime::{Buffer, Client, ClientOptions};
    let n = g.processes();
    if !n.is_multiple_of(procs) {
        return Err(Error::invalid(format!(
            "{} replica(s) × {} partition(s) over {procs} MPI processes: the grid must split \
             evenly (one device per grid process)",
            g.replicas, g.partitions
        )));
    }
    if !g.infeed.is_empty() {
        return Err(Error::unimplemented(
            "--infeed under mpirun: infeed and outfeed queues are not carried across processes \
             yet",
        ));
    }
    let client = Client::cpu_distributed(
        n / procs,
        ClientOptions {
            timeout: g.timeout,
            ..Default::default()
        },
    )?;
    let exe = compile_grid(&client, p, g, profile)?;
    let ids = exe.local_instances()?;
    let bufs = grid_buffers(&args[ids.clone()])?;
    let refs: Vec<Vec<&Buffer>> = bufs.iter().map(|a| a.iter().collect()).collect();
    let results = exe.execute_local(&refs)?;
    let mut outputs: Vec<Vec<Literal>> = vec![Vec::new(); n];
    for (i, o) in ids.clone().zip(results) {
        outputs[i] = outputs_of(p, exe.to_literal(o)?);
    }
    Ok(GridOutcome {
        outputs,
        outfeed: Vec::new(),
        infeed_left: None,
        local: Some((ids, client.process_index(), client.process_count())),
    })
}

#[cfg(not(feature = "mpi"))]
fn run_grid_mpi(
    _: &Program,
    _: &GridRun,
    _: &[Vec<Literal>],
    _: Option<std::sync::Arc<oxla_runtime::Profiler>>,
    procs: usize,
) -> Result<GridOutcome> {
    Err(Error::unimplemented(format!(
        "running under mpirun ({procs} processes): this oxla was built without the `mpi` \
         feature (cargo build --release -p oxla --features mpi)"
    )))
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
        local: None,
    })
}

/// Arguments `arg0.npy, arg1.npy, ...` of a bench folder (ml_dtypes arrays typed by its
/// `meta.json`, as [`folder_args_typed`] without parameter types).
pub fn folder_args(dir: &Path) -> Result<Vec<Literal>> {
    folder_args_typed(dir, &[])
}

/// Arguments `arg0.npy, arg1.npy, ...` of a folder. An argument stored with a raw ml_dtypes
/// descr (bfloat16, float8 ...) takes its element type from the folder's `meta.json`
/// (`inputs[i].dtype`), else from `params` (the program's parameter types).
pub fn folder_args_typed(dir: &Path, params: &[PrimitiveType]) -> Result<Vec<Literal>> {
    let meta = read_meta(dir);
    let mut v = Vec::new();
    for i in 0.. {
        let p = dir.join(format!("arg{i}.npy"));
        if !p.exists() {
            break;
        }
        let named = meta
            .as_ref()
            .and_then(|m| m["inputs"][i]["dtype"].as_str())
            .and_then(npy::dtype_named);
        v.push(npy::read_as(&p, named.or(params.get(i).copied()))?);
    }
    Ok(v)
}

/// A folder's `meta.json`, when it has a readable one.
fn read_meta(dir: &Path) -> Option<serde_json::Value> {
    std::fs::read_to_string(dir.join("meta.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
}

/// The element types of the entry computation's parameters (a tuple parameter's first leaf
/// stands for it: hints only).
pub fn param_types(m: &HloModule) -> Vec<PrimitiveType> {
    m.entry_program_shape()
        .parameters
        .iter()
        .map(first_leaf_type)
        .collect()
}

fn first_leaf_type(s: &Shape) -> PrimitiveType {
    match s {
        Shape::Array(a) => a.element_type,
        Shape::Tuple(t) => t.first().map_or(PrimitiveType::Tuple, first_leaf_type),
        Shape::Token => PrimitiveType::Token,
    }
}

/// Per output: its index, the largest absolute error, and the verdict.
pub type OutputCheck = (usize, f64, std::result::Result<(), String>);

type Part = (&'static str, fn(&oxla_hlo::literal::Scalar) -> f64);

/// The largest error of each output against the expected files of `dir`, following its
/// meta.json (strided samples, tolerances, checksums) when present.
pub fn check_outputs(dir: &Path, outs: &[Literal]) -> Result<Vec<OutputCheck>> {
    let meta = read_meta(dir);
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
        // What the program computed says what a raw ml_dtypes descr holds.
        let expected = npy::read_as(&p, actual.shape().as_array().map(|a| a.element_type))?;
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

/// `oxla run` arguments.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(after_help = format!(
    "Examples:\n  \
     oxla run ../shared/bench/softmax_rows/program.mlir --check ../shared/bench/softmax_rows\n  \
     oxla run model.hlo --input x.npy --input w.npy            # prints each output's summary\n  \
     oxla run model.hlo --input x.npy --print-all               # every value\n  \
     oxla run model.mlir --inputs args.npz --out results        # results/out0.npy, ...\n  \
     oxla run allreduce.hlo --replicas 2 --input-dir inputs --out results\n  \
     oxla run feed.hlo --infeed x0.npy,y0.npy --infeed x1.npy,y1.npy --out results\n\n{}",
    crate::cli::EXIT_CODES
))]
pub struct RunArgs {
    /// The program: StableHLO MLIR text, MLIR bytecode (.mlirbc), a jax.export
    /// serialization (.jax_export), or HLO text (.hlo).
    pub program: PathBuf,
    /// An argument (.npy), in parameter order; repeat for each.
    #[arg(long = "input", value_name = "FILE.npy")]
    pub inputs: Vec<PathBuf>,
    /// The arguments from a .npz archive (in archive order; --input files follow).
    #[arg(long = "inputs", value_name = "FILE.npz")]
    pub npz: Option<PathBuf>,
    /// Per-process arguments DIR/r{R}p{P}/arg{K}.npy (a grid run).
    #[arg(long, value_name = "DIR")]
    pub input_dir: Option<PathBuf>,
    /// Element types of the arguments, in order (`bf16,f32`, or `bfloat16`, `float8_e4m3fn`,
    /// `int4` ...): what an .npy stored raw by ml_dtypes (descr `<V2`, `<V1`) holds. Default:
    /// the program's parameter types.
    #[arg(long, value_name = "TYPE[,TYPE...]", value_delimiter = ',', value_parser = dtype_arg)]
    pub dtype: Vec<PrimitiveType>,
    /// Write the outputs to DIR/out{K}.npy (a grid: DIR/r{R}p{P}/out{K}.npy; outfeeds:
    /// DIR/outfeed/d{D}_{I}.npy). Without it each output's shape and a summary are printed.
    #[arg(long = "out", value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Compare the outputs with DIR's out*.npy / meta.json (and take DIR's arg*.npy as the
    /// arguments when none are given).
    #[arg(long = "check", value_name = "DIR")]
    pub check_dir: Option<PathBuf>,
    /// The backend (default: the JIT, falling back to the interpreter with a note for a
    /// program it cannot compile yet).
    #[arg(long, value_enum)]
    pub backend: Option<crate::cli::BackendArg>,
    /// Replicas to run on (default: the module's own count).
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub replicas: Option<usize>,
    /// Partitions to run on (default: the module's own count).
    #[arg(long, value_name = "M", value_parser = positive_count)]
    pub partitions: Option<usize>,
    /// An item pushed on every device's infeed, in order (a.npy,b.npy: one tuple item).
    #[arg(long, value_name = "FILE.npy[,FILE.npy...]")]
    pub infeed: Vec<String>,
    /// How long every collective, infeed or outfeed wait may take (default 10).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub timeout: Option<Duration>,
    /// Print every value of each output, not only a summary.
    #[arg(long)]
    pub print_all: bool,
    /// Write a Chrome trace (JSON, for chrome://tracing or ui.perfetto.dev) of the compile
    /// phases and every step of the run to FILE (JIT only).
    #[arg(long, value_name = "FILE.json")]
    pub profile: Option<PathBuf>,
}

fn dtype_arg(v: &str) -> std::result::Result<PrimitiveType, String> {
    npy::dtype_named(v).ok_or_else(|| format!("unknown element type '{v}'"))
}

fn positive_count(v: &str) -> std::result::Result<usize, String> {
    v.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("expected a positive count, got '{v}'"))
}

fn seconds(v: &str) -> std::result::Result<Duration, String> {
    v.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("expected seconds, got '{v}'"))
}

/// For [`command`]: `oxla run`'s arguments as a command of their own.
#[derive(clap::Parser, Debug)]
#[command(name = "oxla run")]
struct RunCli {
    #[command(flatten)]
    args: RunArgs,
}

/// Parses `oxla run`'s arguments (the program first, then flags), as the CLI does.
pub fn parse_args(args: &[String]) -> Result<RunArgs> {
    use clap::Parser;
    RunCli::try_parse_from(std::iter::once("oxla run".to_string()).chain(args.iter().cloned()))
        .map(|c| c.args)
        .map_err(|e| Error::invalid(e.to_string().trim_end().to_string()))
}

/// The grid size: the flags, else the module's own replica and partition counts. A module
/// that declares more than one replica (or partition) runs on exactly that many.
fn grid_size(m: &HloModule, o: &RunArgs) -> Result<(usize, usize)> {
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

/// How many leading values an output summary shows.
pub const SUMMARY_VALUES: usize = 8;

/// One line about an array: its shape, min / max / mean of a real or integer array (NaNs
/// counted apart), and its first `first` values (row-major).
pub fn summary(l: &Literal, first: usize) -> String {
    use std::fmt::Write;
    let mut s = l.shape().to_string();
    let n = l.element_count();
    if n == 0 || l.tuple_elements().is_some() || l.shape().is_token() {
        return s;
    }
    let t = l.element_type();
    if !t.is_complex() {
        let v = l.to_f64s();
        let finite: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
        if !finite.is_empty() {
            let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
            let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mean = finite.iter().sum::<f64>() / finite.len() as f64;
            let _ = write!(s, "  min {} max {} mean {}", num(min), num(max), num(mean));
        }
        let nans = v.len() - finite.len();
        if nans > 0 {
            let _ = write!(s, "  {nans} NaN(s)");
        }
    }
    if first > 0 {
        let vals: Vec<String> = l
            .scalars()
            .iter()
            .take(first)
            .map(|x| match x {
                oxla_hlo::literal::Scalar::Complex(c) => format!("{}{:+}i", num(c.re), num(c.im)),
                x => num(x.as_f64()),
            })
            .collect();
        let more = if n > first { ", …" } else { "" };
        let _ = write!(s, "  [{}{more}]", vals.join(", "));
    }
    s
}

/// A number: integers as they are, others with at most six decimals (or in exponent form).
fn num(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{x}")
    } else if x.abs() >= 1e-4 && x.abs() < 1e6 {
        let t = format!("{x:.6}");
        let t = t.trim_end_matches('0');
        t.trim_end_matches('.').to_string()
    } else {
        format!("{x:.5e}")
    }
}

/// The `oxla run` command on string arguments (the program first, then flags): parsed as
/// the CLI parses them, then [`command_with`]. `Ok(false)`: an output check failed.
pub fn command(args: &[String]) -> Result<bool> {
    command_with(&parse_args(args)?)
}

/// The `oxla run` command. `Ok(false)`: an output check failed.
pub fn command_with(o: &RunArgs) -> Result<bool> {
    if o.input_dir.is_some() && (!o.inputs.is_empty() || o.npz.is_some()) {
        return Err(Error::invalid(
            "--input-dir gives every process its own arguments: it cannot be combined with \
             --input or --inputs",
        ));
    }
    let program = o.program.clone();
    let jit = o.backend.map(|b| b == crate::cli::BackendArg::Jit);
    if o.profile.is_some() && jit == Some(false) {
        return Err(Error::invalid(
            "--profile records the JIT's compile and run: it cannot be combined with \
             --backend interp",
        ));
    }
    let profiler = o.profile.as_ref().map(oxla_runtime::Profiler::to_file);
    let t0 = Instant::now();
    let p = load_program(&program)?;
    let load_ms = t0.elapsed().as_secs_f64() * 1e3;
    let (replicas, partitions) = grid_size(&p.module, o)?;
    let n = replicas * partitions;
    let single = n == 1;
    // One folder per process for a grid; the folder itself for one process.
    let check_dirs: Option<Vec<PathBuf>> = match &o.check_dir {
        Some(d) if single => Some(vec![d.clone()]),
        Some(d) => Some(process_dirs(d, replicas, partitions)?),
        None => None,
    };
    // What each argument's .npy holds where it is stored raw (ml_dtypes): --dtype, else the
    // program's parameter types.
    let mut types = param_types(&p.module);
    for (i, &t) in o.dtype.iter().enumerate() {
        match types.get_mut(i) {
            Some(slot) => *slot = t,
            None => types.push(t),
        }
    }
    let shared_args: Vec<Literal> = if let Some(z) = &o.npz {
        // Arrays in archive order (np.savez names positional arrays arr_0, arr_1, ...).
        let mut v = npy::read_npz_as(z, &types)?;
        let first = v.len();
        v.extend(
            o.inputs
                .iter()
                .enumerate()
                .map(|(i, p)| npy::read_as(p, types.get(first + i).copied()))
                .map(|l| l.map(|l| (String::new(), l)))
                .collect::<Result<Vec<_>>>()?,
        );
        v.into_iter().map(|(_, l)| l).collect()
    } else {
        o.inputs
            .iter()
            .enumerate()
            .map(|(i, p)| npy::read_as(p, types.get(i).copied()))
            .collect::<Result<_>>()?
    };
    let process_args: Vec<Vec<Literal>> = if let Some(d) = &o.input_dir {
        process_dirs(d, replicas, partitions)?
            .iter()
            .map(|d| folder_args_typed(d, &types))
            .collect::<Result<_>>()?
    } else if o.inputs.is_empty() && o.npz.is_none() {
        match &check_dirs {
            Some(ds) => ds
                .iter()
                .map(|d| folder_args_typed(d, &types))
                .collect::<Result<_>>()?,
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
    let (res, jit) = match jit {
        Some(j) => (run_grid_profiled(&p, &g, j, profiler.clone())?, j),
        None => match run_grid_profiled(&p, &g, true, profiler.clone()) {
            Ok(r) => (r, true),
            Err(Error::Unimplemented(m)) => {
                eprintln!("note: {m}; running on the interpreter instead");
                (run_grid(&p, &g, false)?, false)
            }
            Err(e) => return Err(e),
        },
    };
    let run_ms = t1.elapsed().as_secs_f64() * 1e3;
    if let Some((ids, rank, ranks)) = &res.local {
        let names: Vec<String> = ids.clone().map(|i| g.process_name(i)).collect();
        println!(
            "MPI process {rank} of {ranks}: grid process(es) {}",
            names.join(", ")
        );
    }
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
    for (i, outs) in res
        .outputs
        .iter()
        .enumerate()
        .filter(|(i, _)| res.is_local(*i))
    {
        let who = match single {
            true => String::new(),
            false => format!("{} ", g.process_name(i)),
        };
        for (k, l) in outs.iter().enumerate() {
            match (&o.out_dir, o.print_all) {
                (Some(_), false) => println!("  {who}out{k}: {}", l.shape()),
                (_, false) => println!("  {who}out{k}: {}", summary(l, SUMMARY_VALUES)),
                (_, true) => println!("  {who}out{k}: {}\n{l}", summary(l, 0)),
            }
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
        // Under mpirun each process writes its own grid processes' folders.
        for (i, outs) in res
            .outputs
            .iter()
            .enumerate()
            .filter(|(i, _)| res.is_local(*i))
        {
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
        for (i, d) in ds.iter().enumerate().filter(|(i, _)| res.is_local(*i)) {
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
    if let (Some(path), Some(prof)) = (&o.profile, &profiler) {
        prof.flush()?;
        println!(
            "  profile: {} event(s) written to {}",
            prof.events().len(),
            path.display()
        );
    }
    Ok(ok)
}
