//! Collective steps: replica-id and partition-id, and the collectives that exchange data
//! with the other processes of the run through the communicator (`comm.rs`). Each process
//! contributes its operand's memory as it is, and computes its own result from everyone's
//! contributions: reductions through the reducer's JIT combiner kernel (in cache-sized
//! chunks, in parallel when large), data movement as strided copies. Groups come from
//! `oxla_hlo::collective`, which the interpreter's grid shares.

use oxla_hlo::{
    collective_group, ArrayShape, BinaryOp, Error, HloComputation, HloInstruction, Op, Result,
};

use super::collective_exchange::exchanges;
use crate::comm::{PlainReduce, ReduceOp, RendezvousKey};
use crate::exec::{array_bytes, parallel_for, SendPtr, V};
use crate::plan::Programs;
use crate::run::StepCtx;

/// Elements per chunk of a reduction: each chunk of the result stays in L1/L2 while every
/// contribution is folded into it.
const CHUNK: usize = 8192;

/// What the compiled path accepts (checked at compile time): array operands, or for
/// all-reduce a tuple of arrays, of element types the JIT handles.
pub(crate) fn check(c: &HloComputation, ins: &HloInstruction) -> Result<()> {
    let unsup = |why: String| {
        Error::unimplemented(format!(
            "JIT: {} ({}) {why}",
            ins.name,
            ins.op.opcode_name()
        ))
    };
    for &o in &ins.operands {
        let leaves: Vec<&ArrayShape> = match &c.instr(o).shape {
            oxla_hlo::Shape::Array(a) => vec![a],
            oxla_hlo::Shape::Tuple(t) if matches!(ins.op, Op::AllReduce { .. }) => t
                .iter()
                .map(|s| {
                    s.as_array()
                        .ok_or_else(|| unsup("with a nested tuple".into()))
                })
                .collect::<Result<_>>()?,
            s => return Err(unsup(format!("with operand shape {s}"))),
        };
        for a in leaves {
            if !oxla_codegen::supports_type(a.element_type) {
                return Err(unsup(format!("of element type {}", a.element_type)));
            }
        }
    }
    Ok(())
}

