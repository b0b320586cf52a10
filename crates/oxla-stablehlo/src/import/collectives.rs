//! Side-effecting ops: infeed, outfeed, send/recv, and the collectives (replica groups,
//! channel ids, use_global_device_ids).

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, Result, Shape};

use super::attrs::*;
use super::{one, Importer, OpCx};
use crate::ast::*;

/// Replica groups from a 2-D dense attribute.
fn replica_groups(op: &Operation) -> Vec<Vec<i64>> {
    let Some(Attr::Dense { values, ty, .. }) = op.attr("replica_groups") else {
        return vec![];
    };
    let flat: Vec<i64> = values
        .iter()
        .map(|v| match v {
            DenseValue::Int(i) => *i as i64,
            _ => -1,
        })
        .collect();
    let cols = match ty {
        Some(Type::Tensor { dims, .. }) if dims.len() == 2 => dims[1].max(1) as usize,
        _ => flat.len().max(1),
    };
    flat.chunks(cols)
        .map(|c| c.iter().copied().filter(|&i| i >= 0).collect())
        .filter(|g: &Vec<i64>| !g.is_empty())
        .collect()
}

fn channel_id(op: &Operation) -> Option<i64> {
    op.attr("channel_handle")
        .and_then(|a| a.field("handle"))
        .and_then(Attr::as_int)
        .map(|v| v as i64)
        .or_else(|| {
            op.attr("channel_id")
                .and_then(Attr::as_int)
                .map(|v| v as i64)
        })
}

impl Importer<'_> {
    /// Side-effecting ops and collectives; `None` when `cx.op` is not one of them.
    pub(super) fn collectives(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.infeed" => {
                let n = op.result_types.len().saturating_sub(1);
                let data: Vec<Shape> =
                    (0..n).map(|i| result_shape(op, i)).collect::<Result<_>>()?;
                let dshape = if n == 1 {
                    data[0].clone()
                } else {
                    Shape::Tuple(data)
                };
                let cfg = op
                    .attr("infeed_config")
                    .and_then(Attr::as_str)
                    .unwrap_or("")
                    .to_string();
                let r = b.infeed_with_token(args[0], &dshape, &cfg);
                let d = b.get_tuple_element(r, 0);
                let tok = b.get_tuple_element(r, 1);
                let mut out = Self::results(b, d, n);
                out.push(tok);
                Ok(out)
            }
            "stablehlo.outfeed" => {
                let n = args.len() - 1;
                let v = if n == 1 { args[0] } else { b.tuple(&args[..n]) };
                let cfg = op
                    .attr("outfeed_config")
                    .and_then(Attr::as_str)
                    .unwrap_or("")
                    .to_string();
                one(b.outfeed(v, args[n], &cfg))
            }
            "stablehlo.send" => {
                let n = args.len() - 1;
                let v = if n == 1 { args[0] } else { b.tuple(&args[..n]) };
                let pairs = send_recv_pairs(op)?;
                one(b.send_with_pairs(v, args[n], channel_id(op).unwrap_or(0), &pairs))
            }
            "stablehlo.recv" => {
                let n = op.result_types.len().saturating_sub(1);
                let data: Vec<Shape> =
                    (0..n).map(|i| result_shape(op, i)).collect::<Result<_>>()?;
                let dshape = if n == 1 {
                    data[0].clone()
                } else {
                    Shape::Tuple(data)
                };
                let pairs = send_recv_pairs(op)?;
                let r = b.recv_with_pairs(args[0], &dshape, channel_id(op).unwrap_or(0), &pairs);
                let d = b.get_tuple_element(r, 0);
                let tok = b.get_tuple_element(r, 1);
                let mut out = Self::results(b, d, n);
                out.push(tok);
                Ok(out)
            }
            "stablehlo.all_reduce" => {
                let comp = self.reducer(b, op, 1)?;
                let groups = replica_groups(op);
                let ch = channel_id(op);
                if args.len() == 1 {
                    one(self.collective(b, op, |b| b.all_reduce(args[0], &comp, &groups, ch)))
                } else {
                    let t = b.tuple(args);
                    let r = self.collective(b, op, |b| b.all_reduce(t, &comp, &groups, ch));
                    Ok(Self::split(b, r, args.len()))
                }
            }
            "stablehlo.all_gather" => {
                let groups = replica_groups(op);
                let dim = attr_int(op, "all_gather_dim")?;
                let ch = channel_id(op);
                let mut outs = Vec::new();
                for (i, &a) in args.iter().enumerate() {
                    let out = result_shape(op, i)?;
                    let inp = b.get_shape(a)?;
                    let count = out.dims().get(dim as usize).copied().unwrap_or(1)
                        / inp.dims().get(dim as usize).copied().unwrap_or(1).max(1);
                    outs.push(self.collective(b, op, |b| b.all_gather(a, dim, count, &groups, ch)));
                }
                Ok(outs)
            }
            "stablehlo.reduce_scatter" => {
                let comp = self.reducer(b, op, 1)?;
                let groups = replica_groups(op);
                let dim = attr_int(op, "scatter_dimension")?;
                let out = result_shape(op, 0)?;
                let inp = b.get_shape(args[0])?;
                let count = inp.dims().get(dim as usize).copied().unwrap_or(1)
                    / out.dims().get(dim as usize).copied().unwrap_or(1).max(1);
                let ch = channel_id(op);
                one(self.collective(b, op, |b| {
                    b.reduce_scatter(args[0], &comp, dim, count, &groups, ch)
                }))
            }
            "stablehlo.all_to_all" => {
                let groups = replica_groups(op);
                let mut outs = Vec::new();
                for &a in args {
                    let r = b.all_to_all(
                        a,
                        attr_int(op, "split_dimension")?,
                        attr_int(op, "concat_dimension")?,
                        attr_int(op, "split_count")?,
                        &groups,
                    );
                    self.set_channel(b, r, channel_id(op));
                    outs.push(r);
                }
                Ok(outs)
            }
            "stablehlo.collective_permute" => {
                let pairs: Vec<(i64, i64)> = attr_ints(op, "source_target_pairs")?
                    .chunks(2)
                    .map(|c| (c[0], c.get(1).copied().unwrap_or(0)))
                    .collect();
                let r = b.collective_permute(args[0], &pairs);
                self.set_channel(b, r, channel_id(op));
                one(r)
            }
            "stablehlo.collective_broadcast" => {
                let groups = replica_groups(op);
                if op.attr("has_dynamic_root").is_some() {
                    // The last operand holds one root index per data operand.
                    let (root, data) = args
                        .split_last()
                        .ok_or_else(|| Error::invalid("collective_broadcast without operands"))?;
                    Ok(data
                        .iter()
                        .enumerate()
                        .map(|(k, &a)| {
                            let r = b.slice(*root, &[k as i64], &[k as i64 + 1], &[1]);
                            b.collective_broadcast_with_root(a, r, &groups, channel_id(op))
                        })
                        .collect())
                } else {
                    Ok(args
                        .iter()
                        .map(|&a| b.collective_broadcast(a, &groups, channel_id(op)))
                        .collect())
                }
            }
            "stablehlo.collective_reduce" => {
                let comp = self.reducer(b, op, 1)?;
                let groups = replica_groups(op);
                one(b.collective_reduce(args[0], &comp, &groups, channel_id(op)))
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }

    fn collective(
        &self,
        b: &mut XlaBuilder,
        op: &Operation,
        f: impl FnOnce(&mut XlaBuilder) -> XlaOp,
    ) -> XlaOp {
        let r = f(b);
        if attr_bool(op, "use_global_device_ids") {
            self.set_flag_ugdi(b, r);
        }
        r
    }

    fn set_flag_ugdi(&self, b: &mut XlaBuilder, r: XlaOp) {
        b.modify_op(r, |o| match o {
            oxla_hlo::Op::AllReduce {
                use_global_device_ids,
                ..
            }
            | oxla_hlo::Op::AllGather {
                use_global_device_ids,
                ..
            }
            | oxla_hlo::Op::ReduceScatter {
                use_global_device_ids,
                ..
            } => *use_global_device_ids = true,
            _ => {}
        });
    }

    fn set_channel(&self, b: &mut XlaBuilder, r: XlaOp, ch: Option<i64>) {
        b.modify_op(r, |o| match o {
            oxla_hlo::Op::AllToAll { channel_id, .. }
            | oxla_hlo::Op::CollectivePermute { channel_id, .. } => *channel_id = ch,
            _ => {}
        });
    }
}

