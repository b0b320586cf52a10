//! Tuples, tokens and control flow: tuple, get-tuple-element, after-all, opt-barrier, while,
//! if/case, func.call, composite, custom call. Values a while/if/case region captures from
//! the enclosing scope are threaded through the op's state or operands.

use std::collections::{HashMap, HashSet};

use oxla_builder::{XlaBuilder, XlaComputation, XlaOp};
use oxla_hlo::{Error, Result, Shape};

use super::attrs::*;
use super::checks::custom_call_check;
use super::{one, Importer, OpCx, Scope};
use crate::ast::*;

/// Names used inside `regions` but defined outside them.
fn free_values(regions: &[Region]) -> Vec<String> {
    fn walk(r: &Region, defined: &mut HashSet<String>, free: &mut Vec<String>) {
        for b in &r.blocks {
            for (n, _) in &b.args {
                defined.insert(n.clone());
            }
            for op in &b.ops {
                for o in &op.operands {
                    if !defined.contains(o) && !free.contains(o) {
                        free.push(o.clone());
                    }
                }
                for sub in &op.regions {
                    walk(sub, defined, free);
                }
                for res in &op.results {
                    defined.insert(res.clone());
                }
            }
        }
    }
    let mut defined = HashSet::new();
    let mut free = Vec::new();
    for r in regions {
        walk(r, &mut defined, &mut free);
    }
    free
}