impl Programs {
    pub(crate) fn run_collective(&self, s: &StepCtx, combiner: Option<usize>) -> Result<V> {
        let (x, ins) = (s.x, s.ins);
        let (outs, v) = self.out_ptrs(s.prog, s.i, &ins.shape, s.base)?;
        let out_leaves = v.arrays();
        let write_u32 = |id: i64| -> Result<V> {
            // SAFETY: a u32 scalar output.
            unsafe { std::ptr::write_unaligned(outs[0] as *mut u32, id as u32) };
            Ok(v.clone())
        };
        let zeros = || -> Result<V> {
            for (p, a) in &out_leaves {
                // SAFETY: the output's own memory.
                unsafe { std::ptr::write_bytes(*p, 0, array_bytes(a)) };
            }
            Ok(v.clone())
        };
        match &ins.op {
            Op::ReplicaId => return write_u32(x.replica),
            Op::PartitionId => return write_u32(x.partition),
            _ => {}
        }
        let group = collective_group(ins, x.grid, x.replica, x.partition)?;
        let Some(group) = group else {
            return match ins.op {
                Op::CollectiveBroadcast { .. } => zeros(),
                _ => Err(Error::runtime("this process is in no replica group")),
            };
        };
        let me = x.process();
        let pos = group
            .iter()
            .position(|&g| g == me)
            .ok_or_else(|| Error::internal("process outside its own group"))?;
        let operand = &s.vals[ins.operands[0].index()];
        let ins_leaves = operand.arrays();
        check_group_shapes(ins, &ins_leaves, &out_leaves, group.len())?;
        let mut contribution: Vec<&[u8]> = ins_leaves
            .iter()
            // SAFETY: the operand's live memory, not written until this step returns.
            .map(|(p, a)| unsafe { std::slice::from_raw_parts(*p as *const u8, array_bytes(a)) })
            .collect();
        // In one address space, an all-reduce also hands out its result memory: each member
        // reduces one slice and writes it into everyone's result (k times less traffic
        // than every member folding everything).
        let scatter = matches!(ins.op, Op::AllReduce { .. }) && x.shared.comm.shares_memory();
        if scatter {
            for (p, a) in &out_leaves {
                // SAFETY: the result's fresh memory, which nobody reads before the
                // rendezvous ends; members write disjoint slices of it.
                contribution
                    .push(unsafe { std::slice::from_raw_parts(*p as *const u8, array_bytes(a)) });
            }
        }
        let key = RendezvousKey {
            run: x.run,
            group: group.clone(),
            seq: x.next_seq(&group),
        };
        if !x.shared.comm.shares_memory() && exchanges(&ins.op) {
            // Across processes, each member receives only what its result is made of.
            self.run_exchange(s, &key, pos, combiner, &ins_leaves, &out_leaves)?;
            return Ok(v);
        }
        let n = group.len();
        let threads = self.threads;
        let mut body = |parts: &crate::comm::Contributions| -> Result<()> {
            for p in parts {
                if p.len() != contribution.len()
                    || p.iter().zip(&contribution).any(|(a, b)| a.len() != b.len())
                {
                    return Err(Error::runtime(
                        "the participants' operands differ in shape".to_string(),
                    ));
                }
            }
            match &ins.op {
                Op::AllReduce { .. } if scatter => {
                    let k = combiner.ok_or_else(|| Error::internal("all-reduce combiner"))?;
                    let nl = out_leaves.len();
                    for (j, (out, a)) in out_leaves.iter().enumerate() {
                        let es = a.element_type.byte_size();
                        let len = a.dims.iter().product::<i64>() as usize;
                        let (lo, hi) = (len * pos / n, len * (pos + 1) / n);
                        if lo == hi {
                            continue;
                        }
                        // SAFETY: [lo, hi) lies inside every member's operand and result.
                        let srcs: Vec<*const u8> = parts
                            .iter()
                            .map(|p| unsafe { p[j].as_ptr().add(lo * es) })
                            .collect();
                        let mine = unsafe { out.add(lo * es) };
                        // The members are the parallelism: one thread each.
                        let threads = if n > 1 { 1 } else { threads };
                        self.fold(k, &srcs, mine, hi - lo, es, threads)?;
                        for (m, p) in parts.iter().enumerate() {
                            if m != pos {
                                // SAFETY: member m's result memory (see `scatter`); only
                                // this member writes [lo, hi) of it.
                                unsafe {
                                    std::ptr::copy_nonoverlapping(
                                        mine,
                                        (p[nl + j].as_ptr() as *mut u8).add(lo * es),
                                        (hi - lo) * es,
                                    )
                                };
                            }
                        }
                    }
                    Ok(())
                }
                Op::AllReduce { .. } => {
                    let k = combiner.ok_or_else(|| Error::internal("all-reduce combiner"))?;
                    for (j, (out, a)) in out_leaves.iter().enumerate() {
                        let es = a.element_type.byte_size();
                        let srcs: Vec<*const u8> = parts.iter().map(|p| p[j].as_ptr()).collect();
                        self.fold(
                            k,
                            &srcs,
                            *out,
                            a.dims.iter().product::<i64>() as usize,
                            es,
                            threads,
                        )?;
                    }
                    Ok(())
                }
                Op::CollectiveReduce { .. } => {
                    let (out, a) = &out_leaves[0];
                    if pos != 0 {
                        // SAFETY: the output's own memory.
                        unsafe { std::ptr::write_bytes(*out, 0, array_bytes(a)) };
                        return Ok(());
                    }
                    let k =
                        combiner.ok_or_else(|| Error::internal("collective-reduce combiner"))?;
                    let srcs: Vec<*const u8> = parts.iter().map(|p| p[0].as_ptr()).collect();
                    let es = a.element_type.byte_size();
                    self.fold(
                        k,
                        &srcs,
                        *out,
                        a.dims.iter().product::<i64>() as usize,
                        es,
                        threads,
                    )
                }
                Op::ReduceScatter { dimension, .. } => {
                    let k = combiner.ok_or_else(|| Error::internal("reduce-scatter combiner"))?;
                    let (out, a) = &out_leaves[0];
                    let full = &ins_leaves[0].1;
                    let d = *dimension as usize;
                    let es = a.element_type.byte_size();
                    let outer: usize = full.dims[..d].iter().product::<i64>() as usize;
                    let row: usize = full.dims[d..].iter().product::<i64>() as usize;
                    let blk: usize = a.dims[d..].iter().product::<i64>() as usize;
                    for o in 0..outer {
                        let srcs: Vec<*const u8> = parts
                            .iter()
                            // SAFETY: block `pos` of row `o` lies inside each contribution.
                            .map(|p| unsafe { p[0].as_ptr().add((o * row + pos * blk) * es) })
                            .collect();
                        // SAFETY: row `o` of the output.
                        let dst = unsafe { out.add(o * blk * es) };
                        self.fold(k, &srcs, dst, blk, es, threads)?;
                    }
                    Ok(())
                }
                Op::AllGather { dimension, .. } => {
                    let (out, a) = &out_leaves[0];
                    let full = &ins_leaves[0].1;
                    let d = *dimension as usize;
                    let es = a.element_type.byte_size();
                    let outer: usize = full.dims[..d].iter().product::<i64>() as usize;
                    let row = full.dims[d..].iter().product::<i64>() as usize * es;
                    for o in 0..outer {
                        for (m, p) in parts.iter().enumerate() {
                            // SAFETY: row `o` of member `m`'s operand into its block of the
                            // output (n blocks per output row).
                            unsafe {
                                std::ptr::copy_nonoverlapping(
                                    p[0].as_ptr().add(o * row),
                                    out.add((o * n + m) * row),
                                    row,
                                )
                            };
                        }
                    }
                    Ok(())
                }
                Op::AllToAll {
                    split_dimension,
                    concat_dimension,
                    split_count,
                    ..
                } => {
                    let (out, a) = &out_leaves[0];
                    let src = &ins_leaves[0].1;
                    let (sd, cd) = (*split_dimension as usize, *concat_dimension as usize);
                    let mut block = src.dims.clone();
                    block[sd] /= (*split_count).max(1);
                    for (m, p) in parts.iter().enumerate() {
                        let mut from = vec![0i64; block.len()];
                        from[sd] = pos as i64 * block[sd];
                        let mut to = vec![0i64; block.len()];
                        to[cd] = m as i64 * block[cd];
                        copy_region(
                            p[0].as_ptr(),
                            &src.dims,
                            &from,
                            *out,
                            &a.dims,
                            &to,
                            &block,
                            a.element_type.byte_size(),
                        );
                    }
                    Ok(())
                }
                Op::CollectivePermute {
                    source_target_pairs,
                    channel_id,
                } => {
                    let (out, a) = &out_leaves[0];
                    let my_id = if channel_id.is_some_and(|c| c > 0) {
                        x.partition
                    } else {
                        x.replica
                    };
                    match source_target_pairs.iter().find(|(_, t)| *t == my_id) {
                        Some(&(src, _)) => {
                            let p = usize::try_from(src)
                                .ok()
                                .and_then(|s| parts.get(s))
                                .ok_or_else(|| {
                                    Error::runtime(format!(
                                        "collective-permute source {src} does not exist"
                                    ))
                                })?;
                            // SAFETY: same size (checked above).
                            unsafe {
                                std::ptr::copy_nonoverlapping(p[0].as_ptr(), *out, array_bytes(a))
                            };
                        }
                        // SAFETY: the output's own memory.
                        None => unsafe { std::ptr::write_bytes(*out, 0, array_bytes(a)) },
                    }
                    Ok(())
                }
                Op::CollectiveBroadcast { .. } => {
                    let (out, a) = &out_leaves[0];
                    let root = match ins.operands.get(1) {
                        Some(r) => read_index(&s.vals[r.index()])?,
                        None => 0,
                    };
                    let p = usize::try_from(root)
                        .ok()
                        .and_then(|r| parts.get(r))
                        .ok_or_else(|| {
                            Error::runtime(format!("root {root} is outside a group of {n}"))
                        })?;
                    // SAFETY: same size (checked above).
                    unsafe { std::ptr::copy_nonoverlapping(p[0].as_ptr(), *out, array_bytes(a)) };
                    Ok(())
                }
                op => Err(Error::internal(format!(
                    "{} is not a collective",
                    op.opcode_name()
                ))),
            }
        };
        if matches!(ins.op, Op::AllReduce { .. }) && !scatter {
            // A cross-process transport may reduce plain sums, products, maxima and minima
            // itself (MPI's own all-reduce), writing the results directly.
            let plain = self.plain_reducer(ins, &ins_leaves);
            let mut results: Vec<&mut [u8]> = out_leaves
                .iter()
                // SAFETY: the result's fresh memory, written only by this call.
                .map(|(p, a)| unsafe { std::slice::from_raw_parts_mut(*p, array_bytes(a)) })
                .collect();
            x.shared.comm.all_reduce(
                &key,
                me,
                ins.op.opcode_name(),
                plain,
                &contribution,
                &mut results,
                x.shared.timeout,
                &mut body,
            )?;
            return Ok(v);
        }
        if let (Op::AllGather { dimension, .. }, [(_, a)], [(out, r)], false) = (
            &ins.op,
            ins_leaves.as_slice(),
            out_leaves.as_slice(),
            x.shared.comm.shares_memory(),
        ) {
            if a.dims[..*dimension as usize].iter().product::<i64>() == 1 {
                // The result is the operands back to back: a transport may gather into it.
                // SAFETY: the result's fresh memory, written only by this call.
                let result = unsafe { std::slice::from_raw_parts_mut(*out, array_bytes(r)) };
                x.shared.comm.all_gather(
                    &key,
                    me,
                    ins.op.opcode_name(),
                    contribution[0],
                    result,
                    x.shared.timeout,
                    &mut body,
                )?;
                return Ok(v);
            }
        }
        x.shared.comm.rendezvous(
            &key,
            me,
            ins.op.opcode_name(),
            &contribution,
            x.shared.timeout,
            &mut body,
        )?;
        Ok(v)
    }

