//! The JIT kernel step: a loop kernel over the instruction's output, split across the
//! worker pool along its outermost dimension; and the in-place form of dynamic-update-slice
//! (only the update written into a dead operand's memory), with its ownership checks.

use std::sync::Arc;

use oxla_hlo::{Error, HloComputation, HloInstruction, Op, Result};
use oxla_passes::Slot;

use crate::exec::{parallel_for, SendPtr, V};
use crate::plan::{InPlace, Programs};
use crate::run::{array_of, StepCtx};

impl Programs {
    /// Runs the update-only kernel `uk`, writing into the operand's own memory.
    pub(crate) fn run_kernel_in_place(&self, s: &StepCtx, uk: &usize) -> Result<V> {
        let ins = s.ins;
        let vals = s.vals;
        let operand_ptr = |k: usize| s.operand_ptr(k);
        let k = &self.kernels[*uk];
        let inputs = (0..ins.operands.len())
            .map(operand_ptr)
            .collect::<Result<Vec<_>>>()?;
        let target = vals[ins.operands[0].index()].clone();
        let V::Arr { ptr, .. } = &target else {
            return Err(Error::internal("in-place operand is not an array"));
        };
        let outs = [*ptr];
        // SAFETY: the operand's memory is exclusively this instruction's (checked).
        unsafe { (k.func)(inputs.as_ptr(), outs.as_ptr(), 0, k.extent) };
        // The value keeps the operand's memory (and owner) under the result's shape.
        Ok(match target {
            V::Arr { ptr, keep, .. } => V::Arr {
                ptr,
                shape: array_of(&ins.shape)?,
                keep,
            },
            v => v,
        })
    }

    /// Runs loop kernel `kernel` into fresh output memory, in parallel when large.
    pub(crate) fn run_kernel(&self, s: &StepCtx, kernel: &usize) -> Result<V> {
        let prog = s.prog;
        let i = s.i;
        let ins = s.ins;
        let base = s.base;
        let operand_ptr = |k: usize| s.operand_ptr(k);
        let k = &self.kernels[*kernel];
        let inputs = (0..ins.operands.len())
            .map(operand_ptr)
            .collect::<Result<Vec<_>>>()?;
        let (outs, v) = self.out_ptrs(prog, i, &ins.shape, base)?;
        let ins_p = SendPtr(inputs.as_ptr());
        let outs_p = SendPtr(outs.as_ptr());
        let f = k.func;
        let extent = k.extent;
        let total = extent.saturating_mul(k.work_per_unit.max(1));
        let threads = if extent >= 2 && total >= 1 << 16 {
            self.threads
        } else {
            1
        };
        if threads == 1 {
            // SAFETY: pointers match the kernel's inputs/outputs, sized by their shapes.
            unsafe { f(ins_p.0, outs_p.0, 0, extent) };
        } else {
            let chunks = (threads * 4).min(extent as usize);
            let per = (extent as usize).div_ceil(chunks);
            parallel_for(chunks, threads, &|t| {
                let s = (t * per) as i64;
                let e = ((t + 1) * per).min(extent as usize) as i64;
                let (a, b) = (ins_p, outs_p);
                if s < e {
                    // SAFETY: disjoint output ranges per task.
                    unsafe { f(a.0, b.0, s, e) };
                }
            });
        }
        Ok(v)
    }

    /// The run-time half of the in-place check: arena memory is ours by construction; owned
    /// memory must have no holders outside this frame.
    pub(crate) fn may_update_in_place(
        &self,
        ins: &HloInstruction,
        vals: &[V],
        kind: InPlace,
    ) -> bool {
        match (&vals[ins.operands[0].index()], kind) {
            (V::Arr { keep: None, .. }, InPlace::Arena) => true,
            (V::Arr { keep: Some(k), .. }, InPlace::Owned { holders }) => {
                Arc::strong_count(k) == holders
            }
            _ => false,
        }
    }
}

/// Whether dynamic-update-slice `i` may update its operand in place, and how to check it.
pub(crate) fn in_place_kind(
    c: &HloComputation,
    slots: &[Slot],
    users: &[Vec<oxla_hlo::InstrId>],
    i: usize,
) -> Option<InPlace> {
    let ins = &c.instructions[i];
    if !matches!(ins.op, Op::DynamicUpdateSlice) {
        return None;
    }
    let x = ins.operands[0];
    // The operand is read by nothing else (the update and the start indices are other
    // values; if the update reads the operand, it is an operand of this DUS too).
    if users[x.index()].iter().any(|u| u.index() != i) || ins.operands[1..].contains(&x) {
        return None;
    }
    let xi = c.instr(x);
    match (&xi.op, &slots[x.index()]) {
        (Op::Parameter { .. }, _) => Some(InPlace::Owned { holders: 1 }),
        (Op::GetTupleElement { index }, _) => {
            let p = xi.operands[0];
            let pi = c.instr(p);
            if !matches!(pi.op, Op::Parameter { .. }) {
                return None;
            }
            // The tuple parameter is only taken apart, and element `index` only once.
            let only_gtes = users[p.index()]
                .iter()
                .all(|u| matches!(c.instr(*u).op, Op::GetTupleElement { .. }));
            let same: usize = users[p.index()]
                .iter()
                .filter(
                    |u| matches!(c.instr(**u).op, Op::GetTupleElement { index: j } if j == *index),
                )
                .count();
            (only_gtes && same == 1).then_some(InPlace::Owned { holders: 2 })
        }
        // Buffer assignment decided it: the result aliases the operand's arena memory.
        (_, Slot::Arena { .. }) if slots[i] == Slot::Alias(x) => Some(InPlace::Arena),
        _ => None,
    }
}
