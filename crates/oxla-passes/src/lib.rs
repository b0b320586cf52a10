//! oxla-passes: HLO → HLO passes. Each pass is a plain function
//! `fn(&mut HloModule) -> Result<bool>` reporting whether it changed the module; a
//! [`Pipeline`] runs a list of them, verifying the module after every pass in debug builds
//! and optionally dumping it as HLO text.
//!
//! Main entry points:
//!
//! - [`Pipeline::with_fusion`]: the compiler's pipeline (layout assignment, call inlining,
//!   unrolling of short counted loops,
//!   simplification, element-wise ops sunk below in-place updates, constant folding, CSE, DCE, convolution and dot canonicalization,
//!   fusion, multi-output fusion, horizontal fusion, and last [`plan_execution`]), run to a fixed point by
//!   [`Pipeline::run`]; [`Pipeline::standard`] is the cleanup subset.
//! - [`plan::decide`]: the execution plan of one instruction (an [`oxla_hlo::ExecPlan`]): how
//!   it runs, chosen once from its op, element types and operand layouts.
//! - [`assign_buffers`]: arena offsets for a program computation's values.
//! - [`partition_spmd`]: an SPMD program over several partitions to its per-device form
//!   (sharding propagation and the partitioner; [`partition_manual`] for `shard_map` alone).
//!
//! Every pass keeps results bit-exact; [`fold_constants`] is the one place the compiled
//! path runs the interpreter, at compile time.

pub mod buffer_assignment;
mod constant_folding;
pub mod conv_direct;
mod conv_gemm;
mod cse;
mod dce;
mod dot_canon;
mod fusion;
mod horizontal;
mod inline;
mod layout;
mod multi_output;
mod partition;
pub mod plan;
mod rewrite;
pub mod row_groups;
mod simplify;
mod sink_updates;
mod sub_byte_bitcasts;
mod unroll;

use oxla_hlo::{HloModule, Result};

pub use buffer_assignment::{assign_buffers, BufferAssignment, Slot};
pub use constant_folding::fold_constants;
pub use conv_direct::canonicalize_convolutions;
pub use conv_gemm::convolution_to_gemm;
pub use cse::cse;
pub use dce::dce;
pub use dot_canon::canonicalize_dots;
pub use fusion::fuse;
pub use horizontal::fuse_scalars;
pub use inline::inline_calls;
pub use layout::assign_layouts;
pub use multi_output::fuse_multi_output;
pub use partition::{partition_manual, partition_spmd};
pub use plan::plan_execution;
pub use simplify::simplify;
pub use sink_updates::sink_updates;
pub use sub_byte_bitcasts::expand_sub_byte_bitcasts;
pub use unroll::unroll_loops;

/// Receives `(pass name, module text)`.
pub type DumpFn = Box<dyn FnMut(&str, &str)>;

/// A named pass.
pub type Pass = (&'static str, fn(&mut HloModule) -> Result<bool>);

/// An ordered list of passes, run to a fixed point (bounded) by [`Pipeline::run`].
pub struct Pipeline {
    pub passes: Vec<Pass>,
    /// Verify after every pass (always on in debug builds).
    pub verify: bool,
    /// Receives `(pass name, module text)` after every pass that changed the module.
    pub dump: Option<DumpFn>,
    /// Receives `(pass name, start, end, changed)` after every pass run (profiles).
    pub on_pass: Option<PassHook>,
}

/// A [`Pipeline::on_pass`] callback.
pub type PassHook = Box<dyn FnMut(&str, std::time::Instant, std::time::Instant, bool)>;

impl Pipeline {
    /// The default simplification pipeline.
    pub fn standard() -> Pipeline {
        Pipeline {
            passes: vec![
                ("simplify", simplify),
                ("constant-folding", fold_constants),
                ("cse", cse),
                ("dce", dce),
            ],
            verify: cfg!(debug_assertions),
            dump: None,
            on_pass: None,
        }
    }

    /// The standard pipeline followed by loop fusion (the form code generation takes).
    pub fn with_fusion() -> Pipeline {
        let mut p = Pipeline::standard();
        p.passes
            .insert(0, ("sub-byte-bitcasts", expand_sub_byte_bitcasts));
        p.passes.insert(1, ("layout-assignment", assign_layouts));
        p.passes.insert(2, ("call-inlining", inline_calls));
        p.passes.insert(3, ("loop-unrolling", unroll_loops));
        p.passes.push(("sink-updates", sink_updates));
        p.passes
            .push(("convolution-canonicalization", canonicalize_convolutions));
        p.passes.push(("convolution-to-gemm", convolution_to_gemm));
        p.passes.push(("dot-canonicalization", canonicalize_dots));
        p.passes.push(("fusion", fuse));
        p.passes.push(("multi-output-fusion", fuse_multi_output));
        p.passes.push(("horizontal-fusion", fuse_scalars));
        p.passes.push(("execution-plan", plan_execution));
        p
    }

    /// Runs the passes repeatedly until none changes the module (at most 8 rounds).
    pub fn run(&mut self, module: &mut HloModule) -> Result<bool> {
        let mut any = false;
        for _ in 0..8 {
            let mut changed = false;
            for (name, pass) in &self.passes {
                let t = std::time::Instant::now();
                let c = pass(module).map_err(|e| e.context(format!("pass {name}")))?;
                if let Some(h) = self.on_pass.as_mut() {
                    h(name, t, std::time::Instant::now(), c);
                }
                if c {
                    if self.verify {
                        oxla_hlo::verify_module(module)
                            .map_err(|e| e.context(format!("after pass {name}")))?;
                    }
                    if let Some(d) = self.dump.as_mut() {
                        d(name, &oxla_hlo::text::print_module(module));
                    }
                }
                changed |= c;
            }
            any |= changed;
            if !changed {
                break;
            }
        }
        Ok(any)
    }
}
