//! From VHLO ops to the StableHLO ops the text parser gives (`VhloLegalizeToStablehlo`):
//! every versioned op (`add_v1`, `gather_v2`, ...) becomes its StableHLO op, older versions
//! included (their missing attributes take the later versions' defaults), and VHLO's flat
//! attributes are regrouped into the forms the text path produces (dimension-number structs,
//! channel handles, symbol references). An op from a newer VHLO than this table is refused
//! by name.

use oxla_hlo::{Error, Result};

use crate::ast::{Attr, DenseValue, ElemType, Type};

/// Every VHLO op this reader knows, with its attribute names in alphabetical order: the order
/// of an op's native properties in bytecode version >= 5.
const OPS: &[(&str, &[&str])] = &[
    ("abs_v1", &[]),
    ("add_v1", &[]),
    ("after_all_v1", &[]),
    (
        "all_gather_v1",
        &[
            "all_gather_dim",
            "channel_id",
            "replica_groups",
            "use_global_device_ids",
        ],
    ),
    (
        "all_gather_v2",
        &[
            "all_gather_dim",
            "channel_id",
            "replica_groups",
            "use_global_device_ids",
        ],
    ),
    (
        "all_reduce_v1",
        &["channel_id", "replica_groups", "use_global_device_ids"],
    ),
    (
        "all_reduce_v2",
        &["channel_id", "replica_groups", "use_global_device_ids"],
    ),
    (
        "all_to_all_v1",
        &[
            "channel_id",
            "concat_dimension",
            "replica_groups",
            "split_count",
            "split_dimension",
        ],
    ),
    (
        "all_to_all_v2",
        &[
            "channel_id",
            "concat_dimension",
            "replica_groups",
            "split_count",
            "split_dimension",
        ],
    ),
    ("and_v1", &[]),
    ("async_done_v1", &[]),
    ("async_start_v1", &[]),
    ("atan2_v1", &[]),
    ("batch_norm_grad_v1", &["epsilon", "feature_index"]),
    ("batch_norm_inference_v1", &["epsilon", "feature_index"]),
    ("batch_norm_training_v1", &["epsilon", "feature_index"]),
    ("bitcast_convert_v1", &[]),
    ("broadcast_in_dim_v1", &["broadcast_dimensions"]),
    ("broadcast_v1", &["broadcast_sizes"]),
    ("call_v1", &["callee"]),
    ("case_v1", &[]),
    ("cbrt_v1", &[]),
    ("cbrt_v2", &["result_accuracy"]),
    ("ceil_v1", &[]),
    ("cholesky_v1", &["lower"]),
    ("clamp_v1", &[]),
    ("collective_broadcast_v1", &["channel_id", "replica_groups"]),
    (
        "collective_broadcast_v2",
        &["channel_id", "has_dynamic_root", "replica_groups"],
    ),
    (
        "collective_permute_v1",
        &["channel_id", "source_target_pairs"],
    ),
    (
        "collective_reduce_v1",
        &[
            "channel_id",
            "has_dynamic_root",
            "replica_groups",
            "use_global_device_ids",
        ],
    ),
    ("compare_v1", &["compare_type", "comparison_direction"]),
    ("complex_v1", &[]),
    (
        "composite_v1",
        &["composite_attributes", "decomposition", "name", "version"],
    ),
    (
        "composite_v2",
        &["composite_attributes", "decomposition", "name", "version"],
    ),
    ("concatenate_v1", &["dimension"]),
    ("constant_v1", &["value"]),
    ("convert_v1", &[]),
    ("convolution_v1", CONV_ATTRS),
    ("cosine_v1", &[]),
    ("cosine_v2", &["result_accuracy"]),
    ("count_leading_zeros_v1", &[]),
    ("create_token_v1", &[]),
    ("cross-replica-sum_v1", &["replica_groups"]),
    (
        "custom_call_v1",
        &[
            "api_version",
            "backend_config",
            "call_target_name",
            "called_computations",
            "has_side_effect",
            "operand_layouts",
            "output_operand_aliases",
            "result_layouts",
        ],
    ),
    (
        "custom_call_v2",
        &[
            "api_version",
            "backend_config",
            "call_target_name",
            "called_computations",
            "has_side_effect",
            "operand_layouts",
            "output_operand_aliases",
            "result_layouts",
            "result_tilings",
        ],
    ),
    ("divide_v1", &[]),
    (
        "dot_general_v1",
        &[
            "lhs_batching_dimensions",
            "lhs_contracting_dimensions",
            "precision_config",
            "rhs_batching_dimensions",
            "rhs_contracting_dimensions",
        ],
    ),
    (
        "dot_general_v2",
        &[
            "accumulation_type",
            "allow_imprecise_accumulation",
            "lhs_batching_dimensions",
            "lhs_component_count",
            "lhs_contracting_dimensions",
            "lhs_precision_type",
            "num_primitive_operations",
            "precision_config",
            "rhs_batching_dimensions",
            "rhs_component_count",
            "rhs_contracting_dimensions",
            "rhs_precision_type",
        ],
    ),
    ("dot_v1", &["precision_config"]),
    (
        "dynamic_broadcast_in_dim_v1",
        &[
            "broadcast_dimensions",
            "known_expanding_dimensions",
            "known_nonexpanding_dimensions",
        ],
    ),
    ("dynamic_conv_v1", CONV_ATTRS),
    (
        "dynamic_conv_v2",
        &[
            "batch_group_count",
            "feature_group_count",
            "input_batch_dimension",
            "input_feature_dimension",
            "input_spatial_dimensions",
            "kernel_input_feature_dimension",
            "kernel_output_feature_dimension",
            "kernel_spatial_dimensions",
            "lhs_dilation",
            "output_batch_dimension",
            "output_feature_dimension",
            "output_spatial_dimensions",
            "precision_config",
            "rhs_dilation",
            "window_reversal",
            "window_strides",
        ],
    ),
    (
        "dynamic_gather_v1",
        &[
            "collapsed_slice_dims",
            "index_vector_dim",
            "indices_are_sorted",
            "offset_dims",
            "start_index_map",
        ],
    ),
    (
        "dynamic_gather_v2",
        &[
            "collapsed_slice_dims",
            "index_vector_dim",
            "indices_are_sorted",
            "offset_dims",
            "operand_batching_dims",
            "start_index_map",
            "start_indices_batching_dims",
        ],
    ),
    ("dynamic_iota_v1", &["iota_dimension"]),
    ("dynamic_pad_v1", &[]),
    ("dynamic_reshape_v1", &[]),
    ("dynamic_slice_v1", &["slice_sizes"]),
    ("dynamic_update_slice_v1", &[]),
    ("einsum_v1", &["einsum_config"]),
    ("exponential_minus_one_v1", &[]),
    ("exponential_minus_one_v2", &["result_accuracy"]),
    ("exponential_v1", &[]),
    ("exponential_v2", &["result_accuracy"]),
    ("fft_v1", &["fft_length", "fft_type"]),
    ("floor_v1", &[]),
    (
        "func_v1",
        &[
            "arg_attrs",
            "function_type",
            "res_attrs",
            "sym_name",
            "sym_visibility",
        ],
    ),
    (
        "gather_v1",
        &[
            "collapsed_slice_dims",
            "index_vector_dim",
            "indices_are_sorted",
            "offset_dims",
            "slice_sizes",
            "start_index_map",
        ],
    ),
    (
        "gather_v2",
        &[
            "collapsed_slice_dims",
            "index_vector_dim",
            "indices_are_sorted",
            "offset_dims",
            "operand_batching_dims",
            "slice_sizes",
            "start_index_map",
            "start_indices_batching_dims",
        ],
    ),
    ("get_dimension_size_v1", &["dimension"]),
    ("get_tuple_element_v1", &["index"]),
    ("if_v1", &[]),
    ("imag_v1", &[]),
    ("infeed_v1", &["infeed_config", "layout"]),
    ("iota_v1", &["iota_dimension"]),
    ("is_finite_v1", &[]),
    ("log_plus_one_v1", &[]),
    ("log_plus_one_v2", &["result_accuracy"]),
    ("log_v1", &[]),
    ("log_v2", &["result_accuracy"]),
    ("logistic_v1", &[]),
    ("logistic_v2", &["result_accuracy"]),
    ("map_v1", &["dimensions"]),
    ("maximum_v1", &[]),
    ("minimum_v1", &[]),
    ("multiply_v1", &[]),
    ("negate_v1", &[]),
    ("not_v1", &[]),
    ("optimization_barrier_v1", &[]),
    ("or_v1", &[]),
    ("outfeed_v1", &["outfeed_config"]),
    (
        "pad_v1",
        &["edge_padding_high", "edge_padding_low", "interior_padding"],
    ),
    ("partition_id_v1", &[]),
    ("popcnt_v1", &[]),
    ("power_v1", &[]),
    ("real_dynamic_slice_v1", &[]),
    ("real_v1", &[]),
    (
        "recv_v1",
        &["channel_id", "channel_type", "is_host_transfer"],
    ),
    (
        "recv_v2",
        &[
            "channel_id",
            "channel_type",
            "is_host_transfer",
            "source_target_pairs",
        ],
    ),
    ("reduce_precision_v1", &["exponent_bits", "mantissa_bits"]),
    (
        "reduce_scatter_v1",
        &[
            "channel_id",
            "replica_groups",
            "scatter_dimension",
            "use_global_device_ids",
        ],
    ),
    ("reduce_v1", &["dimensions"]),
    (
        "reduce_window_v1",
        &[
            "base_dilations",
            "padding",
            "window_dilations",
            "window_dimensions",
            "window_strides",
        ],
    ),
    ("remainder_v1", &[]),
    ("replica_id_v1", &[]),
    ("reshape_v1", &[]),
    ("return_v1", &[]),
    ("reverse_v1", &["dimensions"]),
    ("rng_bit_generator_v1", &["rng_algorithm"]),
    ("rng_v1", &["rng_distribution"]),
    ("round_nearest_afz_v1", &[]),
    ("round_nearest_even_v1", &[]),
    ("rsqrt_v1", &[]),
    ("rsqrt_v2", &["result_accuracy"]),
    (
        "scatter_v1",
        &[
            "index_vector_dim",
            "indices_are_sorted",
            "inserted_window_dims",
            "scatter_dims_to_operand_dims",
            "unique_indices",
            "update_window_dims",
        ],
    ),
    (
        "scatter_v2",
        &[
            "index_vector_dim",
            "indices_are_sorted",
            "input_batching_dims",
            "inserted_window_dims",
            "scatter_dims_to_operand_dims",
            "scatter_indices_batching_dims",
            "unique_indices",
            "update_window_dims",
        ],
    ),
    (
        "select_and_scatter_v1",
        &["padding", "window_dimensions", "window_strides"],
    ),
    ("select_v1", &[]),
    (
        "send_v1",
        &["channel_id", "channel_type", "is_host_transfer"],
    ),
    (
        "send_v2",
        &[
            "channel_id",
            "channel_type",
            "is_host_transfer",
            "source_target_pairs",
        ],
    ),
    ("set_dimension_size_v1", &["dimension"]),
    ("shift_left_v1", &[]),
    ("shift_right_arithmetic_v1", &[]),
    ("shift_right_logical_v1", &[]),
    ("sign_v1", &[]),
    ("sine_v1", &[]),
    ("sine_v2", &["result_accuracy"]),
    ("slice_v1", &["limit_indices", "start_indices", "strides"]),
    ("sort_v1", &["dimension", "is_stable"]),
    ("sqrt_v1", &[]),
    ("sqrt_v2", &["result_accuracy"]),
    ("subtract_v1", &[]),
    ("tan_v1", &[]),
    ("tan_v2", &["result_accuracy"]),
    ("tanh_v1", &[]),
    ("tanh_v2", &["result_accuracy"]),
    ("torch_index_select_v1", &["batch_dims", "dim"]),
    ("transpose_v1", &["permutation"]),
    (
        "triangular_solve_v1",
        &["left_side", "lower", "transpose_a", "unit_diagonal"],
    ),
    ("tuple_v1", &[]),
    ("unary_einsum_v1", &["einsum_config"]),
    ("uniform_dequantize_v1", &[]),
    ("uniform_quantize_v1", &[]),
    ("while_v1", &[]),
    ("xor_v1", &[]),
];

