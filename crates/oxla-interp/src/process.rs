//! One process of the replica × partition grid: its ids, queues, collectives and the
//! custom-call registry.

use std::cell::Cell;

use oxla_hlo::{Error, HloInstruction, HloModule, Literal, Result, Shape};

use crate::grid::Grid;
use crate::Interpreter;

pub struct Process<'a> {
    pub interp: &'a Interpreter,
    pub module: &'a HloModule,
    pub replica: i64,
    pub partition: i64,
    pub grid: &'a Grid,
    rng: Cell<u64>,
}

impl<'a> Process<'a> {
    pub fn new(
        interp: &'a Interpreter,
        module: &'a HloModule,
        replica: i64,
        partition: i64,
        grid: &'a Grid,
    ) -> Self {
        Process {
            interp,
            module,
            replica,
            partition,
            grid,
            rng: Cell::new(oxla_elem::rng::process_rng_state(
                interp.seed,
                replica,
                partition,
            )),
        }
    }

    /// A fresh seed for one rng instruction execution.
    pub fn next_rng_seed(&self) -> u64 {
        let s = oxla_elem::rng::next_rng_seed(self.rng.get());
        self.rng.set(s);
        s
    }

    pub fn custom_call(
        &self,
        target: &str,
        backend_config: &str,
        args: &[&Literal],
        shape: &Shape,
    ) -> Result<Literal> {
        // JAX's LAPACK targets are built in (a registration of the same name wins).
        if !self.interp.custom_calls.contains_key(target) && oxla_lapack::is_target(target) {
            return oxla_lapack::call(target, backend_config, args, shape);
        }
        let f = self.interp.custom_calls.get(target).ok_or_else(|| {
            Error::runtime(format!(
                "custom-call target \"{target}\" is not registered with the interpreter"
            ))
        })?;
        let out = f(args)?;
        if !out.shape().compatible(&shape.without_layout()) && !out.shape().compatible(shape) {
            return Err(Error::runtime(format!(
                "custom-call \"{target}\" returned {} but the instruction's shape is {shape}",
                out.shape()
            )));
        }
        Ok(out)
    }

    pub fn side_effect(&self, ins: &HloInstruction, args: &[&Literal]) -> Result<Literal> {
        self.grid.side_effect(self, ins, args)
    }
}
