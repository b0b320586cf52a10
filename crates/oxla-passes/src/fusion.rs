//! Loop and input fusion: chains of element-wise ops (with the broadcasts, iotas and scalar
//! constants they read) become one `fusion` instruction of kind `kLoop` whose computation
//! holds the chain; a reduce takes its element-wise producers into a `kInput` fusion. A
//! producer joins its consumer's fusion only when that consumer is its one user, so nothing
//! is computed twice. Dots, convolutions and the rest are left as they are.

use std::collections::{BTreeSet, HashMap, HashSet};

use oxla_hlo::{
    ComputationId, FusionKind, HloComputation, HloInstruction, HloModule, InstrId, Op, Result,
};

use crate::dce::dce;

/// The longest producer chain one fusion takes in: code generation inlines a fusion by
/// recursion over operands (on a thread with a stack for it, `oxla-codegen`'s
/// `CODEGEN_STACK`), so its depth bounds the compiler's stack. An unrolled threefry hash
/// (20 rounds, a few operations deep each) needs about 100 to stay one kernel.
const MAX_FUSION_DEPTH: usize = 256;
/// The most instructions one fusion takes in (compile time per kernel stays bounded).
const MAX_FUSION_SIZE: usize = 512;

fn fusible(ins: &HloInstruction) -> bool {
    match &ins.op {
        op if op.is_elementwise_compute() => ins.shape.is_array(),
        Op::Broadcast { .. }
        | Op::Iota { .. }
        // Data movement is an index map in a loop kernel: fusing it saves a copy.
        | Op::Reshape
        | Op::Transpose { .. }
        | Op::Slice { .. }
        | Op::Reverse { .. }
        | Op::Concatenate { .. }
        | Op::Pad(_)
        | Op::Copy => ins.shape.is_array(),
        Op::Constant(l) => l.shape().is_scalar(),
        _ => false,
    }
}

/// The most elements of a dynamic-slice that joins its consumer's fusion: one that small
/// (an index read from an array, typically) costs a step of its own for a few loads, where
/// a larger one is better as a view of its operand (`steps/kernel.rs`' contiguous slices)
/// or a copy read by a loop at its own stride.
const MAX_FUSED_DYNAMIC_SLICE: i64 = 16;

/// Whether `ins` may join its consumer's fusion (it cannot root one).
fn fusible_producer(ins: &HloInstruction) -> bool {
    fusible(ins)
        || matches!(ins.op, Op::DynamicSlice { .. })
            && ins
                .shape
                .as_array()
                .is_some_and(|a| a.dims.iter().product::<i64>() <= MAX_FUSED_DYNAMIC_SLICE)
}

/// Whether `ins` costs far more per element than a load: a transcendental or a power. Such a
/// producer stays out of a fusion whose loop would evaluate each of its elements several
/// times (it reaches the root through a broadcast, as RoPE's sin/cos tables or a per-row
/// log do): it runs once as its own kernel and the fusion reads its result.
pub(crate) fn expensive(ins: &HloInstruction) -> bool {
    use oxla_hlo::{BinaryOp as B, UnaryOp as U};
    match &ins.op {
        Op::Unary(u) => matches!(
            u,
            U::Cbrt
                | U::Cos
                | U::Erf
                | U::Exp
                | U::Expm1
                | U::Log
                | U::Log1p
                | U::Logistic
                | U::Sin
                | U::Tan
                | U::Tanh
        ),
        Op::Binary(b) => matches!(b, B::Pow | B::Atan2),
        _ => false,
    }
}

/// How many times over a fusion's loop may evaluate each element of a computing producer
/// (a row's statistic turned into its scale: RMSNorm's `rsqrt(sum / n + eps)`, broadcast
/// along the row) before that producer runs as its own small kernel, whose result the loop
/// reads: the loop's per-element steps would redo the row's arithmetic for every element
/// (RMSNorm in bf16, [8192, 512], Zen 3: 3.2-4.4 ms with the row's five steps, each
/// rounded, per element).
const MAX_REUSE: i64 = 16;
/// Fewest elements of a loop for [`MAX_REUSE`] to apply (a small one runs its few extra
/// steps faster than a kernel of its own is dispatched), and fewest of the producer (a
/// scalar's arithmetic is one splat per chunk).
const MIN_REUSE_LOOP: i64 = 1 << 16;
const MIN_REUSE_PRODUCER: i64 = 64;

