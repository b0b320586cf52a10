//! Gather and scatter (and dynamic_gather with constant slice sizes).

use oxla_builder::{XlaBuilder, XlaOp};
use oxla_hlo::{Error, GatherDimensionNumbers, Result, ScatterDimensionNumbers};

use super::attrs::*;
use super::{one, Importer, OpCx};
use crate::ast::*;

impl Importer<'_> {
    /// Gather and scatter; `None` when `cx.op` is not one of them.
    pub(super) fn indexing(
        &mut self,
        b: &mut XlaBuilder,
        cx: &mut OpCx,
    ) -> Result<Option<Vec<XlaOp>>> {
        let op = cx.op;
        let args = &cx.args;
        let name = op.name.as_str();
        let results = match name {
            "stablehlo.gather" => {
                let dn = op
                    .attr("dimension_numbers")
                    .ok_or_else(|| Error::invalid("gather without dimension_numbers"))?;
                let g = GatherDimensionNumbers {
                    offset_dims: field_ints(dn, "offset_dims"),
                    collapsed_slice_dims: field_ints(dn, "collapsed_slice_dims"),
                    start_index_map: field_ints(dn, "start_index_map"),
                    index_vector_dim: field_ints(dn, "index_vector_dim")
                        .first()
                        .copied()
                        .unwrap_or(0),
                    operand_batching_dims: field_ints(dn, "operand_batching_dims"),
                    start_indices_batching_dims: field_ints(dn, "start_indices_batching_dims"),
                };
                one(b.gather(
                    args[0],
                    args[1],
                    &g,
                    &attr_ints(op, "slice_sizes")?,
                    attr_bool(op, "indices_are_sorted"),
                ))
            }
            "stablehlo.scatter" => {
                let n = (args.len() - 1) / 2;
                let dn = op
                    .attr("scatter_dimension_numbers")
                    .ok_or_else(|| Error::invalid("scatter without scatter_dimension_numbers"))?;
                let s = ScatterDimensionNumbers {
                    update_window_dims: field_ints(dn, "update_window_dims"),
                    inserted_window_dims: field_ints(dn, "inserted_window_dims"),
                    scatter_dims_to_operand_dims: field_ints(dn, "scatter_dims_to_operand_dims"),
                    index_vector_dim: field_ints(dn, "index_vector_dim")
                        .first()
                        .copied()
                        .unwrap_or(0),
                    input_batching_dims: field_ints(dn, "input_batching_dims"),
                    scatter_indices_batching_dims: field_ints(dn, "scatter_indices_batching_dims"),
                };
                let comp = self.region_comp(b, first_region(op)?, "scatter_fn", None)?;
                let r = b.scatter(
                    &args[..n],
                    args[n],
                    &args[n + 1..],
                    &comp,
                    &s,
                    attr_bool(op, "indices_are_sorted"),
                    attr_bool(op, "unique_indices"),
                );
                Ok(Self::results(b, r, n))
            }
            "stablehlo.dynamic_gather" => {
                let mut g = op.clone();
                g.attrs.push((
                    "slice_sizes".into(),
                    Attr::I64Array(self.const_ints(op, 2)?),
                ));
                g.operands.truncate(2);
                g.name = "stablehlo.gather".into();
                self.build_op(b, cx.scope, &g, cx.is_entry)
            }
            _ => return Ok(None),
        };
        results.map(Some)
    }
}
