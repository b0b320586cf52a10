//! Collectives in which each member needs only parts of the others' operands, over a
//! transport that does not share memory (another process): each member sends every other
//! exactly the bytes that member's result is made of, through
//! [`Communicator::exchange`](crate::comm::Communicator::exchange), instead of handing
//! everyone its whole operand. A reduce-scatter moves `(n-1)/n` of an operand per member
//! (not `n-1` operands), an all-to-all one block to each peer, a permute one message per
//! pair, a broadcast and a reduce one message per non-root member. Results are computed as
//! in one process: reductions fold every member's block in group order with the reducer's
//! combiner, so they agree bit for bit with an in-process run.

use oxla_hlo::{ArrayShape, Error, Op, Result};

use super::collective::{copy_region, read_index};
use crate::comm::RendezvousKey;
use crate::exec::array_bytes;
use crate::plan::Programs;
use crate::run::StepCtx;

/// What one member sends and expects.
struct Plan {
    sends: Vec<Option<Vec<u8>>>,
    expect: Vec<bool>,
    /// A reduce-scatter's own block, packed (`None`: it lies contiguous in the operand).
    own: Option<Vec<u8>>,
}

impl Plan {
    fn new(n: usize) -> Plan {
        Plan {
            sends: vec![None; n],
            expect: vec![false; n],
            own: None,
        }
    }
}

/// Whether [`Programs::run_exchange`] computes `op` (the rest rendezvous).
pub(crate) fn exchanges(op: &Op) -> bool {
    matches!(
        op,
        Op::ReduceScatter { .. }
            | Op::AllToAll { .. }
            | Op::CollectivePermute { .. }
            | Op::CollectiveBroadcast { .. }
            | Op::CollectiveReduce { .. }
    )
}

/// The bytes of array `a` at `p`.
///
/// # Safety
/// `p` points at a live array of shape `a`, not written while the slice lives.
unsafe fn bytes<'a>(p: *const u8, a: &ArrayShape) -> &'a [u8] {
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(p, array_bytes(a)) }
}

/// Fails unless `got` is `want` bytes long.
fn check_len(op: &str, got: &[u8], want: usize, from: usize) -> Result<()> {
    if got.len() == want {
        return Ok(());
    }
    Err(Error::runtime(format!(
        "{op}: member {from} of the group sent {} bytes where {want} were expected (the \
         participants' operands differ in shape)",
        got.len()
    )))
}

/// An all-to-all's block (the operand split `n` ways along `sd`) and its bytes.
fn a2a_block(dims: &[i64], sd: usize, n: usize, es: usize) -> (Vec<i64>, usize) {
    let mut block = dims.to_vec();
    block[sd] /= n as i64;
    let len = block.iter().product::<i64>() as usize * es;
    (block, len)
}

