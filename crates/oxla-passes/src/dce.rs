//! Dead code elimination: drops instructions nothing reachable uses. The root, parameters
//! and side-effecting instructions (and what they use) stay, including a `while`, call or
//! conditional whose computations have a side effect (a host callback in a loop body).

use oxla_hlo::{HloModule, Op, Result};

use crate::rewrite::compact;

pub fn dce(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    let effects = module.side_effecting_computations();
    for c in &mut module.computations {
        let n = c.instructions.len();
        let mut live = vec![false; n];
        let mut stack = vec![c.root];
        for (i, ins) in c.instructions.iter().enumerate() {
            if HloModule::instruction_has_side_effect(&effects, ins)
                || matches!(ins.op, Op::Parameter { .. })
            {
                stack.push(oxla_hlo::InstrId(i as u32));
            }
        }
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut live[id.index()], true) {
                continue;
            }
            stack.extend(c.instructions[id.index()].operands.iter().copied());
        }
        if live.iter().any(|l| !l) {
            compact(c, &live);
            changed = true;
        }
    }
    Ok(changed)
}
