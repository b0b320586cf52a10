//! SPMD partitioning: a program written for the global arrays, with shardings on its
//! parameters, results and some intermediate values, turned into the program each
//! partition runs on its pieces, with the collectives the shardings need.
//!
//! - `manual.rs`: programs already per-device (`shard_map`, `pmap`) need no communication
//!   of their own; the pass there only takes the shard shapes.
//! - this file: the automatic partitioner for the entry computation. Shardings flow forward
//!   from the parameters and `Sharding` annotations (constraints) through per-op rules
//!   (`rules.rs`); each instruction runs on its operands resharded to what its rule needs
//!   (`emit.rs`: all-gather, slice at the partition's offsets, all-reduce of partial sums).
//!   An op without a rule runs whole on every partition (operands gathered): always correct,
//!   never fast. `shard_map` regions (`SPMDFullToShardShape` … `SPMDShardToFullShape`) may
//!   sit anywhere in the entry: their values are "manual" and run as written. Loops,
//!   conditionals and calls run whole on every partition; a shard_map inside one cuts this
//!   partition's piece at its entry and gathers the pieces at its exit.
//! - Results take the sharding annotated on them, else the one propagation gave them;
//!   `ModuleConfig::spmd` records the global signature with every sharding for PJRT.
//!
//! A replicated value split for its user is cut from the whole, except where it is made
//! from iotas and constants by element-wise steps (and loops of them): then it is made
//! again at the piece's shape (`emit.rs`, `remake`), as XLA's propagation reaches an iota.
//!
//! Not yet: propagation backwards in general (from results and constraints to unannotated
//! parameters), dimensions that do not divide evenly, partitioned while/conditional bodies,
//! gather/scatter/convolution/windowed rules (they run whole), and resharding without a
//! full gather (all-to-all).

mod combine;
mod emit;
mod manual;
mod rules;

use std::collections::HashMap;

use oxla_hlo::{
    BinaryOp, ComputationId, Error, GridSize, HloComputation, HloInstruction, HloModule,
    HloSharding, InstrId, Literal, Op, Result, Shape, SpmdSignature, UnaryOp,
};

use emit::{Emit, Local};
pub use manual::partition_manual;

const SHARDING: &str = "Sharding";
const TO_SHARD: &str = "SPMDFullToShardShape";
const TO_FULL: &str = "SPMDShardToFullShape";

fn target(op: &Op) -> Option<&str> {
    match op {
        Op::CustomCall { target, .. } => Some(target.as_str()),
        _ => None,
    }
}

/// The sharding a `Sharding` / `SPMDShardToFullShape` custom call carries (none:
/// replicated).
fn annotation(op: &Op) -> Result<HloSharding> {
    match op {
        Op::CustomCall { backend_config, .. } if !backend_config.is_empty() => {
            HloSharding::parse(backend_config)
        }
        _ => Ok(HloSharding::Replicated),
    }
}

/// Partitions `module` for its `num_partitions`: the manual pass when the program is a
/// `shard_map` / `pmap` at the top of the entry, the automatic partitioner otherwise.
/// `Sharding` annotations become the identity on one partition.
pub fn partition_spmd(module: &mut HloModule) -> Result<bool> {
    // The annotations are custom calls the verifier knows nothing of: one operand each.
    for c in &module.computations {
        for ins in &c.instructions {
            if let Some(t @ (SHARDING | TO_SHARD | TO_FULL)) = target(&ins.op) {
                if ins.operands.len() != 1 {
                    return Err(Error::invalid(format!(
                        "{} (custom-call {t}) takes one operand, got {}",
                        ins.name,
                        ins.operands.len()
                    )));
                }
            }
        }
    }
    if module.config.num_partitions <= 1 {
        return partition_manual(module);
    }
    // Shardings and shard_maps inside called functions (JAX's `func.call`s) reach the
    // entry, where the partitioner works.
    for _ in 0..16 {
        if !crate::inline_calls(module)? {
            break;
        }
    }
    if !needs_auto(module)? {
        let mut trial = module.clone();
        match partition_manual(&mut trial) {
            Ok(changed) => {
                *module = trial;
                return Ok(changed);
            }
            Err(Error::Unimplemented(_)) => {}
            Err(e) => return Err(e),
        }
    }
    partition_auto(module)
}

