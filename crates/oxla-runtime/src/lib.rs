//! oxla-runtime: compile HLO modules to native code and run them.
//!
//! ```text
//! Client::cpu() ─ compile(module, options) ─► Executable ─ execute(&[&Buffer]) ─► Vec<Buffer>
//! ```
//!
//! Compilation runs the pass pipeline (layout assignment, simplification, fusion), then
//! turns every computation that runs as a program (the entry and the bodies of while,
//! conditional and call) into a list of steps: JIT kernels from `oxla-codegen`, GEMM calls
//! into `oxla-kernels`, and control-flow steps that run sub-programs. Each program execution
//! gets one arena (offsets from `oxla-passes`' buffer assignment); results are copied out of
//! it into owned buffers. An `Executable` is immutable and can run on several threads at once.

mod exec;
mod plan;
mod run;
mod steps;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use oxla_hlo::{ArrayShape, Error, HloModule, Literal, Result, Shape};

pub use exec::Bytes;
use plan::Programs;

/// Options for [`Client::compile`].
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// 0: no optimization passes beyond what code generation needs; 1+: the full pipeline.
    pub opt_level: u32,
    /// Write the module before and after optimization (HLO text) to this directory.
    pub dump_dir: Option<PathBuf>,
    /// Threads for intra-op parallelism (0 = all cores).
    pub threads: usize,
    /// Evaluate constant subexpressions at compile time (through the interpreter). Off for
    /// testing the generated code on programs whose inputs are all constants.
    pub fold_constants: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            opt_level: 1,
            dump_dir: None,
            threads: 0,
            fold_constants: true,
        }
    }
}

/// The CPU client.
#[derive(Clone, Debug)]
pub struct Client {
    threads: usize,
}

impl Client {
    pub fn cpu() -> Result<Client> {
        // OXLA_THREADS caps intra-op parallelism (default: all cores).
        let threads = std::env::var("OXLA_THREADS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1)
            });
        Ok(Client { threads })
    }

    pub fn device_count(&self) -> usize {
        1
    }

    /// Compiles `module` (which is left unchanged).
    pub fn compile(&self, module: &HloModule, options: &CompileOptions) -> Result<Executable> {
        let t0 = Instant::now();
        oxla_hlo::verify_module(module)?;
        if module.config.num_replicas > 1 || module.config.num_partitions > 1 {
            return Err(Error::unimplemented(
                "JIT: modules with several replicas or partitions (use the interpreter's grid)",
            ));
        }
        let mut m = module.clone();
        // OXLA_DUMP_DIR works like XLA's --xla_dump_to.
        let env_dir = std::env::var_os("OXLA_DUMP_DIR").map(PathBuf::from);
        let dump_dir = options.dump_dir.clone().or(env_dir);
        if let Some(dir) = &dump_dir {
            dump(dir, "before_optimizations", &m)?;
        }
        let mut pipeline = if options.opt_level == 0 {
            let mut p = oxla_passes::Pipeline::standard();
            p.passes = vec![
                ("layout-assignment", oxla_passes::assign_layouts),
                ("execution-plan", oxla_passes::plan_execution),
            ];
            p
        } else {
            let mut p = oxla_passes::Pipeline::with_fusion();
            if !options.fold_constants {
                p.passes.retain(|(name, _)| *name != "constant-folding");
            }
            p
        };
        let t_passes = Instant::now();
        pipeline.run(&mut m)?;
        let passes_ms = t_passes.elapsed().as_secs_f64() * 1e3;
        if let Some(dir) = &dump_dir {
            dump(dir, "after_optimizations", &m)?;
        }
        let threads = if options.threads == 0 {
            self.threads
        } else {
            options.threads
        };
        let t_code = Instant::now();
        let programs = Programs::build(&m, threads)?;
        let compile_time = t0.elapsed();
        if std::env::var_os("OXLA_TIME").is_some() {
            eprintln!(
                "compile {}: passes {passes_ms:.2} ms, code {:.2} ms, total {:.2} ms",
                m.name,
                t_code.elapsed().as_secs_f64() * 1e3,
                compile_time.as_secs_f64() * 1e3
            );
        }
        let param_shapes = m
            .entry_computation()
            .program_shape()
            .parameters
            .into_iter()
            .map(|s| s.without_layout())
            .collect();
        Ok(Executable {
            inner: Arc::new(ExecInner {
                programs,
                param_shapes,
                result_shape: m.entry_computation().root_instr().shape.without_layout(),
                compile_time_ms: compile_time.as_secs_f64() * 1e3,
            }),
        })
    }

    pub fn buffer_from_literal(&self, l: &Literal) -> Result<Buffer> {
        Buffer::from_literal(l)
    }
}