    /// The all-reduce's reduction when its reducer is one add, multiply, maximum or minimum
    /// (or, on pred, `or` / `and`) of its two scalar parameters, of the element type of
    /// every operand.
    fn plain_reducer(
        &self,
        ins: &HloInstruction,
        leaves: &[(*mut u8, ArrayShape)],
    ) -> Option<PlainReduce> {
        let c = self.module.computations.get(ins.called.first()?.index())?;
        let root = c.get(c.root)?;
        let pred = root.shape.as_array()?.element_type == oxla_hlo::PrimitiveType::Pred;
        // On pred, add, or and maximum are all "or"; multiply, and and minimum "and".
        let op = match root.op {
            Op::Binary(BinaryOp::Add) if pred => ReduceOp::Max,
            Op::Binary(BinaryOp::Mul) if pred => ReduceOp::Min,
            Op::Binary(BinaryOp::Or) if pred => ReduceOp::Max,
            Op::Binary(BinaryOp::And) if pred => ReduceOp::Min,
            Op::Binary(BinaryOp::Add) => ReduceOp::Sum,
            Op::Binary(BinaryOp::Mul) => ReduceOp::Product,
            Op::Binary(BinaryOp::Max) => ReduceOp::Max,
            Op::Binary(BinaryOp::Min) => ReduceOp::Min,
            _ => return None,
        };
        let ([p0, p1], [a, b]) = (c.parameters.as_slice(), root.operands.as_slice()) else {
            return None;
        };
        if !((a, b) == (p0, p1) || (a, b) == (p1, p0)) {
            return None;
        }
        let ty = root.shape.as_array()?.element_type;
        let scalar = |id: &oxla_hlo::InstrId| {
            c.get(*id)
                .and_then(|i| i.shape.as_array())
                .is_some_and(|s| s.dims.is_empty() && s.element_type == ty)
        };
        let same = leaves.iter().all(|(_, l)| l.element_type == ty);
        (scalar(p0) && scalar(p1) && root.shape.as_array()?.dims.is_empty() && same)
            .then_some(PlainReduce { op, ty })
    }

