//! Horizontal fusion of scalar kernels: the rank-0 element-wise kernels of a program
//! computation that read only its parameters, their tuple elements and constants — a loop
//! counter's increment, an index normalized into range, the next step's count — become one
//! multi-output `kLoop` fusion whose root is a tuple of their values, each former kernel a
//! `get-tuple-element` of it. A loop body then pays one kernel step for all of them
//! instead of one each (a step costs far more than the arithmetic of a scalar).
//!
//! Reading nothing computed in the computation is what makes the merge safe: no member can
//! depend on another, and the fusion can sit where the first member was.

use std::collections::{BTreeSet, HashMap};

use oxla_hlo::{
    ComputationId, FusionKind, HloComputation, HloInstruction, HloModule, InstrId, Op, Result,
    Shape,
};

/// The most kernels one horizontal fusion takes (its code stays small).
const MAX_MEMBERS: usize = 16;

/// The computations that run as programs: the entry and, transitively, the computations
/// of its whiles, conditionals and calls (not fusions, reducers or comparators).
pub(crate) fn program_computations(module: &HloModule) -> BTreeSet<usize> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![module.entry.index()];
    while let Some(ci) = stack.pop() {
        if !seen.insert(ci) {
            continue;
        }
        for ins in &module.computations[ci].instructions {
            if matches!(ins.op, Op::While | Op::Conditional | Op::Call) {
                stack.extend(ins.called.iter().map(|c| c.index()));
            }
        }
    }
    seen
}

/// Whether `id` is computed by nothing in `c` (a parameter, an element of one, a constant).
fn is_input(c: &HloComputation, id: InstrId) -> bool {
    match &c.instr(id).op {
        Op::Parameter { .. } | Op::Constant(_) => true,
        Op::GetTupleElement { .. } => {
            matches!(c.instr(c.instr(id).operands[0]).op, Op::Parameter { .. })
        }
        _ => false,
    }
}

/// A scalar element-wise kernel (a loop fusion or a lone element-wise op) reading only
/// inputs.
fn candidate(module: &HloModule, c: &HloComputation, ins: &HloInstruction) -> bool {
    let scalar = matches!(&ins.shape, Shape::Array(a) if a.dims.is_empty());
    let kernel = match &ins.op {
        Op::Fusion {
            kind: FusionKind::Loop,
        } => module
            .computation(ins.called[0])
            .root_instr()
            .shape
            .is_array(),
        Op::Unary(_)
        | Op::Binary(_)
        | Op::Compare { .. }
        | Op::Select
        | Op::Clamp
        | Op::Convert => true,
        _ => false,
    };
    scalar && kernel && ins.operands.iter().all(|&o| is_input(c, o))
}

pub fn fuse_scalars(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    let mut counter = module
        .computations
        .iter()
        .filter(|c| c.name.starts_with("hfused."))
        .count();
    for ci in program_computations(module) {
        let c = &module.computations[ci];
        // The fusion takes the first member's place: later members join only if their
        // inputs are defined before it.
        let mut members: Vec<usize> = Vec::new();
        for (i, ins) in c.instructions.iter().enumerate() {
            if members.len() == MAX_MEMBERS {
                break;
            }
            if candidate(module, c, ins)
                && members
                    .first()
                    .is_none_or(|&f| ins.operands.iter().all(|o| o.index() < f))
            {
                members.push(i);
            }
        }
        if members.len() < 2 {
            continue;
        }
        counter += 1;
        let tag = format!("hfused.{counter}");
        let comp = build_body(module, ci, &members, &tag);
        let comp_id = ComputationId(module.computations.len() as u32);
        let externals = comp.1;
        module.computations.push(comp.0);
        rewrite(
            &mut module.computations[ci],
            &members,
            externals,
            comp_id,
            &tag,
        );
        changed = true;
    }
    Ok(changed)
}

/// The fused computation of `members` of computation `ci` and its external operands (in
/// first-use order).
fn build_body(
    module: &HloModule,
    ci: usize,
    members: &[usize],
    tag: &str,
) -> (HloComputation, Vec<InstrId>) {
    let c = &module.computations[ci];
    let mut externals: Vec<InstrId> = Vec::new();
    for &m in members {
        for o in &c.instructions[m].operands {
            if !externals.contains(o) {
                externals.push(*o);
            }
        }
    }
    let (mut body, params) = crate::rewrite::fused_parameters(c, &externals, tag);
    let param_of: HashMap<InstrId, InstrId> = externals
        .iter()
        .copied()
        .zip(params.iter().copied())
        .collect();
    let mut roots = Vec::new();
    let mut shapes = Vec::new();
    for &m in members {
        let ins = &c.instructions[m];
        let args: Vec<InstrId> = ins.operands.iter().map(|o| param_of[o]).collect();
        // A loop fusion's body is copied in, its parameters read the shared ones.
        let root = crate::rewrite::copy_kernel(module, &mut body, ins, args, tag);
        roots.push(root);
        shapes.push(ins.shape.clone());
    }
    let root = InstrId(body.len() as u32);
    body.push(HloInstruction::new(
        format!("{tag}.root"),
        Op::Tuple,
        roots,
        Shape::Tuple(shapes),
    ));
    (
        HloComputation {
            name: format!("{tag}_computation"),
            instructions: body,
            parameters: params,
            root,
        },
        externals,
    )
}

/// Puts the fusion where the first member was and each member's value as an element of it.
fn rewrite(
    c: &mut HloComputation,
    members: &[usize],
    externals: Vec<InstrId>,
    comp: ComputationId,
    tag: &str,
) {
    let first = members[0];
    let shape = Shape::Tuple(
        members
            .iter()
            .map(|&m| c.instructions[m].shape.clone())
            .collect(),
    );
    let old = std::mem::take(&mut c.instructions);
    let mut new_id: Vec<InstrId> = Vec::with_capacity(old.len());
    let mut fusion_id = InstrId(0);
    for (i, mut ins) in old.into_iter().enumerate() {
        if i == first {
            fusion_id = InstrId(c.instructions.len() as u32);
            // Every external is defined before the first member (see `fuse_scalars`).
            let operands = externals.iter().map(|e| new_id[e.index()]).collect();
            c.instructions.push(HloInstruction {
                name: tag.to_string(),
                op: Op::Fusion {
                    kind: FusionKind::Loop,
                },
                operands,
                called: vec![comp],
                shape: shape.clone(),
                plan: None,
            });
        }
        if let Some(k) = members.iter().position(|&m| m == i) {
            let mut gte = HloInstruction::new(
                ins.name.clone(),
                Op::GetTupleElement { index: k },
                vec![fusion_id],
                ins.shape.clone(),
            );
            gte.plan = None;
            new_id.push(InstrId(c.instructions.len() as u32));
            c.instructions.push(gte);
            continue;
        }
        for o in &mut ins.operands {
            *o = new_id[o.index()];
        }
        new_id.push(InstrId(c.instructions.len() as u32));
        c.instructions.push(ins);
    }
    for p in &mut c.parameters {
        *p = new_id[p.index()];
    }
    c.root = new_id[c.root.index()];
}