const CONV_ATTRS: &[&str] = &[
    "batch_group_count",
    "feature_group_count",
    "input_batch_dimension",
    "input_feature_dimension",
    "input_spatial_dimensions",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "kernel_spatial_dimensions",
    "lhs_dilation",
    "output_batch_dimension",
    "output_feature_dimension",
    "output_spatial_dimensions",
    "padding",
    "precision_config",
    "rhs_dilation",
    "window_reversal",
    "window_strides",
];

/// `gather_v2` → (`gather`, 2).
fn split_version(name: &str) -> Option<(&str, u32)> {
    let (base, v) = name.rsplit_once("_v")?;
    Some((base, v.parse().ok()?))
}

/// The attribute names, in property order, of a VHLO op (its name without `vhlo.`). An op
/// this table does not know is refused, naming the newest version it knows.
pub fn attr_names(op: &str, producer: &str) -> Result<&'static [&'static str]> {
    if let Some((_, names)) = OPS.iter().find(|(n, _)| *n == op) {
        return Ok(names);
    }
    let newest = split_version(op).and_then(|(base, _)| {
        OPS.iter()
            .filter_map(|(n, _)| split_version(n).filter(|(b, _)| *b == base))
            .map(|(_, v)| v)
            .max()
            .map(|v| format!("{base}_v{v}"))
    });
    Err(Error::unimplemented(match newest {
        Some(n) => format!(
            "vhlo.{op}: an op version newer than this reader knows (newest known: vhlo.{n}); \
             the artifact comes from {producer}"
        ),
        None => format!("vhlo.{op}: an op this reader does not know (artifact from {producer})"),
    }))
}