    /// `dst[0..len) = srcs[0] ⊕ srcs[1] ⊕ …` in order, with combiner kernel `k`; chunked so
    /// each piece of `dst` stays in cache, chunks spread over the pool when large.
    pub(super) fn fold(
        &self,
        k: usize,
        srcs: &[*const u8],
        dst: *mut u8,
        len: usize,
        es: usize,
        threads: usize,
    ) -> Result<()> {
        let kern = &self.kernels[k];
        if kern.num_inputs != 2 || kern.num_outputs != 1 {
            return Err(Error::unimplemented(
                "JIT: collective reducers over several values at once",
            ));
        }
        let f = kern.func;
        let chunks = len.div_ceil(CHUNK);
        let srcs_p = SendPtr(srcs);
        let dst_p = SendPtr(dst);
        let run = move |c: usize| {
            let srcs = srcs_p;
            let dst = dst_p;
            let (lo, hi) = (c * CHUNK, ((c + 1) * CHUNK).min(len));
            // SAFETY: chunk [lo, hi) of every source and of `dst` (each chunk is written by
            // one task only); the combiner reads and writes elements [lo, hi).
            unsafe {
                std::ptr::copy_nonoverlapping(
                    srcs.0[0].add(lo * es),
                    dst.0.add(lo * es),
                    (hi - lo) * es,
                );
                for src in &srcs.0[1..] {
                    let ins = [dst.0 as *const u8, *src];
                    let outs = [dst.0];
                    f(ins.as_ptr(), outs.as_ptr(), lo as i64, hi as i64);
                }
            }
        };
        let threads = if len * srcs.len() >= 1 << 16 {
            threads
        } else {
            1
        };
        parallel_for(chunks, threads, &run);
        Ok(())
    }
}

