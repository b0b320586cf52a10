//! Module verifier: every instruction's shape equals its inferred shape, operands refer to
//! earlier instructions, sub-computations exist and have the signatures their callers need
//! (checked by shape inference, which receives their program shapes), no recursion,
//! parameters are numbered 0..n-1, names are unique.

use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::inference::infer_shape;
use crate::ir::{HloComputation, HloModule};
use crate::op::Op;
use crate::shape::{ProgramShape, Shape};

/// Checks a whole module; the error names the computation and instruction.
pub fn verify_module(module: &HloModule) -> Result<()> {
    if module.entry.index() >= module.computations.len() {
        return Err(Error::Verify(format!(
            "module {}: entry computation id {} does not exist",
            module.name, module.entry.0
        )));
    }
    let mut comp_names = HashSet::new();
    for c in &module.computations {
        if !comp_names.insert(c.name.as_str()) {
            return Err(Error::Verify(format!(
                "computation name {} is used twice",
                c.name
            )));
        }
    }
    // Also rejects recursion and dangling computation ids.
    module.computation_post_order()?;
    let shapes: Vec<ProgramShape> = module
        .computations
        .iter()
        .map(|c| verify_structure(c).map(|_| c.program_shape()))
        .collect::<Result<_>>()?;
    let mut names = HashSet::new();
    for c in &module.computations {
        for ins in &c.instructions {
            if !names.insert(ins.name.as_str()) {
                return Err(Error::Verify(format!(
                    "computation {}: instruction name {} is used twice in the module",
                    c.name, ins.name
                )));
            }
        }
        verify_shapes(c, &shapes)?;
    }
    Ok(())
}

/// Operand order, parameter numbering and root of one computation.
fn verify_structure(c: &HloComputation) -> Result<()> {
    let n = c.instructions.len();
    if c.root.index() >= n {
        return Err(Error::Verify(format!(
            "computation {}: root id {} does not exist",
            c.name, c.root.0
        )));
    }
    for (i, ins) in c.instructions.iter().enumerate() {
        for &o in &ins.operands {
            if o.index() >= i {
                return Err(Error::Verify(format!(
                    "computation {}: instruction {} uses operand id {} that is not defined before it",
                    c.name, ins.name, o.0
                )));
            }
        }
    }
    let mut seen = vec![false; c.parameters.len()];
    for (i, ins) in c.instructions.iter().enumerate() {
        if let Op::Parameter { number } = ins.op {
            let ok = number < seen.len() && c.parameters[number].index() == i && !seen[number];
            if !ok {
                return Err(Error::Verify(format!(
                    "computation {}: parameter {} has number {number}, which is out of range, repeated or not listed",
                    c.name, ins.name
                )));
            }
            seen[number] = true;
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(Error::Verify(format!(
            "computation {}: parameter number {missing} is not a parameter instruction",
            c.name
        )));
    }
    Ok(())
}

fn verify_shapes(c: &HloComputation, shapes: &[ProgramShape]) -> Result<()> {
    for ins in &c.instructions {
        let operands: Vec<&Shape> = ins.operands.iter().map(|&o| &c.instr(o).shape).collect();
        let called: Vec<&ProgramShape> = ins
            .called
            .iter()
            .map(|&k| {
                shapes.get(k.index()).ok_or_else(|| {
                    Error::Verify(format!(
                        "computation {}: instruction {} calls unknown computation id {}",
                        c.name, ins.name, k.0
                    ))
                })
            })
            .collect::<Result<_>>()?;
        let inferred = infer_shape(&ins.op, &operands, &called, Some(&ins.shape)).map_err(|e| {
            Error::Verify(format!(
                "computation {}: instruction {}: {e}",
                c.name, ins.name
            ))
        })?;
        if !inferred.compatible(&ins.shape) {
            return Err(Error::Verify(format!(
                "computation {}: instruction {} has shape {} but its inferred shape is {inferred}",
                c.name,
                ins.name,
                ins.shape.without_layout()
            )));
        }
    }
    Ok(())
}