/// Send/recv's instance pairs: a `source_target_pairs` attribute (StableHLO's newer form)
/// or XLA's frontend attribute `_xla_send_recv_source_target_pairs = "{{0,1},{1,2}}"`.
fn send_recv_pairs(op: &Operation) -> Result<Vec<(i64, i64)>> {
    let bad = |why: &str| Error::invalid(format!("{}: source-target pairs {why}", op.name));
    let flat: Vec<i64> = if let Some(a) = op.attr("source_target_pairs") {
        a.as_ints()
            .ok_or_else(|| bad("are not a list of integers"))?
    } else {
        let text = match op.attr("mhlo.frontend_attributes") {
            Some(Attr::Dict(d)) => d.iter().find_map(|(k, v)| match v {
                Attr::Str(s) if k == "_xla_send_recv_source_target_pairs" => Some(s.as_str()),
                _ => None,
            }),
            _ => None,
        };
        let Some(text) = text else {
            return Ok(Vec::new());
        };
        if !text
            .chars()
            .all(|c| c.is_ascii_digit() || "{}, -".contains(c))
        {
            return Err(bad(&format!("\"{text}\" are not {{{{s,t}},...}}")));
        }
        text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|w| !w.is_empty())
            .map(|w| w.parse::<i64>().map_err(|_| bad(&format!("\"{text}\""))))
            .collect::<Result<_>>()?
    };
    if !flat.len().is_multiple_of(2) {
        return Err(bad("have an odd count of ids"));
    }
    Ok(flat.chunks(2).map(|c| (c[0], c[1])).collect())
}
