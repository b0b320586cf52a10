//! Call inlining (XLA's CallInliner): every `call` (and `composite` call, and `kCustom`
//! fusion from an XLA dump) is replaced by a copy of its callee's instructions, so later passes see one computation — fusion across
//! the call boundary, and buffer reuse / in-place updates that a call frame would hide.

use std::collections::HashSet;

use oxla_hlo::{FusionKind, HloInstruction, HloModule, InstrId, Op, Result};

/// The ops whose called computation is inlined.
fn inlined(op: &Op) -> bool {
    matches!(
        op,
        Op::Call
            | Op::CompositeCall { .. }
            | Op::Fusion {
                kind: FusionKind::Custom
            }
    )
}

pub fn inline_calls(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    for ci in 0..module.computations.len() {
        let has_call = module.computations[ci]
            .instructions
            .iter()
            .any(|i| inlined(&i.op));
        if !has_call {
            continue;
        }
        changed = true;
        let c = &module.computations[ci];
        let mut names: HashSet<String> = c.instructions.iter().map(|i| i.name.clone()).collect();
        let mut out: Vec<HloInstruction> = Vec::new();
        let mut map: Vec<InstrId> = Vec::with_capacity(c.instructions.len());
        for ins in &c.instructions {
            let operands: Vec<InstrId> = ins.operands.iter().map(|o| map[o.index()]).collect();
            let callee = match (&ins.op, ins.called.first()) {
                (op, Some(&callee)) if inlined(op) && callee.index() != ci => callee,
                _ => {
                    let mut n = ins.clone();
                    n.operands = operands;
                    out.push(n);
                    map.push(InstrId(out.len() as u32 - 1));
                    continue;
                }
            };
            let body = &module.computations[callee.index()];
            let root =
                crate::rewrite::copy_callee(&mut out, body, &operands, &ins.name, &mut names);
            map.push(root);
        }
        let c = &mut module.computations[ci];
        c.instructions = out;
        for p in &mut c.parameters {
            *p = map[p.index()];
        }
        c.root = map[c.root.index()];
    }
    if changed {
        crate::dce::dce(module)?;
    }
    Ok(changed)
}
