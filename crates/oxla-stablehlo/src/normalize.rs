//! Renames pretty-form attributes to the names the generic form uses.

use oxla_hlo::{Error, Result};

use crate::ast::{Attr, Operation};

fn rename(op: &mut Operation, from: &str, to: &str) {
    for (k, _) in op.attrs.iter_mut() {
        if k == from {
            *k = to.to_string();
        }
    }
}

fn take(op: &mut Operation, name: &str) -> Option<Attr> {
    let i = op.attrs.iter().position(|(k, _)| k == name)?;
    Some(op.attrs.remove(i).1)
}

fn bad(msg: impl Into<String>) -> Error {
    Error::Parse {
        line: 0,
        column: 0,
        message: msg.into(),
    }
}

pub fn normalize(op: &mut Operation) -> Result<()> {
    // Ops of the default (func) dialect may be written without the prefix.
    if op.name == "call" {
        op.name = "func.call".into();
    }
    let short = op.name.trim_start_matches("stablehlo.").to_string();
    let positional = match take(op, "__positional") {
        Some(Attr::Array(v)) => v,
        _ => vec![],
    };
    match short.as_str() {
        "compare" => {
            let mut it = positional.into_iter();
            if let Some(d) = it.next() {
                op.attrs.push(("comparison_direction".into(), d));
            }
            if let Some(t) = it.next() {
                op.attrs.push(("compare_type".into(), t));
            }
        }
        "iota" | "dynamic_iota" => rename(op, "dim", "iota_dimension"),
        "broadcast_in_dim" | "dynamic_broadcast_in_dim" => {
            rename(op, "dims", "broadcast_dimensions")
        }
        "transpose" => rename(op, "dims", "permutation"),
        "reverse" => rename(op, "dims", "dimensions"),
        "concatenate" => rename(op, "dim", "dimension"),
        "get_dimension_size" => rename(op, "dim", "dimension"),
        "dynamic_slice" => rename(op, "sizes", "slice_sizes"),
        "fft" => {
            rename(op, "type", "fft_type");
            rename(op, "length", "fft_length");
        }
        "pad" => {
            rename(op, "low", "edge_padding_low");
            rename(op, "high", "edge_padding_high");
            rename(op, "interior", "interior_padding");
        }
        "reduce_precision" => {
            if let Some(Attr::Enum(f)) = take(op, "format") {
                // e5m10
                let (e, m) = f
                    .trim_start_matches('e')
                    .split_once('m')
                    .ok_or_else(|| bad(format!("bad reduce_precision format {f}")))?;
                let e: i128 = e.parse().map_err(|_| bad("bad exponent bits"))?;
                let m: i128 = m.parse().map_err(|_| bad("bad mantissa bits"))?;
                op.attrs.push(("exponent_bits".into(), Attr::Int(e)));
                op.attrs.push(("mantissa_bits".into(), Attr::Int(m)));
            }
        }
        "dot_general" => {
            let mut fields = Vec::new();
            for (key, lhs, rhs) in [
                (
                    "batching_dims",
                    "lhs_batching_dimensions",
                    "rhs_batching_dimensions",
                ),
                (
                    "contracting_dims",
                    "lhs_contracting_dimensions",
                    "rhs_contracting_dimensions",
                ),
            ] {
                if let Some(Attr::Array(v)) = take(op, key) {
                    if v.len() == 2 {
                        fields.push((lhs.to_string(), v[0].clone()));
                        fields.push((rhs.to_string(), v[1].clone()));
                    }
                }
            }
            if !fields.is_empty() {
                op.attrs.push((
                    "dot_dimension_numbers".into(),
                    Attr::Struct("stablehlo.dot".into(), fields),
                ));
            }
            rename(op, "precision", "precision_config");
        }
        "convolution" => {
            rename(op, "dim_numbers", "dimension_numbers");
            if let Some(Attr::Dict(w)) = take(op, "window") {
                for (k, v) in w {
                    let name = match k.as_str() {
                        "stride" => "window_strides",
                        "pad" => "padding",
                        "lhs_dilate" => "lhs_dilation",
                        "rhs_dilate" => "rhs_dilation",
                        "reverse" => "window_reversal",
                        _ => continue,
                    };
                    op.attrs.push((name.into(), v));
                }
            }
        }
        "custom_call" => rename(op, "callee", "call_target_name"),
        "reduce" => {
            let mut inits = Vec::new();
            while let Some(Attr::Array(v)) = take(op, "__inits") {
                inits.extend(v);
            }
            for i in inits {
                if let Attr::Str(s) = i {
                    op.operands.push(s);
                }
            }
        }
        _ => {
            if !positional.is_empty() && !op.name.starts_with("check.") {
                op.attrs
                    .push(("__positional".into(), Attr::Array(positional)));
            }
        }
    }
    Ok(())
}
