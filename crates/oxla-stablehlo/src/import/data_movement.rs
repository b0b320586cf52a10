//! Shape and data-movement ops: broadcast, reshape, transpose, reverse, slice, dynamic
//! slice/update, concatenate, pad, get-dimension-size, and the dynamic-shape forms whose shape
//! operands are constants.

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{PaddingConfig, PaddingDimension, Result};

use super::attrs::*;
use super::{one, Importer, OpCx};

impl Importer<'_> {
    /// Shape and data-movement ops; `None` when `cx.op` is not one of them.
    pub(super) fn data_movement(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.broadcast_in_dim" => {
                let s = result_shape(op, 0)?;
                one(b.broadcast_in_dim(args[0], s.dims(), &attr_ints(op, "broadcast_dimensions")?))
            }
            "stablehlo.reshape" => one(b.reshape(args[0], result_shape(op, 0)?.dims())),
            "stablehlo.transpose" => one(b.transpose(args[0], &attr_ints(op, "permutation")?)),
            "stablehlo.reverse" => one(b.rev(args[0], &attr_ints(op, "dimensions")?)),
            "stablehlo.slice" => one(b.slice(
                args[0],
                &attr_ints(op, "start_indices")?,
                &attr_ints(op, "limit_indices")?,
                &attr_ints(op, "strides")?,
            )),
            "stablehlo.dynamic_slice" => {
                one(b.dynamic_slice(args[0], &args[1..], &attr_ints(op, "slice_sizes")?))
            }
            "stablehlo.dynamic_update_slice" => {
                one(b.dynamic_update_slice(args[0], args[1], &args[2..]))
            }
            "stablehlo.concatenate" => one(b.concat_in_dim(args, attr_int(op, "dimension")?)),
            "stablehlo.pad" => {
                let lo = attr_ints(op, "edge_padding_low")?;
                let hi = attr_ints(op, "edge_padding_high")?;
                let int = attr_ints(op, "interior_padding")?;
                one(b.pad(args[0], args[1], &padding_config(&lo, &hi, &int)))
            }
            "stablehlo.get_dimension_size" => {
                one(b.get_dimension_size(args[0], attr_int(op, "dimension")?))
            }
            "stablehlo.dynamic_reshape" => one(b.reshape(args[0], result_shape(op, 0)?.dims())),
            "stablehlo.dynamic_broadcast_in_dim" => {
                let s = result_shape(op, 0)?;
                one(b.broadcast_in_dim(args[0], s.dims(), &attr_ints(op, "broadcast_dimensions")?))
            }
            "stablehlo.dynamic_pad" => {
                let ints = |i: usize| -> Result<Vec<i64>> { self.const_ints(op, i) };
                let (lo, hi, int) = (ints(2)?, ints(3)?, ints(4)?);
                one(b.pad(args[0], args[1], &padding_config(&lo, &hi, &int)))
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }
}

/// Padding with `lo` (edge low), `hi` (edge high) and `int` (interior) per dimension, one
/// dimension per `lo` entry; missing `hi` / `int` entries are 0.
fn padding_config(lo: &[i64], hi: &[i64], int: &[i64]) -> PaddingConfig {
    PaddingConfig {
        dimensions: (0..lo.len())
            .map(|i| PaddingDimension {
                edge_padding_low: lo[i],
                edge_padding_high: hi.get(i).copied().unwrap_or(0),
                interior_padding: int.get(i).copied().unwrap_or(0),
            })
            .collect(),
    }
}