/// Whether fusing `producer` into a loop over `loop_elements` would evaluate its elements
/// many times over (see [`expensive`] and [`MAX_REUSE`]).
fn recomputed(producer: &HloInstruction, loop_elements: i64) -> bool {
    let e = elements(producer);
    (expensive(producer) && 2 * e <= loop_elements)
        || (producer.op.is_elementwise_compute()
            && e >= MIN_REUSE_PRODUCER
            && loop_elements >= MIN_REUSE_LOOP
            && e.saturating_mul(MAX_REUSE) <= loop_elements)
}

/// Fewest elements of a transpose that moves its operand's last dimension for it to stay
/// out of its consumers' fusions. Fused, each vector of the consumer's loop gathers its
/// lanes from as many rows of the operand (a cache line each); alone, it is the
/// cache-blocked transpose kernel, then a contiguous read. `x.T + y` of [2048, 2048] f32
/// (Intel Xeon, AVX-512) took 14.6 ms fused.
const MIN_UNFUSED_TRANSPOSE: i64 = 1 << 15;

/// A transpose whose result's last dimension is not its operand's, large enough that
/// running it alone beats a consumer's loop gathering it.
fn minor_transpose(ins: &HloInstruction) -> bool {
    match &ins.op {
        Op::Transpose { permutation } => {
            permutation
                .last()
                .is_some_and(|&p| p as usize + 1 != permutation.len())
                && elements(ins) >= MIN_UNFUSED_TRANSPOSE
        }
        _ => false,
    }
}

/// Whether `ins` reads or makes complex values. A kernel holding one runs an element per
/// iteration (`oxla-codegen`'s complex.rs), so a real transcendental beside it would lose
/// its vector width (and run its one-lane form: atan2 in f64 lanes a pair at a time):
/// the two stay in kernels of their own, which exchange an array. `angle(z) + |z·w|` on
/// c64 [1024, 1024], Zen 3: 12.3 ms as one kernel.
fn complex_kind(c: &HloComputation, ins: &HloInstruction) -> bool {
    let complex = |i: &HloInstruction| {
        i.shape
            .as_array()
            .is_some_and(|a| a.element_type.is_complex())
    };
    complex(ins) || ins.operands.iter().any(|&o| complex(c.instr(o)))
}

/// Elements of an array-shaped instruction (0 for tuples and tokens).
fn elements(ins: &HloInstruction) -> i64 {
    ins.shape
        .as_array()
        .map_or(0, |a| a.dims.iter().product::<i64>())
}

/// Broadcasts of scalars, iotas and scalar constants cost nothing to recompute: give each
/// user its own copy so that every consumer's fusion can absorb one instead of a
/// materialized array being shared.
fn cheap(c: &HloComputation, ins: &HloInstruction) -> bool {
    match &ins.op {
        Op::Iota { .. } => true,
        Op::Constant(l) => l.shape().is_scalar(),
        Op::Broadcast { .. } => ins
            .operands
            .first()
            .is_some_and(|&o| c.instr(o).shape.rank() == 0),
        _ => false,
    }
}