fn dump(dir: &std::path::Path, stage: &str, m: &HloModule) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::runtime(format!("dump dir: {e}")))?;
    let path = dir.join(format!("{}.{stage}.hlo", m.name));
    std::fs::write(&path, oxla_hlo::text::print_module(m))
        .map_err(|e| Error::runtime(format!("{}: {e}", path.display())))
}

/// An array on the device (host memory): immutable, shared by reference counting, so passing
/// a result back in as an argument copies nothing.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub(crate) shape: ArrayShape,
    pub(crate) data: Arc<Bytes>,
}

impl Buffer {
    pub fn from_literal(l: &Literal) -> Result<Buffer> {
        let a = l.shape().as_array().ok_or_else(|| {
            Error::invalid("a device buffer holds an array, not a tuple or token")
        })?;
        let shape = ArrayShape {
            layout: None,
            ..a.clone()
        };
        oxla_codegen::supports_type(shape.element_type)
            .then_some(())
            .ok_or_else(|| {
                Error::unimplemented(format!(
                    "JIT: buffers of element type {} are not supported",
                    shape.element_type
                ))
            })?;
        let bytes = l.to_le_bytes();
        Ok(Buffer {
            shape,
            data: Arc::new(Bytes::from_slice(&bytes)?),
        })
    }

    pub fn to_literal(&self) -> Result<Literal> {
        Literal::from_le_bytes(&Shape::Array(self.shape.clone()), self.data.as_slice())
    }

    pub fn shape(&self) -> &ArrayShape {
        &self.shape
    }

    pub fn size_bytes(&self) -> usize {
        self.data.len()
    }
}

struct ExecInner {
    programs: Programs,
    param_shapes: Vec<Shape>,
    result_shape: Shape,
    compile_time_ms: f64,
}

/// A compiled module. Cheap to clone; `execute` may run concurrently from several threads.
#[derive(Clone)]
pub struct Executable {
    inner: Arc<ExecInner>,
}

impl Executable {
    /// Wall time of `Client::compile` (passes + code generation), in milliseconds.
    pub fn compile_time_ms(&self) -> f64 {
        self.inner.compile_time_ms
    }

    /// Bytes of the entry program's arena (the most temporary memory one execution needs at
    /// the top level).
    pub fn peak_bytes(&self) -> usize {
        self.inner.programs.entry_arena_bytes()
    }

    /// Number of JIT kernels and GEMM calls in the compiled program.
    pub fn kernel_count(&self) -> usize {
        self.inner.programs.kernel_count()
    }

    pub fn parameter_shapes(&self) -> &[Shape] {
        &self.inner.param_shapes
    }

    pub fn result_shape(&self) -> &Shape {
        &self.inner.result_shape
    }

    /// Runs on device buffers; a tuple result comes back as its elements.
    pub fn execute(&self, args: &[&Buffer]) -> Result<Vec<Buffer>> {
        let p = &self.inner.param_shapes;
        if args.len() != p.len() {
            return Err(Error::invalid(format!(
                "executable takes {} argument(s), got {}",
                p.len(),
                args.len()
            )));
        }
        for (i, (a, s)) in args.iter().zip(p).enumerate() {
            let want = s
                .as_array()
                .ok_or_else(|| Error::unimplemented("JIT: tuple or token parameters"))?;
            if want.element_type != a.shape.element_type || want.dims != a.shape.dims {
                return Err(Error::invalid(format!(
                    "argument {i}: expected {}, got {}",
                    s,
                    Shape::Array(a.shape.clone())
                )));
            }
        }
        self.inner.programs.run_entry(args)
    }

    /// Literal in, literal out (a tuple result is returned as a tuple literal).
    pub fn execute_literals(&self, args: &[Literal]) -> Result<Literal> {
        let bufs = args
            .iter()
            .enumerate()
            .map(|(i, l)| Buffer::from_literal(l).map_err(|e| e.context(format!("argument {i}"))))
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Buffer> = bufs.iter().collect();
        let out = self.execute(&refs)?;
        if self.inner.result_shape.is_tuple() {
            Ok(Literal::tuple(
                out.iter()
                    .map(|b| b.to_literal())
                    .collect::<Result<Vec<_>>>()?,
            ))
        } else {
            out.first()
                .ok_or_else(|| Error::internal("no result"))?
                .to_literal()
        }
    }
}
