//! Writes a module as XLA HLO text:
//!
//! ```text
//! HloModule name, entry_computation_layout={(f32[2]{0})->f32[2]{0}}, replica_count=2
//!
//! %add (x: f32[], y: f32[]) -> f32[] {
//!   %x = f32[] parameter(0)
//!   ...
//! }
//!
//! ENTRY %main (p: f32[2]) -> f32[2] {
//!   ...
//!   ROOT %r = f32[2]{0} add(f32[2]{0} %p, f32[2]{0} %p)
//! }
//! ```
//!
//! Callees come before callers. Attributes are spelled and ordered as XLA prints them; see
//! `mod.rs` for the few Oxla extensions.

use std::fmt::Write;

use super::attributes::*;
use super::literal_text::{fmt_f32, literal_value_text};
use super::shape_text::{shape_string, write_shape};
use crate::ir::{ComputationId, HloComputation, HloInstruction, HloModule};
use crate::op::Op;
use crate::types::PrimitiveType;

/// The module in HLO text form.
pub fn print_module(module: &HloModule) -> String {
    let mut out = String::new();
    let _ = write!(out, "HloModule {}", module.name);
    if let Some(entry) = module.computations.get(module.entry.index()) {
        if entry.get(entry.root).is_some() {
            out.push_str(", entry_computation_layout={");
            write_signature_shapes(&mut out, entry, true);
            out.push('}');
        }
    }
    if module.config.num_replicas != 1 {
        let _ = write!(out, ", replica_count={}", module.config.num_replicas);
    }
    if module.config.num_partitions != 1 {
        let _ = write!(out, ", num_partitions={}", module.config.num_partitions);
    }
    out.push_str("\n\n");
    let order = module
        .computation_post_order()
        .unwrap_or_else(|_| module.computation_ids().collect());
    for cid in order {
        if let Some(comp) = module.computations.get(cid.index()) {
            if cid == module.entry {
                out.push_str("ENTRY ");
            }
            print_computation(&mut out, module, comp);
            out.push_str("\n\n");
        }
    }
    out
}

/// `(p0, p1)->result` with layouts (the entry_computation_layout form).
fn write_signature_shapes(out: &mut String, comp: &HloComputation, _layouts: bool) {
    out.push('(');
    for (i, &p) in comp.parameters.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
            if i % 5 == 0 {
                let _ = write!(out, "/*index={i}*/");
            }
        }
        match comp.get(p) {
            Some(ins) => write_shape(out, &ins.shape),
            None => out.push_str("()"),
        }
    }
    out.push_str(")->");
    if let Some(r) = comp.get(comp.root) {
        write_shape(out, &r.shape);
    }
}

fn print_computation(out: &mut String, module: &HloModule, comp: &HloComputation) {
    let _ = write!(out, "%{} (", comp.name);
    for (i, &p) in comp.parameters.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if let Some(ins) = comp.get(p) {
            let _ = write!(out, "{}: ", ins.name);
            write_shape(out, &ins.shape.without_layout());
        }
    }
    out.push_str(") -> ");
    if let Some(r) = comp.get(comp.root) {
        write_shape(out, &r.shape.without_layout());
    }
    out.push_str(" {\n");
    for id in comp.ids() {
        let ins = comp.instr(id);
        out.push_str("  ");
        if id == comp.root {
            out.push_str("ROOT ");
        }
        print_instruction(out, module, comp, ins);
        out.push('\n');
    }
    out.push('}');
}

fn comp_name(module: &HloModule, id: ComputationId) -> String {
    match module.computations.get(id.index()) {
        Some(c) => format!("%{}", c.name),
        None => format!("%<missing computation {}>", id.0),
    }
}

fn comp_list(module: &HloModule, ids: &[ComputationId]) -> String {
    let names: Vec<String> = ids.iter().map(|&c| comp_name(module, c)).collect();
    format!("{{{}}}", names.join(", "))
}

