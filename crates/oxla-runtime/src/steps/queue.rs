//! Host-queue and channel steps: infeed and outfeed on the device's queues (`queue.rs`),
//! send and recv (and their dones) through the communicator's channels. Payloads move as
//! buffers: an infeed hands the host's buffers to the program, an outfeed hands the
//! program's result memory to the host (copied only when it lives in the frame's arena).
//! Tokens carry no data; program order is the order of the steps.

use std::sync::Arc;

use oxla_hlo::collective::p2p_peer;
use oxla_hlo::{ArrayShape, Error, Op, PrimitiveType, Result, Shape};

use crate::exec::{array_bytes, Bytes, V};
use crate::plan::Programs;
use crate::queue::Item;
use crate::run::StepCtx;
use crate::{Buffer, ChannelKey};

/// The buffers of `v`'s array leaves (arena memory copied out, owned memory shared).
fn to_buffers(v: &V) -> Result<Vec<Buffer>> {
    let mut leaves = Vec::new();
    v.leaves(&mut leaves);
    leaves
        .into_iter()
        .map(|l| match l {
            V::Arr {
                ptr,
                shape,
                keep: Some(k),
            } if ptr == k.ptr() => Ok(Buffer {
                shape: Arc::unwrap_or_clone(shape),
                data: k,
            }),
            V::Arr { ptr, shape, .. } => {
                let n = array_bytes(&shape);
                // SAFETY: `n` live bytes of the value.
                let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, n) };
                Ok(Buffer {
                    shape: Arc::unwrap_or_clone(shape),
                    data: Arc::new(Bytes::from_slice(bytes)?),
                })
            }
            _ => Err(Error::internal("a queue payload leaf is not an array")),
        })
        .collect()
}

/// The value of `shape` made of `leaves` (consumed in order).
fn from_buffers(shape: &Shape, leaves: &mut std::vec::IntoIter<Buffer>) -> Result<V> {
    match shape {
        Shape::Array(_) => {
            let b = leaves
                .next()
                .ok_or_else(|| Error::internal("payload has too few arrays"))?;
            Ok(V::Arr {
                ptr: b.data.ptr(),
                shape: Arc::new(b.shape),
                keep: Some(b.data),
            })
        }
        Shape::Tuple(t) => Ok(V::Tuple(
            t.iter()
                .map(|s| from_buffers(s, leaves))
                .collect::<Result<_>>()?,
        )),
        Shape::Token => Ok(V::Token),
    }
}

/// Element type and dimensions of each array leaf of `shape` (what a payload must match).
fn array_leaves(shape: &Shape, out: &mut Vec<(PrimitiveType, Vec<i64>)>) {
    match shape {
        Shape::Array(a) => out.push((a.element_type, a.dims.clone())),
        Shape::Tuple(t) => t.iter().for_each(|s| array_leaves(s, out)),
        Shape::Token => {}
    }
}

/// A value of `shape` whose arrays are all zeros (a recv no source sends to).
fn zeros_value(shape: &Shape) -> Result<V> {
    let mut w = Vec::new();
    array_leaves(shape, &mut w);
    let leaves = w
        .into_iter()
        .map(|(t, dims)| {
            let a = ArrayShape::new(t, &dims);
            Buffer::from_bytes(a.clone(), &vec![0u8; array_bytes(&a)])
        })
        .collect::<Result<Vec<_>>>()?;
    from_buffers(shape, &mut leaves.into_iter())
}

/// A u32 scalar 0 (the context element of send / recv results).
fn context_value() -> Result<V> {
    let b = Arc::new(Bytes::from_slice(&0u32.to_le_bytes())?);
    Ok(V::Arr {
        ptr: b.ptr(),
        shape: Arc::new(ArrayShape::new(PrimitiveType::U32, &[])),
        keep: Some(b),
    })
}

impl Programs {
    pub(crate) fn run_queue(&self, s: &StepCtx) -> Result<V> {
        let (x, ins) = (s.x, s.ins);
        let queues = x
            .shared
            .queues
            .get(x.device)
            .ok_or_else(|| Error::internal("device without queues"))?;
        match &ins.op {
            Op::Infeed { .. } => {
                let want = ins
                    .shape
                    .tuple_elements()
                    .and_then(|t| t.first())
                    .cloned()
                    .unwrap_or(Shape::Token);
                let mut w = Vec::new();
                array_leaves(&want, &mut w);
                let accept = |it: &Item| -> Result<()> {
                    let got: Vec<_> = it.leaves.iter().map(|b| b.signature()).collect();
                    if w != got {
                        return Err(Error::runtime(format!(
                            "expected {want}, the infeed queue of device {} holds {}",
                            x.device,
                            it.shape()
                        )));
                    }
                    Ok(())
                };
                let item = x
                    .wait_cancellable(&ins.name, x.shared.timeout, |t| {
                        queues.infeed.pop(Some(t), &accept)
                    })?
                    .ok_or_else(|| {
                        Error::runtime(format!(
                            "timed out after {:?}: the infeed queue of device {} stayed empty",
                            x.shared.timeout, x.device
                        ))
                    })?;
                let data = from_buffers(&want, &mut item.leaves.into_iter())?;
                Ok(V::Tuple(vec![data, V::Token]))
            }
            Op::Outfeed { .. } => {
                let v = &s.vals[ins.operands[0].index()];
                let leaves = to_buffers(v)?;
                let tuple = matches!(v, V::Tuple(_));
                queues.outfeed.push(Item { tuple, leaves })?;
                Ok(V::Token)
            }
            op => Err(Error::internal(format!(
                "{} is not a queue op",
                op.opcode_name()
            ))),
        }
    }