/// The result shapes against the group's size. Shape inference cannot check them when a
/// group spans partitions (its size is known only here), and the copies below rely on them.
fn check_group_shapes(
    ins: &HloInstruction,
    input: &[(*mut u8, ArrayShape)],
    output: &[(*mut u8, ArrayShape)],
    n: usize,
) -> Result<()> {
    let n = n as i64;
    let (Some((_, a)), Some((_, r))) = (input.first(), output.first()) else {
        return Err(Error::internal("collective without operand or result"));
    };
    let expect = match &ins.op {
        Op::AllGather { dimension, .. } => {
            let mut d = a.dims.clone();
            d[*dimension as usize] *= n;
            Some(d)
        }
        Op::ReduceScatter { dimension, .. } => {
            let mut d = a.dims.clone();
            let k = *dimension as usize;
            if d[k] % n != 0 {
                return Err(Error::runtime(format!(
                    "dimension {k} of size {} does not split over a group of {n}",
                    d[k]
                )));
            }
            d[k] /= n;
            Some(d)
        }
        Op::AllToAll {
            split_dimension,
            concat_dimension,
            split_count,
            ..
        } => {
            if *split_count != n {
                return Err(Error::runtime(format!(
                    "split_count {split_count} but a group of {n}"
                )));
            }
            let mut d = a.dims.clone();
            d[*split_dimension as usize] /= n;
            d[*concat_dimension as usize] *= n;
            Some(d)
        }
        _ => None,
    };
    match expect {
        Some(d) if d != r.dims => Err(Error::runtime(format!(
            "a group of {n} makes the result {:?}, the instruction says {:?}",
            d, r.dims
        ))),
        _ => Ok(()),
    }
}

/// The value of a one-element integer array (a broadcast's root).
pub(super) fn read_index(v: &V) -> Result<i64> {
    use oxla_hlo::PrimitiveType::*;
    let V::Arr { ptr, shape, .. } = v else {
        return Err(Error::internal("root is not an array"));
    };
    let p = *ptr as *const u8;
    // SAFETY: one element of the named type.
    Ok(unsafe {
        match shape.element_type {
            S8 => *(p as *const i8) as i64,
            U8 => *p as i64,
            S16 => std::ptr::read_unaligned(p as *const i16) as i64,
            U16 => std::ptr::read_unaligned(p as *const u16) as i64,
            S32 => std::ptr::read_unaligned(p as *const i32) as i64,
            U32 => std::ptr::read_unaligned(p as *const u32) as i64,
            S64 => std::ptr::read_unaligned(p as *const i64),
            U64 => std::ptr::read_unaligned(p as *const u64) as i64,
            t => return Err(Error::invalid(format!("a broadcast root of type {t}"))),
        }
    })
}

/// Copies the `region` box starting at `from` in a row-major array of `src_dims` to the box
/// starting at `to` in one of `dst_dims` (contiguous innermost runs at a time).
#[allow(clippy::too_many_arguments)]
pub(crate) fn copy_region(
    src: *const u8,
    src_dims: &[i64],
    from: &[i64],
    dst: *mut u8,
    dst_dims: &[i64],
    to: &[i64],
    region: &[i64],
    es: usize,
) {
    let rank = region.len();
    if region.contains(&0) {
        return;
    }
    if rank == 0 {
        // SAFETY: one element.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, es) };
        return;
    }
    let strides = |dims: &[i64]| {
        let mut s = vec![1i64; dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            s[k] = s[k + 1] * dims[k + 1];
        }
        s
    };
    let (ss, ds) = (strides(src_dims), strides(dst_dims));
    let run = region[rank - 1] as usize * es;
    let mut idx = vec![0i64; rank - 1];
    loop {
        let (mut so, mut dof) = (from[rank - 1], to[rank - 1]);
        for k in 0..rank - 1 {
            so += (from[k] + idx[k]) * ss[k];
            dof += (to[k] + idx[k]) * ds[k];
        }
        // SAFETY: the boxes lie inside both arrays (the callers' shapes say so).
        unsafe {
            std::ptr::copy_nonoverlapping(
                src.add(so as usize * es),
                dst.add(dof as usize * es),
                run,
            )
        };
        // Next index of the outer dimensions.
        let mut k = rank - 1;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < region[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}
