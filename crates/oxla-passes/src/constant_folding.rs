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
    let effects = module.side_effecting_computations();
    for ci in 0..module.computations.len() {
        for i in 0..module.computations[ci].instructions.len() {
            let c = &module.computations[ci];
            let ins = &c.instructions[i];
            let all_const = ins
                .operands
                .iter()
                .all(|o| matches!(c.instr(*o).op, Op::Constant(_)));
            let small = ins.shape.is_array() && ins.shape.element_count() <= MAX_ELEMENTS;
            if !foldable(&ins.op)
                || HloModule::instruction_has_side_effect(&effects, ins)
                || !all_const
                || !small
                || ins.operands.is_empty()
            {
                continue;
            }
            // A one-instruction module: the constants, the instruction, and only the
            // computations it calls (directly or not), renumbered. Cloning every
            // computation per folded instruction (and verifying the clone) made folding
            // quadratic in the module's size.
            let (mut computations, renumber) = callees(module, &ins.called);
            let mut instrs: Vec<HloInstruction> =
                ins.operands.iter().map(|o| c.instr(*o).clone()).collect();
            let mut folded = ins.clone();
            folded.operands = (0..instrs.len() as u32).map(InstrId).collect();
            instrs.push(folded);
            // Fresh names: the originals also live in the cloned computations.
            for (k, x) in instrs.iter_mut().enumerate() {
                x.name = format!("__fold.{k}");
                for id in &mut x.called {
                    *id = renumber(*id);
                }
            }
            let root = InstrId(instrs.len() as u32 - 1);
            let entry = ComputationId(computations.len() as u32);
            computations.push(HloComputation {
                name: "__fold_entry".into(),
                instructions: instrs,
                parameters: vec![],
                root,
            });
            let m = HloModule {
                name: "fold".into(),
                computations,
                entry,
                config: ModuleConfig::default(),
            };
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

/// Clones of the computations reachable from `called` (in id order, their calls
/// renumbered), and the renumbering of those ids.
fn callees(
    module: &HloModule,
    called: &[ComputationId],
) -> (Vec<HloComputation>, impl Fn(ComputationId) -> ComputationId) {
    let n = module.computations.len();
    let mut reached = vec![false; n];
    let mut stack: Vec<ComputationId> = called.to_vec();
    while let Some(id) = stack.pop() {
        let i = id.0 as usize;
        if i >= n || reached[i] {
            continue;
        }
        reached[i] = true;
        for ins in &module.computations[i].instructions {
            stack.extend(ins.called.iter().copied());
        }
    }
    // New id of each reached computation; an id out of range stays out of range (the
    // interpreter's verifier rejects it, so the instruction stays unfolded).
    let mut new_id = vec![u32::MAX; n];
    let mut next = 0u32;
    for (i, &r) in reached.iter().enumerate() {
        if r {
            new_id[i] = next;
            next += 1;
        }
    }
    let renumber = move |id: ComputationId| {
        ComputationId(new_id.get(id.0 as usize).copied().unwrap_or(u32::MAX))
    };
    let computations = (0..n)
        .filter(|&i| reached[i])
        .map(|i| {
            let mut c = module.computations[i].clone();
            for ins in &mut c.instructions {
                for id in &mut ins.called {
                    *id = renumber(*id);
                }
            }
            c
        })
        .collect();
    (computations, renumber)
}
