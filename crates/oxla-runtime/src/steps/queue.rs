//! Host-queue and channel steps: infeed and outfeed on the device's queues (`queue.rs`),
//! send and recv (and their dones) through the communicator's channels. Payloads move as
//! buffers: an infeed hands the host's buffers to the program, an outfeed hands the
//! program's result memory to the host (copied only when it lives in the frame's arena).
//! Tokens carry no data; program order is the order of the steps.

use std::sync::Arc;

use oxla_hlo::{ArrayShape, Error, Op, PrimitiveType, Result, Shape};

use crate::exec::{array_bytes, Bytes, V};
use crate::plan::Programs;
use crate::queue::Item;
use crate::run::StepCtx;
use crate::Buffer;

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
            Op::Send { channel_id, .. } => {
                let v = operand(0);
                x.shared.comm.send(x.run, *channel_id, to_buffers(&v)?)?;
                Ok(V::Tuple(vec![v, context_value()?, V::Token]))
            }
            Op::SendDone { .. } => Ok(V::Token),
            Op::Recv { channel_id, .. } => {
                let want = ins
                    .shape
                    .tuple_elements()
                    .and_then(|t| t.first())
                    .cloned()
                    .unwrap_or(Shape::Token);
                let leaves = x.shared.comm.recv(x.run, *channel_id, x.shared.timeout)?;
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
                let data = from_buffers(&want, &mut leaves.into_iter())?;
                Ok(V::Tuple(vec![data, context_value()?, V::Token]))
            }
            Op::RecvDone { .. } => match operand(0) {
                V::Tuple(t) if !t.is_empty() => Ok(V::Tuple(vec![t[0].clone(), V::Token])),
                _ => Err(Error::internal("recv-done of a non-tuple")),
            },
            op => Err(Error::internal(format!(
                "{} is not a channel op",
                op.opcode_name()
            ))),
        }
    }
}