impl Importer<'_> {
    /// Tuples, tokens and control flow; `None` when `cx.op` is not one of them.
    pub(super) fn control(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.tuple" => one(b.tuple(args)),
            "stablehlo.get_tuple_element" => {
                one(b.get_tuple_element(args[0], attr_int(op, "index")? as usize))
            }
            "stablehlo.after_all" => one(b.after_all(args)),
            // The older spelling of a token from nothing (`lax.create_token()`).
            "stablehlo.create_token" => one(b.after_all(&[])),
            "stablehlo.optimization_barrier" => {
                if args.len() == 1 && op.results.len() == 1 {
                    one(b.optimization_barrier(args[0]))
                } else {
                    let t = b.tuple(args);
                    let r = b.optimization_barrier(t);
                    Ok(Self::split(b, r, args.len()))
                }
            }
            "stablehlo.while" => self.while_op(b, cx.scope, op, args),
            "stablehlo.if" | "stablehlo.case" => self.conditional(b, cx.scope, op, args),
            // Serialized VHLO bridges the builtin-typed values of non-VHLO ops (Shardy's)
            // with these casts: the values are the same.
            "builtin.unrealized_conversion_cast" if args.len() == op.results.len() => {
                Ok(args.to_vec())
            }
            "stablehlo.composite" if chlo_composite(b, op, args) => {
                // A CHLO op as a portable artifact carries it (JAX's plugin path: VHLO has no
                // CHLO, so `chlo.erf` arrives as a composite whose decomposition is
                // StableHLO's generic expansion, 7 ULP off in f32): Oxla's own lowering, the
                // one the text path takes, instead.
                let mut chlo = op.clone();
                chlo.name = op
                    .attr("name")
                    .and_then(Attr::as_str)
                    .unwrap_or("")
                    .to_string();
                chlo.attrs = match op.attr("composite_attributes") {
                    Some(Attr::Dict(d)) => d.clone(),
                    _ => Vec::new(),
                };
                crate::chlo::build(b, &chlo, args)
            }
            "func.call" | "stablehlo.composite" => {
                let target = op
                    .attr(if name == "func.call" {
                        "callee"
                    } else {
                        "decomposition"
                    })
                    .and_then(Attr::as_str)
                    .ok_or_else(|| Error::invalid("call without a callee"))?
                    .to_string();
                let c = self.callee(&target)?;
                let r = if name == "func.call" {
                    b.call(&c, args)
                } else {
                    let cname = op
                        .attr("name")
                        .and_then(Attr::as_str)
                        .unwrap_or("")
                        .to_string();
                    let version = op.attr("version").and_then(Attr::as_int).unwrap_or(0) as i64;
                    b.composite_call(&c, args, &cname, "", version)
                };
                let n = op.results.len();
                Ok(Self::results(b, r, n))
            }
            "stablehlo.custom_call" => {
                let target = op
                    .attr("call_target_name")
                    .and_then(Attr::as_str)
                    .unwrap_or("")
                    .to_string();
                if let Some(kind) = custom_call_check(&target) {
                    return self.check_call(op, args, kind, cx.is_entry).map(Some);
                }
                // Annotations of where a value lives or how it is laid out (memory kinds,
                // `with_layout_constraint`) leave its values as they are.
                if matches!(
                    target.as_str(),
                    "annotate_device_placement" | "LayoutConstraint"
                ) && args.len() == 1
                    && op.result_types.len() == 1
                {
                    return Ok(Some(vec![args[0]]));
                }
                if target == "ApproxTopK" {
                    return self.approx_top_k(b, op, args).map(Some);
                }
                let n = op.result_types.len();
                let shape = if n == 1 {
                    result_shape(op, 0)?
                } else {
                    Shape::Tuple((0..n).map(|i| result_shape(op, i)).collect::<Result<_>>()?)
                };
                // Typed-FFI targets (JAX's LAPACK calls) carry their attributes in
                // `mhlo.backend_config`; rendered as MLIR prints a dictionary, which is also
                // what XLA's HLO dumps show as such a call's backend_config.
                let cfg = match (op.attr("mhlo.backend_config"), op.attr("backend_config")) {
                    (Some(Attr::Dict(d)), _) => render_ffi_attrs(d),
                    (_, Some(Attr::Str(s))) => s.clone(),
                    _ => String::new(),
                };
                // JAX's SPMD annotations (shard_map, pmap) say how an array is split in
                // `mhlo.sharding`; the SPMD pass (oxla-passes `partition/`) reads it here.
                let cfg = match (target.as_str(), op.attr("mhlo.sharding")) {
                    ("Sharding" | "SPMDFullToShardShape" | "SPMDShardToFullShape", Some(a)) => {
                        a.as_str().map_or(cfg, str::to_string)
                    }
                    _ => cfg,
                };
                let side_effect = attr_bool(op, "has_side_effect");
                // A host callback under a `jit` over several partitions: JAX gives it a
                // maximal sharding (run once, on that device), where every partition would
                // otherwise call it (a `jax.debug.print` printing once per device). Only
                // calls whose results are tokens (or none) are confined; results with data
                // would have to reach the other partitions too.
                let data = (0..n).any(|i| result_shape(op, i).is_ok_and(|s| !s.is_token()));
                if side_effect && !data && super::module_config(self.module).num_partitions > 1 {
                    if let Some(d) = crate::sdy::maximal_device(self.module, op)? {
                        let r = on_one_partition(b, d, &target, args, &shape, &cfg)?;
                        return Ok(Some(Self::results(b, r, n)));
                    }
                }
                let r = b.custom_call(&target, args, &shape, side_effect, &cfg);
                Ok(Self::results(b, r, n))
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }

    /// JAX's `approx_max_k` / `approx_min_k` (`custom_call @ApproxTopK`: N operands, then
    /// their N initial values; `called_computations` the comparator of 2N scalars;
    /// `reduction_dim` and `top_k` in `mhlo.backend_config`) as XLA's CPU backend runs it:
    /// exactly, a stable sort of the operands together by the comparator along the
    /// reduction dimension, then each result's first elements there (`top_k` of them when
    /// aggregated; as many as the result type says either way).
    fn approx_top_k(
        &mut self,
        b: &mut XlaBuilder,
        op: &Operation,
        args: &[XlaOp],
    ) -> Result<Vec<XlaOp>> {
        let n = op.result_types.len();
        if n == 0 || args.len() != 2 * n {
            return Err(Error::invalid(format!(
                "ApproxTopK: {} operands for {n} results (operands, then their initial values)",
                args.len()
            )));
        }
        let cfg = op
            .attr("mhlo.backend_config")
            .ok_or_else(|| Error::invalid("ApproxTopK without mhlo.backend_config"))?;
        let dim = cfg
            .field("reduction_dim")
            .and_then(Attr::as_int)
            .ok_or_else(|| Error::invalid("ApproxTopK without an integer reduction_dim"))?
            as i64;
        let comparator = match op.attr("called_computations") {
            Some(Attr::Array(a)) => match a.as_slice() {
                [Attr::Symbol(s)] => s.clone(),
                _ => return Err(Error::invalid("ApproxTopK: one comparator expected")),
            },
            _ => return Err(Error::invalid("ApproxTopK without a comparator")),
        };
        let cmp = self.callee(&comparator)?;
        let rank = b.get_shape(args[0])?.rank() as i64;
        if dim < 0 || dim >= rank {
            return Err(Error::invalid(format!(
                "ApproxTopK: reduction_dim {dim} of a rank-{rank} operand"
            )));
        }
        let sorted = b.sort(&args[..n], &cmp, dim, true);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let want = result_shape(op, i)?;
            let keep = *want.dims().get(dim as usize).ok_or_else(|| {
                Error::invalid("ApproxTopK: a result of another rank than its operand")
            })?;
            let v = if n == 1 {
                sorted
            } else {
                b.get_tuple_element(sorted, i)
            };
            let have = b.get_shape(v)?.dims()[dim as usize];
            if keep > have {
                return Err(Error::invalid(format!(
                    "ApproxTopK: {keep} results along dimension {dim} of {have}"
                )));
            }
            out.push(b.slice_in_dim(v, 0, keep, 1, dim));
        }
        Ok(out)
    }

    /// A region with captured values threaded through one tuple parameter: the tuple holds
    /// `lead` (the op's own values) then `captures`. Returns the computation.
    #[allow(clippy::too_many_arguments)]
    fn threaded_region(
        &mut self,
        parent: &mut XlaBuilder,
        region: &Region,
        name: &str,
        lead_types: &[Shape],
        lead_names: &[String],
        captures: &[(String, Shape)],
        append_captures_to_result: bool,
    ) -> Result<XlaComputation> {
        let mut b = parent.create_sub_builder(name);
        let mut scope = Scope {
            vals: HashMap::new(),
        };
        let mut elems: Vec<Shape> = lead_types.to_vec();
        elems.extend(captures.iter().map(|(_, s)| s.clone()));
        let p = b.parameter(0, &Shape::Tuple(elems), "state");
        let mut lead = Vec::new();
        for (i, n) in lead_names.iter().enumerate() {
            let v = b.get_tuple_element(p, i);
            scope.vals.insert(n.clone(), v);
            lead.push(v);
        }
        let mut caps = Vec::new();
        for (j, (n, _)) in captures.iter().enumerate() {
            let v = b.get_tuple_element(p, lead_names.len() + j);
            scope.vals.insert(n.clone(), v);
            caps.push(v);
        }
        let block = region
            .blocks
            .first()
            .ok_or_else(|| Error::invalid("empty region"))?;
        let mut ret = self.build_ops(&mut b, &mut scope, &block.ops, false)?;
        let root = if append_captures_to_result {
            ret.extend(caps);
            b.tuple(&ret)
        } else if ret.len() == 1 {
            ret[0]
        } else {
            b.tuple(&ret)
        };
        b.build_with_root(root)
    }

    /// Non-constant captures of `regions` with their shapes in the current builder.
    fn captures(
        &self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        regions: &[Region],
    ) -> Result<Vec<(String, Shape, XlaOp)>> {
        let mut out = Vec::new();
        for n in free_values(regions) {
            if self.consts.contains_key(&n) && !scope.vals.contains_key(&n) {
                continue;
            }
            if let Some(&v) = scope.vals.get(&n) {
                if self.consts.contains_key(&n) {
                    continue;
                }
                out.push((n, b.get_shape(v)?, v));
            }
        }
        Ok(out)
    }

    fn while_op(
        &mut self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        op: &Operation,
        args: &[XlaOp],
    ) -> Result<Vec<XlaOp>> {
        let n = args.len();
        let caps = self.captures(b, scope, &op.regions)?;
        let lead_types: Vec<Shape> = args
            .iter()
            .map(|&a| b.get_shape(a))
            .collect::<Result<_>>()?;
        let names_of = |r: &Region| -> Vec<String> {
            r.blocks
                .first()
                .map(|bl| bl.args.iter().map(|(n, _)| n.clone()).collect())
                .unwrap_or_default()
        };
        let cap_shapes: Vec<(String, Shape)> = caps
            .iter()
            .map(|(n, s, _)| (n.clone(), s.clone()))
            .collect();
        let cond_r = first_region(op)?;
        let body_r = region_at(op, 1)?;
        let cond = self.threaded_region(
            b,
            cond_r,
            "cond",
            &lead_types,
            &names_of(cond_r),
            &cap_shapes,
            false,
        )?;
        let body = self.threaded_region(
            b,
            body_r,
            "body",
            &lead_types,
            &names_of(body_r),
            &cap_shapes,
            true,
        )?;
        let mut init = args.to_vec();
        init.extend(caps.iter().map(|(_, _, v)| *v));
        let t = b.tuple(&init);
        let w = b.while_loop(&cond, &body, t);
        Ok(Self::split(b, w, n))
    }

    fn conditional(
        &mut self,
        b: &mut XlaBuilder,
        scope: &mut Scope,
        op: &Operation,
        args: &[XlaOp],
    ) -> Result<Vec<XlaOp>> {
        let caps = self.captures(b, scope, &op.regions)?;
        let cap_shapes: Vec<(String, Shape)> = caps
            .iter()
            .map(|(n, s, _)| (n.clone(), s.clone()))
            .collect();
        let mut comps = Vec::new();
        for (i, r) in op.regions.iter().enumerate() {
            comps.push(self.threaded_region(
                b,
                r,
                &format!("branch{i}"),
                &[],
                &[],
                &cap_shapes,
                false,
            )?);
        }
        let operand = {
            let v: Vec<XlaOp> = caps.iter().map(|(_, _, v)| *v).collect();
            b.tuple(&v)
        };
        let r = if op.name == "stablehlo.if" {
            if comps.len() != 2 {
                return Err(Error::invalid("stablehlo.if needs two regions"));
            }
            b.conditional(args[0], operand, &comps[0], operand, &comps[1])
        } else {
            let refs: Vec<&XlaComputation> = comps.iter().collect();
            let ops = vec![operand; comps.len()];
            b.conditional_indexed(args[0], &refs, &ops)
        };
        let n = op.results.len();
        Ok(Self::results(b, r, n))
    }
}