impl Programs {
    /// Runs collective `s.ins` (one of [`exchanges`]) as this member (`pos` in the group of
    /// `key`) by personalized exchange, writing its result into `out`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_exchange(
        &self,
        s: &StepCtx,
        key: &RendezvousKey,
        pos: usize,
        combiner: Option<usize>,
        input: &[(*mut u8, ArrayShape)],
        out: &[(*mut u8, ArrayShape)],
    ) -> Result<()> {
        let (x, ins) = (s.x, s.ins);
        let op = ins.op.opcode_name();
        let n = key.group.len();
        let ((src, full), (dst, a)) = (&input[0], &out[0]);
        let (src, dst) = (*src as *const u8, *dst);
        let es = a.element_type.byte_size();
        let mut plan = Plan::new(n);
        match &ins.op {
            Op::ReduceScatter { dimension, .. } => {
                // Block `j` of every row goes to member `j`, packed row after row: the
                // packed block is member j's result layout.
                let d = *dimension as usize;
                let outer = full.dims[..d].iter().product::<i64>() as usize;
                let row = full.dims[d..].iter().product::<i64>() as usize * es;
                let blk = a.dims[d..].iter().product::<i64>() as usize * es;
                for j in 0..n {
                    if j == pos && outer == 1 {
                        continue;
                    }
                    let mut b = Vec::with_capacity(outer * blk);
                    for o in 0..outer {
                        // SAFETY: block `j` of row `o` lies inside the operand.
                        b.extend_from_slice(unsafe {
                            std::slice::from_raw_parts(src.add(o * row + j * blk), blk)
                        });
                    }
                    if j == pos {
                        plan.own = Some(b);
                    } else {
                        plan.sends[j] = Some(b);
                        plan.expect[j] = true;
                    }
                }
            }
            Op::AllToAll {
                split_dimension,
                concat_dimension,
                ..
            } => {
                let (sd, cd) = (*split_dimension as usize, *concat_dimension as usize);
                let (block, len) = a2a_block(&full.dims, sd, n, es);
                for j in 0..n {
                    let mut from = vec![0i64; block.len()];
                    from[sd] = j as i64 * block[sd];
                    let mut to = vec![0i64; block.len()];
                    if j == pos {
                        // Our own block goes straight to its place.
                        to[cd] = pos as i64 * block[cd];
                        copy_region(src, &full.dims, &from, dst, &a.dims, &to, &block, es);
                        continue;
                    }
                    let mut b = vec![0u8; len];
                    copy_region(
                        src,
                        &full.dims,
                        &from,
                        b.as_mut_ptr(),
                        &block,
                        &to,
                        &block,
                        es,
                    );
                    plan.sends[j] = Some(b);
                    plan.expect[j] = true;
                }
            }
            Op::CollectivePermute {
                source_target_pairs,
                channel_id,
            } => {
                let my_id = if channel_id.is_some_and(|c| c > 0) {
                    x.partition
                } else {
                    x.replica
                };
                let index = |id: i64| {
                    usize::try_from(id).ok().filter(|&i| i < n).ok_or_else(|| {
                        Error::runtime(format!(
                            "{op}: pair names instance {id}, outside a group of {n}"
                        ))
                    })
                };
                // Each target takes its first pair's source (as in one process), so both
                // ends agree on which messages exist.
                for (k, &(from, to)) in source_target_pairs.iter().enumerate() {
                    let (f, t) = (index(from)?, index(to)?);
                    if source_target_pairs[..k].iter().any(|&(_, t2)| t2 == to) {
                        continue;
                    }
                    if f == pos && t != pos {
                        // SAFETY: the operand's live memory.
                        plan.sends[t] = Some(unsafe { bytes(src, full) }.to_vec());
                    }
                    if t == pos {
                        if f == pos {
                            // SAFETY: same size (checked by the caller).
                            unsafe { std::ptr::copy_nonoverlapping(src, dst, array_bytes(a)) };
                        } else {
                            plan.expect[f] = true;
                        }
                    }
                }
                if !source_target_pairs.iter().any(|&(_, t)| t == my_id) {
                    // SAFETY: the output's own memory.
                    unsafe { std::ptr::write_bytes(dst, 0, array_bytes(a)) };
                }
            }
            Op::CollectiveBroadcast { .. } => {
                let root = match ins.operands.get(1) {
                    Some(r) => read_index(&s.vals[r.index()])?,
                    None => 0,
                };
                let root = usize::try_from(root)
                    .ok()
                    .filter(|&r| r < n)
                    .ok_or_else(|| {
                        Error::runtime(format!("root {root} is outside a group of {n}"))
                    })?;
                if root == pos {
                    // SAFETY: the operand's live memory; same size as the output.
                    let mine = unsafe { bytes(src, full) };
                    for (j, send) in plan.sends.iter_mut().enumerate() {
                        if j != pos {
                            *send = Some(mine.to_vec());
                        }
                    }
                    // SAFETY: same size (checked by the caller).
                    unsafe { std::ptr::copy_nonoverlapping(src, dst, array_bytes(a)) };
                } else {
                    plan.expect[root] = true;
                }
            }
            Op::CollectiveReduce { .. } => {
                if pos == 0 {
                    plan.expect.iter_mut().skip(1).for_each(|e| *e = true);
                } else {
                    // SAFETY: the operand's live memory.
                    plan.sends[0] = Some(unsafe { bytes(src, full) }.to_vec());
                    // SAFETY: the output's own memory.
                    unsafe { std::ptr::write_bytes(dst, 0, array_bytes(a)) };
                }
            }
            op => {
                return Err(Error::internal(format!(
                    "{} is not an exchanged collective",
                    op.opcode_name()
                )))
            }
        }
        let me = key.group[pos];
        let got =
            x.shared
                .comm
                .exchange(key, me, op, plan.sends, &plan.expect, x.shared.timeout)?;
        match &ins.op {
            Op::ReduceScatter { .. } | Op::CollectiveReduce { .. } => {
                if matches!(ins.op, Op::CollectiveReduce { .. }) && pos != 0 {
                    return Ok(());
                }
                let k = combiner.ok_or_else(|| Error::internal(format!("{op} combiner")))?;
                let len = array_bytes(a);
                let mut srcs = Vec::with_capacity(n);
                for (j, g) in got.iter().enumerate() {
                    match g {
                        Some(g) => {
                            check_len(op, g, len, j)?;
                            srcs.push(g.as_ptr());
                        }
                        None if j == pos => srcs.push(match &plan.own {
                            Some(b) => b.as_ptr(),
                            // SAFETY: one row: block `pos` lies inside the operand.
                            None if matches!(ins.op, Op::ReduceScatter { .. }) => unsafe {
                                src.add(pos * len)
                            },
                            None => src,
                        }),
                        None => return Err(Error::internal(format!("{op}: nothing from {j}"))),
                    }
                }
                self.fold(k, &srcs, dst, len / es.max(1), es, self.threads)
            }
            Op::AllToAll {
                split_dimension,
                concat_dimension,
                ..
            } => {
                let (sd, cd) = (*split_dimension as usize, *concat_dimension as usize);
                let (block, len) = a2a_block(&full.dims, sd, n, es);
                for (j, g) in got.iter().enumerate() {
                    let Some(g) = g else { continue };
                    check_len(op, g, len, j)?;
                    let mut to = vec![0i64; block.len()];
                    to[cd] = j as i64 * block[cd];
                    let zero = vec![0i64; block.len()];
                    copy_region(g.as_ptr(), &block, &zero, dst, &a.dims, &to, &block, es);
                }
                Ok(())
            }
            _ => {
                // Permute and broadcast: at most one message, the whole result.
                if let Some((j, g)) = got
                    .iter()
                    .enumerate()
                    .find_map(|(j, g)| Some((j, g.as_ref()?)))
                {
                    check_len(op, g, array_bytes(a), j)?;
                    // SAFETY: the output's own memory, as long as the message (checked).
                    unsafe { std::ptr::copy_nonoverlapping(g.as_ptr(), dst, g.len()) };
                }
                Ok(())
            }
        }
    }
}
