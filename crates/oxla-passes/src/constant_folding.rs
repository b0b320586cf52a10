//! Constant folding through the reference interpreter: an instruction whose operands are
//! all constants (and that has no side effect) becomes a constant, when its result is no
//! larger than `MAX_ELEMENTS` (large folded constants would bloat the module).

use oxla_hlo::{
    ComputationId, HloComputation, HloInstruction, HloModule, InstrId, ModuleConfig, Op, Result,
};

const MAX_ELEMENTS: i64 = 1 << 16;

fn foldable(op: &Op) -> bool {
    !op.has_side_effect()
        && !matches!(
            op,
            Op::Parameter { .. }
                | Op::Constant(_)
                | Op::Rng { .. }
                | Op::RngBitGenerator { .. }
                | Op::ReplicaId
                | Op::PartitionId
                | Op::CustomCall { .. }
                | Op::AfterAll
                | Op::Tuple
                | Op::While
                // A broadcast or iota is cheap to recompute and fuses into its users; a big
                // folded constant would only cost memory (XLA does not fold them either).
                | Op::Broadcast { .. }
                | Op::Iota { .. }
        )
}

pub fn fold_constants(module: &mut HloModule) -> Result<bool> {
    let interp = oxla_interp::Interpreter::new();
    let mut changed = false;
    for ci in 0..module.computations.len() {
        for i in 0..module.computations[ci].instructions.len() {
            let c = &module.computations[ci];
            let ins = &c.instructions[i];
            let all_const = ins
                .operands
                .iter()
                .all(|o| matches!(c.instr(*o).op, Op::Constant(_)));
            let small = ins.shape.is_array() && ins.shape.element_count() <= MAX_ELEMENTS;
            if !foldable(&ins.op) || !all_const || !small || ins.operands.is_empty() {
                continue;
            }
            // A one-instruction module: the constants, the instruction (its callees are
            // the module's computations, so they keep their ids).
            let mut instrs: Vec<HloInstruction> =
                ins.operands.iter().map(|o| c.instr(*o).clone()).collect();
            let mut folded = ins.clone();
            folded.operands = (0..instrs.len() as u32).map(InstrId).collect();
            instrs.push(folded);
            // Fresh names: the originals also live in the cloned computations.
            for (k, x) in instrs.iter_mut().enumerate() {
                x.name = format!("__fold.{k}");
            }
            let root = InstrId(instrs.len() as u32 - 1);
            let mut m = HloModule {
                name: "fold".into(),
                computations: module.computations.clone(),
                entry: ComputationId(module.computations.len() as u32),
                config: ModuleConfig::default(),
            };
            m.computations.push(HloComputation {
                name: "__fold_entry".into(),
                instructions: instrs,
                parameters: vec![],
                root,
            });
            // Ops the interpreter cannot evaluate here simply stay unfolded.
            let Ok(value) = interp.run(&m, &[]) else {
                continue;
            };
            let ins = &mut module.computations[ci].instructions[i];
            let mut lit = value;
            if let Ok(l) = oxla_hlo::Literal::from_parts(ins.shape.clone(), lit.data().clone()) {
                lit = l;
            }
            ins.op = Op::Constant(lit);
            ins.operands.clear();
            ins.called.clear();
            changed = true;
        }
    }
    Ok(changed)
}