/// The StableHLO (or func) name of a VHLO op.
pub fn op_name(op: &str) -> String {
    let base = split_version(op).map_or(op, |(b, _)| b);
    match base {
        "func" => "func.func".into(),
        "call" => "func.call".into(),
        "return" => "stablehlo.return".into(),
        b => format!("stablehlo.{b}"),
    }
}

fn take(attrs: &mut Vec<(String, Attr)>, name: &str) -> Option<Attr> {
    let i = attrs.iter().position(|(k, _)| k == name)?;
    Some(attrs.remove(i).1)
}

/// Integer tensor attributes as values (the text parser's `dense<[...]>`), so `as_ints` and
/// the importer's pattern matches see them; constants keep their raw bytes.
fn ints_to_values(a: Attr) -> Attr {
    match a {
        Attr::Dense {
            values,
            hex_blob: Some(bytes),
            ty: Some(ty),
        } if values.is_empty() => {
            let p = match &ty {
                Type::Tensor {
                    elem: ElemType::Prim(p),
                    ..
                } if p.is_integer() || p.is_pred() => *p,
                _ => {
                    return Attr::Dense {
                        values,
                        hex_blob: Some(bytes),
                        ty: Some(ty),
                    }
                }
            };
            let w = p.byte_size().max(1);
            // A single element for a larger tensor is a splat: spell every element out, as
            // the text's `array<i64: 1, 1>` does (attributes are small; huge ones stay raw).
            let n = match &ty {
                Type::Tensor { dims, .. } => dims
                    .iter()
                    .try_fold(1u64, |a, &d| a.checked_mul(d.max(0) as u64))
                    .unwrap_or(u64::MAX),
                _ => 1,
            };
            let bytes = if bytes.len() == w && n > 1 && n <= 1 << 16 {
                bytes.repeat(n as usize)
            } else {
                bytes
            };
            let values = bytes
                .chunks(w)
                .map(|b| {
                    let v = super::vhlo::int_from_le(p, b);
                    if p.is_pred() {
                        DenseValue::Bool(v != 0)
                    } else {
                        DenseValue::Int(v)
                    }
                })
                .collect();
            Attr::Dense {
                values,
                hex_blob: None,
                ty: Some(ty),
            }
        }
        Attr::Array(v) => Attr::Array(v.into_iter().map(ints_to_values).collect()),
        other => other,
    }
}

