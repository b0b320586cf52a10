//! Multi-output fusion of element-wise kernels: kernels of one shape that read each other's
//! values element for element — a DAG whose values have several users, which loop fusion
//! (`fusion.rs`) leaves as one kernel per shared value — become one `kLoop` fusion that
//! computes every member at each index in a single pass over memory. Its root is a tuple of
//! the members other kernels still read (or that member alone), each of those a
//! `get-tuple-element` of it; the other members' values never reach memory.
//!
//! A threefry round (`x0 += x1; x1 = rotl(x1, r) ^ x0`, JAX's random bits) is such a DAG:
//! each value feeds the next add and the next rotation. Run as one kernel per value, a
//! [512, 1024] bernoulli's loop body made nine passes over 2 MiB arrays per iteration.
//!
//! A member joins only where every read between members is at the reader's own index
//! (through element-wise operations of the common shape alone), so nothing is computed
//! twice, and only where the merged kernels form no cycle with the rest of the computation
//! (no path leaves the group and comes back), so the fusion has a place in the order.

use std::collections::{BTreeSet, HashMap};

use oxla_hlo::{
    ArrayShape, ComputationId, FusionKind, HloComputation, HloInstruction, HloModule, InstrId, Op,
    Result, Shape,
};

use crate::dce::dce;
use crate::fusion::expensive;
use crate::horizontal::program_computations;

/// Most kernels one multi-output fusion takes in.
const MAX_MEMBERS: usize = 64;
/// Most instructions in one fused body (compile time per kernel stays bounded, as
/// `fusion.rs`' limit).
const MAX_BODY: usize = 512;

/// The array a candidate kernel computes: a loop fusion rooted at an element-wise
/// operation, or a lone element-wise operation, of a non-scalar array, with no
/// transcendental or power in it. Those run at the CPU's full vector width as a kernel of
/// their own (`vector_program.rs`, `wide_math.rs`: a single output), where a multi-output
/// loop computes them in 128-bit vectors: a cross-entropy gradient's `x - max` fused with
/// its `exp` ([256, 32000] f32, Zen 3, AVX2) ran 16-19 ms against 12-14 ms as two kernels.
fn kernel_array<'a>(module: &'a HloModule, ins: &'a HloInstruction) -> Option<&'a ArrayShape> {
    let a = ins.shape.as_array()?;
    if a.dims.is_empty() {
        return None;
    }
    let ok = match &ins.op {
        Op::Fusion {
            kind: FusionKind::Loop,
        } => {
            let body = module.computation(*ins.called.first()?);
            body.root_instr().op.is_elementwise_compute()
                && !body.instructions.iter().any(expensive)
        }
        op => op.is_elementwise_compute() && !expensive(ins),
    };
    ok.then_some(a)
}

/// How many instructions a candidate brings into a fused body.
fn body_size(module: &HloModule, ins: &HloInstruction) -> usize {
    match (&ins.op, ins.called.first()) {
        (Op::Fusion { .. }, Some(&c)) => module.computation(c).instructions.len(),
        _ => 1,
    }
}

/// Whether kernel `ins` reads its operand `k` only at its own output index: a lone
/// element-wise operation does; a fusion does where every path from that parameter to
/// its root passes through element-wise operations of the root's dimensions alone.
fn reads_at_own_index(module: &HloModule, ins: &HloInstruction, k: usize) -> bool {
    let Op::Fusion { .. } = ins.op else {
        return ins.op.is_elementwise_compute();
    };
    let Some(&c) = ins.called.first() else {
        return false;
    };
    let body = module.computation(c);
    let dims = body.root_instr().shape.dims();
    let Some(&param) = body
        .parameters
        .iter()
        .find(|&&p| matches!(body.instr(p).op, Op::Parameter { number } if number == k))
    else {
        return false;
    };
    let users = body.users();
    let mut stack = vec![param];
    let mut seen = BTreeSet::new();
    while let Some(id) = stack.pop() {
        for &u in &users[id.index()] {
            if !seen.insert(u) {
                continue;
            }
            let ui = body.instr(u);
            if !ui.op.is_elementwise_compute() || ui.shape.dims() != dims {
                return false;
            }
            stack.push(u);
        }
    }
    true
}

/// Groups of one computation: union-find over instruction indices.
struct Groups {
    parent: Vec<usize>,
    members: HashMap<usize, BTreeSet<usize>>,
    size: HashMap<usize, usize>,
}

impl Groups {
    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }
}