    pub(crate) fn run_channel(&self, s: &StepCtx) -> Result<V> {
        let (x, ins) = (s.x, s.ins);
        let operand = |k: usize| s.vals[ins.operands[k].index()].clone();
        match &ins.op {
            Op::Send {
                channel_id,
                source_target_pairs,
                ..
            } => {
                let v = operand(0);
                let me = x.grid.process_id(x.replica, x.partition);
                let to = p2p_peer(source_target_pairs, true, x.grid, x.replica, x.partition)?;
                // With pairs, an instance that is no source sends nothing.
                if source_target_pairs.is_empty() || to.is_some() {
                    let key = ChannelKey {
                        run: x.run,
                        channel: *channel_id,
                        peers: to.map(|t| (me, t)),
                    };
                    x.shared.comm.send(&key, to_buffers(&v)?)?;
                }
                Ok(V::Tuple(vec![v, context_value()?, V::Token]))
            }
            Op::SendDone { .. } => Ok(V::Token),
            Op::Recv { .. } => {
                // A recv whose only users are recv-dones leaves the wait to them, so a
                // program may post its recv before the matching send (XLA's order); the
                // data slot holds a token until then.
                if waits_in_recv_done(s.c, s.i) {
                    return Ok(V::Tuple(vec![V::Token, context_value()?, V::Token]));
                }
                let data = receive(s, ins)?;
                Ok(V::Tuple(vec![data, context_value()?, V::Token]))
            }
            Op::RecvDone { .. } => {
                let r = ins.operands[0];
                let recv = s.c.instr(r);
                if matches!(recv.op, Op::Recv { .. }) && waits_in_recv_done(s.c, r.index()) {
                    return Ok(V::Tuple(vec![receive(s, recv)?, V::Token]));
                }
                match operand(0) {
                    V::Tuple(t) if !t.is_empty() => Ok(V::Tuple(vec![t[0].clone(), V::Token])),
                    _ => Err(Error::internal("recv-done of a non-tuple")),
                }
            }
            op => Err(Error::internal(format!(
                "{} is not a channel op",
                op.opcode_name()
            ))),
        }
    }
}

/// Whether every user of instruction `i` of `c` is a recv-done.
fn waits_in_recv_done(c: &oxla_hlo::HloComputation, i: usize) -> bool {
    let mut users = c
        .instructions
        .iter()
        .filter(|u| u.operands.iter().any(|o| o.index() == i))
        .peekable();
    users.peek().is_some() && users.all(|u| matches!(u.op, Op::RecvDone { .. }))
}

/// The data `recv` (an `Op::Recv` of the step's computation) receives on this instance.
fn receive(s: &StepCtx, recv: &oxla_hlo::HloInstruction) -> Result<V> {
    let x = s.x;
    let Op::Recv {
        channel_id,
        source_target_pairs,
        ..
    } = &recv.op
    else {
        return Err(Error::internal("receive of a non-recv"));
    };
    let want = recv
        .shape
        .tuple_elements()
        .and_then(|t| t.first())
        .cloned()
        .unwrap_or(Shape::Token);
    let me = x.grid.process_id(x.replica, x.partition);
    let from = p2p_peer(source_target_pairs, false, x.grid, x.replica, x.partition)?;
    if !source_target_pairs.is_empty() && from.is_none() {
        // No source sends to this instance: zeros, as collective-permute gives.
        return zeros_value(&want);
    }
    let key = ChannelKey {
        run: x.run,
        channel: *channel_id,
        peers: from.map(|s| (s, me)),
    };
    let leaves = x.shared.comm.recv(&key, x.shared.timeout)?;
    let mut w = Vec::new();
    array_leaves(&want, &mut w);
    let got: Vec<_> = leaves.iter().map(|b| b.signature()).collect();
    if w != got {
        return Err(Error::runtime(format!(
            "expected {want} on channel {channel_id}, received {}",
            Item {
                tuple: true,
                leaves
            }
            .shape()
        )));
    }
    from_buffers(&want, &mut leaves.into_iter())
}
