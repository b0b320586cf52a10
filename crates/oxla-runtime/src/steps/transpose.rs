//! The tiled-transpose step: a transpose that moves the innermost dimension, planned once
//! (`oxla_passes::plan::tiled_transpose`) and run as the kernel's independent tasks on the
//! pool when it is large.

use oxla_hlo::{HloComputation, HloInstruction, Op, Result};
use oxla_kernels::transpose::TransposePlan;

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::{unsup, Programs};
use crate::run::StepCtx;

/// The kernel's plan for a transpose the execution plan gave it.
pub(crate) fn plan(c: &HloComputation, ins: &HloInstruction) -> Result<TransposePlan> {
    let (Op::Transpose { permutation }, Some(x)) = (
        &ins.op,
        ins.operands
            .first()
            .and_then(|&o| c.instr(o).shape.as_array()),
    ) else {
        return Err(unsup(ins, "a tiled-transpose plan on something else"));
    };
    let dims: Vec<usize> = x.dims.iter().map(|&d| d.max(0) as usize).collect();
    let perm: Vec<usize> = permutation.iter().map(|&p| p.max(0) as usize).collect();
    TransposePlan::new(x.element_type.byte_size(), &dims, &perm)
        .ok_or_else(|| unsup(ins, "a transpose the tiled kernel does not take"))
}

/// Elements per thread below which the transpose runs on the calling thread.
const ELEMENTS_PER_THREAD: usize = 1 << 16;

impl Programs {
    /// Runs a tiled-transpose step.
    pub(crate) fn run_transpose(&self, s: &StepCtx, plan: &TransposePlan) -> Result<V> {
        let src = SendPtr(s.operand_ptr(0)? as *mut u8);
        let (outs, v) = self.out_ptrs(s.prog, s.i, &s.ins.shape, s.base)?;
        let dst = SendPtr(outs[0]);
        let threads = if plan.elements() >= 2 * ELEMENTS_PER_THREAD {
            self.threads
        } else {
            1
        };
        parallel_for(plan.tasks(), threads, &|t| {
            let (src, dst) = (src, dst);
            // SAFETY: the operand and the (distinct, freshly assigned) output hold the
            // plan's elements in the shapes it was planned for; tasks write disjoint parts.
            unsafe { plan.run_task(src.0, dst.0, t) };
        });
        Ok(v)
    }
}