/// Moves `fields` (those present) into one struct attribute named `name`.
fn group(attrs: &mut Vec<(String, Attr)>, into: &str, kind: &str, fields: &[&str]) {
    let mut f = Vec::new();
    for k in fields {
        if let Some(v) = take(attrs, k) {
            let v = match v.as_ints() {
                Some(ints) if !matches!(v, Attr::Int(_)) => {
                    Attr::Array(ints.into_iter().map(|i| Attr::Int(i as i128)).collect())
                }
                _ => v,
            };
            f.push((k.to_string(), v));
        }
    }
    attrs.push((into.to_string(), Attr::Struct(kind.to_string(), f)));
}

/// An attribute whose VHLO form means "absent" (empty string/array, false flag, none type).
fn is_default(a: &Attr) -> bool {
    match a {
        Attr::Str(s) => s.is_empty(),
        Attr::Array(v) => v.is_empty(),
        Attr::Bool(b) => !b,
        Attr::Type(Type::Unsupported(s)) => s.contains("none"),
        _ => false,
    }
}

/// Rewrites a VHLO op's attributes (`op` is its StableHLO name without prefix) into the forms
/// the text parser produces for the same StableHLO op.
pub fn convert_attrs(op: &str, attrs: Vec<(String, Attr)>) -> Vec<(String, Attr)> {
    let mut attrs: Vec<(String, Attr)> = attrs
        .into_iter()
        .map(|(k, v)| {
            let v = if op == "constant" && k == "value" {
                v
            } else {
                ints_to_values(v)
            };
            (k, v)
        })
        .collect();
    match op {
        "gather" | "dynamic_gather" => group(
            &mut attrs,
            "dimension_numbers",
            "stablehlo.gather",
            &[
                "offset_dims",
                "collapsed_slice_dims",
                "operand_batching_dims",
                "start_indices_batching_dims",
                "start_index_map",
                "index_vector_dim",
            ],
        ),
        "scatter" => group(
            &mut attrs,
            "scatter_dimension_numbers",
            "stablehlo.scatter",
            &[
                "update_window_dims",
                "inserted_window_dims",
                "input_batching_dims",
                "scatter_indices_batching_dims",
                "scatter_dims_to_operand_dims",
                "index_vector_dim",
            ],
        ),
        "dot_general" => {
            group(
                &mut attrs,
                "dot_dimension_numbers",
                "stablehlo.dot",
                &[
                    "lhs_batching_dimensions",
                    "rhs_batching_dimensions",
                    "lhs_contracting_dimensions",
                    "rhs_contracting_dimensions",
                ],
            );
            let algo = [
                "lhs_precision_type",
                "rhs_precision_type",
                "accumulation_type",
                "lhs_component_count",
                "rhs_component_count",
                "num_primitive_operations",
                "allow_imprecise_accumulation",
            ];
            let has_algo = attrs
                .iter()
                .any(|(k, v)| k == "lhs_precision_type" && !is_default(v));
            if has_algo {
                group(&mut attrs, "algorithm", "stablehlo.dot_algorithm", &algo);
            } else {
                for k in algo {
                    take(&mut attrs, k);
                }
            }
        }
        "convolution" | "dynamic_conv" => group(
            &mut attrs,
            "dimension_numbers",
            "stablehlo.conv",
            &[
                "input_batch_dimension",
                "input_feature_dimension",
                "input_spatial_dimensions",
                "kernel_input_feature_dimension",
                "kernel_output_feature_dimension",
                "kernel_spatial_dimensions",
                "output_batch_dimension",
                "output_feature_dimension",
                "output_spatial_dimensions",
            ],
        ),
        "call" => {
            if let Some(Attr::Str(s)) = take(&mut attrs, "callee") {
                attrs.push(("callee".into(), Attr::Symbol(s)));
            }
        }
        "composite" => {
            if let Some(Attr::Str(s)) = take(&mut attrs, "decomposition") {
                attrs.push(("decomposition".into(), Attr::Symbol(s)));
            }
        }
        "custom_call" => {
            if let Some(Attr::Enum(v)) = take(&mut attrs, "api_version") {
                let n = match v.as_str() {
                    "API_VERSION_ORIGINAL" => 1,
                    "API_VERSION_STATUS_RETURNING" => 2,
                    "API_VERSION_STATUS_RETURNING_UNIFIED" => 3,
                    "API_VERSION_TYPED_FFI" => 4,
                    _ => 0,
                };
                attrs.push(("api_version".into(), Attr::Int(n)));
            }
            if let Some(Attr::Array(v)) = take(&mut attrs, "called_computations") {
                let syms: Vec<Attr> = v
                    .into_iter()
                    .map(|a| match a {
                        Attr::Str(s) => Attr::Symbol(s),
                        a => a,
                    })
                    .collect();
                if !syms.is_empty() {
                    attrs.push(("called_computations".into(), Attr::Array(syms)));
                }
            }
            for k in [
                "operand_layouts",
                "result_layouts",
                "output_operand_aliases",
                "result_tilings",
            ] {
                if attrs.iter().any(|(n, v)| n == k && is_default(v)) {
                    take(&mut attrs, k);
                }
            }
        }
        _ => {}
    }
    // A channel id of 0 means none; others become the text form's channel handle.
    if let Some(id) = take(&mut attrs, "channel_id") {
        let handle = id.as_int().unwrap_or(0);
        let ty = take(&mut attrs, "channel_type")
            .and_then(|t| t.as_int())
            .unwrap_or(if op == "send" || op == "recv" { 0 } else { 1 });
        if handle != 0 || op == "send" || op == "recv" {
            attrs.push((
                "channel_handle".into(),
                Attr::Struct(
                    "stablehlo.channel_handle".into(),
                    vec![
                        ("handle".into(), Attr::Int(handle)),
                        ("type".into(), Attr::Int(ty)),
                    ],
                ),
            ));
        }
    }
    // All-DEFAULT precisions are how VHLO spells "no precision_config".
    if let Some(i) = attrs.iter().position(|(k, v)| {
        k == "precision_config"
            && matches!(v, Attr::Array(ps) if ps.iter().all(|p| p.as_str() == Some("DEFAULT")))
    }) {
        attrs.remove(i);
    }
    // Flags that are false and empty lists or strings are how VHLO spells "absent".
    attrs.retain(|(k, v)| {
        !(matches!(
            k.as_str(),
            "use_global_device_ids" | "precision_config" | "backend_config" | "has_dynamic_root"
        ) && is_default(v))
    });
    attrs
}
