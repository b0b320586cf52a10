//! Shardy's ops (JAX's default partitioner). They say how values are partitioned; Oxla's
//! SPMD pass (oxla-passes `partition/`) reads them as GSPMD's HLO shardings, so:
//!
//! - `sdy.manual_computation` (shard_map) is imported as GSPMD spells it: each operand
//!   annotated with its global sharding (`Sharding`) and cut to the shard type of its block
//!   argument (`SPMDFullToShardShape`), the body inline, each result reassembled to the op's
//!   result type (`SPMDShardToFullShape`, with its global sharding) — which the manual SPMD
//!   pass turns into the per-device program, and whose shardings it reports to PJRT;
//! - `sdy.sharding_constraint` and `sdy.reshard` are the identity when their sharding keeps
//!   the value whole on every device, else a `Sharding` annotation (a constraint for the
//!   partitioner; the identity inside a manual program);
//! - `sdy.propagation_barrier` and `sdy.data_flow_edge` are the identity,
//!   `sdy.sharding_group` has no effect, `sdy.named_computation` is its body inline and
//!   `sdy.constant` a constant;
//! - Shardy's collectives (`sdy.all_gather`...) only exist inside Shardy's own pipeline:
//!   unimplemented, by name.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, Result};

use super::attrs::first_region;
use super::{Importer, OpCx, Scope};
use crate::ast::*;
use crate::sdy::TensorSharding;
use crate::shape_of;

impl Importer<'_> {
    /// Shardy's ops; `None` when `cx.op` is not one.
    pub(super) fn sdy(&mut self, b: &mut XlaBuilder, cx: &mut OpCx) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let results = match op.name.as_str() {
            "sdy.sharding_constraint" | "sdy.reshard" => {
                let x = args[0];
                let s = self.sharding(op, "sharding")?;
                let mesh = s.resolve_mesh(self.module)?;
                if s.is_replicated(&mesh)? {
                    vec![x]
                } else {
                    let hlo = s.to_hlo(&mesh)?;
                    let shape = b.get_shape(x)?;
                    vec![b.custom_call("Sharding", &[x], &shape, false, &hlo)]
                }
            }
            "sdy.propagation_barrier" | "sdy.data_flow_edge" => vec![args[0]],
            "sdy.sharding_group" => vec![],
            "sdy.named_computation" => {
                let block = first_region(op)?
                    .blocks
                    .first()
                    .ok_or_else(|| Error::invalid("sdy.named_computation without a body"))?;
                if block.args.len() != args.len() {
                    return Err(Error::invalid(format!(
                        "sdy.named_computation: {} operands for {} block arguments",
                        args.len(),
                        block.args.len()
                    )));
                }
                let mut scope = Scope {
                    vals: cx.scope.vals.clone(),
                };
                for ((name, _), &x) in block.args.iter().zip(args) {
                    scope.vals.insert(name.clone(), x);
                }
                self.build_ops(b, &mut scope, &block.ops, false)?
            }
            "sdy.constant" => {
                let mut c = op.clone();
                c.name = "stablehlo.constant".into();
                return self.build_op(b, cx.scope, &c, cx.is_entry).map(Some);
            }
            "sdy.manual_computation" => self.manual_computation(b, cx.scope, op, args)?,
            _ => return Ok(None),
        };
        Ok(Some(results))
    }

    fn sharding(&self, op: &Operation, key: &str) -> Result<TensorSharding> {
        let a = op
            .attr(key)
            .ok_or_else(|| Error::invalid(format!("{} without {key}", op.name)))?;
        TensorSharding::from_attr(a)
    }

    /// The shardings of `key` (an `sdy.sharding_per_value`), `n` of them, as HLO shardings;
    /// every dimension may be split only over `manual` axes.
    fn manual_shardings(
        &self,
        op: &Operation,
        key: &str,
        n: usize,
        manual: &[String],
    ) -> Result<Vec<String>> {
        let Some(a) = op.attr(key) else {
            // Undecoded (a program from before Oxla read Shardy's properties): replicated.
            return Ok(vec!["{replicated}".to_string(); n]);
        };
        let all = TensorSharding::per_value(a)?;
        if all.len() != n {
            return Err(Error::invalid(format!(
                "sdy.manual_computation: {} {key} for {n} values",
                all.len()
            )));
        }
        all.iter()
            .map(|s| {
                let mesh = s.resolve_mesh(self.module)?;
                for ax in s.dims.iter().flatten() {
                    let size = mesh
                        .axes
                        .iter()
                        .find(|(n, _)| *n == ax.name)
                        .map_or(1, |(_, s)| *s);
                    if size > 1 && !manual.contains(&ax.name) {
                        return Err(Error::unimplemented(format!(
                            "sdy.manual_computation: a value split over the free axis \"{}\" \
                             (only its manual axes {manual:?} are partitioned by Oxla; the \
                             rest needs automatic SPMD partitioning)",
                            ax.name
                        )));
                    }
                }
                s.to_hlo(&mesh)
            })
            .collect()
    }

    /// Shardy's `sdy.manual_computation` (shard_map under Shardy): see the module
    /// documentation.
    fn manual_computation(
        &mut self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        op: &Operation,
        args: &[XlaOp],
    ) -> Result<Vec<XlaOp>> {
        let block = first_region(op)?
            .blocks
            .first()
            .ok_or_else(|| Error::invalid("sdy.manual_computation without a body"))?;
        if block.args.len() != args.len() || op.result_types.len() != op.results.len() {
            return Err(Error::invalid(format!(
                "sdy.manual_computation: {} operands for {} block arguments",
                args.len(),
                block.args.len()
            )));
        }
        let manual: Vec<String> = match op.attr("manual_axes").and_then(|a| a.field("axes")) {
            Some(Attr::Array(v)) => v
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        let ins = self.manual_shardings(op, "in_shardings", args.len(), &manual)?;
        let outs = self.manual_shardings(op, "out_shardings", op.results.len(), &manual)?;
        for (((name, ty), &x), hlo) in block.args.iter().zip(args).zip(&ins) {
            let local = shape_of(ty)?;
            let global = b.get_shape(x)?;
            if local.is_token() && global.is_token() {
                // A token (ordered effects in the body) is not data: every device has it.
                scope.vals.insert(name.clone(), x);
                continue;
            }
            let annotated = b.custom_call("Sharding", &[x], &global, false, hlo);
            let shard = b.custom_call("SPMDFullToShardShape", &[annotated], &local, false, "");
            scope.vals.insert(name.clone(), shard);
        }
        let ret = self.build_ops(b, scope, &block.ops, false)?;
        if ret.len() != op.result_types.len() {
            return Err(Error::invalid(format!(
                "sdy.manual_computation: the body returns {} values for {} results",
                ret.len(),
                op.result_types.len()
            )));
        }
        ret.iter()
            .zip(&op.result_types)
            .zip(&outs)
            .map(|((&v, ty), hlo)| {
                let global = shape_of(ty)?;
                if global.is_token() {
                    return Ok(v);
                }
                Ok(b.custom_call("SPMDShardToFullShape", &[v], &global, false, hlo))
            })
            .collect()
    }
}