/// `{name = value, ...}` for a custom call's FFI attribute dictionary.
fn render_ffi_attrs(d: &[(String, Attr)]) -> String {
    let items: Vec<String> = d
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Attr::Int(i) => i.to_string(),
                Attr::Float(f) => f.to_string(),
                Attr::Bool(b) => b.to_string(),
                Attr::Str(s) => format!("{s:?}"),
                other => format!("{other:?}"),
            };
            format!("{k} = {v}")
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// Whether a composite is a CHLO op Oxla lowers itself: the element-wise special functions
/// on real floats (their lowering cannot fail part-way, which would poison the builder).
fn chlo_composite(b: &XlaBuilder, op: &Operation, args: &[XlaOp]) -> bool {
    const OWN: &[&str] = &[
        "erf",
        "erfc",
        "erf_inv",
        "lgamma",
        "digamma",
        "tan",
        "atan",
        "asin",
        "acos",
        "sinh",
        "cosh",
        "asinh",
        "acosh",
        "atanh",
        "bessel_i1e",
        "next_after",
        "zeta",
        "polygamma",
    ];
    let Some(short) = op
        .attr("name")
        .and_then(Attr::as_str)
        .and_then(|n| n.strip_prefix("chlo."))
    else {
        return false;
    };
    OWN.contains(&short)
        && op.results.len() == 1
        && args.iter().all(|&a| {
            b.get_shape(a).is_ok_and(|s| {
                let t = s.element_type();
                t.is_float()
            })
        })
}