/// Whether the union of `set`'s members, fused, would sit on a cycle: some path leaves a
/// member through instructions outside the set and reaches a member again.
fn cyclic(users: &[Vec<InstrId>], set: &BTreeSet<usize>) -> bool {
    let mut outside = BTreeSet::new();
    let mut stack: Vec<usize> = Vec::new();
    for &m in set {
        for u in &users[m] {
            if !set.contains(&u.index()) && outside.insert(u.index()) {
                stack.push(u.index());
            }
        }
    }
    // The first member bounds the search: nothing before it is reachable from it.
    let last = set.iter().next_back().copied().unwrap_or(0);
    while let Some(i) = stack.pop() {
        if i > last {
            continue;
        }
        for u in &users[i] {
            let u = u.index();
            if set.contains(&u) {
                return true;
            }
            if outside.insert(u) {
                stack.push(u);
            }
        }
    }
    false
}

pub fn fuse_multi_output(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    let mut counter = module
        .computations
        .iter()
        .filter(|c| c.name.starts_with("mfused."))
        .count();
    for ci in program_computations(module) {
        let c = &module.computations[ci];
        let n = c.instructions.len();
        let users = c.users();
        let array: Vec<Option<&ArrayShape>> = c
            .instructions
            .iter()
            .map(|ins| kernel_array(module, ins))
            .collect();
        let mut g = Groups {
            parent: (0..n).collect(),
            members: HashMap::new(),
            size: HashMap::new(),
        };
        for (i, ins) in c.instructions.iter().enumerate() {
            if array[i].is_some() {
                g.members.insert(i, BTreeSet::from([i]));
                g.size.insert(i, body_size(module, ins));
            }
        }
        let same = |a: &ArrayShape, b: &ArrayShape| a.dims == b.dims && a.layout == b.layout;
        for i in 0..n {
            let Some(ai) = array[i] else { continue };
            let ins = &c.instructions[i];
            for o in &ins.operands {
                let p = o.index();
                if !array[p].is_some_and(|ap| same(ap, ai)) {
                    continue;
                }
                let (gp, gi) = (g.find(p), g.find(i));
                if gp == gi {
                    continue;
                }
                let union: BTreeSet<usize> =
                    g.members[&gp].union(&g.members[&gi]).copied().collect();
                if union.len() > MAX_MEMBERS || g.size[&gp] + g.size[&gi] > MAX_BODY {
                    continue;
                }
                // Every read between members of the union at the reader's own index (this
                // edge's and those the union adds: a member reading another twice).
                let aligned = union.iter().all(|&m| {
                    let mi = &c.instructions[m];
                    mi.operands.iter().enumerate().all(|(j, x)| {
                        !union.contains(&x.index()) || reads_at_own_index(module, mi, j)
                    })
                });
                if !aligned || cyclic(&users, &union) {
                    continue;
                }
                let total = g.size[&gp] + g.size[&gi];
                g.parent[gp] = gi;
                g.members.remove(&gp);
                g.size.remove(&gp);
                g.members.insert(gi, union);
                g.size.insert(gi, total);
            }
        }
        let mut groups: Vec<BTreeSet<usize>> =
            g.members.into_values().filter(|m| m.len() >= 2).collect();
        if groups.is_empty() {
            continue;
        }
        groups.sort();
        let mut fused = Vec::new();
        for set in &groups {
            counter += 1;
            let tag = format!("mfused.{counter}");
            let comp_id = ComputationId((module.computations.len() + fused.len()) as u32);
            fused.push(build(module, ci, set, &users, &tag, comp_id));
        }
        let plans: Vec<Plan> = fused.iter().map(|f| f.1.clone()).collect();
        for (comp, _) in fused {
            module.computations.push(comp);
        }
        rewrite(&mut module.computations[ci], &plans);
        changed = true;
    }
    if changed {
        dce(module)?;
    }
    Ok(changed)
}

/// How one group replaces its members in the computation.
#[derive(Clone)]
struct Plan {
    members: BTreeSet<usize>,
    /// The members read outside the group, in order (tuple elements of the fusion).
    outputs: Vec<usize>,
    /// Their names and shapes (each element of the fusion keeps its member's).
    elements: Vec<(String, Shape)>,
    externals: Vec<InstrId>,
    fusion: HloInstruction,
}