fn print_instruction(
    out: &mut String,
    module: &HloModule,
    comp: &HloComputation,
    ins: &HloInstruction,
) {
    let _ = write!(out, "%{} = ", ins.name);
    write_shape(out, &ins.shape);
    let _ = write!(out, " {}(", ins.op.opcode_name());
    match &ins.op {
        Op::Parameter { number } => {
            let _ = write!(out, "{number}");
        }
        Op::Constant(lit) => out.push_str(&literal_value_text(lit)),
        _ => {
            for (i, &o) in ins.operands.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                    if i % 5 == 0 {
                        let _ = write!(out, "/*index={i}*/");
                    }
                }
                match comp.get(o) {
                    Some(operand) => {
                        let _ = write!(out, "{} %{}", shape_string(&operand.shape), operand.name);
                    }
                    None => {
                        let _ = write!(out, "%<missing instruction {}>", o.0);
                    }
                }
            }
        }
    }
    out.push(')');
    for (k, v) in attributes(module, comp, ins) {
        let _ = write!(out, ", {k}={v}");
    }
    if let Some(p) = ins.plan {
        let _ = write!(out, ", plan={}", p.name());
    }
}

/// The instruction's attributes, in XLA's order: op-specific ones, then called
/// computations, then the ones XLA prints last (frontend_attributes, backend_config).
fn attributes(
    module: &HloModule,
    comp: &HloComputation,
    ins: &HloInstruction,
) -> Vec<(&'static str, String)> {
    let mut a: Vec<(&'static str, String)> = Vec::new();
    let called = &ins.called;
    let mut calls_done = false;
    let mut tail: Vec<(&'static str, String)> = Vec::new();
    let groups = |a: &mut Vec<(&'static str, String)>, channel: Option<i64>, g: &[Vec<i64>]| {
        if let Some(ch) = channel {
            a.push(("channel_id", ch.to_string()));
        }
        a.push(("replica_groups", fmt_groups(g)));
    };
    match &ins.op {
        Op::Parameter { .. }
        | Op::Constant(_)
        | Op::ReplicaId
        | Op::PartitionId
        | Op::Unary(_)
        | Op::Binary(_)
        | Op::Select
        | Op::Clamp
        | Op::Convert
        | Op::BitcastConvert
        | Op::Reshape
        | Op::DynamicUpdateSlice
        | Op::Copy
        | Op::Tuple
        | Op::AfterAll
        | Op::OptimizationBarrier
        | Op::Call => {}
        Op::Iota { dimension } => a.push(("iota_dimension", dimension.to_string())),
        Op::Compare {
            direction,
            comparison_type,
        } => {
            a.push(("direction", direction.name().to_string()));
            if let Some(t) = comparison_type {
                a.push(("type", t.name().to_string()));
            }
        }
        Op::ReducePrecision {
            exponent_bits,
            mantissa_bits,
        } => {
            a.push(("exponent_bits", exponent_bits.to_string()));
            a.push(("mantissa_bits", mantissa_bits.to_string()));
        }
        Op::Map { dimensions }
        | Op::Broadcast { dimensions }
        | Op::Reverse { dimensions }
        | Op::Reduce { dimensions } => a.push(("dimensions", fmt_dims(dimensions))),
        Op::Transpose { permutation } => a.push(("dimensions", fmt_dims(permutation))),
        Op::Slice {
            start,
            limit,
            strides,
        } => a.push(("slice", fmt_slice(start, limit, strides))),
        Op::DynamicSlice { slice_sizes } => a.push(("dynamic_slice_sizes", fmt_dims(slice_sizes))),
        Op::Concatenate { dimension }
        | Op::GetDimensionSize { dimension }
        | Op::SetDimensionSize { dimension } => a.push(("dimensions", fmt_dims(&[*dimension]))),
        Op::Pad(p) => a.push(("padding", fmt_padding(p))),
        Op::Gather {
            dnums,
            slice_sizes,
            indices_are_sorted,
        } => {
            a.push(("offset_dims", fmt_dims(&dnums.offset_dims)));
            a.push((
                "collapsed_slice_dims",
                fmt_dims(&dnums.collapsed_slice_dims),
            ));
            a.push(("start_index_map", fmt_dims(&dnums.start_index_map)));
            if !dnums.operand_batching_dims.is_empty() {
                a.push((
                    "operand_batching_dims",
                    fmt_dims(&dnums.operand_batching_dims),
                ));
            }
            if !dnums.start_indices_batching_dims.is_empty() {
                a.push((
                    "start_indices_batching_dims",
                    fmt_dims(&dnums.start_indices_batching_dims),
                ));
            }
            a.push(("index_vector_dim", dnums.index_vector_dim.to_string()));
            a.push(("slice_sizes", fmt_dims(slice_sizes)));
            if *indices_are_sorted {
                a.push(("indices_are_sorted", "true".into()));
            }
        }
        Op::Scatter {
            dnums,
            indices_are_sorted,
            unique_indices,
        } => {
            a.push(("update_window_dims", fmt_dims(&dnums.update_window_dims)));
            a.push((
                "inserted_window_dims",
                fmt_dims(&dnums.inserted_window_dims),
            ));
            a.push((
                "scatter_dims_to_operand_dims",
                fmt_dims(&dnums.scatter_dims_to_operand_dims),
            ));
            if !dnums.input_batching_dims.is_empty() {
                a.push(("input_batching_dims", fmt_dims(&dnums.input_batching_dims)));
            }
            if !dnums.scatter_indices_batching_dims.is_empty() {
                a.push((
                    "scatter_indices_batching_dims",
                    fmt_dims(&dnums.scatter_indices_batching_dims),
                ));
            }
            a.push(("index_vector_dim", dnums.index_vector_dim.to_string()));
            if *indices_are_sorted {
                a.push(("indices_are_sorted", "true".into()));
            }
            if *unique_indices {
                a.push(("unique_indices", "true".into()));
            }
        }
        Op::GetTupleElement { index } => a.push(("index", index.to_string())),
        Op::ReduceWindow(w) => {
            if !w.dimensions.is_empty() {
                a.push(("window", fmt_window(w)));
            }
        }
        Op::SelectAndScatter(w) => {
            if !w.dimensions.is_empty() {
                a.push(("window", fmt_window(w)));
            }
            if let [s, t] = called[..] {
                a.push(("select", comp_name(module, s)));
                a.push(("scatter", comp_name(module, t)));
                calls_done = true;
            }
        }
        Op::Dot { dnums, precision } => {
            if !dnums.lhs_batch_dims.is_empty() {
                a.push(("lhs_batch_dims", fmt_dims(&dnums.lhs_batch_dims)));
            }
            a.push((
                "lhs_contracting_dims",
                fmt_dims(&dnums.lhs_contracting_dims),
            ));
            if !dnums.rhs_batch_dims.is_empty() {
                a.push(("rhs_batch_dims", fmt_dims(&dnums.rhs_batch_dims)));
            }
            a.push((
                "rhs_contracting_dims",
                fmt_dims(&dnums.rhs_contracting_dims),
            ));
            if !precision.operand_precision.is_empty() {
                a.push(("operand_precision", fmt_precision(precision)));
            }
        }
        Op::Convolution {
            window,
            dnums,
            feature_group_count,
            batch_group_count,
            precision,
        } => {
            if !window.dimensions.is_empty() {
                a.push(("window", fmt_window(window)));
            }
            a.push(("dim_labels", fmt_dim_labels(dnums)));
            if *feature_group_count != 1 {
                a.push(("feature_group_count", feature_group_count.to_string()));
            }
            if *batch_group_count != 1 {
                a.push(("batch_group_count", batch_group_count.to_string()));
            }
            if !precision.operand_precision.is_empty() {
                a.push(("operand_precision", fmt_precision(precision)));
            }
        }
        Op::Fft {
            fft_type,
            fft_length,
        } => {
            a.push(("fft_type", fft_type.name().to_string()));
            a.push(("fft_length", fmt_dims(fft_length)));
        }
        Op::TriangularSolve {
            left_side,
            lower,
            unit_diagonal,
            transpose_a,
        } => {
            if *left_side {
                a.push(("left_side", "true".into()));
            }
            if *lower {
                a.push(("lower", "true".into()));
            }
            if *unit_diagonal {
                a.push(("unit_diagonal", "true".into()));
            }
            a.push(("transpose_a", transpose_a.name().to_string()));
        }
        Op::Cholesky { lower } => {
            if *lower {
                a.push(("lower", "true".into()));
            }
        }
        Op::BatchNormTraining {
            epsilon,
            feature_index,
        }
        | Op::BatchNormInference {
            epsilon,
            feature_index,
        }
        | Op::BatchNormGrad {
            epsilon,
            feature_index,
        } => {
            a.push(("epsilon", fmt_f32(*epsilon)));
            a.push(("feature_index", feature_index.to_string()));
        }
        Op::TopK { k, largest } => {
            a.push(("k", k.to_string()));
            a.push(("largest", largest.to_string()));
        }
        Op::Sort {
            dimension,
            is_stable,
        } => {
            a.push(("dimensions", fmt_dims(&[*dimension])));
            if *is_stable {
                a.push(("is_stable", "true".into()));
            }
        }
        Op::Fusion { kind } => {
            a.push(("kind", kind.name().to_string()));
            if let [f] = called[..] {
                a.push(("calls", comp_name(module, f)));
                calls_done = true;
            }
        }
        Op::While => {
            if let [c, b] = called[..] {
                a.push(("condition", comp_name(module, c)));
                a.push(("body", comp_name(module, b)));
                calls_done = true;
            }
        }
        Op::Conditional => {
            let pred = ins
                .operands
                .first()
                .and_then(|&o| comp.get(o))
                .map(|o| o.shape.element_type() == PrimitiveType::Pred)
                .unwrap_or(false);
            match called[..] {
                [t, f] if pred => {
                    a.push(("true_computation", comp_name(module, t)));
                    a.push(("false_computation", comp_name(module, f)));
                }
                _ => a.push(("branch_computations", comp_list(module, called))),
            }
            calls_done = true;
        }
        Op::CompositeCall {
            name,
            attributes,
            version,
        } => {
            if let [c] = called[..] {
                a.push(("to_apply", comp_name(module, c)));
                calls_done = true;
            }
            tail.push(("is_composite", "true".into()));
            tail.push((
                "frontend_attributes",
                format!(
                    "{{composite.attributes={},composite.name={},composite.version={}}}",
                    fmt_free_form(attributes),
                    quote(name),
                    quote(&version.to_string())
                ),
            ));
        }
        Op::CustomCall {
            target,
            backend_config,
            has_side_effect,
            api_version,
        } => {
            a.push(("custom_call_target", quote(target)));
            if *has_side_effect {
                a.push(("custom_call_has_side_effect", "true".into()));
            }
            if *api_version != 1 {
                a.push(("api_version", fmt_api_version(*api_version)));
            }
            if !called.is_empty() {
                a.push(("called_computations", comp_list(module, called)));
            }
            calls_done = true;
            if !backend_config.is_empty() {
                tail.push(("backend_config", fmt_free_form(backend_config)));
            }
        }
        Op::Rng { distribution } => {
            a.push(("distribution", rng_distribution_name(*distribution).into()))
        }
        Op::RngBitGenerator { algorithm } => a.push(("algorithm", algorithm.name().into())),
        Op::UniformQuantize { params, from } => {
            a.push(("quant", fmt_quant(params)));
            if let Some(f) = from {
                a.push(("from", fmt_quant(f)));
            }
        }
        Op::UniformDequantize { params } => a.push(("quant", fmt_quant(params))),
        Op::Infeed { config } => {
            if !config.is_empty() {
                a.push(("infeed_config", quote(config)));
            }
        }
        Op::Outfeed { config } => {
            // XLA writes the outfed value's shape; reading ignores it (it is operand 0's).
            if let Some(v) = ins.operands.first().and_then(|&o| comp.get(o)) {
                a.push(("outfeed_shape", shape_string(&v.shape)));
            }
            if !config.is_empty() {
                a.push(("outfeed_config", quote(config)));
            }
        }
        Op::Send {
            channel_id,
            is_host_transfer,
            source_target_pairs,
        }
        | Op::Recv {
            channel_id,
            is_host_transfer,
            source_target_pairs,
        } => {
            a.push(("channel_id", channel_id.to_string()));
            if *is_host_transfer {
                a.push(("is_host_transfer", "true".into()));
            }
            if !source_target_pairs.is_empty() {
                tail.push((
                    "frontend_attributes",
                    format!(
                        "{{{}={}}}",
                        super::op_attrs::SEND_RECV_PAIRS,
                        quote(&fmt_pairs(source_target_pairs))
                    ),
                ));
            }
        }
        Op::SendDone {
            channel_id,
            is_host_transfer,
        }
        | Op::RecvDone {
            channel_id,
            is_host_transfer,
        } => {
            a.push(("channel_id", channel_id.to_string()));
            if *is_host_transfer {
                a.push(("is_host_transfer", "true".into()));
            }
        }
        Op::AllGather {
            dimension,
            replica_groups,
            channel_id,
            use_global_device_ids,
        }
        | Op::ReduceScatter {
            dimension,
            replica_groups,
            channel_id,
            use_global_device_ids,
        } => {
            groups(&mut a, *channel_id, replica_groups);
            a.push(("dimensions", fmt_dims(&[*dimension])));
            if *use_global_device_ids {
                a.push(("use_global_device_ids", "true".into()));
            }
        }
        Op::AllReduce {
            replica_groups,
            channel_id,
            use_global_device_ids,
        } => {
            groups(&mut a, *channel_id, replica_groups);
            if *use_global_device_ids {
                a.push(("use_global_device_ids", "true".into()));
            }
        }
        Op::AllToAll {
            split_dimension,
            concat_dimension,
            split_count,
            replica_groups,
            channel_id,
        } => {
            groups(&mut a, *channel_id, replica_groups);
            let implied =
                all_to_all_implied_split_count(replica_groups, module.config.num_replicas);
            if split_dimension == concat_dimension && *split_count == implied {
                a.push(("dimensions", fmt_dims(&[*split_dimension])));
            } else {
                a.push(("split_dimension", split_dimension.to_string()));
                a.push(("concat_dimension", concat_dimension.to_string()));
                a.push(("split_count", split_count.to_string()));
            }
        }
        Op::CollectivePermute {
            source_target_pairs,
            channel_id,
        } => {
            if let Some(ch) = channel_id {
                a.push(("channel_id", ch.to_string()));
            }
            a.push(("source_target_pairs", fmt_pairs(source_target_pairs)));
        }
        Op::CollectiveBroadcast {
            replica_groups,
            channel_id,
        }
        | Op::CollectiveReduce {
            replica_groups,
            channel_id,
        } => groups(&mut a, *channel_id, replica_groups),
    }
    if !calls_done {
        match called[..] {
            [] => {}
            [c] => a.push(("to_apply", comp_name(module, c))),
            _ => a.push(("calls", comp_list(module, called))),
        }
    }
    a.extend(tail);
    a
}

/// The split count XLA's `all-to-all(...), dimensions={d}` form implies: the group size,
/// or the replica count when there are no groups.
pub(crate) fn all_to_all_implied_split_count(groups: &[Vec<i64>], num_replicas: i64) -> i64 {
    match groups.first() {
        Some(g) => g.len() as i64,
        None => num_replicas,
    }
}