fn duplicate_cheap(c: &mut HloComputation) -> bool {
    let users = c.users();
    let root = c.root.index();
    let dup: Vec<bool> = c
        .instructions
        .iter()
        .enumerate()
        .map(|(i, ins)| i != root && cheap(c, ins) && users[i].len() > 1)
        .collect();
    if !dup.iter().any(|&d| d) {
        return false;
    }
    // Copies are named `{name}.dup{k}` with `k` not taken yet (an earlier round's copy that
    // no fusion took keeps its name in the computation).
    let mut names: HashSet<String> = c.instructions.iter().map(|i| i.name.clone()).collect();
    let old = std::mem::take(&mut c.instructions);
    let mut first: Vec<InstrId> = Vec::with_capacity(old.len());
    // (user, original operand) -> the copy that user reads.
    let mut copy_for: HashMap<(usize, usize), InstrId> = HashMap::new();
    let mut out: Vec<HloInstruction> = Vec::new();
    for (i, mut ins) in old.into_iter().enumerate() {
        let mut new_ops = Vec::with_capacity(ins.operands.len());
        for o in &ins.operands {
            let id = copy_for
                .get(&(i, o.index()))
                .copied()
                .unwrap_or(first[o.index()]);
            new_ops.push(id);
        }
        ins.operands = new_ops;
        let id = InstrId(out.len() as u32);
        first.push(id);
        if dup[i] {
            let mut us = users[i].clone();
            us.sort();
            us.dedup();
            for (k, u) in us.iter().enumerate().skip(1) {
                // Copy k lands right after the original.
                copy_for.insert((u.index(), i), InstrId((out.len() + k) as u32));
            }
            let mut k = 0;
            let copies: Vec<HloInstruction> = us
                .iter()
                .skip(1)
                .map(|_| {
                    let mut copy = ins.clone();
                    loop {
                        k += 1;
                        let name = format!("{}.dup{k}", ins.name);
                        if names.insert(name.clone()) {
                            copy.name = name;
                            break;
                        }
                    }
                    copy
                })
                .collect();
            out.push(ins);
            out.extend(copies);
        } else {
            out.push(ins);
        }
    }
    c.instructions = out;
    for p in &mut c.parameters {
        *p = first[p.index()];
    }
    c.root = first[root];
    true
}