/// Whether the entry has a split value the manual pass cannot place: a split annotation
/// other than a parameter entering a `shard_map` or a `shard_map`'s result returned as is.
fn needs_auto(module: &HloModule) -> Result<bool> {
    let c = module.computation(module.entry);
    let users = c.users();
    for (i, ins) in c.instructions.iter().enumerate() {
        if target(&ins.op) != Some(SHARDING) || annotation(&ins.op)?.tiling().is_none() {
            continue;
        }
        let src = &c.instructions[ins.operands[0].index()];
        let mut stack = vec![InstrId(i as u32)];
        let mut ok = matches!(src.op, Op::Parameter { .. }) || target(&src.op) == Some(TO_FULL);
        while let Some(x) = stack.pop() {
            for &u in &users[x.index()] {
                match target(&c.instr(u).op) {
                    Some(SHARDING) => stack.push(u),
                    Some(TO_SHARD) => {}
                    _ if u == c.root && matches!(c.instr(u).op, Op::Tuple) => {
                        ok &= target(&src.op) == Some(TO_FULL)
                    }
                    _ => ok = false,
                }
            }
        }
        if !ok {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether the op applies element by element (result dimensions = each operand's).
fn elementwise(ins: &HloInstruction, operand_shapes: &[&Shape]) -> bool {
    let same_width = || {
        operand_shapes
            .first()
            .is_some_and(|s| s.element_type().bit_width() == ins.shape.element_type().bit_width())
    };
    match &ins.op {
        op if op.is_elementwise_compute() => true,
        Op::Map { .. } => true,
        Op::BitcastConvert => same_width(),
        _ => false,
    }
}

/// For a sharding split partly by manual axes (`last_tile_dims={manual, ...}`), the split
/// along its other axes, each manual group seen as a whole array; `None` for any other.
fn automatic_part(s: &HloSharding) -> Option<HloSharding> {
    let HloSharding::Tiled(t) = s else {
        return None;
    };
    if !t.subgroups.contains(&oxla_hlo::Subgroup::Manual) {
        return None;
    }
    let subgroups = t
        .subgroups
        .iter()
        .map(|_| oxla_hlo::Subgroup::Replicated)
        .collect();
    Some(HloSharding::tiled(
        t.dims.clone(),
        t.devices.clone(),
        subgroups,
    ))
}

/// `ins` rebuilt on this partition's `operands` with its piece's `shape`, holding the
/// piece of `global` that `sharding` says.
fn emit_as(
    e: &mut Emit,
    ins: &HloInstruction,
    operands: Vec<InstrId>,
    shape: Shape,
    sharding: HloSharding,
) -> Local {
    let mut new = ins.clone();
    new.operands = operands;
    new.shape = shape;
    new.plan = None;
    Local {
        id: e.push(new),
        global: ins.shape.clone(),
        sharding,
    }
}

/// Whether `c` is `add(parameter 0, parameter 1)` (a summing combiner).
fn is_add(c: &HloComputation) -> bool {
    let root = c.instr(c.root);
    matches!(root.op, Op::Binary(BinaryOp::Add))
        && root.operands.len() == 2
        && c.parameters.len() == 2
        && root.operands.iter().all(|o| c.parameters.contains(o))
        && root.operands[0] != root.operands[1]
}

/// The dimensions along which `ins` moves or combines elements (slice bounds, padding,
/// concatenation, reversal, sorting, windows, dynamic offsets): elsewhere it works index by
/// index, so a split there passes through. `None` for the ops without such a form.
fn special_dims(ins: &HloInstruction, ops: &[Local]) -> Option<Vec<usize>> {
    let in_dims = ops.first()?.global.dims();
    let out = ins.shape.dims();
    let differ = || -> Vec<usize> {
        (0..out.len())
            .filter(|&d| in_dims.get(d) != Some(&out[d]))
            .collect()
    };
    Some(match &ins.op {
        Op::Slice { start, strides, .. } => {
            let mut d = differ();
            d.extend((0..out.len()).filter(|&k| start[k] != 0 || strides[k] != 1));
            d
        }
        Op::Pad(config) => config
            .dimensions
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.edge_padding_low != 0 || p.edge_padding_high != 0 || p.interior_padding != 0
            })
            .map(|(k, _)| k)
            .collect(),
        Op::DynamicSlice { .. } => differ(),
        Op::DynamicUpdateSlice => {
            let u = ops.get(1)?.global.dims();
            (0..out.len())
                .filter(|&d| u.get(d) != Some(&out[d]))
                .collect()
        }
        Op::Concatenate { dimension } => vec![*dimension as usize],
        Op::Reverse { dimensions } => dimensions.iter().map(|&d| d as usize).collect(),
        Op::Sort { dimension, .. } => vec![*dimension as usize],
        Op::ReduceWindow(w) => w
            .dimensions
            .iter()
            .enumerate()
            .filter(|(_, d)| {
                d.size != 1
                    || d.stride != 1
                    || d.padding_low != 0
                    || d.padding_high != 0
                    || d.base_dilation != 1
                    || d.window_dilation != 1
            })
            .map(|(k, _)| k)
            .collect(),
        Op::Iota { .. } | Op::Constant(_) => return None,
        _ => return None,
    })
}

/// An op whose special dimensions (see [`special_dims`]) are whole in its first split
/// operand keeps that operand's split: every operand of the result's rank takes it, the
/// rest (pad values, offsets, initial values) are whole.
fn pass_through(e: &mut Emit, ins: &HloInstruction, ops: &[Local]) -> Result<Option<Local>> {
    let Some(special) = special_dims(ins, ops) else {
        return Ok(None);
    };
    let rank = match &ins.shape {
        Shape::Tuple(t) => t.first().map_or(0, |s| s.rank()),
        s => s.rank(),
    };
    let outs: Vec<&Shape> = match &ins.shape {
        Shape::Tuple(t) => t.iter().collect(),
        s => vec![s],
    };
    let lead = ops.iter().find_map(|o| {
        let t = rules::tiling_of(&o.sharding, rank)?;
        (o.global.rank() == rank
            && special.iter().all(|&d| t.dims[d] == 1)
            && t.subgroups
                .iter()
                .all(|&g| g == oxla_hlo::Subgroup::Replicated))
        .then(|| o.sharding.clone())
    });
    let Some(lead) = lead else {
        return Ok(None);
    };
    let fits = |s: &Shape| s.is_array() && s.rank() == rank && lead.is_even(s.dims());
    if !outs.iter().all(|s| fits(s))
        || !ops
            .iter()
            .all(|o| o.global.rank() != rank || fits(&o.global))
    {
        return Ok(None);
    }
    let mut operands = Vec::new();
    for o in ops {
        let want = if o.global.rank() == rank {
            lead.clone()
        } else {
            HloSharding::Replicated
        };
        operands.push(e.reshard(o, &want)?.id);
    }
    let local = |s: &Shape| with_dims(s, &lead.shard_dims(s.dims()));
    let (shape, sharding) = match &ins.shape {
        Shape::Tuple(t) => (
            Shape::Tuple(t.iter().map(local).collect()),
            HloSharding::Tuple(vec![lead.clone(); t.len()]),
        ),
        s => (local(s), lead.clone()),
    };
    let v = emit_as(e, ins, operands, shape, sharding);
    // Sizes an op names for the whole array shrink to the piece's along split dimensions.
    let new = &mut e.instrs[v.id.index()];
    let piece = new.shape.dims().to_vec();
    match &mut new.op {
        Op::Slice { limit: sizes, .. } | Op::DynamicSlice { slice_sizes: sizes } => {
            for (d, l) in sizes.iter_mut().enumerate() {
                if !special.contains(&d) {
                    *l = piece[d];
                }
            }
        }
        _ => {}
    }
    Ok(Some(v))
}

/// Whether `id` is a constant zero.
fn is_zero(e: &Emit, id: InstrId) -> bool {
    match &e.instrs[id.index()].op {
        Op::Constant(l) => l.to_f64s().iter().all(|&v| v == 0.0),
        _ => false,
    }
}

/// Ops linear in a value holding partial sums keep it unreduced: negate; add and subtract
/// of operands unreduced alike; multiply (and divide by) a value that is not; and data
/// movement (broadcast, reshape, transpose, convert between float types) of a value split
/// along no dimension. `None` when `ins` is not such a case.
fn linear(e: &mut Emit, ins: &HloInstruction, ops: &[Local]) -> Result<Option<Local>> {
    let Some(u) = ops.iter().find(|o| o.sharding.unreduced_dim().is_some()) else {
        return Ok(None);
    };
    // A value used more than once is summed once (the reshard is cached) instead.
    let shared = |o: &Local| e.uses.get(&o.id).copied().unwrap_or(1) > 1;
    if ops
        .iter()
        .any(|o| o.sharding.unreduced_dim().is_some() && shared(o))
    {
        return Ok(None);
    }
    let s = u.sharding.clone();
    let global = &ins.shape;
    if !global.is_array() {
        return Ok(None);
    }
    let same_dims = ops.iter().all(|o| o.global.dims() == global.dims());
    let local = |e: &mut Emit, operands: Vec<InstrId>, sharding: HloSharding| {
        let shape = with_dims(global, &sharding.shard_dims(global.dims()));
        emit_as(e, ins, operands, shape, sharding)
    };
    let unreduced_alike = |o: &Local| o.sharding == s;
    match &ins.op {
        Op::Unary(UnaryOp::Neg) => Ok(Some(local(e, vec![u.id], s))),
        Op::Binary(BinaryOp::Add | BinaryOp::Sub)
            if same_dims && ops.iter().all(unreduced_alike) =>
        {
            Ok(Some(local(e, ops.iter().map(|o| o.id).collect(), s)))
        }
        Op::Binary(op @ (BinaryOp::Mul | BinaryOp::Div)) if same_dims => {
            let k = ops
                .iter()
                .position(|o| o.sharding.unreduced_dim().is_some());
            let other = 1 - k.unwrap_or(0);
            let fits = ops[other].sharding.unreduced_dim().is_none()
                && (k == Some(0) || *op == BinaryOp::Mul);
            if !fits {
                return Ok(None);
            }
            let o = e.reshard(&ops[other], &s.reduced())?;
            let mut operands = vec![u.id, u.id];
            operands[other] = o.id;
            Ok(Some(local(e, operands, s)))
        }
        Op::Broadcast { .. } | Op::Reshape | Op::Transpose { .. } | Op::Convert
            if ops.len() == 1
                && s.tiles(u.global.rank()).iter().all(|&t| t == 1)
                && (!matches!(ins.op, Op::Convert)
                    || global.element_type().is_floating_or_complex()
                        && u.global.element_type().is_floating_or_complex()) =>
        {
            // No split dimension: the subgroups carry over to the new rank.
            let Some(t) = s.tiling() else {
                return Ok(None);
            };
            let mut dims = vec![1; global.rank()];
            dims.extend(&t.dims[t.rank()..]);
            let out = HloSharding::tiled(dims, t.devices.clone(), t.subgroups.clone());
            Ok(Some(local(e, vec![u.id], out)))
        }
        _ => Ok(None),
    }
}

/// The largest channel id the module uses.
fn max_channel(module: &HloModule) -> i64 {
    let mut m = 0;
    for c in &module.computations {
        for ins in &c.instructions {
            let ch = match &ins.op {
                Op::AllGather { channel_id, .. }
                | Op::AllReduce { channel_id, .. }
                | Op::ReduceScatter { channel_id, .. }
                | Op::AllToAll { channel_id, .. }
                | Op::CollectivePermute { channel_id, .. }
                | Op::CollectiveBroadcast { channel_id, .. }
                | Op::CollectiveReduce { channel_id, .. } => channel_id.unwrap_or(0),
                Op::Send { channel_id, .. }
                | Op::SendDone { channel_id, .. }
                | Op::Recv { channel_id, .. }
                | Op::RecvDone { channel_id, .. } => *channel_id,
                _ => 0,
            };
            m = m.max(ch);
        }
    }
    m
}

/// `shape` with its dimensions replaced (layout kept).
fn with_dims(shape: &Shape, dims: &[i64]) -> Shape {
    let mut s = shape.clone();
    if let Some(a) = s.as_array_mut() {
        if a.dims.len() == dims.len() {
            a.dims = dims.to_vec();
            return s;
        }
    }
    Shape::array(shape.element_type(), dims)
}

/// Removes the computations the entry does not reach, directly or through others.
fn drop_unreached_computations(module: &mut HloModule) {
    let n = module.computations.len();
    let mut reached = vec![false; n];
    let mut stack = vec![module.entry.index()];
    while let Some(ci) = stack.pop() {
        if ci >= n || std::mem::replace(&mut reached[ci], true) {
            continue;
        }
        for ins in &module.computations[ci].instructions {
            stack.extend(ins.called.iter().map(|c| c.index()));
        }
    }
    if reached.iter().all(|&r| r) {
        return;
    }
    let mut new_index = vec![u32::MAX; n];
    let mut next = 0u32;
    for (i, &r) in reached.iter().enumerate() {
        if r {
            new_index[i] = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut module.computations);
    for (i, mut c) in old.into_iter().enumerate() {
        if !reached[i] {
            continue;
        }
        for ins in &mut c.instructions {
            for called in &mut ins.called {
                *called = ComputationId(new_index[called.index()]);
            }
        }
        module.computations.push(c);
    }
    module.entry = ComputationId(new_index[module.entry.index()]);
}

/// Computation `ci`, which every partition runs whole, with its shard_maps' entries
/// (`SPMDFullToShardShape`: this partition's piece of the whole value, as the `Sharding`
/// annotation before it splits it) and exits (`SPMDShardToFullShape`: the pieces gathered
/// back as its annotation says) made explicit; other annotations are the identity.
fn shard_maps_in_whole_computation(
    module: &mut HloModule,
    ci: usize,
    grid: GridSize,
) -> Result<()> {
    let c = module.computations[ci].clone();
    let mut e = Emit::new(grid, module.computations.len(), max_channel(module));
    let mut map: Vec<InstrId> = Vec::with_capacity(c.instructions.len());
    for ins in &c.instructions {
        let operand = |k: usize| -> Result<InstrId> {
            ins.operands
                .get(k)
                .map(|o| map[o.index()])
                .ok_or_else(|| Error::invalid(format!("{}: missing operand {k}", ins.name)))
        };
        let id = match target(&ins.op) {
            Some(SHARDING) => operand(0)?,
            Some(TO_SHARD) => {
                let src = c.instr(ins.operands[0]);
                let sh = match target(&src.op) {
                    Some(SHARDING) => annotation(&src.op)?,
                    _ => HloSharding::Replicated,
                };
                let sh = automatic_part(&sh).unwrap_or(sh);
                let piece = e.split(operand(0)?, &src.shape, &sh)?;
                if e.shape(piece).dims() != ins.shape.dims() {
                    return Err(Error::unimplemented(format!(
                        "{} ({TO_SHARD}) inside {}: the piece of {} under {sh} is {}, the \
                         shard_map takes {}",
                        ins.name,
                        c.name,
                        src.shape,
                        e.shape(piece),
                        ins.shape
                    )));
                }
                piece
            }
            Some(TO_FULL) => {
                let sh = annotation(&ins.op)?;
                let sh = automatic_part(&sh).unwrap_or(sh);
                if !sh.is_even(ins.shape.dims()) {
                    return Err(Error::unimplemented(format!(
                        "{} ({TO_FULL}) inside {}: {} does not split evenly as {sh}",
                        ins.name, c.name, ins.shape
                    )));
                }
                let piece = Local {
                    id: operand(0)?,
                    global: ins.shape.clone(),
                    sharding: sh,
                };
                e.gather_all(&piece)?
            }
            _ => {
                let mut copy = ins.clone();
                copy.operands = ins.operands.iter().map(|o| map[o.index()]).collect();
                e.push(copy)
            }
        };
        map.push(id);
    }
    let suffix = format!(".w{ci}");
    let mut instructions = std::mem::take(&mut e.instrs);
    for ins in &mut instructions {
        ins.name.push_str(&suffix);
    }
    let mut new_comps = std::mem::take(&mut e.new_comps);
    for (k, nc) in new_comps.iter_mut().enumerate() {
        nc.name = format!("{}{suffix}.{k}", nc.name);
    }
    module.computations[ci] = HloComputation {
        name: c.name.clone(),
        instructions,
        parameters: c.parameters.iter().map(|p| map[p.index()]).collect(),
        root: map[c.root.index()],
    };
    module.computations.extend(new_comps);
    Ok(())
}

/// The automatic partitioner (see the module documentation).
fn partition_auto(module: &mut HloModule) -> Result<bool> {
    let entry = module.entry.index();
    // Computations the entry reaches (inlined callees stay in the module, unused).
    let mut reached = vec![false; module.computations.len()];
    let mut stack = vec![entry];
    while let Some(ci) = stack.pop() {
        if std::mem::replace(&mut reached[ci], true) {
            continue;
        }
        for ins in &module.computations[ci].instructions {
            stack.extend(ins.called.iter().map(|c| c.index()));
        }
    }
    let grid = GridSize::new(module.config.num_replicas, module.config.num_partitions);
    // Other computations run whole on every partition: a shard_map inside one (a pmap in a
    // loop) cuts each partition's piece from the whole value and gathers the pieces back
    // after; other annotations there are the identity.
    for (ci, &r) in reached.iter().enumerate() {
        if ci == entry || !r {
            continue;
        }
        let has_shard_map = module.computations[ci]
            .instructions
            .iter()
            .any(|ins| matches!(target(&ins.op), Some(TO_SHARD | TO_FULL)));
        if has_shard_map {
            shard_maps_in_whole_computation(module, ci, grid)?;
            continue;
        }
        let c = &mut module.computations[ci];
        let mut rep = HashMap::new();
        for (i, ins) in c.instructions.iter().enumerate() {
            if target(&ins.op) == Some(SHARDING) {
                rep.insert(InstrId(i as u32), ins.operands[0]);
            }
        }
        crate::rewrite::apply_replacements(c, &rep);
    }
    let mut e = Emit::new(grid, module.computations.len(), max_channel(module));
    e.callees = module.computations.clone();
    let c = &module.computations[entry];
    let users = c.users();
    let mut vals: Vec<Option<Local>> = vec![None; c.instructions.len()];
    let mut params: Vec<(usize, InstrId)> = Vec::new();
    let mut sig_params: Vec<(usize, (Shape, String))> = Vec::new();
    let get = |vals: &[Option<Local>], id: InstrId| -> Result<Local> {
        vals[id.index()]
            .clone()
            .ok_or_else(|| Error::internal("SPMD partitioner: operand not yet partitioned"))
    };
    // How many shard_maps enclose each value (the result of a shard_map's reassembly is
    // outside it).
    let mut depth = vec![0usize; c.instructions.len()];
    for (i, ins) in c.instructions.iter().enumerate() {
        let inner = ins
            .operands
            .iter()
            .map(|o| depth[o.index()])
            .max()
            .unwrap_or(0);
        depth[i] = match target(&ins.op) {
            Some(TO_SHARD) => inner + 1,
            Some(TO_FULL) => inner.saturating_sub(1),
            _ => inner,
        };
    }
    let enters_shard_map = |i: usize| {
        !users[i].is_empty()
            && users[i]
                .iter()
                .all(|&u| target(&c.instr(u).op) == Some(TO_SHARD))
    };
    let inner_entry = |s: &HloSharding| s.tiling().is_some() || automatic_part(s).is_some();
    for (i, ins) in c.instructions.iter().enumerate() {
        let id = InstrId(i as u32);
        if id == c.root && matches!(ins.op, Op::Tuple) {
            continue;
        }
        let ops = ins
            .operands
            .iter()
            .map(|&o| get(&vals, o))
            .collect::<Result<Vec<_>>>()?;
        let local = match (&ins.op, target(&ins.op)) {
            (Op::Parameter { number }, _) => {
                // The argument's own sharding is its first annotation (the importer puts it
                // right after the parameter); later ones are constraints in the body.
                let annotated = users[i]
                    .iter()
                    .filter(|&&u| target(&c.instr(u).op) == Some(SHARDING))
                    .min_by_key(|u| u.index());
                let sh = match annotated {
                    Some(&u) => annotation(&c.instr(u).op)?,
                    None => HloSharding::Replicated,
                };
                let sh = match sh {
                    HloSharding::Manual | HloSharding::Maximal(_) | HloSharding::Tuple(_) => {
                        HloSharding::Replicated
                    }
                    s => s,
                };
                if !sh.is_even(ins.shape.dims()) {
                    return Err(Error::unimplemented(format!(
                        "parameter {number} of {} sharded {sh}: dimensions that do not divide \
                         evenly over their tiles are not partitioned yet",
                        ins.shape
                    )));
                }
                let local_shape = with_dims(&ins.shape, &sh.shard_dims(ins.shape.dims()));
                let new = e.push(HloInstruction::new(
                    ins.name.clone(),
                    ins.op.clone(),
                    vec![],
                    local_shape,
                ));
                params.push((*number, new));
                sig_params.push((*number, (ins.shape.clone(), sh.to_string())));
                Local {
                    id: new,
                    global: ins.shape.clone(),
                    sharding: sh,
                }
            }
            (_, Some(SHARDING)) => {
                let to = annotation(&ins.op)?;
                let x = &ops[0];
                match (&x.sharding, &to) {
                    // A shard_map inside a shard_map: the inner one splits each outer
                    // piece along its own axes.
                    (HloSharding::Manual, _) if inner_entry(&to) && enters_shard_map(i) => {
                        let auto = automatic_part(&to).unwrap_or_else(|| to.clone());
                        Local {
                            id: e.split(x.id, &ins.shape, &auto)?,
                            global: ins.shape.clone(),
                            sharding: HloSharding::Manual,
                        }
                    }
                    (HloSharding::Manual, _) | (_, HloSharding::Manual) => x.clone(),
                    (_, HloSharding::Tuple(_) | HloSharding::Maximal(_)) => x.clone(),
                    _ if !to.is_even(ins.shape.dims()) => e.reshard(x, &HloSharding::Replicated)?,
                    _ => e.reshard(x, &to)?,
                }
            }
            (_, Some(TO_SHARD)) => {
                let x = &ops[0];
                if e.shape(x.id).dims() != ins.shape.dims() {
                    return Err(Error::unimplemented(format!(
                        "{} ({TO_SHARD}): this partition holds {} of the value, the shard_map \
                         takes {} (shardings with manual and automatic axes mixed are not \
                         partitioned yet)",
                        ins.name,
                        e.shape(x.id),
                        ins.shape
                    )));
                }
                Local {
                    id: x.id,
                    global: ins.shape.clone(),
                    sharding: HloSharding::Manual,
                }
            }
            (_, Some(TO_FULL)) if depth[i] > 0 => {
                // The inner shard_map of a nested pair: its pieces gather back along its
                // axes into the outer piece.
                let sh = annotation(&ins.op)?;
                let auto = automatic_part(&sh).unwrap_or(sh);
                let x = &ops[0];
                let piece = Local {
                    id: x.id,
                    global: ins.shape.clone(),
                    sharding: auto,
                };
                Local {
                    id: e.gather_all(&piece)?,
                    global: ins.shape.clone(),
                    sharding: HloSharding::Manual,
                }
            }
            (_, Some(TO_FULL)) => {
                let x = &ops[0];
                let sh = annotation(&ins.op)?;
                let sh = if sh.tiling().is_some() {
                    sh
                } else {
                    HloSharding::Replicated
                };
                if e.shape(x.id).dims() != sh.shard_dims(ins.shape.dims()) {
                    return Err(Error::unimplemented(format!(
                        "{} ({TO_FULL}): a shard of {} does not reassemble {} as {sh}",
                        ins.name,
                        e.shape(x.id),
                        ins.shape
                    )));
                }
                Local {
                    id: x.id,
                    global: ins.shape.clone(),
                    sharding: sh,
                }
            }
            _ => rule(&mut e, &module.computations, ins, &ops)?,
        };
        e.uses.insert(local.id, users[i].len());
        vals[i] = Some(local);
    }
    // The results: annotated ones resharded already; others keep their sharding, whole
    // when it does not divide evenly.
    let root = c.instr(c.root);
    let outputs: Vec<InstrId> = match root.op {
        Op::Tuple => root.operands.clone(),
        _ => vec![c.root],
    };
    let mut results = Vec::new();
    let mut sig_results = Vec::new();
    for &o in &outputs {
        let mut v = get(&vals, o)?;
        // Partial sums leave the program only where a result asks for them.
        if v.sharding.unreduced_dim().is_some() && target(&c.instr(o).op) != Some(SHARDING) {
            v = e.reshard(&v, &v.sharding.reduced())?;
        }
        if matches!(v.sharding, HloSharding::Manual)
            || (v.global.is_array() && !v.sharding.is_even(v.global.dims()))
        {
            if matches!(v.sharding, HloSharding::Manual) {
                return Err(Error::unimplemented(
                    "a shard_map value returned without SPMDShardToFullShape",
                ));
            }
            v = e.reshard(&v, &HloSharding::Replicated)?;
        }
        results.push(v.id);
        sig_results.push((v.global.clone(), v.sharding.to_string()));
    }
    let new_root = match root.op {
        Op::Tuple => {
            let shape = Shape::Tuple(results.iter().map(|&r| e.shape(r).clone()).collect());
            e.push(HloInstruction::new(
                root.name.clone(),
                Op::Tuple,
                results,
                shape,
            ))
        }
        _ => results[0],
    };
    params.sort_by_key(|&(n, _)| n);
    sig_params.sort_by_key(|(n, _)| *n);
    let name = c.name.clone();
    let new_comps = std::mem::take(&mut e.new_comps);
    module.computations[entry] = HloComputation {
        name,
        instructions: std::mem::take(&mut e.instrs),
        parameters: params.into_iter().map(|(_, p)| p).collect(),
        root: new_root,
    };
    module.computations.extend(new_comps);
    // Wave after wave (a combined all-reduce is not combined again).
    for _ in 0..8 {
        if combine::combine_all_reduces(&mut module.computations[entry]) == 0 {
            break;
        }
    }
    // Whole values that were only sliced, now made at the pieces' shapes, go, and so do
    // the computations nothing calls any more (loops remade on pieces, inlined calls).
    crate::dce::dce(module)?;
    drop_unreached_computations(module);
    module.config.spmd = Some(SpmdSignature {
        parameters: sig_params.into_iter().map(|(_, s)| s).collect(),
        results: sig_results,
        whole: std::mem::take(&mut e.whole),
    });
    crate::dce(module)?;
    Ok(true)
}

/// One instruction outside annotations and shard_map boundaries: by its rule, else whole.
fn rule(
    e: &mut Emit,
    comps: &[HloComputation],
    ins: &HloInstruction,
    ops: &[Local],
) -> Result<Local> {
    let global = ins.shape.clone();
    let emit_local = |e: &mut Emit, operands: Vec<InstrId>, sharding: HloSharding| {
        let shape = if global.is_array() {
            with_dims(&global, &sharding.shard_dims(global.dims()))
        } else {
            global.clone()
        };
        emit_as(e, ins, operands, shape, sharding)
    };
    // Inside a shard_map: as written (replicated operands are whole on every partition).
    if ops
        .iter()
        .any(|o| matches!(o.sharding, HloSharding::Manual))
    {
        let mut operands = Vec::new();
        for o in ops {
            let o = match o.sharding {
                HloSharding::Manual => o.clone(),
                _ => e.reshard(o, &HloSharding::Replicated)?,
            };
            operands.push(o.id);
        }
        return Ok(emit_as(e, ins, operands, global, HloSharding::Manual));
    }
    if let Some(v) = linear(e, ins, ops)? {
        return Ok(v);
    }
    // Every other op needs the totals of partial sums.
    let reduced: Vec<Local> = ops
        .iter()
        .map(|o| match o.sharding.unreduced_dim() {
            Some(_) => e.reshard(o, &o.sharding.reduced()),
            None => Ok(o.clone()),
        })
        .collect::<Result<_>>()?;
    let ops = &reduced[..];
    let out_dims = if global.is_array() {
        global.dims().to_vec()
    } else {
        Vec::new()
    };
    let even = |s: &HloSharding| global.is_array() && s.is_even(&out_dims);
    let shapes: Vec<&Shape> = ops.iter().map(|o| &o.global).collect();
    if global.is_array() && elementwise(ins, &shapes) {
        let lead = ops
            .iter()
            .find(|o| o.global.dims() == out_dims && o.sharding.tiling().is_some())
            .map(|o| o.sharding.clone())
            .filter(|s| even(s))
            .unwrap_or(HloSharding::Replicated);
        let mut operands = Vec::new();
        for o in ops {
            let want = if o.global.dims() == out_dims {
                &lead
            } else {
                &HloSharding::Replicated
            };
            operands.push(e.reshard(o, want)?.id);
        }
        return Ok(emit_local(e, operands, lead));
    }
    if let Some(v) = pass_through(e, ins, ops)? {
        return Ok(v);
    }
    let one = |ops: &[Local]| ops.first().map(|o| o.sharding.clone());
    match &ins.op {
        // Tuples carry their elements' shardings through.
        Op::Tuple => {
            let sharding = HloSharding::Tuple(ops.iter().map(|o| o.sharding.clone()).collect());
            let shape = Shape::Tuple(ops.iter().map(|o| e.shape(o.id).clone()).collect());
            let operands = ops.iter().map(|o| o.id).collect();
            return Ok(emit_as(e, ins, operands, shape, sharding));
        }
        Op::GetTupleElement { index } => {
            if let HloSharding::Tuple(elems) = &ops[0].sharding {
                let sharding = elems
                    .get(*index)
                    .cloned()
                    .unwrap_or(HloSharding::Replicated);
                let local_shape = match e.shape(ops[0].id) {
                    Shape::Tuple(t) => t.get(*index).cloned(),
                    _ => None,
                };
                if let Some(shape) = local_shape {
                    return Ok(emit_as(e, ins, vec![ops[0].id], shape, sharding));
                }
            }
        }
        Op::Transpose { permutation } => {
            let perm: Vec<usize> = permutation.iter().map(|&p| p as usize).collect();
            let out = rules::transpose(&one(ops).unwrap_or(HloSharding::Replicated), &perm);
            if even(&out) {
                return Ok(emit_local(e, vec![ops[0].id], out));
            }
        }
        Op::Broadcast { dimensions } => {
            let dims: Vec<usize> = dimensions.iter().map(|&d| d as usize).collect();
            let out = rules::broadcast(&ops[0].sharding, &dims, out_dims.len());
            if even(&out) {
                return Ok(emit_local(e, vec![ops[0].id], out));
            }
        }
        Op::Reshape if ops[0].global.is_array() => {
            if let Some(out) = rules::reshape(&ops[0].sharding, ops[0].global.dims(), &out_dims) {
                if even(&out) {
                    return Ok(emit_local(e, vec![ops[0].id], out));
                }
            }
        }
        Op::Reduce { dimensions } if ops.len() == 2 && global.is_array() => {
            let reduced: Vec<usize> = dimensions.iter().map(|&d| d as usize).collect();
            let r = rules::reduce(&ops[0].sharding, ops[0].global.rank(), &reduced);
            if even(&r.out) {
                let init = e.reshard(&ops[1], &HloSharding::Replicated)?;
                let summing = is_add(&comps[ins.called[0].index()]) && is_zero(e, init.id);
                match r.partial {
                    // Partial sums stay unreduced until a consumer needs the total.
                    Some(_) if summing => {
                        return Ok(emit_local(e, vec![ops[0].id, init.id], r.out));
                    }
                    Some(groups) => {
                        let mut v = emit_local(e, vec![ops[0].id, init.id], r.out.reduced());
                        v.id = e.all_reduce(v.id, &groups, ins.called[0]);
                        return Ok(v);
                    }
                    None => return Ok(emit_local(e, vec![ops[0].id, init.id], r.out)),
                }
            }
        }
        Op::Dot { dnums, .. } => {
            // Either split operand may lead; the other follows. Lead with the one whose
            // follower already has the sharding it needs (attention's probabilities, split
            // along heads, times values split along heads and their width: the values
            // lead, and nothing moves), else with the lhs.
            let ranks = (ops[0].global.rank(), ops[1].global.rank());
            let n = e.grid.partitions as usize;
            let moved = |p: &rules::DotPlan| {
                [(&ops[0], &p.lhs), (&ops[1], &p.rhs)]
                    .iter()
                    .filter(|(v, want)| {
                        !rules::same_placement(&v.sharding, want, v.global.rank(), n)
                    })
                    .map(|(v, _)| v.global.element_count())
                    .sum::<i64>()
            };
            let by_lhs = rules::dot_led(&ops[0].sharding, &ops[1].sharding, ranks, dnums, true);
            let by_rhs = rules::dot_led(&ops[0].sharding, &ops[1].sharding, ranks, dnums, false);
            let p = if moved(&by_rhs) < moved(&by_lhs) {
                by_rhs
            } else {
                by_lhs
            };
            let operands_even =
                p.lhs.is_even(ops[0].global.dims()) && p.rhs.is_even(ops[1].global.dims());
            if even(&p.contraction.out) && operands_even {
                let lhs = e.reshard(&ops[0], &p.lhs)?;
                let rhs = e.reshard(&ops[1], &p.rhs)?;
                // Partial sums (a split contracting dimension) stay unreduced.
                return Ok(emit_local(e, vec![lhs.id, rhs.id], p.contraction.out));
            }
        }
        Op::Gather { dnums, .. } if ops.len() == 2 => {
            let out = rules::gather(
                &ops[1].sharding,
                ops[1].global.rank(),
                dnums,
                out_dims.len(),
            );
            if let Some(out) = out.filter(|o| even(o)) {
                let operand = e.reshard(&ops[0], &HloSharding::Replicated)?;
                return Ok(emit_local(e, vec![operand.id, ops[1].id], out));
            }
        }
        Op::Scatter { dnums, .. }
            if ops.len() == 3
                && global.is_array()
                && ins
                    .called
                    .first()
                    .is_some_and(|&c| is_add(&comps[c.index()])) =>
        {
            let plan = rules::scatter(
                &ops[1].sharding,
                ops[1].global.rank(),
                dnums,
                ops[2].global.rank(),
            );
            if let Some((updates, groups)) = plan.filter(|(u, _)| u.is_even(ops[2].global.dims())) {
                // Each partition scatters its updates into zeros; the sums meet in one
                // all-reduce and join the operand.
                let ty = global.element_type();
                let updates = e.reshard(&ops[2], &updates)?;
                let operand = e.reshard(&ops[0], &HloSharding::Replicated)?;
                let zero = Literal::zeros(&Shape::scalar(ty))?;
                let z = e.push(HloInstruction::new(
                    "zero",
                    Op::Constant(zero),
                    vec![],
                    Shape::scalar(ty),
                ));
                let zeros = e.push(HloInstruction::new(
                    "zeros",
                    Op::Broadcast { dimensions: vec![] },
                    vec![z],
                    global.clone(),
                ));
                let mut local = ins.clone();
                local.operands = vec![zeros, ops[1].id, updates.id];
                local.plan = None;
                let s = e.push(local);
                let add = e.adder(ty);
                let sum = e.all_reduce(s, &groups, add);
                let out = e.push(HloInstruction::new(
                    "scatter-sum",
                    Op::Binary(BinaryOp::Add),
                    vec![operand.id, sum],
                    global.clone(),
                ));
                return Ok(Local {
                    id: out,
                    global: global.clone(),
                    sharding: HloSharding::Replicated,
                });
            }
        }
        Op::Convolution {
            dnums,
            batch_group_count,
            ..
        } => {
            let out = rules::convolution_batch(
                &ops[0].sharding,
                ops[0].global.rank(),
                dnums,
                *batch_group_count,
            );
            if let Some(out) = out.filter(|o| even(o)) {
                let kernel = e.reshard(&ops[1], &HloSharding::Replicated)?;
                return Ok(emit_local(e, vec![ops[0].id, kernel.id], out));
            }
        }
        _ => {}
    }
    // No rule: every operand whole, the op whole on every partition. Worth knowing where a
    // split operand had to be gathered for it.
    if ops.iter().any(|o| o.sharding.tiling().is_some()) {
        e.whole
            .push(format!("{} ({})", ins.name, ins.op.opcode_name()));
    }
    let mut operands = Vec::new();
    for o in ops {
        operands.push(e.reshard(o, &HloSharding::Replicated)?.id);
    }
    Ok(emit_local(e, operands, HloSharding::Replicated))
}