/// `custom_call(target, args)` (with side effects, results of `shape`: tokens only) run
/// on partition `device` alone: a conditional on the partition id whose other branch makes
/// fresh tokens.
fn on_one_partition(
    b: &mut XlaBuilder,
    device: usize,
    target: &str,
    args: &[XlaOp],
    shape: &Shape,
    cfg: &str,
) -> Result<XlaOp> {
    let arg_shapes = args
        .iter()
        .map(|&a| b.get_shape(a))
        .collect::<Result<Vec<_>>>()?;
    let operand = b.tuple(args);
    let tuple = Shape::Tuple(arg_shapes);
    let mut call = b.create_sub_builder(&format!("{target}.on_{device}"));
    let p = call.parameter(0, &tuple, "args");
    let inner: Vec<XlaOp> = (0..args.len())
        .map(|i| call.get_tuple_element(p, i))
        .collect();
    call.custom_call(target, &inner, shape, true, cfg);
    let call = call.build()?;
    let mut skip = b.create_sub_builder(&format!("{target}.elsewhere"));
    skip.parameter(0, &tuple, "args");
    match shape {
        Shape::Tuple(t) => {
            let tokens: Vec<XlaOp> = t.iter().map(|_| skip.after_all(&[])).collect();
            skip.tuple(&tokens);
        }
        _ => {
            skip.after_all(&[]);
        }
    }
    let skip = skip.build()?;
    let id = b.partition_id();
    let want = b.constant_literal(&oxla_hlo::Literal::scalar(device as u32));
    let here = b.compare(id, want, oxla_hlo::ComparisonDirection::Eq, None);
    Ok(b.conditional(here, operand, &call, operand, &skip))
}
