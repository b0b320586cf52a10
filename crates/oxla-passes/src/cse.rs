//! Common subexpression elimination: an instruction equal to an earlier one (same op and
//! attributes, operands, called computations and shape) is replaced by it. Side-effecting
//! ops and parameters are never merged.

use std::collections::HashMap;

use oxla_hlo::{HloModule, InstrId, Op, Result};

use crate::rewrite::{apply_replacements, resolve};

/// (opcode, operands, called computations): instructions that could be equal.
type Key = (&'static str, Vec<InstrId>, Vec<u32>);

pub fn cse(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    let effects = module.side_effecting_computations();
    for c in &mut module.computations {
        let mut rep: HashMap<InstrId, InstrId> = HashMap::new();
        // Candidates bucketed by a cheap key; equality is checked on the full instruction.
        let mut seen: HashMap<Key, Vec<InstrId>> = HashMap::new();
        for i in 0..c.instructions.len() {
            let id = InstrId(i as u32);
            let operands: Vec<InstrId> = c.instructions[i]
                .operands
                .iter()
                .map(|&o| resolve(&rep, o))
                .collect();
            c.instructions[i].operands = operands.clone();
            let ins = &c.instructions[i];
            if HloModule::instruction_has_side_effect(&effects, ins)
                || matches!(ins.op, Op::Parameter { .. } | Op::Rng { .. })
            {
                continue;
            }
            let key = (
                ins.op.opcode_name(),
                operands,
                ins.called.iter().map(|c| c.0).collect(),
            );
            let bucket = seen.entry(key).or_default();
            let twin = bucket.iter().copied().find(|&o| {
                let other = &c.instructions[o.index()];
                let same_op = match (&other.op, &ins.op) {
                    // Constants are the same only bit for bit: -0.0 == 0.0 as floats, and a
                    // NaN equals no NaN.
                    (Op::Constant(a), Op::Constant(b)) => a.bitwise_eq(b),
                    (a, b) => a == b,
                };
                same_op && other.shape == ins.shape
            });
            match twin {
                Some(t) => {
                    rep.insert(id, t);
                    changed = true;
                }
                None => bucket.push(id),
            }
        }
        apply_replacements(c, &rep);
    }
    Ok(changed)
}
