//! Combining all-reduces: the partitioner sums each gradient where it is made, one
//! all-reduce each; independent ones over the same groups with the same reducer and element
//! type become one variadic all-reduce (a tuple), as XLA's all-reduce combiner does, so a
//! training step synchronizes once instead of once per parameter.
//!
//! The all-reduces whose operands need no all-reduce ("the first wave") are combined; to
//! make room, the computation is reordered: everything that needs no all-reduce first, then
//! the combined all-reduces, then the rest in its old order. Every partition runs the same
//! order, so collectives still meet; a computation with other side effects (infeed,
//! outfeed, host calls) keeps its order.

use std::collections::HashMap;

use oxla_hlo::{HloComputation, HloInstruction, InstrId, Op, Shape};

fn collective(op: &Op) -> bool {
    matches!(
        op,
        Op::AllGather { .. }
            | Op::AllReduce { .. }
            | Op::ReduceScatter { .. }
            | Op::AllToAll { .. }
            | Op::CollectivePermute { .. }
            | Op::CollectiveBroadcast { .. }
            | Op::CollectiveReduce { .. }
    )
}

/// Combines the computation's first wave of all-reduces; returns how many combined
/// all-reduces it made.
pub(super) fn combine_all_reduces(c: &mut HloComputation) -> usize {
    if c.instructions
        .iter()
        .any(|i| i.op.has_side_effect() && !collective(&i.op))
    {
        return 0;
    }
    let n = c.instructions.len();
    let candidate = |ins: &HloInstruction| {
        matches!(
            ins.op,
            Op::AllReduce {
                channel_id: Some(_),
                ..
            }
        ) && ins.operands.len() == 1
            && ins.shape.is_array()
    };
    // Whether each instruction needs a candidate's result (or is one).
    let mut dep = vec![false; n];
    for (i, ins) in c.instructions.iter().enumerate() {
        dep[i] = candidate(ins) || ins.operands.iter().any(|o| dep[o.index()]);
    }
    // The first wave, by what must agree for one all-reduce.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, ins) in c.instructions.iter().enumerate() {
        if !candidate(ins) || dep[ins.operands[0].index()] {
            continue;
        }
        let Op::AllReduce {
            replica_groups,
            use_global_device_ids,
            ..
        } = &ins.op
        else {
            continue;
        };
        let key = format!(
            "{replica_groups:?}/{use_global_device_ids}/{:?}/{:?}",
            ins.called,
            ins.shape.element_type()
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let combined = groups.iter().filter(|(_, m)| m.len() > 1).count();
    if combined == 0 {
        return 0;
    }
    let wave: HashMap<usize, ()> = groups
        .iter()
        .flat_map(|(_, m)| m.iter().map(|&i| (i, ())))
        .collect();
    let old = std::mem::take(&mut c.instructions);
    let mut map: Vec<InstrId> = vec![InstrId(u32::MAX); n];
    let mut out: Vec<HloInstruction> = Vec::with_capacity(n + 2 * combined);
    let copy = |i: usize, out: &mut Vec<HloInstruction>, map: &mut Vec<InstrId>| {
        let mut new = old[i].clone();
        for o in &mut new.operands {
            *o = map[o.index()];
        }
        out.push(new);
        map[i] = InstrId(out.len() as u32 - 1);
    };
    for (i, &d) in dep.iter().enumerate() {
        if !d {
            copy(i, &mut out, &mut map);
        }
    }
    for (_, members) in &groups {
        if members.len() == 1 {
            copy(members[0], &mut out, &mut map);
            continue;
        }
        let first = &old[members[0]];
        let shape = Shape::Tuple(members.iter().map(|&m| old[m].shape.clone()).collect());
        // The IR's all-reduce takes one operand: a tuple for several arrays.
        out.push(HloInstruction::new(
            format!("{}.operands", first.name),
            Op::Tuple,
            members
                .iter()
                .map(|&m| map[old[m].operands[0].index()])
                .collect(),
            shape.clone(),
        ));
        let mut all = first.clone();
        all.name = format!("{}.combined", first.name);
        all.operands = vec![InstrId(out.len() as u32 - 1)];
        all.shape = shape;
        out.push(all);
        let tuple = InstrId(out.len() as u32 - 1);
        for (k, &m) in members.iter().enumerate() {
            out.push(HloInstruction::new(
                old[m].name.clone(),
                Op::GetTupleElement { index: k },
                vec![tuple],
                old[m].shape.clone(),
            ));
            map[m] = InstrId(out.len() as u32 - 1);
        }
    }
    for (i, &d) in dep.iter().enumerate() {
        if d && !wave.contains_key(&i) {
            copy(i, &mut out, &mut map);
        }
    }
    for p in &mut c.parameters {
        *p = map[p.index()];
    }
    c.root = map[c.root.index()];
    c.instructions = out;
    combined
}