pub fn fuse(module: &mut HloModule) -> Result<bool> {
    let mut changed = false;
    let n_comps = module.computations.len();
    let mut counter = module
        .computations
        .iter()
        .filter(|c| c.name.starts_with("fused."))
        .count();
    // Fused computations are kernels already: never fuse inside them.
    let fused: BTreeSet<usize> = module
        .computations
        .iter()
        .flat_map(|c| c.instructions.iter())
        .filter(|i| matches!(i.op, Op::Fusion { .. }))
        .flat_map(|i| i.called.iter().map(|c| c.index()))
        .collect();
    for ci in 0..n_comps {
        if fused.contains(&ci) {
            continue;
        }
        // Copies of a broadcast still share its scalar operand: repeat until every cheap
        // value has one user (chains are short).
        for _ in 0..4 {
            if !duplicate_cheap(&mut module.computations[ci]) {
                break;
            }
            changed = true;
        }
        let c = &module.computations[ci];
        let users = c.users();
        let n = c.instructions.len();
        // group[i] = the root of the fusion that instruction i joins.
        let mut group: Vec<Option<usize>> = vec![None; n];
        let mut depth = vec![0usize; n];
        let mut size: HashMap<usize, usize> = HashMap::new();
        // Per fusion root: whether a member is complex-kind, and whether one is a real
        // transcendental ([`complex_kind`]).
        let mut kinds: HashMap<usize, (bool, bool)> = HashMap::new();
        for i in (0..n).rev() {
            let ins = &c.instructions[i];
            // A reduce can root an input fusion: its producers are computed in its loop.
            let reduce_root = matches!(ins.op, Op::Reduce { .. }) && group[i].is_none();
            // A scatter into a broadcast scalar (an embedding gradient's zeros) roots one
            // that computes that operand in its copy loop instead of reading it from memory
            // (its other operands stay outside: the updates' and indices' reads are random).
            let scatter_root = matches!(ins.op, Op::Scatter { .. })
                && group[i].is_none()
                && ins.operands.len() == 3
                && cheap(c, c.instr(ins.operands[0]))
                && matches!(c.instr(ins.operands[0]).op, Op::Broadcast { .. });
            // A reshape costs nothing on its own (the runtime aliases it); as a fusion root it
            // would only add index arithmetic.
            if matches!(ins.op, Op::Reshape) && group[i].is_none() {
                continue;
            }
            if !reduce_root
                && !scatter_root
                && (!fusible(ins) || matches!(ins.op, Op::Constant(_)) && group[i].is_none())
            {
                continue;
            }
            let root = group[i].unwrap_or(i);
            group[i] = Some(root);
            let kind = |ins: &HloInstruction| {
                let cx = complex_kind(c, ins);
                (cx, !cx && expensive(ins))
            };
            if root == i {
                kinds.insert(root, kind(ins));
            }
            // How many elements the fusion's loop runs over (a reduce: its operand's).
            let loop_elements = {
                let r = &c.instructions[root];
                match (&r.op, r.operands.first()) {
                    (Op::Reduce { .. }, Some(&o)) => elements(c.instr(o)),
                    _ => elements(r),
                }
            };
            let fusing = if scatter_root {
                &ins.operands[..1]
            } else {
                &ins.operands[..]
            };
            for o in fusing {
                let oi = o.index();
                let producer = &c.instructions[oi];
                // Every user is already in this fusion (diamonds inside one kernel are fine;
                // a value another kernel also needs stays materialized).
                let all_users_here = users[oi].iter().all(|u| group[u.index()] == Some(root));
                let members = size.entry(root).or_insert(1);
                let (has_cx, has_exp) = kinds.get(&root).copied().unwrap_or_default();
                let (p_cx, p_exp) = kind(producer);
                let mixes = p_cx && has_exp || p_exp && has_cx;
                if fusible_producer(producer)
                    && !mixes
                    && !recomputed(producer, loop_elements)
                    && !minor_transpose(producer)
                    && all_users_here
                    && group[oi].is_none()
                    && oi != c.root.index()
                    && depth[i] < MAX_FUSION_DEPTH
                    && *members < MAX_FUSION_SIZE
                {
                    group[oi] = Some(root);
                    depth[oi] = depth[i] + 1;
                    *members += 1;
                    kinds.insert(root, (has_cx || p_cx, has_exp || p_exp));
                }
            }
        }
        let mut members: HashMap<usize, BTreeSet<usize>> = HashMap::new();
        for (i, g) in group.iter().enumerate() {
            if let Some(r) = g {
                members.entry(*r).or_default().insert(i);
            }
        }
        let mut roots: Vec<usize> = members
            .iter()
            .filter(|(_, m)| m.len() >= 2)
            .map(|(r, _)| *r)
            .collect();
        roots.sort();
        for r in roots {
            let set = &members[&r];
            let c = &module.computations[ci];
            // External operands, in first-use order.
            let mut externals: Vec<InstrId> = Vec::new();
            for &m in set {
                for o in &c.instructions[m].operands {
                    if !set.contains(&o.index()) && !externals.contains(o) {
                        externals.push(*o);
                    }
                }
            }
            counter += 1;
            let tag = format!("fused.{counter}");
            let (mut body, params) = crate::rewrite::fused_parameters(c, &externals, &tag);
            let mut map: HashMap<usize, InstrId> = externals
                .iter()
                .zip(&params)
                .map(|(e, &p)| (e.index(), p))
                .collect();
            for &m in set {
                let src = &c.instructions[m];
                let mut ins = src.clone();
                ins.name = format!("{tag}.{}", src.name);
                if m == r {
                    ins.name = format!("{tag}.root");
                }
                ins.operands = src.operands.iter().map(|o| map[&o.index()]).collect();
                map.insert(m, InstrId(body.len() as u32));
                body.push(ins);
            }
            let fused_root = map[&r];
            let comp_id = ComputationId(module.computations.len() as u32);
            let root_ins = &c.instructions[r];
            // The fusion takes over the root's name (the root itself moves into the body).
            let fusion = HloInstruction {
                name: root_ins.name.clone(),
                op: Op::Fusion {
                    kind: if matches!(root_ins.op, Op::Reduce { .. }) {
                        FusionKind::Input
                    } else {
                        FusionKind::Loop
                    },
                },
                operands: externals,
                called: vec![comp_id],
                shape: root_ins.shape.clone(),
                plan: None,
            };
            module.computations.push(HloComputation {
                name: format!("{tag}_computation"),
                instructions: body,
                parameters: params,
                root: fused_root,
            });
            module.computations[ci].instructions[r] = fusion;
            changed = true;
        }
    }
    if changed {
        dce(module)?;
    }
    Ok(changed)
}