/// The fused computation of group `set` of computation `ci`, and how it replaces them.
fn build(
    module: &HloModule,
    ci: usize,
    set: &BTreeSet<usize>,
    users: &[Vec<InstrId>],
    tag: &str,
    comp_id: ComputationId,
) -> (HloComputation, Plan) {
    let c = &module.computations[ci];
    let mut externals: Vec<InstrId> = Vec::new();
    for &m in set {
        for o in &c.instructions[m].operands {
            if !set.contains(&o.index()) && !externals.contains(o) {
                externals.push(*o);
            }
        }
    }
    let outputs: Vec<usize> = set
        .iter()
        .copied()
        .filter(|&m| m == c.root.index() || users[m].iter().any(|u| !set.contains(&u.index())))
        .collect();
    let (mut body, params) = crate::rewrite::fused_parameters(c, &externals, tag);
    let mut value: HashMap<usize, InstrId> = externals
        .iter()
        .zip(&params)
        .map(|(e, &p)| (e.index(), p))
        .collect();
    for &m in set {
        let ins = &c.instructions[m];
        let args: Vec<InstrId> = ins.operands.iter().map(|o| value[&o.index()]).collect();
        // A loop fusion's body is copied in; its parameters read the members' values or the
        // shared parameters.
        let id = crate::rewrite::copy_kernel(module, &mut body, ins, args, tag);
        value.insert(m, id);
    }
    let (root, shape, name) = if let [only] = outputs[..] {
        let ins = &c.instructions[only];
        (value[&only], ins.shape.clone(), ins.name.clone())
    } else {
        let roots: Vec<InstrId> = outputs.iter().map(|m| value[m]).collect();
        let shape = Shape::Tuple(
            outputs
                .iter()
                .map(|&m| c.instructions[m].shape.clone())
                .collect(),
        );
        body.push(HloInstruction::new(
            format!("{tag}.root"),
            Op::Tuple,
            roots,
            shape.clone(),
        ));
        (InstrId(body.len() as u32 - 1), shape, tag.to_string())
    };
    let fusion = HloInstruction {
        name,
        op: Op::Fusion {
            kind: FusionKind::Loop,
        },
        operands: externals.clone(),
        called: vec![comp_id],
        shape,
        plan: None,
    };
    (
        HloComputation {
            name: format!("{tag}_computation"),
            instructions: body,
            parameters: params,
            root,
        },
        Plan {
            members: set.clone(),
            elements: outputs
                .iter()
                .map(|&m| {
                    (
                        c.instructions[m].name.clone(),
                        c.instructions[m].shape.clone(),
                    )
                })
                .collect(),
            outputs,
            externals,
            fusion,
        },
    )
}

/// Replaces each group's members by its fusion (where its last member was) and their
/// elements, then restores a topological order: a user of an early member that came
/// before the last one moves after the fusion (the groups are free of cycles, so nothing
/// the fusion reads depends on it).
fn rewrite(c: &mut HloComputation, plans: &[Plan]) {
    let n = c.instructions.len();
    let mut group_of: Vec<Option<usize>> = vec![None; n];
    for (k, p) in plans.iter().enumerate() {
        for &m in &p.members {
            group_of[m] = Some(k);
        }
    }
    // New ids: every kept instruction, each fusion and its elements.
    let mut new_id: Vec<Option<u32>> = vec![None; n];
    let mut fusion_id = vec![0u32; plans.len()];
    let mut next = 0u32;
    for i in 0..n {
        match group_of[i] {
            Some(k) if plans[k].members.last() == Some(&i) => {
                fusion_id[k] = next;
                next += 1;
                if plans[k].outputs.len() == 1 {
                    new_id[plans[k].outputs[0]] = Some(fusion_id[k]);
                } else {
                    for &o in &plans[k].outputs {
                        new_id[o] = Some(next);
                        next += 1;
                    }
                }
            }
            Some(_) => {}
            None => {
                new_id[i] = Some(next);
                next += 1;
            }
        }
    }
    let id = |i: usize, new_id: &[Option<u32>]| InstrId(new_id[i].unwrap_or(u32::MAX));
    let old = std::mem::take(&mut c.instructions);
    let mut out: Vec<HloInstruction> = Vec::with_capacity(next as usize);
    for (i, mut ins) in old.into_iter().enumerate() {
        match group_of[i] {
            Some(k) if plans[k].members.last() == Some(&i) => {
                let p = &plans[k];
                let mut f = p.fusion.clone();
                f.operands = p.externals.iter().map(|e| id(e.index(), &new_id)).collect();
                let fid = InstrId(out.len() as u32);
                out.push(f);
                if p.outputs.len() > 1 {
                    for (e, (name, shape)) in p.elements.iter().enumerate() {
                        out.push(HloInstruction::new(
                            name.clone(),
                            Op::GetTupleElement { index: e },
                            vec![fid],
                            shape.clone(),
                        ));
                    }
                }
            }
            // An earlier member: the fusion's element stands for it.
            Some(_) => {}
            None => {
                for o in &mut ins.operands {
                    *o = id(o.index(), &new_id);
                }
                out.push(ins);
            }
        }
    }
    c.instructions = out;
    for p in &mut c.parameters {
        *p = id(p.index(), &new_id);
    }
    c.root = id(c.root.index(), &new_id);
    crate::rewrite::topological_order(c);
}
