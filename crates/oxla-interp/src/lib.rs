//! oxla-interp: the reference interpreter. Slow, simple and obviously right: the oracle
//! every other component (importer, passes, JIT) is tested against.
//!
//! ```
//! use oxla_hlo::{text::parse_module, Literal};
//! let m = parse_module("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x, x)\n}\n").unwrap();
//! let out = oxla_interp::Interpreter::new().run(&m, &[Literal::vec1(&[1.0f32, 2.0])]).unwrap();
//! assert_eq!(out.to_f64s(), vec![2.0, 4.0]);
//! ```
//!
//! Elements are widened to `Scalar` (i128 / f64 / complex f64), computed, and rounded once
//! to the result type. Implementation-defined behaviour is listed in `docs/semantics.md`.

mod data;
mod elementwise;
mod eval;
pub mod grid;
mod index;
mod linalg;
mod process;
mod reduce;
mod rng;
pub mod scalar_ops;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use oxla_hlo::{Error, HloModule, Literal, Result};

pub use grid::Grid;
/// Dense linear algebra on literals, also run by the JIT's runtime (small matrices).
pub use linalg::{cholesky, triangular_solve};
use process::Process;

/// A host implementation of a custom-call target.
pub type CustomCallFn = Arc<dyn Fn(&[&Literal]) -> Result<Literal> + Send + Sync>;

/// The interpreter: configuration shared by every run.
#[derive(Clone)]
pub struct Interpreter {
    custom_calls: HashMap<String, CustomCallFn>,
    /// How long a process waits on a queue, channel or collective before failing.
    pub timeout: Duration,
    /// Seed of the `rng` op's generator (default `oxla_elem::rng::DEFAULT_SEED`, which the
    /// compiled path uses).
    pub seed: u64,
}

impl Default for Interpreter {
    fn default() -> Self {
        Interpreter::new()
    }
}

impl Interpreter {
    pub fn new() -> Interpreter {
        Interpreter {
            custom_calls: HashMap::new(),
            timeout: Duration::from_secs(10),
            seed: oxla_elem::rng::DEFAULT_SEED,
        }
    }

    /// Registers a host function for a custom-call target name.
    pub fn register_custom_call(
        &mut self,
        target: &str,
        f: impl Fn(&[&Literal]) -> Result<Literal> + Send + Sync + 'static,
    ) {
        self.custom_calls.insert(target.to_string(), Arc::new(f));
    }

    fn check_args(module: &HloModule, args: &[Literal]) -> Result<()> {
        let ps = module.entry_program_shape();
        if ps.parameters.len() != args.len() {
            return Err(Error::runtime(format!(
                "{} expects {} argument(s), got {}",
                module.name,
                ps.parameters.len(),
                args.len()
            )));
        }
        for (i, (p, a)) in ps.parameters.iter().zip(args).enumerate() {
            if !p.without_layout().compatible(&a.shape().without_layout()) {
                return Err(Error::runtime(format!(
                    "argument {i}: expected {}, got {}",
                    p.without_layout(),
                    a.shape()
                )));
            }
        }
        Ok(())
    }

    /// Runs the entry computation as a single process (replica 0, partition 0).
    pub fn run(&self, module: &HloModule, args: &[Literal]) -> Result<Literal> {
        let grid = Grid::new(1, 1, self.timeout);
        self.run_process(&grid, module, 0, 0, args)
    }

    /// Runs one process of `grid` (the caller runs the others, e.g. on other threads).
    pub fn run_process(
        &self,
        grid: &Grid,
        module: &HloModule,
        replica: i64,
        partition: i64,
        args: &[Literal],
    ) -> Result<Literal> {
        // Evaluation indexes by the instruction shapes; a module that does not verify could
        // make it read out of bounds, so it is rejected first.
        oxla_hlo::verify_module(module)?;
        Self::check_args(module, args)?;
        let p = Process::new(self, module, replica, partition, grid);
        p.eval(module.entry, args.to_vec())
    }

    /// Runs every process of `grid` on its own thread; `args[i]` belongs to process `i`
    /// (replica-major: i = replica * num_partitions + partition). Results in the same order.
    pub fn run_grid(
        &self,
        grid: &Grid,
        module: &HloModule,
        args: &[Vec<Literal>],
    ) -> Result<Vec<Literal>> {
        let n = (grid.num_replicas * grid.num_partitions) as usize;
        if args.len() != n {
            return Err(Error::runtime(format!(
                "a {}x{} grid needs {n} argument lists, got {}",
                grid.num_replicas,
                grid.num_partitions,
                args.len()
            )));
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..n)
                .map(|i| {
                    let (r, q) = (
                        i as i64 / grid.num_partitions,
                        i as i64 % grid.num_partitions,
                    );
                    let a = &args[i];
                    s.spawn(move || self.run_process(grid, module, r, q, a))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .map_err(|_| Error::internal("an interpreter thread panicked"))?
                })
                .collect()
        })
    }
}
