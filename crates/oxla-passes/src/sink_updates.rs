//! Element-wise instructions sunk below in-place updates:
//! `f(dynamic-update-slice(a, u, i…), s…)`, every other operand of `f` a scalar or a
//! broadcast scalar, is `dynamic-update-slice(f(a, s…), f(u, s…), i…)`; likewise an
//! overwriting scatter (its combiner returns the update). Element by element the values are
//! the same (`f` of whatever the update left there; a scatter's skipped out-of-bounds windows
//! and a dynamic-update-slice's clamped start are those of the original).
//!
//! Why: `x.at[100:900, 200:400].set(y) * 2` copied `x` (a parameter, which an update may
//! not write) to update it, then read the copy again for the multiply: four passes over the
//! array. Sunk, the multiply writes a fresh array in one pass and the update writes only its
//! window into it, in place.

use std::collections::{HashMap, HashSet};

use oxla_hlo::{ArrayShape, HloComputation, HloInstruction, HloModule, InstrId, Op, Result, Shape};

use crate::rewrite::apply_replacements;

/// A value every element of which is one scalar: a rank-0 value, or a broadcast of one.
fn scalar_like(c: &HloComputation, id: InstrId) -> Option<InstrId> {
    let ins = c.instr(id);
    let rank0 = |i: InstrId| c.instr(i).shape.as_array().is_some_and(|a| a.rank() == 0);
    if rank0(id) {
        return Some(id);
    }
    match (&ins.op, &ins.operands[..]) {
        (Op::Broadcast { .. }, [o]) if rank0(*o) => Some(*o),
        _ => None,
    }
}

/// Whether scatter `id` has one operand and a combiner that returns the update.
fn overwriting_scatter(m: &HloModule, c: &HloComputation, id: InstrId) -> bool {
    let ins = c.instr(id);
    if !matches!(ins.op, Op::Scatter { .. }) || ins.operands.len() != 3 {
        return false;
    }
    let Some(&comb) = ins.called.first() else {
        return false;
    };
    let Some(body) = m.computations.get(comb.index()) else {
        return false;
    };
    body.parameters.len() == 2 && body.root == body.parameters[1]
}

/// Moves element-wise instructions of a single-use update below it (module doc).
pub fn sink_updates(module: &mut HloModule) -> Result<bool> {
    let mut names: HashSet<String> = module
        .computations
        .iter()
        .flat_map(|c| c.instructions.iter().map(|i| i.name.clone()))
        .collect();
    let mut changed = false;
    for ci in 0..module.computations.len() {
        let plans: Vec<Sink> = {
            let c = &module.computations[ci];
            let users = c.users();
            c.ids()
                .filter_map(|id| sink_of(module, c, &users, id))
                .collect()
        };
        if plans.is_empty() {
            continue;
        }
        let c = &mut module.computations[ci];
        let mut rep = HashMap::new();
        let mut taken = HashSet::new();
        for s in plans {
            // One rewrite per update per round (the pipeline runs to a fixed point).
            if !taken.insert(s.update) {
                continue;
            }
            let new = rewrite(c, &s, &mut names);
            rep.insert(s.at, new);
        }
        apply_replacements(c, &rep);
        crate::rewrite::topological_order(c);
        changed = true;
    }
    Ok(changed)
}

/// One sinking: element-wise instruction `at` over the update `update`.
struct Sink {
    at: InstrId,
    update: InstrId,
}

fn sink_of(m: &HloModule, c: &HloComputation, users: &[Vec<InstrId>], id: InstrId) -> Option<Sink> {
    let ins = c.instr(id);
    if !ins.op.is_elementwise_compute() || !ins.shape.as_array().is_some_and(|a| a.is_static()) {
        return None;
    }
    let mut update = None;
    for &o in &ins.operands {
        let oi = c.instr(o);
        let is_update = matches!(oi.op, Op::DynamicUpdateSlice) || overwriting_scatter(m, c, o);
        if is_update && oi.shape.as_array().is_some_and(|a| a.rank() > 0) {
            if update.is_some_and(|u| u != o) {
                return None;
            }
            update = Some(o);
        } else if scalar_like(c, o).is_none() {
            return None;
        }
    }
    let update = update?;
    // The update must die here: otherwise both it and the sunk form would be computed.
    if users[update.index()].iter().any(|&u| u != id) {
        return None;
    }
    let u = c.instr(update);
    // A scatter's combiner is typed by its operand: `f` must keep the element type.
    if matches!(u.op, Op::Scatter { .. }) && u.shape.element_type() != ins.shape.element_type() {
        return None;
    }
    Some(Sink { at: id, update })
}

/// Appends `f(a, s…)`, `f(u, s…)` and the update of the first by the second; returns the
/// update.
fn rewrite(c: &mut HloComputation, s: &Sink, names: &mut HashSet<String>) -> InstrId {
    let ins = c.instr(s.at).clone();
    let upd = c.instr(s.update).clone();
    let (base, piece) = match upd.op {
        Op::Scatter { .. } => (upd.operands[0], upd.operands[2]),
        _ => (upd.operands[0], upd.operands[1]),
    };
    let t = ins.shape.element_type();
    let mut fresh = |stem: &str| {
        let mut name = format!("{}.{stem}", ins.name);
        let mut k = 1;
        while !names.insert(name.clone()) {
            k += 1;
            name = format!("{}.{stem}.{k}", ins.name);
        }
        name
    };
    let push = |c: &mut HloComputation, ins: HloInstruction| {
        c.instructions.push(ins);
        InstrId(c.instructions.len() as u32 - 1)
    };
    // `f` over the base array: the broadcasts already have its dimensions.
    let base_ops: Vec<InstrId> = ins
        .operands
        .iter()
        .map(|&o| if o == s.update { base } else { o })
        .collect();
    let mut f_base = ins.clone();
    f_base.name = fresh("base");
    f_base.operands = base_ops;
    f_base.plan = None;
    let f_base = push(c, f_base);
    // `f` over the piece: broadcasts again to its dimensions.
    let piece_dims = c.instr(piece).shape.dims().to_vec();
    let mut piece_ops = Vec::with_capacity(ins.operands.len());
    for &o in &ins.operands {
        if o == s.update {
            piece_ops.push(piece);
            continue;
        }
        let v = scalar_like(c, o).unwrap_or(o);
        let vs = c.instr(v).shape.element_type();
        // A rank-0 operand of a clamp stays rank 0; a broadcast one is broadcast again.
        if c.instr(o).shape.as_array().is_some_and(|a| a.rank() == 0) {
            piece_ops.push(o);
        } else {
            let b = HloInstruction::new(
                fresh("bcast"),
                Op::Broadcast { dimensions: vec![] },
                vec![v],
                Shape::Array(ArrayShape::new(vs, &piece_dims)),
            );
            piece_ops.push(push(c, b));
        }
    }
    let mut f_piece = ins.clone();
    f_piece.name = fresh("piece");
    f_piece.operands = piece_ops;
    f_piece.plan = None;
    f_piece.shape = Shape::Array(ArrayShape::new(t, &piece_dims));
    let f_piece = push(c, f_piece);
    let mut new_upd = upd.clone();
    new_upd.name = fresh("update");
    new_upd.shape = ins.shape.clone();
    new_upd.plan = None;
    match upd.op {
        Op::Scatter { .. } => {
            new_upd.operands[0] = f_base;
            new_upd.operands[2] = f_piece;
        }
        _ => {
            new_upd.operands[0] = f_base;
            new_upd.operands[1] = f_piece;
        }
    }
    push(c, new_upd)
}
